//! The setup overlay: the models found on this machine, a server by its address and the
//! hosted providers, a hosted provider's key (masked) or the server's address and model, and
//! the lines to be written.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::state::{Setup, SetupFacts, SetupOption, SetupStep};
use crate::theme::{Theme, Token};
use crate::ui::{centered, pane_block};
use iris_studio_config::setup::LocalServer;

pub fn draw(frame: &mut Frame, area: Rect, setup: &Setup, facts: &SetupFacts, theme: &Theme) {
    let text = |s: String| Line::from(Span::styled(s, theme.style(Token::Text)));
    let dim = |s: String| Line::from(Span::styled(s, theme.style(Token::TextDim)));
    let title = |s: &str| Line::from(Span::styled(s.to_string(), theme.style(Token::Title)));
    let (lines, selected) = match &setup.step {
        SetupStep::Choose => choose(setup, facts, theme),
        SetupStep::Key { provider, typed } => {
            let head = format!("{provider} API key (model {})", provider.default_model());
            let mut notes = Vec::new();
            if let Some(var) = facts.env_key(*provider) {
                notes.push(text(format!(
                    "{var} is set: enter with nothing typed keeps the key there (none stored)."
                )));
            }
            notes.push(dim(
                "The key is stored in your user config file only (mode 0600), never in the repository."
                    .into(),
            ));
            let masked = "•".repeat(typed.chars().count());
            (field(&head, "key", masked, notes, theme), None)
        }
        SetupStep::Url { typed } => {
            let notes = vec![dim(
                "vLLM, LM Studio or llama.cpp on another port or machine, a team's gateway: its \
                 OpenAI-compatible address, as http://host:port/v1. OPENAI_API_KEY is sent when set."
                    .into(),
            )];
            let head = "An OpenAI-compatible server";
            (field(head, "address", typed.clone(), notes, theme), None)
        }
        SetupStep::Model { base_url, typed } => {
            let notes = vec![dim("The model's name as the server lists it.".into())];
            let head = format!("The model {base_url} serves");
            (field(&head, "model", typed.clone(), notes, theme), None)
        }
        SetupStep::Confirm(choice) | SetupStep::Writing(choice) => {
            let file = facts.file.as_deref().unwrap_or("(no home directory)");
            let mut lines = vec![title(&format!("Write to {file}:")), Line::default()];
            lines.extend(
                choice.lines().into_iter().map(|l| {
                    Line::from(Span::styled(format!("  {l}"), theme.style(Token::Accent)))
                }),
            );
            lines.push(Line::default());
            lines.push(match setup.step {
                SetupStep::Writing(_) => text("writing, and starting Iris with it…".into()),
                _ => text("y writes it · n or esc goes back (nothing written)".into()),
            });
            (lines, None)
        }
    };
    // As tall as its lines (one spare for a wrapped one), at most the screen.
    let height = u16::try_from(lines.len() + 3).unwrap_or(u16::MAX);
    let rect = centered(area, 78, height.min(area.height.saturating_sub(2)));
    frame.render_widget(Clear, rect);
    let block = pane_block(" Set up Iris ".to_string(), true, theme);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    // The highlighted option stays in view.
    let rows = usize::from(inner.height);
    let scroll = selected.map_or(0, |at| (at + 2).saturating_sub(rows));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0)),
        inner,
    );
}

/// A line being typed: its heading, the field with what is typed (`shown`) and its cursor,
/// the notes under it and the keys.
fn field<'a>(
    head: &str,
    label: &str,
    shown: String,
    notes: Vec<Line<'a>>,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let mut lines = vec![
        Line::from(Span::styled(head.to_string(), theme.style(Token::Title))),
        Line::default(),
        Line::from(vec![
            Span::styled(format!("{label}: "), theme.style(Token::Text)),
            Span::styled(shown, theme.style(Token::Accent)),
            Span::styled("▏", theme.style(Token::Accent)),
        ]),
        Line::default(),
    ];
    lines.extend(notes);
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        "enter continues · esc back",
        theme.style(Token::TextDim),
    )));
    lines
}

/// The list: the models each local server serves, then the hosted providers; and the row of
/// the highlighted option.
fn choose<'a>(setup: &Setup, facts: &SetupFacts, theme: &Theme) -> (Vec<Line<'a>>, Option<usize>) {
    let style = |token| theme.style(token);
    let mut lines = vec![
        Line::from(Span::styled(
            "Iris needs a model to write with. Nothing is written until you say yes.",
            style(Token::Text),
        )),
        Line::default(),
        Line::from(Span::styled("On this machine", style(Token::Title))),
    ];
    let options = setup.options();
    let mut selected = None;
    let mut row = |lines: &mut Vec<Line<'a>>, index: usize, label: String, note: String| {
        let chosen = index == setup.selected;
        if chosen {
            selected = Some(lines.len());
        }
        let marker = if chosen { "▸ " } else { "  " };
        let label_style = if chosen {
            style(Token::Selection)
        } else {
            style(Token::Text)
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{marker}{label}"), label_style),
            Span::styled(note, style(Token::TextDim)),
        ]));
    };
    match setup.servers.as_deref() {
        None => lines.push(Line::from(Span::styled(
            "  looking for Ollama (11434), LM Studio (1234) and llama.cpp (8080)…",
            style(Token::TextDim),
        ))),
        Some([]) => lines.push(Line::from(Span::styled(
            "  no model server answered (Ollama 11434, LM Studio 1234, llama.cpp 8080)",
            style(Token::TextDim),
        ))),
        Some(servers) => {
            for (server_index, server) in servers.iter().enumerate() {
                lines.push(Line::from(Span::styled(
                    server_heading(server),
                    style(Token::TextDim),
                )));
                for (index, option) in options.iter().enumerate() {
                    if let SetupOption::Local { server, model } = option
                        && *server == server_index
                    {
                        row(&mut lines, index, format!("  {model}"), String::new());
                    }
                }
            }
        }
    }
    if !setup.clis.is_empty() {
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            "Your subscription (a command-line agent, no key)",
            style(Token::Title),
        )));
        for (index, option) in options.iter().enumerate() {
            if let SetupOption::Cli(kind) = option {
                let note = kind
                    .cli()
                    .map(|agent| format!("  runs `{}`, {} pays", agent.program(), agent.plan()))
                    .unwrap_or_default();
                row(&mut lines, index, format!("{:<10}", kind.name()), note);
            }
        }
    }
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        "Hosted (an API key)",
        style(Token::Title),
    )));
    for (index, option) in options.iter().enumerate() {
        if let SetupOption::Hosted(kind) = option {
            let note = match facts.env_key(*kind) {
                Some(var) => format!("  {}, {var} is set", kind.default_model()),
                None => format!("  {}", kind.default_model()),
            };
            row(&mut lines, index, format!("{:<10}", kind.name()), note);
        }
    }
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        "Elsewhere (an OpenAI-compatible server)",
        style(Token::Title),
    )));
    for (index, option) in options.iter().enumerate() {
        if *option == SetupOption::Server {
            let note = "  vLLM, llama.cpp, a gateway: typed as its address".to_string();
            row(&mut lines, index, format!("{:<10}", "by address"), note);
        }
    }
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        "j/k choose · enter picks · esc not now (I opens this again)",
        style(Token::TextDim),
    )));
    (lines, selected)
}

fn server_heading(server: &LocalServer) -> String {
    match server.models.len() {
        0 => format!(
            "  {} at {} (no model loaded)",
            server.label, server.base_url
        ),
        _ => format!("  {} at {}", server.label, server.base_url),
    }
}
