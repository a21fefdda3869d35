//! Control characters in untrusted text (a model's reply, a repository's file): on a terminal
//! they are shown, never interpreted (an escape sequence could retitle the window, write to the
//! clipboard or hide text), and a commit message carries none. Newlines and tabs are text.

use std::borrow::Cow;

/// A character a terminal would act on rather than show: C0 (but tab and newline), DEL, C1.
pub fn is_control(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// `text` with each control character written out (`\x1b`, `\u{9b}`), so it shows as text; a
/// carriage return before a newline stays (Windows line ends).
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            out.push(c);
        } else if is_control(c) {
            let code = u32::from(c);
            if code < 0x80 {
                out.push_str(&format!("\\x{code:02x}"));
            } else {
                out.push_str(&format!("\\u{{{code:x}}}"));
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` without its control characters (a carriage return before a newline goes too).
pub fn strip(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().filter(|c| !is_control(*c)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_show_as_text() {
        assert_eq!(escape("plain\ttext\n"), "plain\ttext\n");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        assert_eq!(
            escape("\u{1b}]0;pwned\u{7}title"),
            "\\x1b]0;pwned\\x07title"
        );
        assert_eq!(escape("a\u{9b}31mb\u{7f}"), "a\\u{9b}31mb\\x7f");
        assert_eq!(escape("line\r\nnext\rover"), "line\r\nnext\\x0dover");
    }

    #[test]
    fn a_commit_message_keeps_only_text() {
        assert_eq!(
            strip("Fix \u{1b}[31mred\u{1b}[0m\r\n\tbody"),
            "Fix [31mred[0m\n\tbody"
        );
        assert!(matches!(strip("clean\n"), Cow::Borrowed(_)));
    }
}
