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
}
