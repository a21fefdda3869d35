//! What reviews remember (pure): a finding's stable id, the findings the user dismissed, the
//! rule that says a later finding is the same one, and the notes that tell the reviewer why.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Finding, Review};

/// How many notes a review request carries at most.
pub const MAX_NOTES: usize = 10;
/// How many characters a note keeps at most.
pub const MAX_NOTE_CHARS: usize = 200;

/// Text with its runs of whitespace made one space, trimmed.
pub fn normalized_code(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A title's words: lowercased, punctuation dropped.
pub fn title_words(title: &str) -> Vec<String> {
    title
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect::<String>()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// 64-bit FNV-1a: stable across runs, releases and platforms.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A finding's stable id, 10 hex digits: from its file, its quoted code (whitespace
/// normalized) and its title's words, never its line, so the same finding keeps it when
/// the code moves.
pub fn finding_id(finding: &Finding) -> String {
    id_of(&finding.file, finding.quote.as_deref(), &finding.title)
}

fn id_of(file: &str, quote: Option<&str>, title: &str) -> String {
    let key = format!(
        "{}\0{}\0{}",
        file.trim(),
        normalized_code(quote.unwrap_or_default()),
        title_words(title).join(" ")
    );
    format!("{:016x}", fnv1a(key.as_bytes()))[..10].to_string()
}

/// The review as JSON, each finding with its `id`.
pub fn review_json(review: &Review) -> serde_json::Result<Value> {
    let mut json = serde_json::to_value(review)?;
    if let Some(findings) = json.get_mut("findings").and_then(Value::as_array_mut) {
        for (value, finding) in findings.iter_mut().zip(&review.findings) {
            if let Some(object) = value.as_object_mut() {
                object.insert("id".into(), Value::String(finding_id(finding)));
            }
        }
    }
    Ok(json)
}

/// A finding as remembered: enough to dismiss it by id and to know it again.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Seen {
    /// Its stable id ([`finding_id`]).
    pub id: String,
    /// Its file, relative to the repository root.
    pub file: String,
    /// The line of code it quotes, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// Its title.
    pub title: String,
    /// The text of the line it pointed at, when it quoted nothing: where its block is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_text: Option<String>,
}

impl Seen {
    /// What is remembered of `finding`.
    pub fn of(finding: &Finding) -> Self {
        Self {
            id: finding_id(finding),
            file: finding.file.trim().to_string(),
            quote: finding
                .quote
                .as_deref()
                .map(str::trim)
                .filter(|q| !q.is_empty())
                .map(str::to_string),
            title: finding.title.trim().to_string(),
            line_text: None,
        }
    }

    /// What is remembered of `finding`, reviewed in a file whose text is `text`: for one that
    /// quotes nothing, the line it pointed at too.
    pub fn of_in(finding: &Finding, text: Option<&str>) -> Self {
        let mut seen = Self::of(finding);
        if seen.quote.is_none() {
            seen.line_text = line_of(text, finding.line)
                .map(normalized_code)
                .filter(|l| !l.is_empty());
        }
        seen
    }
}

/// Line `line` (1-based) of `text`.
fn line_of(text: Option<&str>, line: Option<u32>) -> Option<&str> {
    let at = usize::try_from(line?).ok()?.checked_sub(1)?;
    text?.lines().nth(at)
}

/// A finding the user dismissed, and why.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Dismissal {
    /// The finding's id when it was dismissed.
    pub id: String,
    /// Its file, relative to the repository root.
    pub file: String,
    /// The line of code it quoted, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// Its title.
    pub title: String,
    /// The text of the line it pointed at, when it quoted nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_text: Option<String>,
    /// Why it was dismissed, in the user's words (may be empty).
    pub reason: String,
    /// When, as `YYYY-MM-DD` (UTC).
    pub date: String,
}

impl Dismissal {
    /// `seen`, dismissed on `date` (`YYYY-MM-DD`) for `reason`.
    pub fn of(seen: Seen, reason: &str, date: &str) -> Self {
        Self {
            id: seen.id,
            file: seen.file,
            quote: seen.quote,
            title: seen.title,
            line_text: seen.line_text,
            reason: reason.trim().to_string(),
            date: date.to_string(),
        }
    }
}

/// Whether `finding` is the one `dismissal` dismissed: in the same file (`renames` maps an
/// old path to its new one), and either quoting the same code (whitespace normalized), or,
/// when it quotes none, with more than half of the title's words the same, on a line of the
/// block the dismissed one's line is in now (`text`: the file's text, when known).
pub fn is_dismissed(
    finding: &Finding,
    dismissal: &Dismissal,
    renames: &HashMap<String, String>,
    text: Option<&str>,
) -> bool {
    let file = dismissal.file.trim();
    let file = renames.get(file).map_or(file, |new| new.trim());
    if finding.file.trim() != file {
        return false;
    }
    let quote = finding
        .quote
        .as_deref()
        .map(normalized_code)
        .filter(|q| !q.is_empty());
    let dismissed_quote = dismissal
        .quote
        .as_deref()
        .map(normalized_code)
        .filter(|q| !q.is_empty());
    match (quote, dismissed_quote) {
        (Some(quote), Some(dismissed)) => quote == dismissed,
        (Some(_), None) => false,
        (None, _) => {
            most_words_match(&finding.title, &dismissal.title)
                && in_block(finding.line, dismissal.line_text.as_deref(), text)
        }
    }
}

/// Whether `line` is in a block around a line whose text is `anchor`, wherever it moved to
/// in `text`. Without the anchor, the line or the text there is no telling, and it is.
fn in_block(line: Option<u32>, anchor: Option<&str>, text: Option<&str>) -> bool {
    let (Some(line), Some(anchor), Some(text)) = (line, anchor, text) else {
        return true;
    };
    let lines: Vec<&str> = text.lines().collect();
    let at = line as usize;
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| normalized_code(l) == anchor)
        .any(|(i, _)| {
            let (start, end) = block_around(&lines, i);
            (start + 1..=end + 1).contains(&at)
        })
}

/// The block line `at` (0-based) is in, as first and last index: from the nearest line above
/// it that is indented less (its header) down to the next line indented as little (its end,
/// a closing bracket); for a header, from it to its end. At the top level, the lines between
/// blank lines.
fn block_around(lines: &[&str], at: usize) -> (usize, usize) {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let blank = |l: &&str| l.trim().is_empty();
    let own = indent(lines[at]);
    let next = lines[at + 1..].iter().find(|l| !blank(l));
    let (header, level) = match next {
        Some(next) if indent(next) > own => (at, own),
        _ => match (0..at)
            .rev()
            .find(|&i| !blank(&lines[i]) && indent(lines[i]) < own)
        {
            Some(i) => (i, indent(lines[i])),
            None => {
                let start = (0..at)
                    .rev()
                    .find(|&i| blank(&lines[i]))
                    .map_or(0, |i| i + 1);
                let end = (at..lines.len())
                    .find(|&i| blank(&lines[i]))
                    .map_or(lines.len() - 1, |i| i - 1);
                return (start, end);
            }
        },
    };
    let end = (header + 1..lines.len())
        .find(|&i| !blank(&lines[i]) && indent(lines[i]) <= level)
        .map_or(lines.len() - 1, |i| {
            let closes = lines[i].trim_start().starts_with(['}', ')', ']']);
            if closes { i } else { i - 1 }
        });
    (header, end.max(at))
}

/// Whether more than half of the words of the longer title are in the other.
fn most_words_match(a: &str, b: &str) -> bool {
    let (a, b) = (title_words(a), title_words(b));
    let longest = a.len().max(b.len());
    if longest == 0 {
        return false;
    }
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    let mut pool = long.clone();
    let mut common = 0;
    for word in short {
        if let Some(at) = pool.iter().position(|w| w == word) {
            pool.swap_remove(at);
            common += 1;
        }
    }
    common * 2 > longest
}

/// The review without the findings `dismissals` dismissed, and how many were left out;
/// `text_of` gives a file's text as reviewed, when it can.
pub fn without_dismissed(
    review: &Review,
    dismissals: &[Dismissal],
    renames: &HashMap<String, String>,
    text_of: impl Fn(&str) -> Option<String>,
) -> (Review, usize) {
    let mut kept = review.clone();
    kept.findings.retain(|f| {
        let mut text = None;
        !dismissals.iter().any(|d| {
            let text = text.get_or_insert_with(|| text_of(f.file.trim()));
            is_dismissed(f, d, renames, text.as_deref())
        })
    });
    let left_out = review.findings.len() - kept.findings.len();
    (kept, left_out)
}

/// The closing line of a review some dismissed findings were left out of (`how`: how to
/// list them).
pub fn dismissed_line(count: usize, how: &str) -> String {
    let findings = if count == 1 {
        "1 finding dismissed earlier".to_string()
    } else {
        format!("{count} findings dismissed earlier")
    };
    format!("_{findings} left out: {how} lists them._")
}

/// The notes a review request carries about `files` (paths relative to the repository
/// root): a dismissal's title, the code it quoted and the reason, at most [`MAX_NOTES`],
/// each at most [`MAX_NOTE_CHARS`] characters.
pub fn dismissal_notes(dismissals: &[Dismissal], files: &[String]) -> Vec<String> {
    dismissals
        .iter()
        .filter(|d| files.iter().any(|f| f.trim() == d.file.trim()))
        .take(MAX_NOTES)
        .map(|d| {
            let on = on_quote(d.quote.as_deref());
            let reason = match d.reason.trim() {
                "" => "dismissed, no reason given".to_string(),
                reason => reason.to_string(),
            };
            clip(
                &format!(
                    "\"{}\"{on} in {} is accepted here: {reason}",
                    d.title.trim(),
                    d.file.trim()
                ),
                MAX_NOTE_CHARS,
            )
        })
        .collect()
}

/// The notes a re-review's request carries about the findings already on the pull request:
/// each one's title, file and quoted code, at most [`MAX_NOTES`] twice over, each at most
/// [`MAX_NOTE_CHARS`] characters.
pub fn earlier_notes(findings: &[Seen]) -> Vec<String> {
    findings
        .iter()
        .take(MAX_NOTES * 2)
        .map(|f| {
            let on = on_quote(f.quote.as_deref());
            clip(
                &format!("\"{}\"{on} in {}", f.title.trim(), f.file.trim()),
                MAX_NOTE_CHARS,
            )
        })
        .collect()
}

/// Whether a later change resolved `finding`: its file is gone (`text` is `None`) or no
/// longer holds the code it quoted (whitespace normalized). A finding that quoted nothing
/// cannot be told resolved, so it stays.
pub fn resolved(finding: &Seen, text: Option<&str>) -> bool {
    let Some(quote) = finding
        .quote
        .as_deref()
        .map(normalized_code)
        .filter(|q| !q.is_empty())
    else {
        return false;
    };
    match text {
        None => true,
        Some(text) => !normalized_code(text).contains(&quote),
    }
}

/// ` on `code`` for a note about a finding that quoted code, else nothing.
fn on_quote(quote: Option<&str>) -> String {
    quote
        .map(normalized_code)
        .filter(|q| !q.is_empty())
        .map(|q| format!(" on `{q}`"))
        .unwrap_or_default()
}

/// `text` cut to `max` characters, an ellipsis marking the cut.
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(file: &str, line: u32, quote: Option<&str>, title: &str) -> Finding {
        Finding {
            file: file.into(),
            line: Some(line),
            quote: quote.map(str::to_string),
            title: title.into(),
            ..Finding::default()
        }
    }

    fn dismissal(of: &Finding) -> Dismissal {
        Dismissal::of(Seen::of(of), "intended", "2026-01-01")
    }

    #[test]
    fn a_finding_moved_lines_keeps_its_id() {
        let before = finding("src/a.rs", 3, Some("let x = y.unwrap();"), "Panics on None");
        let after = finding(
            "src/a.rs",
            6,
            Some("  let x =  y.unwrap();"),
            "panics on none!",
        );
        assert_eq!(finding_id(&before), finding_id(&after));
        assert_eq!(finding_id(&before).len(), 10);
        assert!(finding_id(&before).chars().all(|c| c.is_ascii_hexdigit()));
        // Pinned: the id must not change between releases.
        assert_eq!(finding_id(&before), finding_id(&before.clone()));
    }

    #[test]
    fn a_different_quote_file_or_title_gives_another_id() {
        let one = finding("src/a.rs", 3, Some("let x = y.unwrap();"), "Panics on None");
        let quote = finding("src/a.rs", 3, Some("let z = w.unwrap();"), "Panics on None");
        let file = finding("src/b.rs", 3, Some("let x = y.unwrap();"), "Panics on None");
        let title = finding("src/a.rs", 3, Some("let x = y.unwrap();"), "Leaks memory");
        for other in [quote, file, title] {
            assert_ne!(finding_id(&one), finding_id(&other));
        }
    }

    #[test]
    fn the_same_quote_in_the_same_file_is_the_dismissed_finding() {
        let old = finding("src/a.rs", 3, Some("let x = y.unwrap();"), "Panics on None");
        let gone = dismissal(&old);
        let none = HashMap::new();
        // Moved lines, other whitespace, another wording: still the same.
        let moved = finding("src/a.rs", 9, Some("let x  = y.unwrap();"), "May panic");
        assert!(is_dismissed(&moved, &gone, &none, None));
        // Other code in the same file is not.
        let other = finding("src/a.rs", 3, Some("let z = w.unwrap();"), "Panics on None");
        assert!(!is_dismissed(&other, &gone, &none, None));
        // Nor the same code in another file, unless it was renamed there.
        let elsewhere = finding("src/b.rs", 3, Some("let x = y.unwrap();"), "Panics on None");
        assert!(!is_dismissed(&elsewhere, &gone, &none, None));
        let renamed = HashMap::from([("src/a.rs".to_string(), "src/b.rs".to_string())]);
        assert!(is_dismissed(&elsewhere, &gone, &renamed, None));
    }

    #[test]
    fn without_a_quote_most_of_the_title_must_match() {
        let old = finding("src/a.rs", 3, None, "Missing error handling in parse");
        let gone = dismissal(&old);
        let none = HashMap::new();
        let close = finding("src/a.rs", 40, None, "Missing error handling for parse");
        assert!(is_dismissed(&close, &gone, &none, None));
        let far = finding("src/a.rs", 3, None, "Missing tests");
        assert!(!is_dismissed(&far, &gone, &none, None));
        let (kept, left_out) = without_dismissed(
            &Review {
                findings: vec![close, far],
                ..Review::default()
            },
            &[gone],
            &none,
            |_| None,
        );
        assert_eq!(left_out, 1);
        assert_eq!(kept.findings[0].title, "Missing tests");
    }

    const PARSE: &str = "\
use std::io;

pub fn parse(input: &str) -> u32 {
    let base = 10;

    input.parse().unwrap_or(base)
}

pub fn print(n: u32) {
    println!(\"{n}\");
}
";

    #[test]
    fn without_a_quote_the_finding_must_be_in_the_block_the_code_moved_to() {
        // Dismissed on line 6 of `parse` (its blank line within the body is part of it).
        let old = finding("src/a.rs", 6, None, "Silent fallback on bad input");
        let gone = Dismissal::of(Seen::of_in(&old, Some(PARSE)), "intended", "2026-01-01");
        assert_eq!(
            gone.line_text.as_deref(),
            Some("input.parse().unwrap_or(base)")
        );
        let none = HashMap::new();
        // Three lines pushed in above: parse() is now lines 6 to 10.
        let moved = format!("// one\n// two\n// three\n{PARSE}");
        for line in [6, 7, 9, 10] {
            let again = finding("src/a.rs", line, None, "Silent fallback on bad input");
            assert!(
                is_dismissed(&again, &gone, &none, Some(&moved)),
                "line {line}"
            );
        }
        // print() is another block, and so is the top of the file.
        for line in [4, 12, 13] {
            let other = finding("src/a.rs", line, None, "Silent fallback on bad input");
            assert!(
                !is_dismissed(&other, &gone, &none, Some(&moved)),
                "line {line}"
            );
        }
        // The line edited beside it keeps the block; the line itself gone, nothing matches.
        let edited = moved.replace("let base = 10;", "let base = 16;");
        let again = finding("src/a.rs", 9, None, "Silent fallback on bad input");
        assert!(is_dismissed(&again, &gone, &none, Some(&edited)));
        let rewritten = moved.replace("unwrap_or(base)", "expect(\"a number\")");
        assert!(!is_dismissed(&again, &gone, &none, Some(&rewritten)));
    }

    #[test]
    fn notes_bear_on_the_files_under_review_and_are_bounded() {
        let mut many: Vec<Dismissal> = (0..15)
            .map(|i| Dismissal {
                reason: "x".repeat(300),
                ..dismissal(&finding("src/a.rs", i, Some("a.unwrap()"), "Unwrap"))
            })
            .collect();
        many.push(dismissal(&finding("src/b.rs", 1, None, "Other file")));
        let notes = dismissal_notes(&many, &["src/a.rs".to_string()]);
        assert_eq!(notes.len(), MAX_NOTES);
        assert!(notes.iter().all(|n| n.chars().count() <= MAX_NOTE_CHARS));
        assert!(
            notes[0].starts_with("\"Unwrap\" on `a.unwrap()` in src/a.rs is accepted here: xxx")
        );
        assert!(dismissal_notes(&many, &["src/c.rs".to_string()]).is_empty());
    }

    #[test]
    fn the_json_gives_each_finding_its_id() {
        let one = finding("src/a.rs", 3, Some("a()"), "T");
        let json = review_json(&Review {
            findings: vec![one.clone()],
            ..Review::default()
        })
        .unwrap_or_default();
        assert_eq!(json["findings"][0]["id"], finding_id(&one).as_str());
    }

    #[test]
    fn a_finding_is_resolved_when_its_code_is_gone_or_changed() {
        let seen = Seen::of(&finding(
            "src/a.rs",
            3,
            Some("let x =  y.unwrap();"),
            "Unwrap",
        ));
        assert!(!resolved(
            &seen,
            Some("fn f() {\n    let x = y.unwrap();\n}\n")
        ));
        assert!(resolved(&seen, Some("fn f() {\n    let x = y?;\n}\n")));
        assert!(resolved(&seen, None));
        let unquoted = Seen::of(&finding("src/a.rs", 3, None, "Missing tests"));
        assert!(!resolved(&unquoted, None));
    }

    #[test]
    fn earlier_notes_are_bounded() {
        let many: Vec<Seen> = (0..30)
            .map(|i| Seen::of(&finding("src/a.rs", i, Some(&"q".repeat(300)), "Long")))
            .collect();
        let notes = earlier_notes(&many);
        assert_eq!(notes.len(), MAX_NOTES * 2);
        assert!(notes.iter().all(|n| n.chars().count() <= MAX_NOTE_CHARS));
        assert!(notes[0].starts_with("\"Long\" on `qqq"));
    }
}
