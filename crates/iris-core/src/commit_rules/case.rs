//! commitlint's letter cases: a text "is" a case when converting it to that case leaves it
//! unchanged (quoted parts aside), as commitlint's `ensure` decides.

use std::fmt;
use std::sync::LazyLock;

use regex::Regex;

use super::When;
use super::pattern::is_js_space;
use super::{built_in, words};

/// A letter case a commitlint case rule names (`lower-case`, `kebab-case`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// `lower-case`: no capital letter.
    Lower,
    /// `upper-case`: no small letter.
    Upper,
    /// `camel-case`: `addUserName`.
    Camel,
    /// `kebab-case`: `add-user-name`.
    Kebab,
    /// `pascal-case`: `AddUserName`.
    Pascal,
    /// `sentence-case`: the first letter a capital, the rest as written.
    Sentence,
    /// `snake-case`: `add_user_name`.
    Snake,
    /// `start-case`: `Add User Name`.
    Start,
}

impl Case {
    /// The case a configuration names (with commitlint's aliases), or `None`.
    pub fn from_name(name: &str) -> Option<Case> {
        Some(match name {
            "lower-case" | "lowercase" | "lowerCase" => Case::Lower,
            "upper-case" | "uppercase" => Case::Upper,
            "camel-case" => Case::Camel,
            "kebab-case" => Case::Kebab,
            "pascal-case" => Case::Pascal,
            "sentence-case" | "sentencecase" => Case::Sentence,
            "snake-case" => Case::Snake,
            "start-case" => Case::Start,
            _ => return None,
        })
    }

    /// commitlint's name of the case.
    pub fn name(self) -> &'static str {
        match self {
            Case::Lower => "lower-case",
            Case::Upper => "upper-case",
            Case::Camel => "camel-case",
            Case::Kebab => "kebab-case",
            Case::Pascal => "pascal-case",
            Case::Sentence => "sentence-case",
            Case::Snake => "snake-case",
            Case::Start => "start-case",
        }
    }

    /// Whether `text` is in this case, as commitlint's `ensure` decides: quoted parts
    /// (`` `x` ``, `"x"`, `'x'` on one line) are left out, since they may hold names, and a
    /// text that converts to nothing or to something starting with a digit is in every case.
    pub fn matches(self, text: &str) -> bool {
        let input = QUOTED.replace_all(text, "");
        let input = input.trim_matches(is_js_space);
        let converted = self.convert(input);
        if converted.is_empty() || converted.starts_with(|c: char| c.is_ascii_digit()) {
            return true;
        }
        converted == input
    }

    /// `input` converted as lodash converts it (`kebabCase`, `startCase`, ...).
    fn convert(self, input: &str) -> String {
        match self {
            Case::Lower => input.to_lowercase(),
            Case::Upper => input.to_uppercase(),
            Case::Sentence => upper_first(input),
            Case::Camel => camel(input),
            Case::Pascal => upper_first(&camel(input)),
            Case::Kebab => words::compound(input)
                .iter()
                .map(|w| w.to_lowercase())
                .collect::<Vec<_>>()
                .join("-"),
            Case::Snake => words::compound(input)
                .iter()
                .map(|w| w.to_lowercase())
                .collect::<Vec<_>>()
                .join("_"),
            Case::Start => words::compound(input)
                .iter()
                .map(|w| upper_first(w))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// One check of a case rule: a case the text must be in (`always`) or not (`never`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseCheck {
    /// The case checked.
    pub case: Case,
    /// Whether the text must be in it or must not.
    pub when: When,
}

impl CaseCheck {
    /// A check that the text is in `case`.
    pub fn always(case: Case) -> Self {
        Self {
            case,
            when: When::Always,
        }
    }

    /// Whether `text` passes this check.
    pub fn passes(self, text: &str) -> bool {
        self.case.matches(text) == (self.when == When::Always)
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A quoted part on one line, shortest first (JavaScript's `.` stops at line breaks).
static QUOTED: LazyLock<Regex> = LazyLock::new(|| {
    let other = r"[^\n\r\x{2028}\x{2029}]";
    built_in(&format!("`{other}*?`|\"{other}*?\"|'{other}*?'"))
});

fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// lodash's `camelCase`: the words, lower case, each after the first capitalised.
fn camel(text: &str) -> String {
    let mut out = String::new();
    for (i, word) in words::compound(text).iter().enumerate() {
        let word = word.to_lowercase();
        if i == 0 {
            out.push_str(&word);
        } else {
            out.push_str(&upper_first(&word));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Case::*;
    use super::*;

    #[test]
    fn a_plain_lower_case_subject_is_lower_case_only() {
        let text = "add the parser";
        assert!(Lower.matches(text));
        for case in [Upper, Sentence, Start, Pascal, Camel, Kebab, Snake] {
            assert!(!case.matches(text), "{case}");
        }
    }

    #[test]
    fn sentence_start_pascal_and_upper_case() {
        assert!(Sentence.matches("Add the parser"));
        assert!(!Start.matches("Add the parser"));
        assert!(Start.matches("Add The Parser"));
        assert!(Pascal.matches("AddParser"));
        assert!(!Pascal.matches("Add parser"));
        assert!(Upper.matches("ADD PARSER"));
        assert!(Sentence.matches("API change"));
    }

    #[test]
    fn identifiers_and_single_words() {
        assert!(Camel.matches("fooBar"));
        assert!(Kebab.matches("foo-bar"));
        assert!(Snake.matches("foo_bar"));
        assert!(!Kebab.matches("foo_bar"));
        // One lower-case word is in several cases at once, as in commitlint.
        for case in [Lower, Camel, Kebab, Snake] {
            assert!(case.matches("update"), "{case}");
        }
    }

    #[test]
    fn quoted_names_digits_and_empty_texts_are_ignored() {
        assert!(Lower.matches("use `HashMap` here"));
        assert!(Lower.matches("bump \"Serde\" to 'V2'"));
        assert!(Upper.matches("42 things"));
        assert!(Start.matches(""));
    }

    #[test]
    fn names_and_aliases() {
        assert_eq!(Case::from_name("lowercase"), Some(Lower));
        assert_eq!(Case::from_name("sentence-case"), Some(Sentence));
        assert_eq!(Case::from_name("title-case"), None);
        assert_eq!(Kebab.to_string(), "kebab-case");
    }
}
