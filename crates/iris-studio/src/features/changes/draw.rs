//! The changed files, most relevant first, with staged/unstaged marks (in a jj workspace,
//! `@` and the kind of change: jj has no staging area) and relevance.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::ListItem;

use crate::state::{FileEntry, Pane, State};
use crate::theme::{Theme, Token};
use crate::ui::{draw_list, focused, pane_block};
use iris_studio_core::change::ChangeKind;
use iris_studio_core::text::clip;

pub fn draw(frame: &mut Frame, area: Rect, state: &State, theme: &Theme) {
    let changes = &state.changes;
    let title = if changes.loading && !changes.files.is_empty() {
        let ranking = if changes.ranking_complete {
            ""
        } else {
            "ranking, "
        };
        format!(
            " Files ({} staged, {ranking}status loading…) ",
            changes.files.len()
        )
    } else if changes.loading {
        " Files (loading…) ".to_string()
    } else if let Some(change) = &state.repo.jj_change {
        // jj: the files are the working-copy change's, nothing staged or unstaged.
        format!(" Files of @ {change} ({}) ", changes.files.len())
    } else {
        format!(" Files ({}) ", changes.files.len())
    };
    let block = pane_block(title, focused(state, Pane::Changes), theme);
    let inner_width = usize::from(area.width.saturating_sub(2));
    let items: Vec<ListItem> = if changes.files.is_empty() && !changes.loading {
        vec![ListItem::new(Span::styled(
            "nothing changed",
            theme.style(Token::TextDim),
        ))]
    } else {
        changes
            .files
            .iter()
            .map(|f| item(f, inner_width, state.repo.jj_change.is_some(), theme))
            .collect()
    };
    draw_list(
        frame,
        area,
        block,
        items,
        (changes.selected, state.screen.list_tops.files),
        theme,
    );
}

fn mark(kind: Option<ChangeKind>) -> char {
    match kind {
        Some(ChangeKind::Added) => 'A',
        Some(ChangeKind::Modified) => 'M',
        Some(ChangeKind::Deleted) => 'D',
        Some(ChangeKind::Renamed) => 'R',
        Some(ChangeKind::Copied) => 'C',
        Some(ChangeKind::TypeChanged) => 'T',
        None => ' ',
    }
}

/// A file's row; `jj`: its marks say it is in `@` (`@M`), not staged or unstaged.
fn item<'a>(file: &FileEntry, width: usize, jj: bool, theme: &Theme) -> ListItem<'a> {
    let (staged, unstaged) = if jj {
        ('@', mark(file.staged))
    } else if file.conflicted {
        ('U', 'U')
    } else if file.untracked {
        ('?', '?')
    } else {
        (mark(file.staged), mark(file.unstaged))
    };
    let relevance = file
        .relevance
        .map(|r| format!("{r:>3}% "))
        .unwrap_or_else(|| "     ".into());
    // A file that stages a secret says so after its name: the secret is withheld from Iris.
    let secret = file
        .secret
        .as_ref()
        .map(|kind| format!(" ⚠ {kind}"))
        .unwrap_or_default();
    let secret_width = iris_studio_core::text::width(&secret);
    let name_width = width.saturating_sub(3 + relevance.len() + secret_width);
    let token = if file.conflicted {
        Token::Conflict
    } else if file.untracked {
        Token::Untracked
    } else if file.staged.is_some() {
        Token::Staged
    } else {
        Token::Unstaged
    };
    ListItem::new(Line::from(vec![
        Span::styled(staged.to_string(), theme.style(Token::Staged)),
        Span::styled(unstaged.to_string(), theme.style(Token::Unstaged)),
        Span::raw(" "),
        Span::styled(relevance, theme.style(Token::TextDim)),
        Span::styled(clip(&file.path, name_width), theme.style(token)),
        Span::styled(secret, theme.style(Token::Warning)),
    ]))
}
