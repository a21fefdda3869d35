//! Syntax highlighting of diff and code lines with syntect, only for visible lines, and
//! remembered.
//!
//! syntect compiles a syntax's patterns on first use, and they are most of the studio's
//! memory (about 7 MB for Rust's, with their search caches). So they are held only while
//! highlighting is in use: [`Syntaxes::release_if_idle`] drops them after a quiet spell. Lines
//! already highlighted keep their colours (they are remembered as coloured pieces); a line
//! first drawn after a release is drawn plain and queued, and [`Syntaxes::warm_pending`]
//! compiles what it needs off the UI thread, so drawing never waits for the patterns.
//!
//! Nothing here is global: the shell owns the [`Syntaxes`] (shared with its background
//! threads) and the [`Highlights`] memo, and hands them to drawing.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::rc::Rc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use ratatui::style::{Color, Style};
use ratatui::text::Span;
use syntect::easy::HighlightLines;
use syntect::highlighting::ThemeSet;
use syntect::parsing::{SyntaxReference, SyntaxSet};

use crate::text::skip_columns;
use crate::theme::{ColorSupport, Theme};
use iris_studio_core::text::{clip, expand_tabs};

/// The syntax definitions, with the patterns compiled so far, the lines drawn plain while
/// they were released, and the colour schemes. One for the studio, owned by its shell.
pub struct Syntaxes {
    held: Mutex<Held>,
    /// By file extension; at most [`PENDING_LINES`].
    pending: Mutex<Vec<(String, String)>>,
    themes: OnceLock<ThemeSet>,
}

/// Never loaded, loaded (and when last used), or released.
enum Held {
    Never,
    Loaded { set: Arc<SyntaxSet>, used: Instant },
    Released,
}

/// Enough for a screen of lines.
const PENDING_LINES: usize = 500;

impl Default for Syntaxes {
    fn default() -> Self {
        Self::new()
    }
}

impl Syntaxes {
    /// Nothing loaded yet: the definitions load on first use (or [`Syntaxes::preload`]).
    pub const fn new() -> Self {
        Self {
            held: Mutex::new(Held::Never),
            pending: Mutex::new(Vec::new()),
            themes: OnceLock::new(),
        }
    }

    /// Loads the syntax definitions and colour schemes (tens of milliseconds) ahead of use.
    pub fn preload(&self) {
        self.get();
        self.themes();
    }

    /// Compiles, off the UI thread, the patterns that highlighting these lines of `path`
    /// needs: syntect compiles each pattern on first use, which can hold a frame up for tens
    /// of milliseconds. Each line on its own, as drawing highlights it.
    pub fn warm<'a>(&self, path: &str, lines: impl Iterator<Item = &'a str>) {
        self.warm_lines(&self.get(), extension(path), lines);
    }

    fn warm_lines<'a>(
        &self,
        set: &SyntaxSet,
        extension: &str,
        lines: impl Iterator<Item = &'a str>,
    ) {
        let Some(theme) = self.themes().themes.values().next() else {
            return;
        };
        let syntax = syntax_for(set, extension);
        for line in lines {
            let _ = HighlightLines::new(syntax, theme).highlight_line(line, set);
        }
    }

    fn themes(&self) -> &ThemeSet {
        self.themes.get_or_init(ThemeSet::load_defaults)
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn lines(&self) -> std::sync::MutexGuard<'_, Vec<(String, String)>> {
        self.pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The definitions, loaded (again) if need be.
    fn get(&self) -> Arc<SyntaxSet> {
        Self::load(&mut self.held())
    }

    /// For drawing: the definitions unless they were released (loading them the first
    /// time; the studio preloads them off the UI thread). One lock, so a release cannot slip
    /// in between the look and the load.
    fn to_draw(&self) -> Option<Arc<SyntaxSet>> {
        let mut held = self.held();
        (!matches!(*held, Held::Released)).then(|| Self::load(&mut held))
    }

    fn load(held: &mut Held) -> Arc<SyntaxSet> {
        if let Held::Loaded { set, used } = held {
            *used = Instant::now();
            return set.clone();
        }
        let set = Arc::new(SyntaxSet::load_defaults_newlines());
        *held = Held::Loaded {
            set: set.clone(),
            used: Instant::now(),
        };
        set
    }

    fn queue(&self, extension: &str, line: &str) {
        let mut lines = self.lines();
        if lines.len() < PENDING_LINES {
            lines.push((extension.to_string(), line.to_string()));
        }
    }

    /// Whether lines were drawn plain since the patterns were released, to be compiled by
    /// [`Syntaxes::warm_pending`].
    pub fn pending(&self) -> bool {
        !self.lines().is_empty()
    }

    /// Compiles, off the UI thread, what the lines drawn plain since a release need; the
    /// next frame draws them in colour. True when there were any.
    pub fn warm_pending(&self) -> bool {
        let lines = std::mem::take(&mut *self.lines());
        if lines.is_empty() {
            return false;
        }
        let set = self.get();
        for (extension, line) in &lines {
            self.warm_lines(&set, extension, std::iter::once(line.as_str()));
        }
        true
    }

    /// Drops the compiled patterns when no line has been highlighted for `idle`; true when
    /// it did (the caller may then give the freed memory back to the system).
    pub fn release_if_idle(&self, idle: Duration) -> bool {
        let mut held = self.held();
        match &*held {
            Held::Loaded { used, .. } if used.elapsed() >= idle => {
                *held = Held::Released;
                true
            }
            _ => false,
        }
    }
}

fn extension(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or_default()
}

fn syntax_for<'s>(set: &'s SyntaxSet, extension: &str) -> &'s SyntaxReference {
    set.find_syntax_by_extension(extension)
        .unwrap_or_else(|| set.find_syntax_plain_text())
}

/// A line as drawn: its text (tabs expanded, clipped) in runs of one colour. Shared by the
/// memo and every frame that shows the line, never copied.
#[derive(Debug, PartialEq, Eq)]
pub struct Pieces {
    text: String,
    /// Where each run ends in `text`, and its colour (`None`: the line's own).
    runs: Vec<(usize, Option<Color>)>,
}

impl Pieces {
    fn plain(text: String) -> Self {
        let end = text.len();
        Self {
            text,
            runs: vec![(end, None)],
        }
    }

    /// The line's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The runs in order: their text and colour (`None`: the line's own).
    pub fn runs(&self) -> impl Iterator<Item = (&str, Option<Color>)> {
        let mut start = 0;
        self.runs.iter().map(move |&(end, color)| {
            let run = &self.text[start..end];
            start = end;
            (run, color)
        })
    }
}

/// Lines kept before the memo starts afresh.
const CACHE_LINES: usize = 20_000;

/// Highlighted lines already seen: (file extension, line, cells shown) -> coloured pieces,
/// for one look (syntect theme and colour support; another look starts it afresh). Looked up
/// by the borrowed line, so a frame that shows the same lines again (a spinner tick, a
/// streamed token) allocates nothing and highlights nothing. Each line is highlighted on its
/// own, so a line looks the same wherever it is scrolled to.
#[derive(Default)]
struct Memo {
    look: Option<(String, ColorSupport)>,
    hasher: RandomState,
    entries: HashMap<u64, Vec<Entry>>,
    len: usize,
}

struct Entry {
    extension: Box<str>,
    line: Box<str>,
    limit: usize,
    pieces: Rc<Pieces>,
}

impl Memo {
    fn key(&self, extension: &str, line: &str, limit: usize) -> u64 {
        self.hasher.hash_one((extension, line, limit))
    }

    fn get(&self, key: u64, extension: &str, line: &str, limit: usize) -> Option<Rc<Pieces>> {
        self.entries
            .get(&key)?
            .iter()
            .find(|e| e.limit == limit && &*e.line == line && &*e.extension == extension)
            .map(|e| e.pieces.clone())
    }

    fn put(&mut self, key: u64, extension: &str, line: &str, limit: usize, pieces: Rc<Pieces>) {
        if self.len >= CACHE_LINES {
            self.entries.clear();
            self.len = 0;
        }
        self.len += 1;
        self.entries.entry(key).or_default().push(Entry {
            extension: extension.into(),
            line: line.into(),
            limit,
            pieces,
        });
    }

    /// Starts afresh when the look changed.
    fn for_look(&mut self, syntax: &str, support: ColorSupport) {
        if self
            .look
            .as_ref()
            .is_some_and(|(s, c)| s == syntax && *c == support)
        {
            return;
        }
        self.look = Some((syntax.to_string(), support));
        self.entries.clear();
        self.len = 0;
    }
}

/// What highlighting keeps between frames: the syntax definitions and the lines already
/// highlighted. The shell owns it and hands it to drawing.
pub struct Highlights {
    syntaxes: Arc<Syntaxes>,
    memo: RefCell<Memo>,
}

impl Highlights {
    /// Highlighting with `syntaxes` (shared with the threads that compile patterns ahead).
    pub fn new(syntaxes: Arc<Syntaxes>) -> Self {
        Self {
            syntaxes,
            memo: RefCell::new(Memo::default()),
        }
    }

    /// The syntax definitions.
    pub fn syntaxes(&self) -> &Arc<Syntaxes> {
        &self.syntaxes
    }
}

/// Highlights the lines of one frame.
pub struct Highlighter<'t> {
    studio_theme: &'t Theme,
    theme: Option<&'t syntect::highlighting::Theme>,
    highlights: &'t Highlights,
}

impl<'t> Highlighter<'t> {
    /// A highlighter in `studio_theme`'s syntax colours; it leaves lines plain when the theme
    /// has no colour (NO_COLOR) or names a syntect theme that does not exist.
    pub fn new(studio_theme: &'t Theme, highlights: &'t Highlights) -> Self {
        // No syntax colours when the theme has none (NO_COLOR) or names an unknown syntect theme.
        let theme = match studio_theme.color_support() {
            ColorSupport::NoColor => None,
            _ => highlights
                .syntaxes
                .themes()
                .themes
                .get(studio_theme.syntax()),
        };
        highlights
            .memo
            .borrow_mut()
            .for_look(studio_theme.syntax(), studio_theme.color_support());
        Self {
            studio_theme,
            theme,
            highlights,
        }
    }

    /// The first `limit` cells of `line`, tabs expanded, in coloured runs; highlighted from
    /// the line's start, so the colours stay right when scrolled sideways. Remembered: the
    /// same line again allocates nothing.
    pub fn pieces(&mut self, path: &str, line: &str, limit: usize) -> Rc<Pieces> {
        let extension = extension(path);
        let memo = &self.highlights.memo;
        let key = memo.borrow().key(extension, line, limit);
        if let Some(pieces) = memo.borrow().get(key, extension, line, limit) {
            return pieces;
        }
        let text = clip(&expand_tabs(line), limit);
        let Some(theme) = self.theme else {
            let pieces = Rc::new(Pieces::plain(text));
            memo.borrow_mut()
                .put(key, extension, line, limit, pieces.clone());
            return pieces;
        };
        match self.highlights.syntaxes.to_draw() {
            Some(set) => {
                let pieces = Rc::new(self.highlight(&set, theme, extension, text));
                memo.borrow_mut()
                    .put(key, extension, line, limit, pieces.clone());
                pieces
            }
            // Released: plain this once, and queued for the patterns it needs.
            None => {
                self.highlights.syntaxes.queue(extension, &text);
                Rc::new(Pieces::plain(text))
            }
        }
    }

    /// The `width` cells of `line` that follow its first `skip` (scrolled sideways), as
    /// spans in `base` with the syntax colours over it (for panes that build lines).
    pub fn window(
        &mut self,
        path: &str,
        line: &str,
        base: Style,
        (skip, width): (usize, usize),
    ) -> Vec<Span<'static>> {
        let pieces = self.pieces(path, line, skip + width);
        let spans = pieces
            .runs()
            .map(|(text, color)| match color {
                Some(color) => Span::styled(text.to_string(), base.fg(color)),
                None => Span::styled(text.to_string(), base),
            })
            .collect();
        skip_columns(spans, skip)
    }

    fn highlight(
        &self,
        set: &SyntaxSet,
        theme: &syntect::highlighting::Theme,
        extension: &str,
        text: String,
    ) -> Pieces {
        let mut lines = HighlightLines::new(syntax_for(set, extension), theme);
        let runs = match lines.highlight_line(&text, set) {
            Ok(regions) => {
                let mut end = 0;
                regions
                    .into_iter()
                    .map(|(style, piece)| {
                        end += piece.len();
                        let fg = style.foreground;
                        let color = self.studio_theme.syntax_color(Color::Rgb(fg.r, fg.g, fg.b));
                        (end, Some(color))
                    })
                    .collect()
            }
            Err(_) => return Pieces::plain(text),
        };
        Pieces { text, runs }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set of its own, so that releasing it leaves the other tests' colours alone.
    #[test]
    fn released_patterns_leave_lines_plain_until_compiled_again_off_the_drawing_path() {
        let syntaxes = Syntaxes::new();
        assert!(syntaxes.to_draw().is_some(), "the first use loads");
        assert!(
            !syntaxes.release_if_idle(Duration::from_secs(60)),
            "just used"
        );
        assert!(syntaxes.release_if_idle(Duration::ZERO));
        assert!(!syntaxes.release_if_idle(Duration::ZERO), "released once");
        assert!(
            syntaxes.to_draw().is_none(),
            "drawing never loads them again"
        );
        assert!(!syntaxes.pending());
        for _ in 0..PENDING_LINES + 10 {
            syntaxes.queue("rs", "fn main() {}");
        }
        assert!(syntaxes.pending());
        assert_eq!(syntaxes.lines().len(), PENDING_LINES, "bounded");
        assert!(syntaxes.warm_pending());
        assert!(!syntaxes.pending());
        assert!(!syntaxes.warm_pending(), "nothing left to compile");
        assert!(syntaxes.to_draw().is_some(), "loaded again by the warming");
    }
}
