//! commitlint's letter cases: a text "is" a case when converting it to that case leaves it
//! unchanged (quoted parts aside), as commitlint's `ensure` decides.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    Lower,
    Upper,
    Camel,
    Kebab,
    Pascal,
    Sentence,
    Snake,
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

    /// Whether `text` is in this case. Quoted parts (`` `x` ``, `"x"`, `'x'`) are left out,
    /// since they may hold names; an empty text or one starting with a digit is in every case.
    pub fn matches(self, text: &str) -> bool {
        let input = without_quoted(text);
        let input = input.trim();
        let converted = self.convert(input);
        if converted.is_empty() || converted.starts_with(|c: char| c.is_ascii_digit()) {
            return true;
        }
        converted == input
    }

    fn convert(self, input: &str) -> String {
        match self {
            Case::Lower => input.to_lowercase(),
            Case::Upper => input.to_uppercase(),
            Case::Sentence => upper_first(input),
            Case::Camel => camel(input),
            Case::Pascal => upper_first(&camel(input)),
            Case::Kebab => lower_words(input).join("-"),
            Case::Snake => lower_words(input).join("_"),
            Case::Start => words(input)
                .iter()
                .map(|w| upper_first(w))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `text` without its quoted parts (shortest match, as commitlint's `/`.*?`|".*?"|'.*?'/g`).
fn without_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find(['`', '"', '\'']) {
        let quote = rest[pos..].chars().next().unwrap_or('"');
        let after = &rest[pos + quote.len_utf8()..];
        match after.find(quote) {
            Some(end) => {
                out.push_str(&rest[..pos]);
                rest = &after[end + quote.len_utf8()..];
            }
            None => {
                out.push_str(&rest[..pos + quote.len_utf8()]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The words of a text as lodash splits them: runs of letters and digits, cut where a lower
/// case letter meets an upper case one (`fooBar`) and before the last capital of a capital
/// run followed by lower case (`HTMLParser` is `HTML`, `Parser`).
fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for run in text.split(|c: char| !c.is_alphanumeric()) {
        let chars: Vec<char> = run.chars().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (prev, cur) = (chars[i - 1], chars[i]);
            let next_lower = chars.get(i + 1).is_some_and(|c| c.is_lowercase());
            let cut = (prev.is_lowercase() && cur.is_uppercase())
                || (prev.is_uppercase() && cur.is_uppercase() && next_lower)
                || (prev.is_alphabetic() != cur.is_alphabetic());
            if cut {
                words.push(chars[start..i].iter().collect());
                start = i;
            }
        }
        if start < chars.len() {
            words.push(chars[start..].iter().collect());
        }
    }
    words
}

fn lower_words(text: &str) -> Vec<String> {
    words(text).iter().map(|w| w.to_lowercase()).collect()
}

fn camel(text: &str) -> String {
    let mut out = String::new();
    for (i, word) in lower_words(text).iter().enumerate() {
        if i == 0 {
            out.push_str(word);
        } else {
            out.push_str(&upper_first(word));
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
