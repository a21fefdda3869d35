//! The bottom line: what Iris is doing (spinner, activity, elapsed, tokens), what is still
//! loading (spinner), or the last notice, and the key for help.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::Looks;
use crate::command::Command;
use crate::keymap::KeyContext;
use crate::state::{Level, State};
use crate::theme::Token;
use iris_studio_core::protocol::progress::spinner_frame;
use iris_studio_core::text::clip;

pub fn draw(frame: &mut Frame, area: Rect, state: &State, looks: &Looks) {
    let theme = looks.theme;
    let width = usize::from(area.width);
    let help = looks
        .keymap
        .label(KeyContext::Global, Command::Help)
        .map(|key| format!(" {key} help "))
        .unwrap_or_default();
    let left = if let Some(task) = &state.iris.task {
        let mut text = format!(
            " {} {} · {:.1}s",
            spinner(state.now, task.started),
            task.progress.activity,
            state
                .now
                .saturating_duration_since(task.started)
                .as_secs_f64()
        );
        let progress = &task.progress;
        if progress.input_tokens + progress.output_tokens > 0 {
            match progress.requests {
                0 => {}
                1 => text.push_str(" · 1 request"),
                n => text.push_str(&format!(" · {n} requests")),
            }
            text.push_str(&format!(
                " · {}↑ {}↓ tokens",
                progress.input_tokens, progress.output_tokens
            ));
            let at_price = state.iris.price.map(|price| {
                price.cost(
                    progress.input_tokens,
                    progress.cached_tokens,
                    progress.output_tokens,
                )
            });
            text.push_str(&format!(" · {}", progress.cost_words(at_price)));
        }
        match task.progress.secrets_withheld {
            0 => {}
            1 => text.push_str(" · 1 secret withheld"),
            n => text.push_str(&format!(" · {n} secrets withheld")),
        }
        text.push_str(" · esc cancels");
        Span::styled(
            clip(&text, width.saturating_sub(help.len())),
            theme.style(Token::Spinner),
        )
    } else if let Some(what) = state.loading().filter(|_| !alarming(state)) {
        Span::styled(
            clip(
                &format!(" {} {what}…", spinner(state.now, state.start.opened)),
                width.saturating_sub(help.len()),
            ),
            theme.style(Token::Spinner),
        )
    } else if let Some(notice) = &state.notice {
        let token = match notice.level {
            Level::Info => Token::StatusBarText,
            Level::Success => Token::Success,
            Level::Warning => Token::Warning,
            Level::Error => Token::Error,
        };
        Span::styled(
            clip(
                &format!(" {}", notice.text),
                width.saturating_sub(help.len()),
            ),
            theme.style(token),
        )
    } else {
        Span::styled(" ready", theme.style(Token::StatusBarText))
    };
    let used = iris_studio_core::text::width(&left.content);
    let pad = width.saturating_sub(used + help.len());
    let line = Line::from(vec![
        left,
        Span::raw(" ".repeat(pad)),
        Span::styled(help, theme.style(Token::StatusBarText)),
    ]);
    frame.render_widget(
        Paragraph::new(line).style(theme.style(Token::StatusBar)),
        area,
    );
}

/// The spinner's frame at `now` for something going on since `since` (a turn every 100 ms).
fn spinner(now: std::time::Instant, since: std::time::Instant) -> &'static str {
    spinner_frame(now.saturating_duration_since(since))
}

/// A warning or an error stays in view over the loading spinner (a load that failed would
/// otherwise spin on and hide why).
fn alarming(state: &State) -> bool {
    state
        .notice
        .as_ref()
        .is_some_and(|n| matches!(n.level, Level::Warning | Level::Error))
}
