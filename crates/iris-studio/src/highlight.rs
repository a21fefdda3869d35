//! Syntax highlighting of diff and code lines with syntect, only for visible lines, and
//! remembered.
//!
//! syntect compiles a syntax's patterns on first use, and they are most of the studio's
//! memory (about 7 MB for Rust's, with their search caches). So they are held only while
//! highlighting is in use: [`release_if_idle`] drops them after a quiet spell. Lines already
//! highlighted keep their colours (they are remembered as coloured pieces); a line first drawn
//! after a release is drawn plain and queued, and [`warm_pending`] compiles what it needs off
//! the UI thread, so drawing never waits for the patterns.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use ratatui::style::{Color, Style};
use ratatui::text::Span;
use syntect::easy::HighlightLines;
use syntect::highlighting::ThemeSet;
use syntect::parsing::{SyntaxReference, SyntaxSet};

use crate::memo::Memo;
use crate::text::skip_columns;
use crate::theme::{ColorSupport, Theme};
use iris_core::text::{clip, expand_tabs};

/// Loads the syntax definitions and colour schemes (tens of milliseconds) ahead of use.
pub fn preload() {
    SYNTAXES.get();
    themes();
}

/// Compiles, off the UI thread, the patterns that highlighting these lines of `path` needs:
/// syntect compiles each pattern on first use, which can hold a frame up for tens of
/// milliseconds. Each line on its own, as [`Highlighter::spans`] does it.
pub fn warm<'a>(path: &str, lines: impl Iterator<Item = &'a str>) {
    warm_lines(&SYNTAXES.get(), extension(path), lines);
}

fn warm_lines<'a>(set: &SyntaxSet, extension: &str, lines: impl Iterator<Item = &'a str>) {
    let Some(theme) = themes().themes.values().next() else {
        return;
    };
    let syntax = syntax_for(set, extension);
    for line in lines {
        let _ = HighlightLines::new(syntax, theme).highlight_line(line, set);
    }
}

/// Whether lines were drawn plain since the patterns were released, to be compiled by
/// [`warm_pending`].
pub fn pending() -> bool {
    SYNTAXES.pending()
}

/// Compiles, off the UI thread, what the lines drawn plain since a release need; the next
/// frame draws them in colour. True when there were any.
pub fn warm_pending() -> bool {
    SYNTAXES.warm_pending()
}

/// Drops the compiled patterns when no line has been highlighted for `idle`; true when it
/// did (the caller may then give the freed memory back to the system).
pub fn release_if_idle(idle: Duration) -> bool {
    SYNTAXES.release_if_idle(idle)
}

static SYNTAXES: Syntaxes = Syntaxes::new();

/// The syntax definitions, with the patterns compiled so far, and the lines drawn plain
/// while they were released.
struct Syntaxes {
    held: Mutex<Held>,
    /// By file extension; at most [`PENDING_LINES`].
    pending: Mutex<Vec<(String, String)>>,
}

/// Never loaded, loaded (and when last used), or released.
enum Held {
    Never,
    Loaded { set: Arc<SyntaxSet>, used: Instant },
    Released,
}

/// Enough for a screen of lines.
const PENDING_LINES: usize = 500;

impl Syntaxes {
    const fn new() -> Self {
        Self {
            held: Mutex::new(Held::Never),
            pending: Mutex::new(Vec::new()),
        }
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

    fn queue(&self, extension: String, line: String) {
        let mut lines = self.lines();
        if lines.len() < PENDING_LINES {
            lines.push((extension, line));
        }
    }

    fn pending(&self) -> bool {
        !self.lines().is_empty()
    }

    fn warm_pending(&self) -> bool {
        let lines = std::mem::take(&mut *self.lines());
        if lines.is_empty() {
            return false;
        }
        let set = self.get();
        for (extension, line) in &lines {
            warm_lines(&set, extension, std::iter::once(line.as_str()));
        }
        true
    }

    fn release_if_idle(&self, idle: Duration) -> bool {
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

fn themes() -> &'static ThemeSet {
    static SET: OnceLock<ThemeSet> = OnceLock::new();
    SET.get_or_init(ThemeSet::load_defaults)
}

/// Highlighted lines already seen: (look, file extension, line) -> coloured pieces.
/// Each line is highlighted on its own, so a line looks the same wherever it is scrolled to
/// and a frame that shows the same lines again (a spinner tick, a streamed token) costs no
/// highlighting at all.
type Pieces = Vec<(Option<Color>, String)>;

thread_local! {
    static CACHE: RefCell<Memo<(String, String, String), Pieces>> = RefCell::new(Memo::new(CACHE_LINES));
}

/// Lines kept before the cache starts afresh.
const CACHE_LINES: usize = 20_000;

/// Highlights the lines of one frame.
pub struct Highlighter<'t> {
    studio_theme: &'t Theme,
    theme: Option<&'t syntect::highlighting::Theme>,
}

impl<'t> Highlighter<'t> {
    /// A highlighter in `studio_theme`'s syntax colours; it leaves lines plain when the theme
    /// has no colour (NO_COLOR) or names a syntect theme that does not exist.
    pub fn new(studio_theme: &'t Theme) -> Self {
        // No syntax colours when the theme has none (NO_COLOR) or names an unknown syntect theme.
        let theme = match studio_theme.color_support() {
            ColorSupport::NoColor => None,
            _ => themes().themes.get(studio_theme.syntax()),
        };
        Self {
            studio_theme,
            theme,
        }
    }

    /// The `width` cells of `line` that follow its first `skip` (scrolled sideways), tabs
    /// expanded; highlighted from the line's start, so the colours stay right when scrolled.
    pub fn window(
        &mut self,
        path: &str,
        line: &str,
        base: Style,
        (skip, width): (usize, usize),
    ) -> Vec<Span<'static>> {
        let text = clip(&expand_tabs(line), skip + width);
        skip_columns(self.spans(path, &text, base), skip)
    }

    /// The line as spans: syntect's colours on the diff line's own style.
    fn spans(&mut self, path: &str, line: &str, base: Style) -> Vec<Span<'static>> {
        let Some(theme) = self.theme else {
            return vec![Span::styled(line.to_string(), base)];
        };
        let extension = extension(path).to_string();
        // The colours depend on the syntect theme and on how they were fitted to the terminal.
        let look = format!(
            "{} {:?}",
            self.studio_theme.syntax(),
            self.studio_theme.color_support()
        );
        let key = (look, extension, line.to_string());
        let cached = CACHE.with(|cache| cache.borrow().get(&key));
        let pieces = match cached {
            Some(pieces) => pieces,
            None => match SYNTAXES.to_draw() {
                Some(set) => {
                    let pieces = self.highlight(&set, theme, &key.1, line);
                    CACHE.with(|cache| cache.borrow_mut().put(key, pieces.clone()));
                    pieces
                }
                // Released: plain this once, and queued for the patterns it needs.
                None => {
                    SYNTAXES.queue(key.1, key.2);
                    return vec![Span::styled(line.to_string(), base)];
                }
            },
        };
        pieces
            .into_iter()
            .map(|(color, text)| match color {
                Some(color) => Span::styled(text, base.fg(color)),
                None => Span::styled(text, base),
            })
            .collect()
    }

    fn highlight(
        &self,
        set: &SyntaxSet,
        theme: &syntect::highlighting::Theme,
        extension: &str,
        line: &str,
    ) -> Pieces {
        let mut lines = HighlightLines::new(syntax_for(set, extension), theme);
        match lines.highlight_line(line, set) {
            Ok(regions) => regions
                .into_iter()
                .map(|(style, text)| {
                    let fg = style.foreground;
                    let color = self.studio_theme.syntax_color(Color::Rgb(fg.r, fg.g, fg.b));
                    (Some(color), text.to_string())
                })
                .collect(),
            Err(_) => vec![(None, line.to_string())],
        }
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
            syntaxes.queue("rs".into(), "fn main() {}".into());
        }
        assert!(syntaxes.pending());
        assert_eq!(syntaxes.lines().len(), PENDING_LINES, "bounded");
        assert!(syntaxes.warm_pending());
        assert!(!syntaxes.pending());
        assert!(!syntaxes.warm_pending(), "nothing left to compile");
        assert!(syntaxes.to_draw().is_some(), "loaded again by the warming");
    }
}
