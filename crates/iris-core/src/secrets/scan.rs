//! Finding the secrets of a text: the keyword prefilter, the rules' patterns on the lines it
//! picks, the checks that tell a token from a look-alike, and which match wins an overlap.

use std::collections::BTreeMap;
use std::ops::Range;

use regex::Captures;

use super::generic::{Site, generic, named, spells_words};
use super::kubernetes::kubernetes_secrets;
use super::private_key::private_keys;
use super::rules::{Check, Compiled, KeywordSet, MARKER, Rule, Suspect};
use super::value::{entropy, has_filler, is_placeholder, url_password};

/// The secrets of `text`: sorted by position, never overlapping each other or a marker.
pub(crate) fn candidates(compiled: &Compiled, text: &str) -> Vec<Suspect> {
    let lines = flagged_lines(compiled, text);
    let mut found = Vec::new();
    // Markers this module wrote, and examples a rule recognised: no candidate may overlap.
    let mut blocked = Vec::new();
    for (line, rows) in lines {
        for &row in &rows {
            if row == MARKER {
                let base = line.start;
                blocked.extend(
                    compiled
                        .marker
                        .find_iter(&text[line.clone()])
                        .map(|m| base + m.start()..base + m.end()),
                );
                continue;
            }
            let priority = row as usize;
            let Some(rule) = compiled.rules.get(priority) else {
                continue;
            };
            let slice = &text[line.clone()];
            match &rule.check {
                Check::PrivateKey => {
                    private_keys(compiled, text, line.clone(), priority, &mut found);
                }
                Check::KubernetesSecret => {
                    if rule.regex.is_match(slice) {
                        kubernetes_secrets(text, line.clone(), &rule.id, priority, &mut found);
                    }
                }
                Check::Generic | Check::Named(_) => {
                    assignments(rule, priority, text, line.clone(), &mut found, &mut blocked);
                }
                check => {
                    for caps in rule.regex.captures_iter(slice) {
                        let at =
                            |span: Range<usize>| line.start + span.start..line.start + span.end;
                        match judge(rule, check, slice, &caps) {
                            Verdict::Secret(span) => {
                                found.push(Suspect::new(&rule.id, at(span), priority))
                            }
                            Verdict::Example(span) => blocked.push(at(span)),
                            Verdict::No => {}
                        }
                    }
                }
            }
        }
    }
    resolve(found, blocked)
}

/// The secrets `rule` (generic-secret or a named row) finds in the assignments of `line`;
/// its documented public values are blocked.
fn assignments(
    rule: &Rule,
    priority: usize,
    text: &str,
    line: Range<usize>,
    found: &mut Vec<Suspect>,
    blocked: &mut Vec<Range<usize>>,
) {
    // A match inside the value read before is part of that value (`key=key=key=...`);
    // reading it again would make a long line quadratic.
    let mut read_to = 0;
    for m in rule.regex.find_iter(&text[line.clone()]) {
        let site = Site {
            text,
            line: line.clone(),
            assignment: line.start + m.start()..line.start + m.end(),
        };
        if site.assignment.start < read_to {
            continue;
        }
        let assignment = match &rule.check {
            Check::Named(shape) => named(&site, &rule.keywords, shape),
            _ => generic(&site),
        };
        read_to = assignment.end;
        match assignment.secret {
            Some(span) if rule.public_values.contains(&text[span.clone()]) => blocked.push(span),
            Some(span) => found.push(Suspect::new(&rule.id, span, priority)),
            None => {}
        }
    }
}

/// The lines holding a keyword, each with the rows it wakes (sorted, once each): one pass
/// over the text per keyword set, the lists merged.
fn flagged_lines(compiled: &Compiled, text: &str) -> Vec<(Range<usize>, Vec<u32>)> {
    let mut hits: Vec<(usize, usize, u32)> = Vec::new();
    for set in &compiled.keywords {
        lines_with(set, text, &mut hits);
    }
    hits.sort_unstable();
    hits.dedup();
    let mut lines: Vec<(Range<usize>, Vec<u32>)> = Vec::new();
    for (start, end, row) in hits {
        match lines.last_mut() {
            Some((line, rows)) if line.start == start => rows.push(row),
            _ => lines.push((start..end, vec![row])),
        }
    }
    lines
}

/// Adds (line start, line end, row) for each row a keyword of `set` wakes; each once per
/// line for this set.
fn lines_with(set: &KeywordSet, text: &str, hits: &mut Vec<(usize, usize, u32)>) {
    let mut current: Option<Range<usize>> = None;
    let mut woken: Vec<u32> = Vec::new();
    let flush = |line: &Option<Range<usize>>, woken: &mut Vec<u32>, hits: &mut Vec<_>| {
        if let Some(line) = line {
            woken.sort_unstable();
            woken.dedup();
            hits.extend(woken.drain(..).map(|row| (line.start, line.end, row)));
        }
    };
    for m in set.automaton.find_iter(text) {
        let wakes = &set.wakes[m.pattern().as_usize()];
        let at = m.start();
        if let Some(line) = &current
            && line.contains(&at)
        {
            woken.extend_from_slice(wakes);
            continue;
        }
        // Keywords hold no line break and come in order, so a match is on a later line.
        let from = match &current {
            Some(line) if line.end <= at => line.end,
            _ => 0,
        };
        flush(&current, &mut woken, hits);
        let start = text[from..at].rfind('\n').map_or(from, |i| from + i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        current = Some(start..end);
        woken.extend_from_slice(wakes);
    }
    flush(&current, &mut woken, hits);
}

/// Keeps the candidates that win: earlier rules first, then earlier positions; anything
/// overlapping a blocked span or a kept candidate goes.
fn resolve(mut found: Vec<Suspect>, mut blocked: Vec<Range<usize>>) -> Vec<Suspect> {
    found.sort_by_key(|c| (c.priority, c.span.start));
    // start -> (end, index into found, or None for a blocked span)
    let mut kept: BTreeMap<usize, (usize, Option<usize>)> = BTreeMap::new();
    // Blocked spans merged where they overlap, so the map holds disjoint ones.
    blocked.sort_by_key(|span| span.start);
    let mut merged: Option<Range<usize>> = None;
    for span in blocked {
        match &mut merged {
            Some(m) if span.start < m.end => m.end = m.end.max(span.end),
            _ => {
                if let Some(m) = merged.replace(span) {
                    kept.insert(m.start, (m.end, None));
                }
            }
        }
    }
    if let Some(m) = merged {
        kept.insert(m.start, (m.end, None));
    }
    for (i, c) in found.iter().enumerate() {
        if c.span.is_empty() {
            continue;
        }
        let overlaps = kept
            .range(..c.span.end)
            .next_back()
            .is_some_and(|(_, (end, _))| *end > c.span.start);
        if !overlaps {
            kept.insert(c.span.start, (c.span.end, Some(i)));
        }
    }
    let keep: Vec<usize> = kept.values().filter_map(|(_, i)| *i).collect();
    let mut slots: Vec<Option<Suspect>> = found.into_iter().map(Some).collect();
    keep.into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect()
}

/// What a pattern's match turned out to be.
enum Verdict {
    /// The span of the secret.
    Secret(Range<usize>),
    /// A token of the rule's exact shape that is a stand-in or a published example: no
    /// broader rule may take it either.
    Example(Range<usize>),
    No,
}

fn judge(rule: &Rule, check: &Check, line: &str, caps: &Captures) -> Verdict {
    let Some(s) = caps.name("s") else {
        return Verdict::No;
    };
    let value = s.as_str();
    match check {
        _ if rule.public_values.contains(value) => Verdict::Example(s.range()),
        Check::Token {
            min_entropy,
            joined,
            needs_digit,
            public_near,
        } => {
            if !standalone(line, s.range(), joined) {
                Verdict::No
            } else if entropy(value) >= *min_entropy
                && (!needs_digit || value.bytes().any(|b| b.is_ascii_digit()))
                && !is_placeholder(value)
                && !has_filler(value)
                && !spells_words(value)
                && !public_near
                    .iter()
                    .any(|u| around(line, s.range()).contains(u.as_str()))
            {
                Verdict::Secret(s.range())
            } else {
                Verdict::Example(s.range())
            }
        }
        Check::Opaque { joined } if standalone(line, s.range(), joined) => {
            Verdict::Secret(s.range())
        }
        Check::UrlPassword => {
            let user = caps.name("user").map_or("", |u| u.as_str());
            let host = caps.name("host").map_or("", |h| h.as_str());
            if url_password(value, user, host) {
                Verdict::Secret(s.range())
            } else {
                Verdict::No
            }
        }
        _ => Verdict::No,
    }
}

/// The part of `line` within 256 bytes of `span`: where a token's context is looked for,
/// so a long line costs no more per match than a short one.
fn around(line: &str, span: Range<usize>) -> &str {
    let mut start = span.start.saturating_sub(256);
    while !line.is_char_boundary(start) {
        start += 1;
    }
    let mut end = (span.end + 256).min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    &line[start..end]
}

/// Not a piece of something longer: the bytes on either side cannot continue the token
/// (`=` only ends one, as base64 padding; before a token it is an assignment).
fn standalone(line: &str, span: Range<usize>, joined: &[u8]) -> bool {
    let bytes = line.as_bytes();
    let joins = |b: u8| b.is_ascii_alphanumeric() || joined.contains(&b);
    // A diff's `+` or `-` in front of the line is no part of the token.
    let before = span
        .start
        .checked_sub(1)
        .filter(|&i| !(i == 0 && matches!(bytes[0], b'+' | b'-')))
        .and_then(|i| bytes.get(i));
    let after = bytes.get(span.end);
    !before.is_some_and(|&b| b != b'=' && joins(b)) && !after.is_some_and(|&b| joins(b))
}
