//! Text measured in terminal cells: tabs expanded, width counted in cells (wide characters and
//! emoji count two), long lines clipped with an ellipsis or wrapped. Shared by the studio's
//! panes and the command line's progress and reports.

use unicode_width::UnicodeWidthChar;

const TAB_WIDTH: usize = 4;

/// Expands tabs to the next multiple of four columns and drops other control characters.
pub fn expand_tabs(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut column = 0;
    for ch in line.chars() {
        match ch {
            '\t' => {
                let spaces = TAB_WIDTH - column % TAB_WIDTH;
                out.extend(std::iter::repeat_n(' ', spaces));
                column += spaces;
            }
            c if c.is_control() => {}
            c => {
                out.push(c);
                column += c.width().unwrap_or(0);
            }
        }
    }
    out
}

/// The display width of a string, in cells.
pub fn width(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// At most `max` cells of `text`, ending in `…` when something was cut.
pub fn clip(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for ch in text.chars() {
        let w = ch.width().unwrap_or(0);
        if used + w + 1 > max {
            break;
        }
        out.push(ch);
        used += w;
    }
    if max > 0 {
        out.push('…');
    }
    out
}

/// One line in pieces of at most `max` cells, broken at the last space after some text (so
/// indentation stays), else inside a word; the space at a break is dropped.
pub fn wrap_line(line: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut pieces = Vec::new();
    let mut piece = String::new();
    let mut used = 0;
    // Where the piece may break: the byte just after its last space that follows text.
    let mut break_at: Option<usize> = None;
    let mut seen_text = false;
    for ch in line.chars() {
        let w = ch.width().unwrap_or(0);
        if used + w > max && !piece.is_empty() {
            let rest = break_at.map(|at| piece.split_off(at)).unwrap_or_default();
            pieces.push(piece.trim_end().to_string());
            piece = rest;
            used = width(&piece);
            seen_text = !piece.is_empty();
            break_at = None;
            if ch == ' ' && piece.is_empty() {
                continue;
            }
        }
        piece.push(ch);
        used += w;
        if ch == ' ' {
            if seen_text {
                break_at = Some(piece.len());
            }
        } else {
            seen_text = true;
        }
    }
    pieces.push(piece);
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_wraps_after_spaces_and_keeps_them() {
        assert_eq!(wrap_line("make it shorter", 10), ["make it", "shorter"]);
        assert_eq!(wrap_line("    indented code", 12), ["    indented", "code"]);
        assert_eq!(wrap_line("    a b c", 6), ["    a", "b c"]);
        assert_eq!(wrap_line("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap_line("", 4), [""]);
        assert_eq!(wrap_line("日本語", 4), ["日本", "語"]);
    }

    #[test]
    fn tabs_expand_to_the_next_stop() {
        assert_eq!(expand_tabs("a\tb"), "a   b");
        assert_eq!(expand_tabs("\tx"), "    x");
        assert_eq!(expand_tabs("abcd\te"), "abcd    e");
        // Two tabs: the second from where the first ended.
        assert_eq!(expand_tabs("a\tb\tc"), "a   b   c");
        // Other control characters are dropped and take no column.
        assert_eq!(expand_tabs("a\u{1b}\rb\tc"), "ab  c");
    }

    #[test]
    fn wide_characters_count_two_cells() {
        assert_eq!(width("日本"), 4);
        assert_eq!(width("✨ a"), 4);
        assert_eq!(clip("日本語のテキスト", 7), "日本語…");
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("abcdefgh", 5), "abcd…");
        assert_eq!(clip("abc", 0), "", "no room even for the ellipsis");
        // A character wider than the width still goes on a line of its own.
        assert_eq!(wrap_line("日本", 1), ["日", "本"]);
    }
}
