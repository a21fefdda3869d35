//! A floor under the title a weak model writes. A small model asked for a commit title
//! sometimes answers with the nearest line it has seen: a heading Iris wrote into the request
//! ("evidence"), the line that introduces the history sample, a `diff --git` line, a line of
//! the changed file; or with no words at all ("1.4.11.7819.00.133.0.20074"). The echo guard
//! compares a reply with the instructions only; this compares its title with the request
//! Iris wrote, and asks whether the title says anything in words.
//!
//! The commits of the history sample are left out of the comparison: a routine title
//! ("Update the changelog") may rightly be written again; so are git's prepared message and
//! the incoming commits of a merge or cherry-pick in progress, which a message keeps.

use std::collections::HashSet;

use serde_json::Value;

/// Why a title is no title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotATitle {
    /// It repeats a line of the request (quoted, cut).
    RepeatsEvidence(String),
    /// It has no word of prose in it.
    NoProse,
    /// More than half of its words are this one, repeated (`Add, add, add, Add...`).
    Repeated(String),
    /// It has fewer letters than punctuation marks.
    MostlyPunctuation,
}

impl NotATitle {
    /// Why, in words: "a line of the evidence Iris sent (...)".
    pub fn describe(&self) -> String {
        match self {
            NotATitle::RepeatsEvidence(line) => {
                format!(
                    "a line of the evidence Iris sent (\"{line}\"), not a sentence about the change"
                )
            }
            NotATitle::NoProse => "not a sentence: it has no word in it".to_string(),
            NotATitle::Repeated(word) => {
                format!("not a sentence: most of its words are \"{word}\", repeated")
            }
            NotATitle::MostlyPunctuation => {
                "not a sentence: it has fewer letters than punctuation marks".to_string()
            }
        }
    }
}

/// A title of this many words or more repeats a line when it lies along it.
const RUN: usize = 4;
/// Characters of a repeated line quoted back.
const QUOTED: usize = 60;

/// Whether the `title` field of `artifact` is no title, measured against `request`.
pub fn not_a_title(artifact: &Value, request: &str) -> Option<NotATitle> {
    let title = artifact.get("title")?.as_str()?;
    check(title, request)
}

/// [`not_a_title`] for a title's text.
pub fn check(title: &str, request: &str) -> Option<NotATitle> {
    let title = title.trim();
    if title.is_empty() {
        return None;
    }
    let bare = without_type_prefix(title);
    // A repository whose people title commits with a version (`npm version` does) may.
    if !bare.split_whitespace().any(is_prose_word) && !sample_has_wordless_title(request) {
        return Some(NotATitle::NoProse);
    }
    if let Some(babble) = babble(bare) {
        return Some(babble);
    }
    // A title cut with an ellipsis ends in a cut word, which is left out.
    let mut said = words(bare);
    if bare.ends_with("...") || bare.ends_with('…') {
        said.pop();
    }
    if said.is_empty() {
        return None;
    }
    evidence_lines(request)
        .find(|(line, file)| match file {
            true => repeats_file_line(title, &said, line),
            false => repeats_written(title, &said, line),
        })
        .map(|(line, _)| line)
        .map(|line| NotATitle::RepeatsEvidence(line.trim().chars().take(QUOTED).collect()))
}

/// Whether a title repeats a line Iris (or git) wrote: the line itself; one or two words of
/// a heading; or, for a title of [`RUN`] words or more, its first `RUN` words, or most of it
/// along the line (four in
/// five of its words in runs of `RUN` the line holds too, as a copied line with a word
/// changed does).
fn repeats_written(title: &str, said: &[String], text: &str) -> bool {
    if title == text.trim() {
        return true;
    }
    let line = words(text);
    if line.is_empty() {
        return false;
    }
    if said == line {
        return true;
    }
    if text.starts_with('#') && said.len() <= 2 && title_is_heading_word(said, &line) {
        return true;
    }
    if said.len() < RUN {
        return false;
    }
    // A title that opens as the line does ("Staged changes: 1 file, ...").
    if line.len() >= RUN && said[..RUN] == line[..RUN] {
        return true;
    }
    let runs: HashSet<&[String]> = line.windows(RUN).collect();
    let mut shared = vec![false; said.len()];
    for (i, window) in said.windows(RUN).enumerate() {
        if runs.contains(window) {
            shared[i..i + RUN].fill(true);
        }
    }
    shared.iter().filter(|&&s| s).count() * 5 >= said.len() * 4
}

/// Whether a whitespace-separated token is a word of prose: two letters at least, no more
/// digits than letters, punctuation around it left out; and, in a script that spaces its
/// words (Latin, Cyrillic, ...), none of the marks of a version, a path or an identifier
/// inside it (`1.4.11`, `src/lib.rs`, `evidence_summary`). A token of Chinese or Japanese
/// is a sentence of its own and may hold anything.
fn is_prose_word(token: &str) -> bool {
    let word = token.trim_matches(|c: char| !c.is_alphanumeric());
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    let digits = word.chars().filter(char::is_ascii_digit).count();
    let unspaced_script = word
        .chars()
        .any(|c| c.is_alphabetic() && ('\u{2E80}'..='\u{FFEF}').contains(&c));
    letters >= 2
        && digits <= letters
        && (unspaced_script || !word.contains(['_', '/', '\\', '.', ':', '=', '@']))
}

/// A title a small model babbled: one word said over and over (more than half of its words,
/// case and punctuation aside), or more punctuation than letters. A title may say a word
/// twice ("Add tests for add"), never mostly.
fn babble(title: &str) -> Option<NotATitle> {
    let said = words(title);
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for word in &said {
        *counts.entry(word.as_str()).or_default() += 1;
    }
    if let Some((word, count)) = counts.into_iter().max_by_key(|(_, count)| *count)
        && count >= 2
        && count * 2 > said.len()
    {
        return Some(NotATitle::Repeated(word.to_string()));
    }
    let letters = title.chars().filter(|c| c.is_alphabetic()).count();
    let marks = title.chars().filter(|c| is_punctuation(*c)).count();
    (letters < marks).then_some(NotATitle::MostlyPunctuation)
}

/// A punctuation mark: ASCII's, and the typographic ones a model writes (an ellipsis,
/// dashes, curly quotes). Symbols such as a gitmoji are not.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || "…–—‘’“”«»·¡¿、。，：；！？".contains(c)
}

/// Whether the history sample holds a title without a word of prose (`1.4.10`).
fn sample_has_wordless_title(request: &str) -> bool {
    crate::history::sample_titles(request)
        .iter()
        .any(|title| !title.split_whitespace().any(is_prose_word))
}

/// Whether `said` is one or two words of a heading's words `line`.
fn title_is_heading_word(said: &[String], line: &[String]) -> bool {
    !said.is_empty() && line.windows(said.len()).any(|w| w == said)
}

/// Whether a title is a line of code of a changed file: the line as written (its diff mark
/// left out), or its words when it has three or more. A line of prose (a changelog's entry,
/// a comment) may be a title; a title that only shares words with the code it describes
/// ("Add three(), the sum of one and two" for `/// Three, the sum of one and two.`) is one.
fn repeats_file_line(title: &str, said: &[String], line: &str) -> bool {
    let code = line.get(1..).unwrap_or_default().trim();
    let tokens: Vec<&str> = code.split_whitespace().collect();
    let prose = tokens.iter().filter(|t| is_prose_word(t)).count();
    if tokens.is_empty() || prose * 5 >= tokens.len() * 4 {
        return false;
    }
    title == line.trim() || title == code || (said.len() >= 3 && *said == words(code))
}

/// The lines of the request a title is compared with, each marked when it is a line of a
/// changed file (in a diff, after its `@@` header): all but the commits of the history sample
/// (its introduction stays).
fn evidence_lines(request: &str) -> impl Iterator<Item = (&str, bool)> {
    use crate::change::operation;
    let mut in_hunk = false;
    let mut in_operation = false;
    crate::history::sample_marked(request)
        .filter(|(_, sample_commit)| !sample_commit)
        // A merge's prepared title and a picked commit's are there to be kept.
        .filter(move |(line, _)| {
            if line.starts_with("## ") {
                in_operation = operation::is_heading(line);
            }
            !(in_operation && operation::is_kept_line(line))
        })
        .map(move |(line, _)| {
            if line.starts_with("@@") {
                in_hunk = true;
                return (line, false);
            }
            in_hunk = in_hunk && line.starts_with(['+', '-', ' ', '\\']);
            (line, in_hunk)
        })
}

/// `feat(scope): ` left out: the type is the project's, the rest is the model's.
fn without_type_prefix(title: &str) -> &str {
    match title.split_once(": ") {
        Some((prefix, rest))
            if !prefix.is_empty()
                && prefix.len() <= 30
                && prefix
                    .chars()
                    .all(|c| c.is_alphanumeric() || "()-_/!.".contains(c)) =>
        {
            rest
        }
        _ => title,
    }
}

/// Lowercased words: runs of letters and digits.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start of a commit request as Iris writes it.
    const REQUEST: &str = "Write the commit message for the staged changes.\n\n\
        ## Evidence gathered up front\n\n\
        Staged changes: 1 file(s), +4 -0 (4 lines)\n\
        Files by relevance:\n 95% ★★★★★ src/version.rs (modified, +1 -1)\n\n\
        diff --git a/src/version.rs b/src/version.rs\n--- a/src/version.rs\n+++ b/src/version.rs\n\
        @@ -1 +1 @@\n-pub const V: &str = \"1.4.10\";\n+pub const V: &str = \"1.4.11\";\n+import sys\n+/// Three, the sum of one and two.\n+- Fix crash when config is missing\n\n\
        How this repository's people write their commit messages (their recent commits, newest \
        first, those that changed the same files ahead of the rest; merges and bots left out):\n\
        - Update the changelog\n- Bump version to 1.4.10\n  Also tags the release.\n";

    #[test]
    fn what_smollm2_wrote_on_fd_is_no_title() {
        assert_eq!(
            check("1.4.11.7819.00.133.0.20074", REQUEST),
            Some(NotATitle::NoProse)
        );
        assert_eq!(
            check("evidence", REQUEST),
            Some(NotATitle::RepeatsEvidence(
                "## Evidence gathered up front".into()
            ))
        );
        let intro = check(
            "The repository's people write their commit messages (their r...",
            REQUEST,
        );
        assert!(
            matches!(&intro, Some(NotATitle::RepeatsEvidence(line)) if line.starts_with("How this repository's")),
            "{intro:?}"
        );
        for echo in [
            "diff --git a/src/version.rs b/src/version.rs",
            "+pub const V: &str = \"1.4.11\";",
            "pub const V: &str = \"1.4.11\"",
            "feat: Staged changes: 1 file(s), +4 -0",
        ] {
            assert!(
                matches!(check(echo, REQUEST), Some(NotATitle::RepeatsEvidence(_))),
                "{echo}"
            );
        }
    }

    #[test]
    fn a_title_about_the_change_passes() {
        for title in [
            "Bump the version to 1.4.11",
            "chore(release): 1.4.11 with the fixed walker",
            "Update the changelog",
            "Bump version to 1.4.10",
            "Fix",
            "Go 1.22",
            "Evidence of staged changes in the status view",
            "Add src/version.rs",
            "Import sys",
            "Add three(), the sum of one and two",
            "bump serde_json to 1.0.140",
            "Don't stage what the user's hook rewrote",
            "fix(parser): handle CRLF",
            "修复：配置缺失时崩溃",
            "修复2个bug",
            "更新README.md",
            "Fix crash when config is missing",
        ] {
            assert_eq!(check(title, REQUEST), None, "{title}");
        }
        assert_eq!(
            not_a_title(&serde_json::json!({"body": "x"}), REQUEST),
            None
        );
        assert_eq!(
            not_a_title(&serde_json::json!({"title": "42"}), REQUEST),
            Some(NotATitle::NoProse)
        );
    }

    #[test]
    fn a_title_of_one_word_repeated_or_of_punctuation_is_no_title() {
        assert_eq!(
            check("Add, add, add, Add, Add, Add, Add, Add…", REQUEST),
            Some(NotATitle::Repeated("add".into()))
        );
        assert_eq!(
            check("fix: Fix fix FIX the parser", REQUEST),
            Some(NotATitle::Repeated("fix".into()))
        );
        assert_eq!(
            check("Go!!! ... ?!", REQUEST),
            Some(NotATitle::MostlyPunctuation)
        );
        for title in [
            "Add tests for add",
            "Test the test runner's tests",
            "Fix",
            "✨ Add the walker",
            "Fix (a) [b] {c}",
        ] {
            assert_eq!(check(title, REQUEST), None, "{title}");
        }
    }

    #[test]
    fn a_merge_keeps_its_prepared_title_but_not_iris_lines() {
        let request = "Write the commit message.\n\n## A merge is in progress\n\nKeep the title.\n\n\
                       git's prepared message:\n> Merge branch 'feature/parser-rework'\n\n\
                       Incoming commits:\n- abc1234 Rework the parser for nested tables\n\n\
                       ## Evidence gathered up front\n\nStaged changes: 3 file(s)\n";
        assert_eq!(check("Merge branch 'feature/parser-rework'", request), None);
        assert_eq!(check("Rework the parser for nested tables", request), None);
        assert!(matches!(
            check("Staged changes: 3 file(s)", request),
            Some(NotATitle::RepeatsEvidence(_))
        ));
        // Outside the section a quoted line is evidence like any other.
        let quoted = "## Evidence gathered up front\n\n> Merge branch 'feature/parser-rework'\n";
        assert!(check("Merge branch 'feature/parser-rework'", quoted).is_some());
    }
}
