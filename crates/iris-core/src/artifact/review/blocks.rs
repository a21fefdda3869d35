//! A review's findings read back from its markdown, as Iris writes it or as the user or a chat
//! edit left it: the studio's findings list, what it folds and what is posted on which line
//! all come from the text the user sees.

use std::ops::Range;

use super::{CONFIDENCE_MARK, Check, ID_MARK, Severity};

/// One `### Title (`file:line`) · 55%` block under a `## Severity (n)` heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingBlock {
    /// The `## Severity (n)` heading it is under.
    pub severity: Severity,
    /// The heading's title, before the location.
    pub title: String,
    /// The file of the heading's `file:line`, as written (empty when it names none).
    pub file: String,
    /// The first line of the heading's location, when it names one.
    pub line: Option<u32>,
    /// The last line, when the location is a span (`file:3-7`).
    pub end_line: Option<u32>,
    /// How sure the reviewer is (0-100), when the heading says.
    pub confidence: Option<u8>,
    /// The heading says it was not found in the change or dropped on a second look.
    pub unchecked: bool,
    /// The finding's stable id, when the heading ends with `· id 3fa9c01b2e`.
    pub id: Option<String>,
    /// The block's text under its heading (body, suggestion), trimmed.
    pub text: String,
    /// Where the block is in the markdown: its heading to the line before the next heading.
    pub range: Range<usize>,
}

impl FindingBlock {
    /// Whether the reviewer is less sure of it than `min` percent.
    pub fn unsure(&self, min: u8) -> bool {
        self.confidence.is_some_and(|c| c < min)
    }

    /// Whether threshold `min` folds it (as [`super::Finding::folded`]).
    pub fn folded(&self, min: u8) -> bool {
        min > 0 && (self.unsure(min) || self.unchecked)
    }
}

/// The findings of a review's markdown, in their order.
pub fn finding_blocks(markdown: &str) -> Vec<FindingBlock> {
    let mut blocks: Vec<FindingBlock> = Vec::new();
    let mut severity = None;
    let mut open = false;
    let mut at = 0;
    for line in markdown.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let bare = line.trim_end_matches(['\n', '\r']);
        let heading = bare.starts_with("# ") || bare.starts_with("## ") || is_left_out(bare);
        if heading || bare.starts_with("### ") {
            open = false;
        }
        if let Some(title) = bare.strip_prefix("## ") {
            let word = title.split_whitespace().next().unwrap_or_default();
            severity = Severity::ALL
                .into_iter()
                .find(|s| s.label().eq_ignore_ascii_case(word));
        } else if bare.starts_with("# ") {
            severity = None;
        } else if let (Some(severity), Some(heading)) = (severity, bare.strip_prefix("### ")) {
            blocks.push(block(severity, heading, start..at));
            open = true;
        } else if open && let Some(block) = blocks.last_mut() {
            block.range.end = at;
            block.text.push_str(line);
        }
    }
    for block in &mut blocks {
        block.text = block.text.trim().to_string();
    }
    blocks
}

/// A closing `_N ... left out ..._` line, which ends the last finding.
fn is_left_out(line: &str) -> bool {
    line.starts_with('_') && line.ends_with("._") && line.contains(" left out")
}

fn block(severity: Severity, heading: &str, range: Range<usize>) -> FindingBlock {
    let mut rest = heading;
    let (mut confidence, mut unchecked, mut id) = (None, false, None);
    while let Some((before, tail)) = rest.rsplit_once(CONFIDENCE_MARK) {
        let tail = tail.trim();
        if let Some(percent) = tail.strip_suffix('%').and_then(|p| p.parse().ok()) {
            confidence = Some(percent);
        } else if tail == Check::UNVERIFIED || tail == Check::DROPPED {
            unchecked = true;
        } else if let Some(hex) = tail.strip_prefix(ID_MARK)
            && !hex.is_empty()
            && hex.chars().all(|c| c.is_ascii_hexdigit())
        {
            id = Some(hex.to_string());
        } else {
            break;
        }
        rest = before;
    }
    let (title, location) = match rest.rsplit_once(" (`") {
        Some((title, loc)) => (title, loc.trim_end_matches(')').trim_end_matches('`')),
        None => (rest, ""),
    };
    let (file, line, end_line) = match location.rsplit_once(':') {
        Some((file, range)) if range.starts_with(|c: char| c.is_ascii_digit()) => {
            let (first, last) = range.split_once('-').unwrap_or((range, ""));
            (file.to_string(), first.parse().ok(), last.parse().ok())
        }
        _ => (location.to_string(), None, None),
    };
    FindingBlock {
        severity,
        title: title.trim().to_string(),
        file,
        line,
        end_line,
        confidence,
        unchecked,
        id,
        text: String::new(),
        range,
    }
}

/// The markdown without the findings `drop` picks: their blocks taken out, each severity's
/// count (`## High (2)`) made right again and a severity left without findings removed.
/// Everything else stays as written. Also returns how many were taken out.
pub fn without_findings(markdown: &str, drop: impl Fn(&FindingBlock) -> bool) -> (String, usize) {
    let dropped: Vec<Range<usize>> = finding_blocks(markdown)
        .into_iter()
        .filter(|b| drop(b))
        .map(|b| b.range)
        .collect();
    if dropped.is_empty() {
        return (markdown.to_string(), 0);
    }
    let mut kept = String::with_capacity(markdown.len());
    let mut at = 0;
    for range in &dropped {
        kept.push_str(&markdown[at..range.start]);
        at = range.end;
    }
    kept.push_str(&markdown[at..]);
    (recounted(&kept), dropped.len())
}

/// Each `## Severity (n)` heading with the number of findings under it; one with none,
/// and the blank line after it, left out.
fn recounted(markdown: &str) -> String {
    let counts: Vec<usize> = {
        let mut counts = Vec::new();
        for line in markdown.lines() {
            if severity_heading(line).is_some() {
                counts.push(0);
            } else if line.starts_with("## ") || line.starts_with("# ") {
                counts.push(usize::MAX);
            } else if line.starts_with("### ")
                && let Some(n) = counts.last_mut().filter(|n| **n != usize::MAX)
            {
                *n += 1;
            }
        }
        counts
    };
    let mut out: Vec<String> = Vec::new();
    let mut sections = counts.into_iter();
    let mut skip_blank = false;
    for line in markdown.lines() {
        if skip_blank && line.trim().is_empty() {
            skip_blank = false;
            continue;
        }
        skip_blank = false;
        if line.starts_with("## ") || line.starts_with("# ") {
            let count = sections.next().unwrap_or(usize::MAX);
            if let Some(label) = severity_heading(line) {
                if count == 0 {
                    skip_blank = true;
                    continue;
                }
                out.push(format!("## {label} ({count})"));
                continue;
            }
        }
        out.push(line.to_string());
    }
    let mut text = out.join("\n").trim_end().to_string();
    text.push('\n');
    text
}

/// The label of a `## High (2)` heading.
fn severity_heading(line: &str) -> Option<&'static str> {
    let heading = line.strip_prefix("## ")?;
    let word = heading.split_whitespace().next().unwrap_or_default();
    Severity::ALL
        .into_iter()
        .find(|s| s.label().eq_ignore_ascii_case(word))
        .map(Severity::label)
}

#[cfg(test)]
mod tests {
    use super::super::{Finding, Review};
    use super::*;

    fn review() -> Review {
        Review {
            summary: "Looks fine.".into(),
            findings: vec![
                Finding {
                    severity: Severity::High,
                    file: "src/app.rs".into(),
                    line: Some(12),
                    end_line: Some(14),
                    title: "Unchecked unwrap".into(),
                    body: "It panics.".into(),
                    confidence: Some(55),
                    ..Finding::default()
                },
                Finding {
                    severity: Severity::High,
                    file: "src/my file, v2.rs".into(),
                    line: Some(3),
                    title: "Invented".into(),
                    body: "Not there.".into(),
                    confidence: Some(90),
                    check: Some(Check::Unverified {
                        why: "the code it quotes is not there".into(),
                    }),
                    ..Finding::default()
                },
                Finding {
                    severity: Severity::Low,
                    file: "README.md".into(),
                    title: "Typo".into(),
                    body: "teh".into(),
                    suggestion: Some("the".into()),
                    ..Finding::default()
                },
            ],
            strengths: vec!["Small".into()],
        }
    }

    #[test]
    fn blocks_are_read_back_from_the_markdown() {
        let markdown = review().to_markdown();
        let blocks = finding_blocks(&markdown);
        let read: Vec<_> = blocks
            .iter()
            .map(|b| {
                (
                    b.severity,
                    b.title.as_str(),
                    b.file.as_str(),
                    b.line,
                    b.end_line,
                    b.confidence,
                    b.unchecked,
                )
            })
            .collect();
        assert_eq!(
            read,
            [
                (
                    Severity::High,
                    "Unchecked unwrap",
                    "src/app.rs",
                    Some(12),
                    Some(14),
                    Some(55),
                    false
                ),
                (
                    Severity::High,
                    "Invented",
                    "src/my file, v2.rs",
                    Some(3),
                    None,
                    Some(90),
                    true
                ),
                (Severity::Low, "Typo", "README.md", None, None, None, false),
            ]
        );
        assert_eq!(blocks[0].text, "It panics.");
        assert_eq!(blocks[2].text, "teh\n\n**Suggestion:** the");
        assert!(markdown[blocks[1].range.clone()].starts_with("### Invented"));
        assert!(blocks[1].folded(1) && blocks[0].folded(70) && !blocks[0].folded(50));
        let ids: Vec<Option<String>> = review()
            .findings
            .iter()
            .map(|f| Some(crate::artifact::review::memory::finding_id(f)))
            .collect();
        // Read in the markdown's order (by severity), which is the review's here.
        assert_eq!(blocks.iter().map(|b| b.id.clone()).collect::<Vec<_>>(), ids);
    }

    #[test]
    fn dropping_findings_recounts_the_severities() {
        let markdown = review().to_markdown();
        let (posted, dropped) = without_findings(&markdown, |b| b.folded(70));
        assert_eq!(dropped, 2);
        assert!(
            !posted.contains("Unchecked unwrap") && !posted.contains("## High"),
            "{posted}"
        );
        assert!(
            posted.contains("## Low (1)\n\n### Typo (`README.md`)"),
            "{posted}"
        );
        assert!(posted.ends_with("## Strengths\n\n- Small\n"), "{posted}");
        let (one, _) = without_findings(&markdown, |b| b.title == "Invented");
        assert!(one.contains("## High (1)\n\n### Unchecked unwrap"), "{one}");
        assert_eq!(
            without_findings(&markdown, |_| false),
            (markdown.clone(), 0)
        );
    }

    #[test]
    fn a_closing_line_ends_the_last_finding() {
        let markdown = "# Code review\n\n## Low (1)\n\n### Name (`a.rs:2`)\n\nShort.\n\n\
                        _1 less certain finding (under 70% confidence) left out._\n";
        let blocks = finding_blocks(markdown);
        assert_eq!(blocks[0].text, "Short.");
    }
}
