//! A value that must never be printed: API keys.

use std::fmt;

/// An API key. `Debug` and `Display` print `****`, so a key cannot reach a log, an error
/// message or a debug trace by accident; only [`Secret::expose`] gives the text.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a key so that it prints as `****`.
    pub fn new(text: impl Into<String>) -> Self {
        Self(text.into())
    }

    /// Which key this is, without giving it away: its first three and last two characters
    /// (`sk-…9f`), and only for a key of [`Secret::HINTED_FROM`] characters or more; a
    /// shorter one shows as `****`.
    pub fn hint(&self) -> String {
        let chars: Vec<char> = self.0.trim().chars().collect();
        if chars.len() < Self::HINTED_FROM {
            return "****".to_string();
        }
        let head: String = chars[..3].iter().collect();
        let tail: String = chars[chars.len() - 2..].iter().collect();
        format!("{head}…{tail}")
    }

    /// The shortest key [`Secret::hint`] shows any of: five characters of it tell little.
    pub const HINTED_FROM: usize = 16;

    /// The key itself, for the one place that needs it: the request to the provider.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("****")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("****")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_prints_as_stars_everywhere_but_expose() {
        let key = Secret::new("sk-very-secret");
        assert_eq!(format!("{key}"), "****");
        assert_eq!(format!("{key:?}"), "****");
        assert_eq!(format!("{:?}", Some(key.clone())), "Some(****)");
        assert_eq!(key.expose(), "sk-very-secret");
    }

    #[test]
    fn a_hint_shows_five_characters_of_a_long_key_and_none_of_a_short_one() {
        let hint = |text: &str| Secret::new(text).hint();
        assert_eq!(hint("sk-iris-fake-key-7f3a9c-never-log-me"), "sk-…me");
        assert_eq!(hint("  sk-ant-0123456789ab  "), "sk-…ab");
        assert_eq!(hint("0123456789abcdef"), "012…ef");
        for short in ["0123456789abcde", "sk-very-secret", "abc", ""] {
            assert_eq!(hint(short), "****", "{short}");
        }
        // Characters, not bytes: a key of letters beyond ASCII is cut between them.
        assert_eq!(hint("ééééééééééééééééü"), "ééé…éü");
    }
}
