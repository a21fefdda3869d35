//! `kubernetes-secret`: the values under `data:` and `stringData:` of a Kubernetes
//! `kind: Secret` manifest. Every value there is a secret by the manifest's own word,
//! whatever it looks like (base64 of a short password is no random token).
//!
//! The manifest is read around the `kind: Secret` line, up to the YAML document's edges
//! (`---`) within a bound, as a file, a diff (each line behind `+`, `-` or a space) or a
//! `file_read` answer (each line behind its number and `| `) shows it.

use std::ops::Range;
use std::sync::Arc;

use super::locate::line_body;
use super::rules::Suspect;
use super::value::{is_placeholder, is_reference};

/// Lines looked at above and below the `kind: Secret` line.
const ABOVE: usize = 100;
const BELOW: usize = 400;

/// Every value of the `data:` and `stringData:` blocks of the document holding `kind`.
pub(crate) fn kubernetes_secrets(
    text: &str,
    kind: Range<usize>,
    rule: &Arc<str>,
    priority: usize,
    found: &mut Vec<Suspect>,
) {
    let lines = document(text, kind);
    // The indentation of the `data:` line whose entries are being read, and of the entry
    // whose value is a block scalar (`key: |`) being read.
    let mut block: Option<usize> = None;
    let mut scalar: Option<usize> = None;
    let mut push = |span: Range<usize>| found.push(Suspect::new(rule, span, priority));
    for line in lines {
        let (body_at, body) = line_body(&text[line.clone()]);
        let indent = body.len() - body.trim_start().len();
        let trimmed = body.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let start = line.start + body_at + indent;
        if scalar.is_some_and(|key| indent > key) {
            push(start..start + trimmed.len());
            continue;
        }
        scalar = None;
        if let Some(parent) = block
            && indent > parent
        {
            match value_of(trimmed) {
                Some(Value::Inline(value)) => push(start + value.start..start + value.end),
                Some(Value::Scalar) => scalar = Some(indent),
                None => {}
            }
            continue;
        }
        block = matches!(trimmed, "data:" | "stringData:").then_some(indent);
    }
}

/// What follows an entry's key.
enum Value {
    /// On the line: its span.
    Inline(Range<usize>),
    /// A block scalar (`|`, `>`): on the lines below, indented further.
    Scalar,
}

/// The lines of the YAML document around `kind`: from the `---` above (or `ABOVE` lines up)
/// to the `---` below (or `BELOW` lines down).
fn document(text: &str, kind: Range<usize>) -> Vec<Range<usize>> {
    let is_edge =
        |line: &str| line_body(line).1.trim_end() == "---" || line.starts_with("diff --git ");
    let mut start = text[..kind.start].rfind('\n').map_or(0, |i| i + 1);
    for _ in 0..ABOVE {
        if start == 0 {
            break;
        }
        let above = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        if is_edge(&text[above..start - 1]) {
            break;
        }
        start = above;
    }
    let mut lines = Vec::new();
    let mut at = start;
    while at < text.len() && lines.len() < ABOVE + BELOW {
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        if at > kind.end && is_edge(&text[at..end]) {
            break;
        }
        lines.push(at..end);
        at = end + 1;
    }
    lines
}

/// The value of `key: value` (trimmed, inside its quotes), when it may be a secret: not
/// empty, not a template or a placeholder; or the mark of a block scalar below.
fn value_of(entry: &str) -> Option<Value> {
    let colon = entry.find(": ")?;
    let key = &entry[..colon];
    if key.is_empty()
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-\"'".contains(&b))
    {
        return None;
    }
    let raw = &entry[colon + 2..];
    let lead = raw.len() - raw.trim_start().len();
    let mut value = raw.trim();
    if matches!(value, "|" | ">" | "|-" | ">-" | "|+" | ">+") {
        return Some(Value::Scalar);
    }
    let mut start = colon + 2 + lead;
    if let Some(inner) = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
    {
        value = inner;
        start += 1;
    }
    // Shorter is a word or two in base64 (`YmFyCg==` is `bar`), no credential.
    let usable = value.len() >= 10
        && !value.starts_with(['|', '>', '&', '*', '!'])
        && !is_reference(value)
        && !is_placeholder(value);
    usable.then_some(Value::Inline(start..start + value.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_that_may_be_secrets() {
        let inline = |entry: &str| match value_of(entry) {
            Some(Value::Inline(span)) => Some(span),
            _ => None,
        };
        assert_eq!(inline("password: cGFzc3dvcmQ="), Some(10..22));
        assert_eq!(inline("password: cGFzcw=="), None, "too short");
        assert_eq!(inline("token: \"abcd1234wxyz\""), Some(8..20));
        assert_eq!(inline("password: {{ .Values.password }}"), None);
        assert_eq!(inline("key: \"\""), None);
        assert!(matches!(value_of("cert: |"), Some(Value::Scalar)));
    }

    #[test]
    fn a_manifest_in_any_order_case_and_scalar_style() {
        use crate::secrets::{Scanner, SecretsIgnore};
        let scanner = Scanner::new(SecretsIgnore::none());
        for (text, secrets) in [
            (
                "apiVersion: v1\ndata:\n\tuser: YWRtaW5pc3RyYXRvcg==\n\tpass: cGFzc3dvcmQ=\n\tshort: YmFyCg==\nkind: secret\n",
                vec!["YWRtaW5pc3RyYXRvcg==", "cGFzc3dvcmQ="],
            ),
            (
                "kind: Secret\ndata:\n  .dockercfg: |\n    eyJhdXRocyI6e30K\n    eyJhdXRocyI6e31K\nmetadata:\n  name: x\n",
                vec!["eyJhdXRocyI6e30K", "eyJhdXRocyI6e31K"],
            ),
        ] {
            let got = scanner.redact(text);
            for secret in &secrets {
                assert!(!got.text.contains(secret), "{}", got.text);
            }
            assert_eq!(got.findings.len(), secrets.len(), "{}", got.text);
            assert!(got.text.contains("name: x") || !text.contains("name: x"));
        }
    }
}
