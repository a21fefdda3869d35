//! The panes' wrapped text, computed when the text or the pane's width changes (after each
//! action), never while drawing: the chat's conversation, Iris' answer beside the code and
//! the open file's blocks.

use std::hash::{BuildHasher, RandomState};

use super::State;
use crate::layout::inner_size;
use crate::{answer, blocks, conversation};

/// The rows each pane shows, as wrapped for its width.
#[derive(Debug, Default)]
pub struct Rows {
    /// The chat's conversation, the reply being streamed included.
    pub chat: Vec<conversation::Row>,
    /// Iris' answer about the selected lines (or what she has streamed of it).
    pub answer: Vec<answer::Row>,
    /// The open file's intent and blocks.
    pub blocks: Vec<blocks::Row>,
    /// Each chat message wrapped, by its text's hash and the width: a streamed reply
    /// re-wraps only itself.
    wrapped: Vec<(u64, Vec<String>)>,
    hasher: RandomState,
}

impl Rows {
    fn hash(&self, width: usize, text: &str) -> u64 {
        self.hasher.hash_one((width, text))
    }
}

impl State {
    /// Wraps again what changed since the last action, for the panes as laid out now. The
    /// reducer calls it after every action; a test that sets the state by hand calls it
    /// before drawing.
    pub fn refresh_rows(&mut self) {
        let rects = self.layout();
        self.refresh_chat(inner_size(rects.chat_log).0);
        self.rows.answer = match &self.explore.why {
            Some(why) if rects.answer.is_some() => {
                let streamed = self
                    .iris
                    .task
                    .as_ref()
                    .filter(|t| t.kind == super::TaskKind::Why)
                    .map_or("", |t| t.progress.streamed.as_str());
                answer::rows(why, streamed, inner_size(rects.answer).0)
            }
            _ => Vec::new(),
        };
        self.rows.blocks = match &self.explore.intent {
            Some(view) if rects.blocks.is_some() => blocks::rows(view, inner_size(rects.blocks).0),
            _ => Vec::new(),
        };
    }

    fn refresh_chat(&mut self, width: usize) {
        if width == 0 {
            self.rows.chat.clear();
            self.rows.wrapped.clear();
            return;
        }
        let streaming = self
            .iris
            .task
            .as_ref()
            .filter(|t| t.kind == super::TaskKind::Chat)
            .map(|t| t.progress.streamed.as_str());
        let texts: Vec<&str> = self
            .chat
            .messages
            .iter()
            .map(|m| m.text.as_str())
            .chain(streaming)
            .collect();
        let mut wrapped = std::mem::take(&mut self.rows.wrapped);
        wrapped.truncate(texts.len());
        for (i, text) in texts.iter().enumerate() {
            let hash = self.rows.hash(width, text);
            match wrapped.get_mut(i) {
                Some((h, _)) if *h == hash => {}
                Some(slot) => *slot = (hash, conversation::wrap_message(text, width)),
                None => wrapped.push((hash, conversation::wrap_message(text, width))),
            }
        }
        let mut pieces = wrapped.iter().map(|(_, rows)| rows.clone());
        self.rows.chat =
            conversation::rows_by(&self.chat, streaming, |_| pieces.next().unwrap_or_default());
        self.rows.wrapped = wrapped;
    }
}
