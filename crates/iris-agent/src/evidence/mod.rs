//! How a change and its history read to the model, rendered once for both who show it: the
//! tools (the model's own questions) and the capabilities (the evidence the first request
//! carries up front). It sits below both, so neither borrows the other's.

pub mod diff;
pub mod log;
pub mod packages;

use iris_studio_core::change::ChangeKind;

/// Cuts `text` to at most `max_chars` characters, on a line boundary when one is near, and
/// says what was left out and how to get it.
pub fn bound_output(mut text: String, max_chars: usize, how_to_see_more: &str) -> String {
    let total = text.chars().count();
    if total <= max_chars {
        return text;
    }
    let cut = text
        .char_indices()
        .nth(max_chars)
        .map_or(text.len(), |(i, _)| i);
    let cut = match text[..cut].rfind('\n') {
        Some(newline) if newline > cut / 2 => newline + 1,
        _ => cut,
    };
    text.truncate(cut);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&format!(
        "[output cut at {max_chars} of {total} characters; {how_to_see_more}]\n"
    ));
    text
}

/// How a file's change is named: added, modified, deleted, ...
pub fn change_label(kind: ChangeKind) -> &'static str {
    match kind {
        ChangeKind::Added => "added",
        ChangeKind::Modified => "modified",
        ChangeKind::Deleted => "deleted",
        ChangeKind::Renamed => "renamed",
        ChangeKind::Copied => "copied",
        ChangeKind::TypeChanged => "typechange",
    }
}
