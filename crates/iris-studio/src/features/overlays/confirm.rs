//! A question over the panes: yes or no, or whether a tool call of Iris' may run.

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::state::{Confirm, State};
use crate::theme::Theme;
use crate::ui::{centered, text_box};
use iris_studio_core::protocol::ApprovalRequest;

pub fn draw(frame: &mut Frame, area: Rect, question: &Confirm, state: &State, theme: &Theme) {
    let text = match question {
        Confirm::Commit => {
            let mut what = "Commit with this message".to_string();
            if state.repo.commit_flags.amend {
                what.push_str(", amending the last commit");
            }
            if state.repo.commit_flags.no_verify {
                what.push_str(", skipping hooks");
            }
            format!("{what}? (y/n)")
        }
        Confirm::Quit => "An artifact has unsaved changes. Quit anyway? (y/n)".to_string(),
        Confirm::Sessions(agents) => crate::features::sessions::question(agents),
        Confirm::Publish if state.mode == crate::state::Mode::REVIEW => {
            let folded = match crate::findings::shown_findings(state).1.total() {
                0 => String::new(),
                1 => ", without the 1 folded finding".to_string(),
                n => format!(", without the {n} folded findings"),
            };
            format!(
                "Post this review on the branch's pull request, each finding on its line{folded} \
                 (gh/glab)? (y/n)"
            )
        }
        Confirm::Publish => {
            "Open or update the branch's pull request with this title and description (gh/glab)? (y/n)"
                .to_string()
        }
        Confirm::PublishStack => {
            let count = state.stack.as_ref().map_or(0, |v| v.stack.layers.len());
            format!(
                "Publish the stack: open each of the {count} layers' pull requests that does not \
                 exist yet into the branch below it, and refresh every one's stack list \
                 (gh/glab)? (y/n)"
            )
        }
        Confirm::TryAgain(_) => {
            "Another git is using the index (.git/index.lock). Try again? (y/n)".to_string()
        }
        Confirm::Moved(kind) => format!(
            "{} moved since this {} was written, and you edited it. Have Iris write anew \
             for what is here now? y: Iris writes (your text stays a version back, ctrl-z) · \
             n: keep your text",
            crate::update::what_moved(*kind),
            kind.noun()
        ),
        Confirm::Reword => match &state.range.reword {
            Some(r) => {
                let body = r.new.lines().skip(1).filter(|l| !l.trim().is_empty()).count();
                let body = match body {
                    0 => String::new(),
                    1 => " (and a line of body)".to_string(),
                    n => format!(" (and {n} lines of body)"),
                };
                format!(
                    "Reword {}?\nwas: {}\nnow: {}{body}\nOnly the message changes. (y/n)",
                    r.short_id,
                    r.old.lines().next().unwrap_or_default(),
                    r.new.lines().next().unwrap_or_default()
                )
            }
            None => "Reword the commit? (y/n)".to_string(),
        },
    };
    text_box(
        frame,
        match question {
            // Two titles to read side by side need more room than a yes-or-no line.
            Confirm::Reword | Confirm::Moved(_) | Confirm::Sessions(_) => centered(area, 72, 7),
            _ => centered(area, 64, 5),
        },
        &text,
        " Confirm ",
        true,
        theme,
    );
}

/// The first tool call waiting for approval, and how many more wait.
pub fn draw_approval(
    frame: &mut Frame,
    area: Rect,
    request: &ApprovalRequest,
    waiting: usize,
    theme: &Theme,
) {
    let more = match waiting {
        0 => String::new(),
        n => format!(" ({n} more waiting)"),
    };
    let text = format!(
        "{}.\n\n{}\n\ny allow once · s allow for this session · n or esc refuse{more}",
        request.question(),
        request.args_shown()
    );
    text_box(
        frame,
        centered(area, 72, 11),
        &text,
        " Allow this? ",
        true,
        theme,
    );
}
