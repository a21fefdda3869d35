//! Finding the secrets of a text: the keyword prefilter, the rules' patterns on the lines it
//! picks, the checks that tell a secret from a look-alike, and private-key blocks.

use std::collections::BTreeMap;
use std::ops::Range;

use regex::Captures;

use super::rules::{COMPILED, Check, Compiled, MARKER_BIT};

/// A secret found in the text, before locations and the ignore file are applied.
#[derive(Debug)]
pub(crate) struct Candidate {
    pub rule: &'static str,
    /// What the marker replaces.
    pub span: Range<usize>,
    /// Appended after the marker: the line breaks and line prefixes of a private key's body,
    /// so the line count stays.
    pub tail: String,
    /// What the fingerprint is taken of, when not the span's text (a private key's body,
    /// normalised so the same key gives the same fingerprint in any layout).
    pub fingerprint_of: Option<String>,
    /// Row of the rule table; the lower wins an overlap.
    priority: usize,
}

/// The secrets of `text`: sorted by position, never overlapping each other or a marker.
pub(crate) fn candidates(text: &str) -> Vec<Candidate> {
    let compiled = &*COMPILED;
    let lines = flagged_lines(compiled, text);
    let mut found = Vec::new();
    let mut markers = Vec::new();
    for (line, mask) in lines {
        if mask & MARKER_BIT != 0 {
            let base = line.start;
            markers.extend(
                compiled
                    .marker
                    .find_iter(&text[line.clone()])
                    .map(|m| base + m.start()..base + m.end()),
            );
        }
        for (priority, (rule, regex)) in compiled.rules.iter().enumerate() {
            if mask & (1 << priority) == 0 {
                continue;
            }
            if rule.check == Check::PrivateKey {
                private_keys(compiled, text, line.clone(), priority, &mut found);
                continue;
            }
            let slice = &text[line.clone()];
            for caps in regex.captures_iter(slice) {
                if let Some(span) = judge(rule.check, slice, &caps) {
                    found.push(Candidate {
                        rule: rule.id,
                        span: line.start + span.start..line.start + span.end,
                        tail: String::new(),
                        fingerprint_of: None,
                        priority,
                    });
                }
            }
        }
    }
    resolve(found, markers)
}

/// The lines holding a keyword, each with the rules it wakes (one pass over the text).
fn flagged_lines(compiled: &Compiled, text: &str) -> Vec<(Range<usize>, u64)> {
    let mut lines: Vec<(Range<usize>, u64)> = Vec::new();
    for m in compiled.keywords.find_overlapping_iter(text) {
        let wakes = compiled.wakes[m.pattern().as_usize()];
        let at = m.start();
        if let Some((line, mask)) = lines.last_mut()
            && line.contains(&at)
        {
            *mask |= wakes;
            continue;
        }
        // Keywords hold no line break and come in order, so a match is on a later line.
        let from = match lines.last() {
            Some((line, _)) if line.end <= at => line.end,
            _ => 0,
        };
        let start = text[from..at].rfind('\n').map_or(from, |i| from + i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        lines.push((start..end, wakes));
    }
    lines
}

/// Keeps the candidates that win: earlier rules first, then earlier positions; anything
/// overlapping a marker or a kept candidate goes.
fn resolve(mut found: Vec<Candidate>, markers: Vec<Range<usize>>) -> Vec<Candidate> {
    found.sort_by_key(|c| (c.priority, c.span.start));
    // start -> (end, index into found, or None for a marker)
    let mut kept: BTreeMap<usize, (usize, Option<usize>)> = BTreeMap::new();
    for marker in markers {
        kept.insert(marker.start, (marker.end, None));
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
    let mut slots: Vec<Option<Candidate>> = found.into_iter().map(Some).collect();
    keep.into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect()
}

/// The span of the secret in a pattern's match, or `None` when it is a look-alike.
fn judge(check: Check, line: &str, caps: &Captures) -> Option<Range<usize>> {
    match check {
        Check::Token {
            min_entropy,
            joined,
            needs_digit,
        } => {
            let s = caps.name("s")?;
            let value = s.as_str();
            (standalone(line, s.range(), joined)
                && entropy(value) >= min_entropy
                && (!needs_digit || value.bytes().any(|b| b.is_ascii_digit()))
                && !is_placeholder(value)
                && !has_filler(value))
            .then(|| s.range())
        }
        Check::Opaque { joined } => {
            let s = caps.name("s")?;
            standalone(line, s.range(), joined).then(|| s.range())
        }
        Check::UrlPassword => {
            let s = caps.name("s")?;
            let user = caps.name("user").map_or("", |u| u.as_str());
            url_password(s.as_str(), user).then(|| s.range())
        }
        Check::Generic => generic(caps),
        Check::PrivateKey => None,
    }
}

/// Not a piece of something longer: the bytes on either side cannot continue the token
/// (`=` only ends one, as base64 padding; before a token it is an assignment).
fn standalone(line: &str, span: Range<usize>, joined: &[u8]) -> bool {
    let bytes = line.as_bytes();
    let joins = |b: u8| b.is_ascii_alphanumeric() || joined.contains(&b);
    let before = span.start.checked_sub(1).and_then(|i| bytes.get(i));
    let after = bytes.get(span.end);
    !before.is_some_and(|&b| b != b'=' && joins(b)) && !after.is_some_and(|&b| joins(b))
}

/// Shannon entropy in bits per byte.
pub(crate) fn entropy(value: &str) -> f64 {
    let bytes = value.as_bytes();
    if bytes.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in bytes {
        counts[usize::from(b)] += 1;
    }
    let len = bytes.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / len;
            -p * p.log2()
        })
        .sum()
}

/// Words that mark a value as a stand-in, wherever they occur in it (case-insensitive).
/// `example` covers AWS's documented keys (`AKIAIOSFODNN7EXAMPLE`).
const PLACEHOLDER_PARTS: &[&str] = &[
    "example",
    "dummy",
    "fake",
    "sample",
    "placeholder",
    "your",
    "changeme",
    "change_me",
    "change-me",
    "replace",
    "redacted",
    "insert",
    "notreal",
    "not_real",
    "not-real",
    "_here",
    "-here",
    "xxxx",
    "****",
    "...",
    "…",
    "${",
    "{{",
    "<",
    ">",
];

pub(crate) fn is_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    PLACEHOLDER_PARTS.iter().any(|part| lower.contains(part))
}

/// A run of one character or a counting sequence: a hand-made filler, not a random token.
fn has_filler(value: &str) -> bool {
    let bytes = value.as_bytes();
    let mut run = 1;
    for pair in bytes.windows(2) {
        run = if pair[0] == pair[1] { run + 1 } else { 1 };
        if run >= 6 {
            return true;
        }
    }
    let lower = value.to_ascii_lowercase();
    ["123456789", "abcdefgh"].iter().any(|s| lower.contains(s))
}

/// Whole values that stand for no password at all.
const EMPTY_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pass",
    "pwd",
    "secret",
    "token",
    "null",
    "none",
    "nil",
    "true",
    "false",
    "undefined",
    "empty",
    "string",
    "admin",
    "root",
    "guest",
    "default",
    "user",
    "username",
    "required",
    "optional",
    "hidden",
    "masked",
    "xxx",
];

fn is_empty_word(value: &str) -> bool {
    EMPTY_WORDS.iter().any(|w| value.eq_ignore_ascii_case(w))
}

/// A value written by a template or a shell rather than typed in.
fn is_reference(value: &str) -> bool {
    let first = value.as_bytes().first().copied();
    matches!(
        first,
        Some(b'$' | b'%' | b'{' | b'<' | b'[' | b'@' | b'&' | b'*' | b'!')
    ) || ["${", "{{", "}}", "{}", "#{", "%s", "%("]
        .iter()
        .any(|t| value.contains(t))
}

fn url_password(password: &str, user: &str) -> bool {
    !password.is_empty()
        && !is_reference(password)
        && !is_empty_word(password)
        && !is_placeholder(password)
        && !password.bytes().all(|b| b == b'*' || b == b'x' || b == b'X')
        // Default credentials of local services (`postgres:postgres`, `guest:guest`).
        && password != user
}

/// What the name a value is assigned to says about it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Password,
    Key,
}

impl Kind {
    fn min_len(self) -> usize {
        match self {
            Kind::Password => 8,
            Kind::Key => 16,
        }
    }

    /// Bits per character below which a value is words, not random. Tuned on the corpus
    /// (`tests/secrets_corpus.rs`): random base62 of 16 characters scores about 3.8, hex
    /// about 3.3, English identifiers and sentences of that length 2.8 to 3.4 (those are
    /// refused for their single case anyway).
    fn min_entropy(self, value: &str) -> f64 {
        match self {
            Kind::Password => 2.5,
            Kind::Key if value.bytes().all(|b| b.is_ascii_hexdigit()) => 2.7,
            Kind::Key => 3.0,
        }
    }
}

/// The last word of a name that says the value is about a secret, not the secret.
const METADATA_WORDS: &[&str] = &[
    "name",
    "names",
    "id",
    "ids",
    "path",
    "paths",
    "file",
    "files",
    "filename",
    "dir",
    "directory",
    "url",
    "urls",
    "uri",
    "endpoint",
    "arn",
    "ref",
    "reference",
    "type",
    "types",
    "kind",
    "version",
    "length",
    "len",
    "size",
    "count",
    "ttl",
    "expiry",
    "expires",
    "expiration",
    "exp",
    "timeout",
    "header",
    "headers",
    "field",
    "fields",
    "env",
    "var",
    "variable",
    "prefix",
    "suffix",
    "hint",
    "label",
    "description",
    "format",
    "algorithm",
    "alg",
    "location",
    "region",
    "provider",
    "source",
    "mode",
    "enabled",
    "disabled",
    "required",
    "pattern",
    "regex",
    "hash",
    "hashed",
    "digest",
    "fingerprint",
    "policy",
    "rotation",
    "question",
    "link",
    "method",
    "scheme",
    "user",
    "username",
    "login",
    "email",
    "owner",
    "issuer",
    "audience",
    "scope",
    "scopes",
    "realm",
    "domain",
    "host",
    "port",
    "server",
    "store",
    "manager",
    "service",
    "handler",
    "callback",
    "option",
    "options",
    "param",
    "config",
    "setting",
    "settings",
    "schema",
    "template",
    "title",
    "text",
    "message",
    "error",
    "status",
    "state",
    "validation",
    "rule",
    "rules",
    "strength",
    "min",
    "max",
    "limit",
    "interval",
    "duration",
    "age",
    "at",
    "date",
    "time",
    "timestamp",
    "reset",
    "budget",
];

/// Words anywhere in a name that make it something other than a credential.
const NOT_SECRET_WORDS: &[&str] = &[
    "public",
    "pub",
    "publishable",
    "primary",
    "foreign",
    "sort",
    "partition",
    "cache",
    "idempotency",
    "lookup",
    "next",
    "page",
    "pagination",
    "continuation",
    "cursor",
    "max",
    "num",
    "total",
    "input",
    "output",
    "prompt",
    "completion",
    "reasoning",
    "i18n",
    "translation",
    "locale",
    "csrf",
];

const PASSWORD_WORDS: &[&str] = &["password", "passwd", "pwd", "passphrase"];
const KEY_WORDS: &[&str] = &[
    "secret",
    "secrets",
    "token",
    "tokens",
    "credential",
    "credentials",
    "auth",
    "authorization",
];
/// Words ending in `key` that are no key.
const NOT_KEYS: &[&str] = &[
    "monkey", "turkey", "hockey", "jockey", "donkey", "whiskey", "hotkey",
];

/// The words of an identifier, lower case: `apiKey2` -> api, key; `AWS_SECRET` -> aws, secret.
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in name.split(|c: char| !c.is_ascii_alphanumeric()) {
        let chars: Vec<char> = part.chars().collect();
        let mut word = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1);
            let boundary = c.is_ascii_uppercase()
                && prev.is_some_and(|p| {
                    p.is_ascii_lowercase()
                        || p.is_ascii_digit()
                        || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
                });
            if boundary && !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            word.push(c.to_ascii_lowercase());
        }
        out.push(word);
    }
    out.into_iter()
        .map(|w| w.trim_end_matches(|c: char| c.is_ascii_digit()).to_owned())
        .filter(|w| !w.is_empty() && w != "v")
        .collect()
}

fn classify_name(name: &str) -> Option<Kind> {
    let words = words(name);
    let last = words.last()?;
    if METADATA_WORDS.contains(&last.as_str())
        || words.iter().any(|w| NOT_SECRET_WORDS.contains(&w.as_str()))
    {
        return None;
    }
    if words.iter().any(|w| PASSWORD_WORDS.contains(&w.as_str())) || last == "pass" {
        return Some(Kind::Password);
    }
    let keyish = |w: &String| {
        KEY_WORDS.contains(&w.as_str())
            || (w.len() > 3
                && ["key", "token", "secret"].iter().any(|k| w.ends_with(k))
                && !NOT_KEYS.contains(&w.as_str()))
    };
    let last_is_key = (last == "key" || last == "keys") && words.len() >= 2;
    (last_is_key || words.iter().any(keyish)).then_some(Kind::Key)
}

/// `generic-secret`: the value's span when the name sounds secret and the value looks random.
fn generic(caps: &Captures) -> Option<Range<usize>> {
    let name = caps.name("name")?.as_str();
    let kind = classify_name(name)?;
    let (value, quoted) = match (caps.name("dq"), caps.name("sq"), caps.name("bq")) {
        (Some(v), _, _) | (_, Some(v), _) | (_, _, Some(v)) => (v, true),
        _ => (caps.name("uq")?, false),
    };
    let mut span = value.range();
    let mut text = value.as_str();
    if quoted {
        // `"Authorization": "Bearer <token>"`: the token is the secret.
        for scheme in ["bearer ", "basic ", "token "] {
            if text.len() > scheme.len()
                && text.is_char_boundary(scheme.len())
                && text[..scheme.len()].eq_ignore_ascii_case(scheme)
            {
                span.start += scheme.len();
                text = &text[scheme.len()..];
                break;
            }
        }
    } else if looks_like_code(text) {
        return None;
    }
    looks_random(text, kind).then_some(span)
}

/// An unquoted value that is an expression: a call, an index, a path, a variable.
fn looks_like_code(value: &str) -> bool {
    if is_reference(value) || value.contains(['(', ')', '[', ']', '{', '}', '<', '>']) {
        return true;
    }
    let ident = |s: &str| {
        let mut chars = s.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    // `settings.SECRET_KEY`, `Config::TOKEN`, `self->key`
    let dotted = value.replace("->", ".").replace("::", ".");
    if dotted.contains('.') && dotted.split('.').all(ident) {
        return true;
    }
    if ident(value) {
        // A variable or a constant: no digit, or words joined by underscores in one case.
        let no_digit = !value.bytes().any(|b| b.is_ascii_digit());
        let snake = value.contains('_')
            && (value.bytes().all(|b| !b.is_ascii_lowercase())
                || value.bytes().all(|b| !b.is_ascii_uppercase()));
        return no_digit || snake;
    }
    false
}

fn looks_random(value: &str, kind: Kind) -> bool {
    let lower = value.to_ascii_lowercase();
    let classes = [
        value.bytes().any(|b| b.is_ascii_lowercase()),
        value.bytes().any(|b| b.is_ascii_uppercase()),
        value.bytes().any(|b| b.is_ascii_digit()),
    ]
    .iter()
    .filter(|&&c| c)
    .count();
    let path = ["/", "./", "../", "~/"]
        .iter()
        .any(|p| value.starts_with(p))
        && !value.contains(['+', '=']);
    value.len() >= kind.min_len()
        && classes >= 2
        && entropy(value) >= kind.min_entropy(value)
        && !path
        && !value.contains("://")
        && !value.contains(char::is_whitespace)
        && !is_reference(value)
        && !is_empty_word(value)
        && !is_placeholder(value)
        && !has_filler(value)
        && !["password", "passwd", "secret", "token"]
            .iter()
            .any(|w| lower.contains(w))
}

// ---------------------------------------------------------------------------------------
// Private keys

/// Header lines a PEM or PGP body may hold before its base64.
const KEY_HEADERS: &[&str] = &[
    "Proc-Type:",
    "DEK-Info:",
    "Version:",
    "Comment:",
    "Hash:",
    "Charset:",
];

/// Base64 characters a key's body must hold at least, so that a header quoted in code or
/// documentation (`starts_with("-----BEGIN ... PRIVATE KEY-----")`) is no key.
const MIN_KEY_CHARS: usize = 32;

/// Every private-key block whose BEGIN or END line is `line`.
fn private_keys(
    compiled: &Compiled,
    text: &str,
    line: Range<usize>,
    priority: usize,
    found: &mut Vec<Candidate>,
) {
    let (_, begin) = &compiled.rules[priority];
    let slice = &text[line.clone()];
    for m in begin.find_iter(slice) {
        let lead = &slice[..m.start()];
        let after = line.start + m.end();
        let rest = text[after..line.end].trim();
        let block = if rest.is_empty() {
            following_lines(compiled, text, line.end, lead)
        } else {
            same_line(compiled, text, after..line.end, lead)
        };
        found.extend(block.map(|mut c| {
            c.priority = priority;
            c
        }));
    }
    // An END with no BEGIN in view (a hunk that starts inside the key): the body above it.
    if let Some(m) = compiled.end_of_key.find(slice)
        && !begin.is_match(slice)
    {
        let lead = &slice[..m.start()];
        found.extend(
            preceding_lines(compiled, text, line.start, lead).map(|mut c| {
                c.priority = priority;
                c
            }),
        );
    }
}

/// A key inside one line, its line breaks written as `\n` (a JSON string), or spaces.
fn same_line(compiled: &Compiled, text: &str, rest: Range<usize>, lead: &str) -> Option<Candidate> {
    let slice = &text[rest.clone()];
    let stop = compiled
        .end_of_key
        .find(slice)
        .map(|m| m.start())
        .or_else(|| slice.find(['"', '\'']))
        .unwrap_or(slice.len());
    let body = &slice[..stop];
    let (from, to) = trim_escapes(body);
    let inner = &body[from..to];
    if count_base64(inner) < MIN_KEY_CHARS || inner.contains("[secret:") {
        return None;
    }
    let rule = if lead.contains("private_key") {
        "gcp-service-account"
    } else {
        "private-key"
    };
    Some(Candidate {
        rule,
        span: rest.start + from..rest.start + to,
        tail: String::new(),
        fingerprint_of: Some(normalise_escaped(inner)),
        priority: 0,
    })
}

/// `MIIE\nABCD` (with literal backslash-n) as the lines `MIIE`, `ABCD` joined by `\n`.
fn normalise_escaped(inner: &str) -> String {
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                while chars.peek() == Some(&'\\') {
                    chars.next();
                }
                if matches!(chars.peek(), Some('n' | 'r' | 't')) {
                    chars.next();
                }
                lines.push(std::mem::take(&mut current));
            }
            '\n' | '\r' | ' ' | '\t' => lines.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    lines.push(current);
    lines
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The body without the line breaks (real or escaped) and blanks around it.
fn trim_escapes(body: &str) -> (usize, usize) {
    let bytes = body.as_bytes();
    let mut from = 0;
    loop {
        match bytes.get(from) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => from += 1,
            Some(b'\\') => {
                let mut i = from;
                while bytes.get(i) == Some(&b'\\') {
                    i += 1;
                }
                if matches!(bytes.get(i), Some(b'n' | b'r' | b't')) {
                    i += 1;
                }
                from = i;
            }
            _ => break,
        }
    }
    let mut to = bytes.len();
    while to > from {
        match bytes[to - 1] {
            b' ' | b'\t' | b'\r' | b'\n' | b'\\' => to -= 1,
            b'n' | b'r' | b't' if to - 1 > from && bytes[to - 2] == b'\\' => to -= 2,
            _ => break,
        }
    }
    (from, to)
}

fn count_base64(s: &str) -> usize {
    s.bytes()
        .filter(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        .count()
}

/// What a body line starts with that is no part of the key: a `file_read` line number
/// (`    12| `), a diff's `+`/`-`/` ` when the BEGIN line had one, indentation.
fn prefix_len(line: &str, diff: bool) -> usize {
    let b = line.as_bytes();
    let spaces = b.iter().take_while(|&&c| c == b' ').count();
    let digits = b[spaces..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits > 0 && b.get(spaces + digits) == Some(&b'|') {
        let end = spaces + digits + 1;
        return if b.get(end) == Some(&b' ') {
            end + 1
        } else {
            end
        };
    }
    let mut i = usize::from(diff && matches!(b.first(), Some(b'+' | b'-' | b' ')));
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i
}

fn looks_like_body(content: &str) -> bool {
    content
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        || KEY_HEADERS.iter().any(|h| content.starts_with(h))
}

/// The lines of a block, collected in either direction.
struct Body {
    diff: bool,
    /// Content spans in text order.
    lines: Vec<Range<usize>>,
}

impl Body {
    fn new(lead: &str) -> Self {
        Self {
            diff: lead.starts_with(['+', '-', ' ']),
            lines: Vec::new(),
        }
    }

    /// Takes the line `start..end` if it looks like part of a key body.
    fn take(&mut self, text: &str, start: usize, end: usize) -> bool {
        let line = &text[start..end];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let p = prefix_len(line, self.diff);
        if !looks_like_body(&line[p..]) {
            return false;
        }
        self.lines.push(start + p..start + line.len());
        true
    }

    /// The candidate: the first line's content becomes the marker, the others empty.
    fn candidate(mut self, text: &str) -> Option<Candidate> {
        self.lines.sort_by_key(|r| r.start);
        let first = self.lines.first()?.clone();
        let last = self.lines.last()?.clone();
        let chars: usize = self
            .lines
            .iter()
            .map(|r| count_base64(&text[r.clone()]))
            .sum();
        if chars < MIN_KEY_CHARS {
            return None;
        }
        let mut tail = String::new();
        let mut content = Vec::new();
        for pair in self.lines.windows(2) {
            tail.push_str(&text[pair[0].end..pair[1].start]);
        }
        for r in &self.lines {
            let c = text[r.clone()].trim();
            if !c.is_empty() {
                content.push(c);
            }
        }
        Some(Candidate {
            rule: "private-key",
            span: first.start..last.end,
            tail,
            fingerprint_of: Some(content.join("\n")),
            priority: 0,
        })
    }
}

/// The body under a BEGIN line that ends at `begin_end` (its `\n` or the text's end): up
/// to the END line, or while the lines look like a key's (a diff cut short).
fn following_lines(
    compiled: &Compiled,
    text: &str,
    begin_end: usize,
    lead: &str,
) -> Option<Candidate> {
    let mut body = Body::new(lead);
    let mut pos = begin_end + 1;
    while pos < text.len() {
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
        if compiled.end_of_key.is_match(&text[pos..end]) || !body.take(text, pos, end) {
            break;
        }
        pos = end + 1;
    }
    body.candidate(text)
}

/// The body above an END line starting at `end_start`, while the lines look like a key's.
fn preceding_lines(
    compiled: &Compiled,
    text: &str,
    end_start: usize,
    lead: &str,
) -> Option<Candidate> {
    let mut body = Body::new(lead);
    let mut end = end_start.checked_sub(1)?; // the `\n` before the END line
    loop {
        let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[start..end];
        if compiled.end_of_key.is_match(line) || !body.take(text, start, end) {
            break;
        }
        if start == 0 {
            break;
        }
        end = start - 1;
    }
    body.candidate(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entropy_of_simple_strings() {
        assert_eq!(entropy(""), 0.0);
        assert_eq!(entropy("aaaa"), 0.0);
        assert!((entropy("abcd") - 2.0).abs() < 1e-9);
    }

    #[test]
    fn names_are_split_into_words() {
        assert_eq!(words("apiKey2"), ["api", "key"]);
        assert_eq!(
            words("AWS_SECRET_ACCESS_KEY"),
            ["aws", "secret", "access", "key"]
        );
        assert_eq!(words("APIKey"), ["api", "key"]);
        assert_eq!(words("_authToken"), ["auth", "token"]);
        assert_eq!(words("api_key_v2"), ["api", "key"]);
    }

    #[test]
    fn names_are_classified() {
        for name in [
            "API_KEY",
            "apiKey",
            "secret",
            "client_secret",
            "auth_token",
            "_authToken",
            "credentials",
            "private_key",
            "apikey",
            "SIGNING_KEY",
            "Authorization",
            "token",
        ] {
            assert_eq!(classify_name(name), Some(Kind::Key), "{name}");
        }
        for name in [
            "password",
            "DB_PASSWORD",
            "passwd",
            "pwd",
            "SMTP_PASS",
            "userPassword",
        ] {
            assert_eq!(classify_name(name), Some(Kind::Password), "{name}");
        }
        for name in [
            "key",
            "public_key",
            "secret_name",
            "token_type",
            "max_tokens",
            "monkey",
            "cache_key",
            "password_hash",
            "next_token",
            "SECRET_KEY_PATH",
            "passenger_count",
        ] {
            assert_eq!(classify_name(name), None, "{name}");
        }
    }

    #[test]
    fn code_values_are_not_secrets() {
        for value in [
            "os.environ[",
            "getenv(\"X\")",
            "settings.SECRET_KEY",
            "$TOKEN",
            "${API_KEY}",
            "process.env.TOKEN",
            "SecretKey",
            "None",
            "API_KEY_V2_DEFAULT",
            "self.key",
            "Option<String>",
        ] {
            assert!(looks_like_code(value), "{value}");
        }
        for value in ["Xk9fJ2mQ8vL3pR7t", "a1b2c3d4e5f6a7b8c9d0"] {
            assert!(!looks_like_code(value), "{value}");
        }
    }

    #[test]
    fn escapes_around_a_key_body_are_trimmed() {
        let body = r"\nMIIEabc\nDEF==\n";
        let (from, to) = trim_escapes(body);
        assert_eq!(&body[from..to], r"MIIEabc\nDEF==");
        assert_eq!(normalise_escaped(&body[from..to]), "MIIEabc\nDEF==");
    }

    #[test]
    fn prefixes_of_body_lines() {
        assert_eq!(prefix_len("+MIIE", true), 1);
        assert_eq!(prefix_len("+MIIE", false), 0);
        assert_eq!(prefix_len("     3| MIIE", false), 8);
        assert_eq!(prefix_len("+    MIIE", true), 5);
    }
}
