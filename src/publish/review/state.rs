//! What a posted review records for the next one (pure): the commit it covered and its
//! findings, in a hidden comment in its body, which the forge keeps, so a re-review in CI
//! with no `.git/iris/` knows them; and the id each inline finding carries.

use serde::{Deserialize, Serialize};

use super::super::inline::FINDING_MARKER;
use iris_studio_core::artifact::review::memory::{MAX_NOTE_CHARS, Seen};

/// Starts the hidden comment that records a review; JSON follows, then ` -->`.
const STATE_MARKER: &str = "<!-- iris-reviewed ";
/// How many findings a record keeps at most (a forge caps a body near 64 KiB).
const MAX_RECORDED: usize = 100;

/// What a posted review covered.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Recorded {
    /// The commit reviewed up to, when the review covered committed history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// The findings on the pull request after it: posted then, or earlier and still open.
    pub findings: Vec<Seen>,
}

impl Recorded {
    /// The hidden comment that records it. Its JSON never holds `>`, so nothing in a title
    /// or quote ends the comment early.
    pub fn marker(&self) -> String {
        let kept = Recorded {
            head: self.head.clone(),
            findings: self
                .findings
                .iter()
                .take(MAX_RECORDED)
                .map(|f| Seen {
                    quote: f.quote.as_deref().map(|q| clipped(q, MAX_NOTE_CHARS)),
                    title: clipped(&f.title, MAX_NOTE_CHARS),
                    ..f.clone()
                })
                .collect(),
        };
        let json = serde_json::to_string(&kept)
            .unwrap_or_default()
            .replace('>', "\\u003e");
        format!("{STATE_MARKER}{json} -->")
    }

    /// The record in a review's `body`, if it holds one that reads.
    pub fn in_body(body: &str) -> Option<Self> {
        let start = body.rfind(STATE_MARKER)? + STATE_MARKER.len();
        let end = start + body[start..].find("-->")?;
        serde_json::from_str(body[start..end].trim()).ok()
    }
}

fn clipped(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// The id an inline finding's marker carries (none on one posted before ids were).
pub fn finding_id_in(body: &str) -> Option<String> {
    let start = body.rfind(FINDING_MARKER)? + FINDING_MARKER.len();
    let id = body[start..].split("-->").next()?.trim();
    (!id.is_empty() && id.chars().all(|c| c.is_ascii_hexdigit())).then(|| id.to_string())
}

/// The title of an inline finding from its comment's first line, `**High** · Title · 90%`.
pub fn finding_title_in(body: &str) -> Option<String> {
    let first = body.lines().next()?;
    let rest = first.strip_prefix("**")?.split_once("** · ")?.1;
    let title = match rest.rsplit_once(" · ") {
        Some((title, sure)) if sure.ends_with('%') => title,
        _ => rest,
    };
    Some(title.trim().to_string()).filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(title: &str, quote: Option<&str>) -> Seen {
        Seen {
            id: "0123456789".into(),
            file: "src/lib.rs".into(),
            quote: quote.map(str::to_string),
            title: title.into(),
            ..Seen::default()
        }
    }

    #[test]
    fn a_record_reads_back_from_the_body_it_ends() {
        let recorded = Recorded {
            head: Some("abc123".into()),
            findings: vec![seen("Compares with -->", Some("if a > b { x }"))],
        };
        let body = format!(
            "# Code review\n\nFine.\n\n{}\n<!-- iris-review -->",
            recorded.marker()
        );
        assert!(!recorded.marker()[4..recorded.marker().len() - 3].contains('>'));
        assert_eq!(Recorded::in_body(&body), Some(recorded));
        assert_eq!(
            Recorded::in_body("# Code review\n\n<!-- iris-review -->"),
            None
        );
        assert_eq!(Recorded::in_body("<!-- iris-reviewed {broken -->"), None);
    }

    #[test]
    fn a_record_is_bounded() {
        let recorded = Recorded {
            head: None,
            findings: (0..150)
                .map(|_| seen(&"t".repeat(500), Some(&"q".repeat(500))))
                .collect(),
        };
        let back = Recorded::in_body(&recorded.marker()).expect("reads");
        assert_eq!(back.findings.len(), MAX_RECORDED);
        assert_eq!(back.findings[0].title.chars().count(), MAX_NOTE_CHARS);
    }

    #[test]
    fn an_inline_findings_id_and_title_read_from_its_comment() {
        let body =
            "**High** · Overflow · 90%\n\nIt wraps.\n\n<!-- iris-review-finding 1a2b3c4d5e -->";
        assert_eq!(finding_id_in(body).as_deref(), Some("1a2b3c4d5e"));
        assert_eq!(finding_title_in(body).as_deref(), Some("Overflow"));
        assert_eq!(finding_id_in("x <!-- iris-review-finding -->"), None);
        assert_eq!(
            finding_title_in("**Low** · Untested · twice\n\n").as_deref(),
            Some("Untested · twice")
        );
        assert_eq!(finding_title_in("LGTM"), None);
    }
}
