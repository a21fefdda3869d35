//! What the first request holds of what the author wrote (`iris eval --evidence`): the code
//! identifiers, paths and numbers of a commit's message, and how many of them the request
//! Iris would send for its change contains. No model is asked: a change to how evidence is
//! gathered can be measured on any history for free.

use serde::Serialize;

/// The terms of a message worth finding in the evidence: backticked spans, identifiers
/// (`snake_case`, `camelCase`, `Type::path`, `call()`), paths (`src/main.rs`, `Cargo.toml`)
/// and numbers of two digits or more (`#123`, `1.2.3`, `404`), each once, in order.
pub fn terms(message: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut add = |term: &str| {
        let term = term.trim_end_matches("()");
        if term.chars().count() >= 2 && !found.iter().any(|t| t == term) {
            found.push(term.to_string());
        }
    };
    let mut rest = message;
    // Backticked spans first, whatever they hold.
    let mut prose = String::new();
    while let Some(start) = rest.find('`') {
        prose.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('`') {
            Some(end) => {
                add(after[..end].trim());
                rest = &after[end + 1..];
            }
            None => {
                rest = after;
                break;
            }
        }
    }
    prose.push_str(rest);
    // Trailers (`Signed-off-by: ...`) and addresses are not the author's words about the code.
    let prose: Vec<&str> = prose.lines().filter(|l| !is_trailer(l)).collect();
    let prose = prose.join("\n");
    for word in prose.split(|c: char| c.is_whitespace() || ",;\"'<>[]{}!?*".contains(c)) {
        if word.contains("://") {
            continue;
        }
        let word = word
            .trim_start_matches(['(', '#'])
            .trim_end_matches(['.', ':', ')', '(']);
        let word = word.strip_suffix("()").unwrap_or(word);
        if is_code(word) {
            add(word);
        }
    }
    found
}

/// A trailer line: `Token-with-dashes: value`.
fn is_trailer(line: &str) -> bool {
    line.split_once(": ").is_some_and(|(key, _)| {
        key.contains('-') && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

/// Whether a word of prose names code, a path, an option or a number.
fn is_code(word: &str) -> bool {
    let word = word.trim_matches('_');
    let chars: Vec<char> = word.chars().collect();
    if chars.len() < 2 || !chars.iter().any(|c| c.is_alphanumeric()) {
        return false;
    }
    let digits = chars.iter().filter(|c| c.is_ascii_digit()).count();
    // A commit id is a hash, not a number the change holds.
    let hash = chars.len() >= 7
        && chars.iter().all(char::is_ascii_hexdigit)
        && chars.iter().any(|c| c.is_ascii_alphabetic());
    let number = digits >= 2
        && !hash
        && chars
            .iter()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '_'));
    let option = word.starts_with("--") && chars.len() > 3;
    let identifier = word.contains('_') && chars.iter().any(|c| c.is_alphabetic())
        || word.contains("::")
        || chars
            .windows(2)
            .any(|w| w[0].is_lowercase() && w[1].is_uppercase());
    let path = word.contains('/')
        && chars.iter().any(|c| c.is_alphabetic())
        && (word.contains('.') || word.matches('/').count() > 1 || word.starts_with("src"))
        || word.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && (2..=4).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_lowercase())
                && stem
                    .chars()
                    .all(|c| c.is_alphanumeric() || "_-./".contains(c))
        });
    number || identifier || path || option
}

/// One commit's evidence recall.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Recall {
    /// The terms of the author's message.
    pub terms: Vec<String>,
    /// Those the request holds.
    pub found: Vec<String>,
}

impl Recall {
    /// The terms of `message` found in `request`.
    pub fn of(message: &str, request: &str) -> Self {
        let terms = terms(message);
        let found = terms
            .iter()
            .filter(|t| holds(request, t))
            .cloned()
            .collect();
        Self { terms, found }
    }

    /// The share found; `None` for a message without terms.
    pub fn share(&self) -> Option<f64> {
        (!self.terms.is_empty()).then(|| self.found.len() as f64 / self.terms.len() as f64)
    }
}

/// Whether `text` holds `term`; a number only as a whole (`42` is not in `1423`).
fn holds(text: &str, term: &str) -> bool {
    if !term.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return text.contains(term);
    }
    text.match_indices(term).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + term.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_paths_and_numbers_are_terms_and_prose_is_not() {
        let message = "Fix the parser's `parse_header` on CRLF (#123)\n\n\
                       GitRepo::discover now reads src/lib.rs and Cargo.toml; \
                       stageTracked() is called 2 times, up to 1.2.3. See the docs.";
        assert_eq!(
            terms(message),
            [
                "parse_header",
                "123",
                "GitRepo::discover",
                "src/lib.rs",
                "Cargo.toml",
                "stageTracked",
                "1.2.3",
            ]
        );
        assert!(terms("Add a greeting to the main screen.").is_empty());
        // Not code: abbreviations, and/or, addresses, trailers, commit ids.
        assert!(
            terms("Tidy it, e.g. read/write; see https://x.io/a_b and abc1234f.\n\nSigned-off-by: A_B <a@b.c>")
                .is_empty(),
            "{:?}",
            terms("Tidy it, e.g. read/write; see https://x.io/a_b and abc1234f.")
        );
        assert_eq!(terms("Add --dry-run to gen"), ["--dry-run"]);
    }

    #[test]
    fn recall_is_the_share_of_terms_the_request_holds() {
        let recall = Recall::of(
            "Rename `old_name` in src/a.rs (#42)",
            "diff --git a/src/a.rs b/src/a.rs\n-fn old_name() {}",
        );
        assert_eq!(recall.terms, ["old_name", "src/a.rs", "42"]);
        assert_eq!(recall.found, ["old_name", "src/a.rs"]);
        assert_eq!(recall.share(), Some(2.0 / 3.0));
        assert_eq!(Recall::of("Tidy up.", "anything").share(), None);
        // A number counts only whole.
        assert_eq!(Recall::of("Raise it to 42", "limit 1423").found.len(), 0);
        assert_eq!(Recall::of("Raise it to 42", "limit = 42;").found.len(), 1);
    }
}
