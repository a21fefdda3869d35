//! The chat's conversation as screen rows: each message under its speaker, long lines wrapped
//! to the pane's width. Drawing shows a window of these rows and the mouse wheel and page keys
//! move that window, so both measure the conversation the same way.

use crate::state::{Chat, Speaker};
use iris_studio_core::text::{expand_tabs, wrap_line};

/// One screen row of the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// The start of a message: who speaks.
    Speaker(Speaker),
    /// A wrapped line of a message, tabs expanded.
    Text(String),
    /// The gap between two messages.
    Blank,
}

/// The conversation, then the reply Iris is streaming (if any), in rows of at most `width`
/// cells.
pub fn rows(chat: &Chat, streaming: Option<&str>, width: usize) -> Vec<Row> {
    rows_by(chat, streaming, |text| wrap_message(text, width))
}

/// The same rows, each message wrapped by `wrap` (drawing remembers wrapped messages, so a
/// frame of a streamed reply wraps only the message that grew).
pub fn rows_by(
    chat: &Chat,
    streaming: Option<&str>,
    mut wrap: impl FnMut(&str) -> Vec<String>,
) -> Vec<Row> {
    let mut rows = Vec::new();
    let messages = chat.messages.iter().map(|m| (m.speaker, m.text.as_str()));
    let streamed = streaming.map(|text| (Speaker::Iris, text));
    for (i, (speaker, text)) in messages.chain(streamed).enumerate() {
        if i > 0 {
            rows.push(Row::Blank);
        }
        rows.push(Row::Speaker(speaker));
        rows.extend(wrap(text).into_iter().map(Row::Text));
    }
    rows
}

/// One message's rows of at most `width` cells.
pub fn wrap_message(text: &str, width: usize) -> Vec<String> {
    text.lines()
        .flat_map(|line| wrap_line(&expand_tabs(line), width))
        .collect()
}

/// The first row shown in a window of `height` rows: the one the user scrolled to, or the
/// last page when following the end.
pub fn top(chat: &Chat, rows: usize, height: usize) -> usize {
    let last_page = rows.saturating_sub(height);
    chat.top.map_or(last_page, |top| top.min(last_page))
}

/// Moves the window by `delta` rows (negative: back in time). Reaching the last page follows
/// the end again, so new replies come into view.
pub fn scroll(chat: &mut Chat, rows: usize, height: usize, delta: isize) {
    let last_page = rows.saturating_sub(height);
    let moved = top(chat, rows, height)
        .saturating_add_signed(delta)
        .min(last_page);
    chat.top = (moved < last_page).then_some(moved);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::ChatMessage;

    fn chat(texts: &[(Speaker, &str)]) -> Chat {
        Chat {
            messages: texts
                .iter()
                .map(|(speaker, text)| ChatMessage {
                    speaker: *speaker,
                    text: text.to_string(),
                })
                .collect(),
            ..Chat::default()
        }
    }

    #[test]
    fn messages_become_rows_wrapped_to_the_width() {
        let chat = chat(&[
            (Speaker::User, "make it shorter please"),
            (Speaker::Iris, "done"),
        ]);
        assert_eq!(
            rows(&chat, Some("and\tmore"), 10),
            [
                Row::Speaker(Speaker::User),
                Row::Text("make it".into()),
                Row::Text("shorter".into()),
                Row::Text("please".into()),
                Row::Blank,
                Row::Speaker(Speaker::Iris),
                Row::Text("done".into()),
                Row::Blank,
                Row::Speaker(Speaker::Iris),
                Row::Text("and more".into()),
            ]
        );
    }

    #[test]
    fn scrolling_back_holds_the_window_and_the_last_page_follows_the_end() {
        let mut chat = Chat::default();
        // 20 rows in a window of 5: following the end shows rows 15..20.
        assert_eq!(top(&chat, 20, 5), 15);
        scroll(&mut chat, 20, 5, -3);
        assert_eq!(chat.top, Some(12));
        // More rows arrive: the window stays where the user put it.
        assert_eq!(top(&chat, 30, 5), 12);
        scroll(&mut chat, 30, 5, -100);
        assert_eq!(chat.top, Some(0));
        scroll(&mut chat, 30, 5, 100);
        assert_eq!(chat.top, None, "back at the end: following again");
        // A conversation shorter than the window never scrolls.
        scroll(&mut chat, 3, 5, -3);
        assert_eq!((chat.top, top(&chat, 3, 5)), (None, 0));
    }
}
