//! Progress on stderr while Iris works: a spinner, what she is doing, elapsed time and tokens.
//! Drawn only when stderr is a terminal; scripts and hooks see nothing.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;

use iris_studio_agent::EventSink;
use iris_studio_core::protocol::AgentEvent;
use iris_studio_core::protocol::progress::{Progress, SPINNER, SPINNER_STEP};

/// One line: "⠋ reading src/app.rs · 3.2s · 1,204 tokens sent · 340 received".
fn line(progress: &Progress, frame: usize, elapsed: Duration) -> String {
    let mut line = format!(
        "{} {} · {:.1}s",
        SPINNER[frame % SPINNER.len()],
        if progress.activity.is_empty() {
            "starting"
        } else {
            &progress.activity
        },
        elapsed.as_secs_f64()
    );
    if progress.input_tokens + progress.output_tokens > 0 {
        line.push_str(&format!(
            " · {} tokens sent · {} received",
            progress.input_tokens, progress.output_tokens
        ));
    }
    line
}

/// A running progress display; [`ProgressLine::finish`] clears the line and prints the totals.
pub struct ProgressLine {
    sender: UnboundedSender<AgentEvent>,
    task: JoinHandle<Progress>,
    started: Instant,
    drawing: bool,
    /// The model's prices, for what the run cost.
    price: Option<iris_studio_config::prices::Price>,
}

impl ProgressLine {
    pub fn start() -> Self {
        let (sender, receiver) = unbounded_channel();
        let drawing = std::io::stderr().is_terminal();
        let started = Instant::now();
        let task = tokio::spawn(draw(receiver, drawing, started));
        Self {
            sender,
            task,
            started,
            drawing,
            price: None,
        }
    }

    /// The same line, saying what the run cost at `price` when it ends.
    pub fn priced(mut self, price: Option<iris_studio_config::prices::Price>) -> Self {
        self.price = price;
        self
    }

    pub fn sink(&self) -> EventSink {
        EventSink::new(self.sender.clone())
    }

    /// Stops the spinner; in a terminal, says how long it took and what it cost.
    pub async fn finish(self) {
        let Self {
            sender,
            task,
            started,
            drawing,
            price,
        } = self;
        drop(sender);
        let state = task.await.unwrap_or_default();
        if drawing {
            let mut err = std::io::stderr();
            let cached = match state.cached_tokens {
                0 => String::new(),
                n => format!(" ({n} from the provider's cache)"),
            };
            let at_price =
                price.map(|p| p.cost(state.input_tokens, state.cached_tokens, state.output_tokens));
            let cost = format!(" · {}", state.cost_words(at_price));
            let _ = writeln!(
                err,
                "\r\x1b[2K✓ done in {:.1}s · {} request(s) · {} tool call(s) · {} tokens sent{cached} · {} received{cost}",
                started.elapsed().as_secs_f64(),
                state.requests,
                state.tool_calls,
                state.input_tokens,
                state.output_tokens
            );
        }
    }
}

/// The first line of the artifact as it forms (a commit's title), cut to `width` columns of
/// the terminal so it never wraps; a model's control characters (and tabs) never reach it.
fn forming_line(progress: &Progress, width: usize) -> Option<String> {
    let (_, text) = progress.preview.as_ref()?;
    let first = text.lines().find(|l| !l.trim().is_empty())?.trim_end();
    let plain: String = iris_studio_core::controls::strip(first)
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let room = width.saturating_sub(3).max(8);
    Some(format!("  {}", iris_studio_core::text::clip(&plain, room)))
}

/// What clears the drawn lines (the spinner, and the forming title under it), leaving the
/// cursor at the start of the first; nothing when nothing is drawn.
fn clearing(drawing: bool, two_lines: bool) -> &'static str {
    match (drawing, two_lines) {
        (false, _) => "",
        (true, false) => "\r\x1b[2K",
        (true, true) => "\r\x1b[2K\n\x1b[2K\x1b[1A\r",
    }
}

async fn draw(
    mut events: UnboundedReceiver<AgentEvent>,
    drawing: bool,
    started: Instant,
) -> Progress {
    let mut state = Progress::default();
    let mut tick = tokio::time::interval(SPINNER_STEP);
    let mut frame = 0;
    // Whether the forming title is drawn under the spinner.
    let mut two_lines = false;
    loop {
        tokio::select! {
            event = events.recv() => match event {
                // The spinner waits while the question is on the line.
                Some(AgentEvent::Approval(request)) => {
                    eprint!("{}", clearing(drawing, two_lines));
                    two_lines = false;
                    state.apply(&AgentEvent::Approval(request.clone()));
                    request.reply.send(super::approve::ask(&request).await);
                }
                // Said whether or not the spinner is drawn: scripts and hooks must see it too.
                Some(AgentEvent::SecretWithheld(finding)) => {
                    eprintln!("{}{}", clearing(drawing, two_lines), crate::output::said::withheld_line(&finding));
                    two_lines = false;
                }
                // Likewise: a warning is printed whether or not the spinner is drawn.
                Some(AgentEvent::Warning(text)) => {
                    eprintln!("{}warning: {text}", clearing(drawing, two_lines));
                    two_lines = false;
                }
                Some(event) => state.apply(&event),
                None => break,
            },
            _ = tick.tick() => {
                frame += 1;
                if drawing {
                    let width = crossterm::terminal::size().map_or(80, |(w, _)| usize::from(w));
                    let mut text = format!(
                        "{}{}",
                        clearing(true, two_lines),
                        line(&state, frame, started.elapsed())
                    );
                    // The title forms under the spinner (only on a terminal: never in a pipe).
                    let forming = forming_line(&state, width);
                    two_lines = forming.is_some();
                    if let Some(title) = forming {
                        text.push_str(&format!("\n\x1b[2K{title}\x1b[1A\r"));
                    }
                    let mut err = std::io::stderr();
                    let _ = write!(err, "{text}");
                    let _ = err.flush();
                }
            }
        }
    }
    if drawing {
        let _ = write!(std::io::stderr(), "{}", clearing(true, two_lines));
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forming_title_is_the_previews_first_line_cut_to_the_terminal() {
        let mut state = Progress::default();
        assert_eq!(forming_line(&state, 80), None);
        state.preview = Some((
            iris_studio_core::artifact::ArtifactKind::Commit,
            "Add two() beside one()\n\nThe body.".into(),
        ));
        assert_eq!(
            forming_line(&state, 80).as_deref(),
            Some("  Add two() beside one()")
        );
        assert_eq!(forming_line(&state, 15).as_deref(), Some("  Add two() b…"));
        // Wide characters count as two columns; control characters never reach the terminal.
        state.preview = Some((
            iris_studio_core::artifact::ArtifactKind::Commit,
            "添加分页功能和测试\u{1b}]0;x\u{7}".into(),
        ));
        let line = forming_line(&state, 15).unwrap();
        assert_eq!(line, "  添加分页功…");
        assert!(!line.contains('\u{1b}'));
    }

    #[test]
    fn progress_becomes_one_line() {
        // The fold itself is iris_studio_core::protocol::progress's; this is only how a state reads.
        let state = Progress {
            activity: "reading src/app.rs".into(),
            input_tokens: 1204,
            output_tokens: 340,
            tool_calls: 1,
            ..Progress::default()
        };
        assert_eq!(
            line(&state, 0, Duration::from_millis(3200)),
            "⠋ reading src/app.rs · 3.2s · 1204 tokens sent · 340 received"
        );
    }
}
