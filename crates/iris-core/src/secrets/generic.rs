//! `generic-secret`: a value assigned to a secret-sounding name, kept only when the name is
//! about a credential (not its path, id or length) and the value looks typed at random, not
//! like code, a template or words.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::LazyLock;

use super::locate::line_body;
use super::value::{entropy, has_filler, is_empty_word, is_placeholder, is_reference};

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

    /// Bits per character below which a value is not random. Random base62 of 16
    /// characters scores 3.8 on average (3.4 for the lowest 1%), hex 3.2 (2.7 for the
    /// lowest 2%), 8 random characters 2.9 (2.4). Words score as much (`SomeLongVariable`
    /// 3.7): the classes of characters and [`reads_as_words`] tell those apart, this only
    /// drops what is plainly typed by hand (`aaaa1111bbbb2222`).
    fn min_entropy(self, value: &str) -> f64 {
        match self {
            Kind::Password => 2.5,
            Kind::Key if value.bytes().all(|b| b.is_ascii_hexdigit()) => 2.7,
            Kind::Key => 3.0,
        }
    }
}

/// The last word of a name that says the value is about a secret, not the secret.
const METADATA_WORDS: &str = "\
    name names id ids path paths file files filename dir directory url urls uri endpoint arn \
    ref reference type types kind version length len size count ttl expiry expires \
    expiration exp timeout header headers field fields env var variable prefix suffix hint \
    label description format algorithm alg location region provider source mode enabled \
    disabled required pattern regex hash hashed digest fingerprint policy rotation question \
    link method scheme user username login email owner issuer audience scope scopes realm \
    domain host port server store manager service handler callback option options param \
    config setting settings schema template title text message error status state validation \
    rule rules strength min max limit interval duration age at date time timestamp reset \
    budget encryption encoding hashing hasher complexity requirement requirements iterations \
    rounds change authentication protection";

/// Words anywhere in a name that make it something other than a credential.
const NOT_SECRET_WORDS: &str = "\
    public pub publishable primary foreign sort partition cache idempotency lookup next page \
    pagination continuation cursor max num total input output prompt completion reasoning \
    i18n translation locale csrf authenticity allow socket nonce pubkey publickey";

const PASSWORD_WORDS: &str = "password passwd pwd passphrase";
const KEY_WORDS: &str = "secret secrets token tokens credential credentials auth authorization";
/// Words ending in `key` that are no key.
const NOT_KEYS: &str = "monkey turkey hockey jockey donkey whiskey hotkey";

/// The word lists as sets, split once.
struct Lists {
    metadata: HashSet<&'static str>,
    not_secret: HashSet<&'static str>,
    password: HashSet<&'static str>,
    key: HashSet<&'static str>,
    not_keys: HashSet<&'static str>,
}

static LISTS: LazyLock<Lists> = LazyLock::new(|| {
    let set = |list: &'static str| list.split_whitespace().collect();
    Lists {
        metadata: set(METADATA_WORDS),
        not_secret: set(NOT_SECRET_WORDS),
        password: set(PASSWORD_WORDS),
        key: set(KEY_WORDS),
        not_keys: set(NOT_KEYS),
    }
});

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

/// What a `named` row asks of the value assigned to a name holding one of its keywords.
#[derive(Debug, Clone)]
pub(crate) struct Named {
    /// The shape of the whole value.
    pub value: regex::Regex,
    pub min_entropy: f64,
    /// The name must also say secret (key, token, password, ...): for shapes that ids share.
    pub secret_name: bool,
}

/// `keyword` (any case) at the start of a word of `name`: `lob` in `LOB_KEY` and `myLobKey`,
/// not in `globalKey` or `GLOBAL_KEY`.
fn starts_a_word(name: &str, keyword: &str) -> bool {
    // `-Dsonar.token=...`: a JVM system property.
    let name = name.strip_prefix("-D").unwrap_or(name);
    let lower = name.to_ascii_lowercase();
    let keyword = keyword.to_ascii_lowercase();
    let bytes = name.as_bytes();
    lower.match_indices(&keyword).any(|(at, _)| {
        let Some(&before) = at.checked_sub(1).and_then(|i| bytes.get(i)) else {
            return true;
        };
        !before.is_ascii_alphabetic()
            || (before.is_ascii_lowercase() && bytes[at].is_ascii_uppercase())
    })
}

/// Whether a name can hold a secret at all: not one about a secret (its id, path, length,
/// ...) nor one of a thing that is no credential (a public key, a cache key).
fn names_a_value(name: &str) -> bool {
    let lists = &*LISTS;
    let words = words(name);
    words
        .last()
        .is_some_and(|last| !lists.metadata.contains(last.as_str()))
        && !words.iter().any(|w| lists.not_secret.contains(w.as_str()))
}

fn classify_name(name: &str) -> Option<Kind> {
    if !names_a_value(name) {
        return None;
    }
    let lists = &*LISTS;
    let words = words(name);
    let last = words.last()?.as_str();
    if words.iter().any(|w| lists.password.contains(w.as_str())) || last == "pass" {
        return Some(Kind::Password);
    }
    let keyish = |w: &String| {
        lists.key.contains(w.as_str())
            || (w.len() > 3
                && ["key", "token", "secret"].iter().any(|k| w.ends_with(k))
                && !lists.not_keys.contains(w.as_str()))
    };
    let last_is_key = (last == "key" || last == "keys") && words.len() >= 2;
    (last_is_key || words.iter().any(keyish)).then_some(Kind::Key)
}

/// After a name: closing quotes or bracket, blanks, and the assignment: `=`, `:`, `:=`,
/// `::=`, `:::=`, `?=`, `.=`, `+=`, `=>`, a typed `name: Type =` or `name Type =` (Go's
/// `var name string =`), `>` of an XML element (`<name>value</name>`), or the `,` between
/// a quoted name and a quoted value (`setProperty("NAME", "value")`).
const ASSIGNMENT: &str = r#"(?x:
    ["'\]]{0,2} [\ \t]*
    (?:
        :[\ \t]*&?(?:'static[\ \t]+)?[A-Za-z_][0-9A-Za-z_:<>\[\]&'\ ]{0,40}?[\ \t]*=
      | [\ \t][A-Za-z_][0-9A-Za-z_.\[\]*]{0,30}[\ \t]*=
      | :{1,3}= | [?.+]= | => | = | : | > | ,
    ))"#;

/// The pattern of a name holding one of `keywords` (any case) and its assignment.
pub(crate) fn assignment_pattern(keywords: &[String]) -> String {
    let names: Vec<String> = keywords.iter().map(|k| regex::escape(k)).collect();
    format!(
        "[0-9A-Za-z_.-]*(?i:{})[0-9A-Za-z_.-]*{ASSIGNMENT}",
        names.join("|")
    )
}

/// What [`generic`] or [`named`] made of an assignment.
pub(crate) struct Assignment {
    /// The span of the secret in the text, if the value is one.
    pub secret: Option<Range<usize>>,
    /// Where the value ends: a later match that starts before this is inside the value.
    pub end: usize,
}

/// A match of an assignment pattern in `text`, on the line `line`.
pub(crate) struct Site<'a> {
    pub text: &'a str,
    pub line: Range<usize>,
    /// The name and its operator.
    pub assignment: Range<usize>,
}

impl Site<'_> {
    /// The name the value is assigned to.
    fn name(&self) -> &str {
        let head = &self.text[self.assignment.clone()];
        let len = head
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || b"_.-".contains(b))
            .count();
        &head[..len]
    }

    fn line_text(&self) -> &str {
        &self.text[self.line.clone()]
    }

    /// The value the operator assigns, its span in the text; `None` when the operator does
    /// not fit the line's shape (a `,` without quotes, a `>` that closes no `<name`).
    fn value(&self) -> Option<Value> {
        let line = self.line_text();
        let (start, end) = (
            self.assignment.start - self.line.start,
            self.assignment.end - self.line.start,
        );
        let before = line[..start].bytes().next_back();
        let op = line[..end].trim_end().bytes().next_back();
        let at = |v: Value| Value {
            span: self.line.start + v.span.start..self.line.start + v.span.end,
            quoted: v.quoted,
        };
        match op {
            Some(b',') => {
                let v = read_value(line, end)?;
                (matches!(before, Some(b'"' | b'\'')) && v.quoted).then(|| at(v))
            }
            Some(b'>') if !line[..end].trim_end().ends_with("=>") => {
                if before != Some(b'<') {
                    return None;
                }
                if !line[end..].trim().is_empty() {
                    return read_value(line, end).map(at);
                }
                // `<name>` alone: the value is the next line when the one after closes it.
                let rest = &self.text[(self.line.end + 1).min(self.text.len())..];
                let mut lines = rest.split('\n');
                let next = lines.next()?;
                if !line_body(lines.next()?).1.trim_start().starts_with("</") {
                    return None;
                }
                let (at, body) = line_body(next);
                let lead = at + body.len() - body.trim_start().len();
                let value = next[lead..].trim_end();
                let from = self.line.end + 1 + lead;
                (!value.is_empty() && !value.contains(char::is_whitespace)).then_some(Value {
                    span: from..from + value.len(),
                    quoted: false,
                })
            }
            _ => read_value(line, end).map(at),
        }
    }
}

/// `generic-secret`: the value at `site`, a secret if the name sounds secret and the value
/// looks random.
pub(crate) fn generic(site: &Site) -> Assignment {
    assess(site, site.value(), |value| secret_in(site, value))
}

/// What `judge` makes of the value, and where it ends (the assignment's end without one).
fn assess(
    site: &Site,
    value: Option<Value>,
    judge: impl FnOnce(Value) -> Option<Range<usize>>,
) -> Assignment {
    match value {
        Some(value) => Assignment {
            end: value.span.end,
            secret: judge(value),
        },
        None => Assignment {
            secret: None,
            end: site.assignment.end,
        },
    }
}

/// A quoted value's span past a leading `Bearer `, `Basic ` or `Token `: in
/// `"Authorization": "Bearer <token>"` the token is the secret.
fn past_scheme(text: &str, value: &Value) -> Range<usize> {
    let scheme = if value.quoted {
        auth_scheme(&text[value.span.clone()]).unwrap_or(0)
    } else {
        0
    };
    value.span.start + scheme..value.span.end
}

/// A `named` row: the value at `site`, a secret if its whole text has the row's shape and
/// is random enough (not a placeholder).
pub(crate) fn named(site: &Site, keywords: &[String], row: &Named) -> Assignment {
    let name = site.name();
    let fits = names_a_value(name)
        && keywords.iter().any(|k| starts_a_word(name, k))
        && (!row.secret_name || classify_name(name).is_some());
    assess(site, site.value().filter(|_| fits), |value| {
        let span = past_scheme(site.text, &value);
        let text = &site.text[span.clone()];
        // No filler check: the vendor's name and the value's exact shape say more than a
        // run of digits does; the entropy floor still refuses `0000...`.
        (row.value.is_match(text)
            && entropy(text) >= row.min_entropy
            && !is_placeholder(text)
            && !is_reference(text))
        .then_some(span)
    })
}

fn secret_in(site: &Site, value: Value) -> Option<Range<usize>> {
    // Most matches in code are short expressions: the cheapest test first.
    if value.span.len() < Kind::Password.min_len() {
        return None;
    }
    let line = site.text;
    let assignment = site.assignment.clone();
    let head = &line[assignment.clone()];
    let name = site.name();
    let kind = classify_name(name)?;
    let span = past_scheme(line, &value);
    let text = &line[span.clone()];
    if value.quoted {
        // `"%s:%s" % (a, b)`, `"{}".format(x)`, `"a" + b`: the string is a template.
        let rest = line.get(value.span.end + 1..).unwrap_or("");
        let after = rest.split('\n').next().unwrap_or("").trim_start();
        if after.starts_with(['%', '+']) || after.starts_with(".format(") {
            return None;
        }
    } else {
        // `API_KEY=value` as in an env file or a shell: an upper-case name, `=` and the
        // value with nothing between them. What follows is data, never code.
        let env_style = &head[name.len()..] == "="
            && span.start == assignment.end
            && !name.bytes().any(|b| b.is_ascii_lowercase());
        if !env_style && looks_like_code(text) {
            return None;
        }
    }
    looks_random(text, kind).then_some(span)
}

/// A value and whether it was quoted.
struct Value {
    span: Range<usize>,
    quoted: bool,
}

/// The value that starts at `from` (after blanks): a string in `"`, `'` or `` ` `` (its
/// inside), or a run of characters up to a blank, one of ``"'`,;&<`` or an escape.
fn read_value(line: &str, from: usize) -> Option<Value> {
    let bytes = line.as_bytes();
    let mut i = from;
    while matches!(bytes.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    if let Some(scheme) = line.get(i..).and_then(auth_scheme) {
        i += scheme;
    }
    let first = *bytes.get(i)?;
    if matches!(first, b'"' | b'\'' | b'`') {
        let open = i + 1;
        let mut j = open;
        while let Some(&c) = bytes.get(j) {
            match c {
                b'\\' if first == b'"' => j += 2,
                b'\r' | b'\n' => return None,
                c if c == first => {
                    return Some(Value {
                        span: open..j,
                        quoted: true,
                    });
                }
                _ => j += 1,
            }
        }
        return None;
    }
    if b" \t\r\n\"'`,;=:&".contains(&first) {
        return None;
    }
    // Up to a blank, a quote, a separator, an XML element's end, or an escape of a string
    // the value sits in (`"X_TOKEN=value\nNEXT=1"`).
    let end = bytes[i..]
        .iter()
        .enumerate()
        .position(|(n, b)| {
            b" \t\r\n\"'`,;&<".contains(b)
                || (*b == b'\\' && matches!(bytes.get(i + n + 1), Some(b'n' | b'r' | b't' | b'"')))
        })
        .map_or(bytes.len(), |n| i + n);
    Some(Value {
        span: i..end,
        quoted: false,
    })
}

/// The length of a leading `Bearer `, `Basic ` or `Token ` (any case, with the blanks after
/// it) when something follows.
fn auth_scheme(text: &str) -> Option<usize> {
    ["bearer", "basic", "token"].iter().find_map(|scheme| {
        let head = text.get(..scheme.len())?;
        let blanks = text[scheme.len()..]
            .bytes()
            .take_while(|b| *b == b' ' || *b == b'\t')
            .count();
        let rest = scheme.len() + blanks;
        (head.eq_ignore_ascii_case(scheme) && blanks > 0 && rest < text.len()).then_some(rest)
    })
}

/// An unquoted value that is an expression: a call, an index, a path, a variable.
fn looks_like_code(value: &str) -> bool {
    // YAML tags, anchors and aliases (`!vault`, `&x`, `*x`), decorators, pointers too.
    let sigil = matches!(value.as_bytes().first(), Some(b'!' | b'&' | b'*' | b'@'));
    if sigil || is_reference(value) || value.contains(['(', ')', '[', ']', '{', '}', '<', '>']) {
        return true;
    }
    let no_digit = !value.bytes().any(|b| b.is_ascii_digit());
    // `Config::TOKEN`, `self->key`: random tokens hold neither.
    let dotted = value.replace("->", ".").replace("::", ".");
    if dotted.contains('.') && dotted.split('.').all(is_ident) {
        // `settings.SECRET_KEY`, `ec.EllipticCurvePrivateKey`, `win32api.RegEnumKey`: a
        // module or variable in lower case first. A random token with a dot mixes cases
        // from its first character.
        let first = dotted.split('.').next().unwrap_or_default();
        let lower_first = first.bytes().all(|b| !b.is_ascii_uppercase());
        return dotted.len() < value.len() || lower_first || no_digit;
    }
    // A variable or a constant: words with no digit (`SecretKey`, `None`; random letters
    // change case every other character), or words joined by underscores in one case
    // (`API_KEY_V2`, `_bindgen_ty_27`).
    let one_case = value.bytes().all(|b| !b.is_ascii_lowercase())
        || value.bytes().all(|b| !b.is_ascii_uppercase());
    is_ident(value)
        && ((no_digit && (value.contains('_') || word_runs(value) >= 2.5))
            || (value.contains('_') && one_case))
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The mean length of the words of `s`: runs of `Xxxx`, `XXXX` or digits, any other
/// character separating them.
fn word_runs(s: &str) -> f64 {
    let bytes = s.as_bytes();
    let (mut runs, mut chars, mut i) = (0usize, 0usize, 0);
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        if b.is_ascii_digit() {
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        } else if b.is_ascii_uppercase() {
            i += 1;
            if bytes.get(i).is_some_and(u8::is_ascii_lowercase) {
                while bytes.get(i).is_some_and(u8::is_ascii_lowercase) {
                    i += 1;
                }
            } else {
                // `HTTPServer`: the capitals up to the last one, which starts `Server`.
                while bytes.get(i).is_some_and(u8::is_ascii_uppercase)
                    && !bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase)
                {
                    i += 1;
                }
            }
        } else if b.is_ascii_lowercase() {
            while bytes.get(i).is_some_and(u8::is_ascii_lowercase) {
                i += 1;
            }
        } else {
            i += 1;
            continue;
        }
        runs += 1;
        chars += i - start;
    }
    if runs == 0 {
        return 0.0;
    }
    chars as f64 / runs as f64
}

/// `/etc/app/key.pem`, `./secrets/dev`, `~/.ssh/id_ed25519`: a file, not its content.
/// Base64 may start with `/` too, but its segments mix cases at random.
fn looks_like_path(value: &str) -> bool {
    let Some(rest) = ["/", "./", "../", "~/"]
        .iter()
        .find_map(|p| value.strip_prefix(p))
    else {
        return false;
    };
    let wordy = |segment: &str| {
        let body = segment
            .strip_prefix(|c: char| c.is_ascii_uppercase())
            .unwrap_or(segment);
        body.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b))
    };
    !value.contains(['+', '=']) && rest.split('/').all(wordy)
}

/// `scram-sha-256`, `acme-prod-tls-2024`, `AES_256_GCM`, `_EllipticCurvePrivateKey`: words
/// joined up, a name rather than a generated key.
fn reads_as_words(value: &str) -> bool {
    let value = without_version(value);
    let one_case = value.bytes().all(|b| !b.is_ascii_lowercase())
        || value.bytes().all(|b| !b.is_ascii_uppercase());
    let no_digit = !value.bytes().any(|b| b.is_ascii_digit());
    (one_case && value.contains(['-', '_', '.']) && word_runs(value) >= 3.0)
        || (is_ident(value) && no_digit && word_runs(value) >= 3.0)
}

/// `SalesResults-1.2` as `SalesResults`: a name with a version after it.
fn without_version(value: &str) -> &str {
    let tail = value
        .bytes()
        .rev()
        .take_while(|b| b.is_ascii_digit() || *b == b'.')
        .count();
    let head = &value[..value.len() - tail];
    let head = head.strip_suffix(['v', 'V']).unwrap_or(head);
    match head.strip_suffix(['-', '_']) {
        Some(name) if value[value.len() - tail..].contains('.') && !name.is_empty() => name,
        _ => value,
    }
}

/// A part of a token (between `-`, `_` and `.`) of 12 or more letters that are capitalised
/// words, three at least (`SlackAppConfigurationTokenHere`): a stand-in in a token's format.
/// Random letters change case every other character (about one random body in 100,000 reads
/// so).
pub(crate) fn spells_words(token: &str) -> bool {
    token.split(['-', '_', '.']).any(|part| {
        let bytes = part.as_bytes();
        if bytes.len() < 12 || !bytes.iter().all(u8::is_ascii_alphabetic) {
            return false;
        }
        let mut words = 0;
        let mut i = 0;
        while i < bytes.len() {
            if !bytes[i].is_ascii_uppercase() {
                return false;
            }
            let lower = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_lowercase())
                .count();
            if lower < 2 {
                return false;
            }
            words += 1;
            i += 1 + lower;
        }
        words >= 3
    })
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
    let path = looks_like_path(value);
    value.len() >= kind.min_len()
        && classes >= 2
        && entropy(value) >= kind.min_entropy(value)
        && !path
        && !value.contains("://")
        && !value.contains(char::is_whitespace)
        // Text in a string literal (`"...\r\nHeader: x"`), not a typed value.
        && !["\\n", "\\r", "\\t", "\\0", "\\x"].iter().any(|e| value.contains(e))
        && !is_reference(value)
        && !is_empty_word(value)
        && !is_placeholder(value)
        && !has_filler(value)
        && !(kind == Kind::Key && reads_as_words(value))
        && !["password", "passwd", "secret", "token"]
            .iter()
            .any(|w| lower.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_line_shapes_of_config_files_and_code_are_read() {
        use crate::secrets::{Scanner, SecretsIgnore};
        use iris_studio_testkit::secrets::{ALNUM, Rng};
        let mut r = Rng::new(5);
        let scanner = Scanner::new(SecretsIgnore::none());
        let shapes = [
            "var deployToken string = \"{s}\"",
            "$deployToken .= \"{s}\";",
            "DEPLOY_TOKEN ::= \"{s}\"",
            "DEPLOY_TOKEN :::= \"{s}\"",
            "DEPLOY_TOKEN ?= \"{s}\"",
            "DEPLOY_TOKEN += {s}",
            "System.setProperty(\"DEPLOY_TOKEN\", \"{s}\")",
            "{\"config.ini\": \"DEPLOY_TOKEN={s}\\nBACKUP_ENABLED=true\"}",
            "<deployToken>{s}</deployToken>",
            "<deployToken>\n    {s}\n</deployToken>",
            "  \"deployToken\" => \"{s}\"",
        ];
        for shape in shapes {
            let secret = r.pick(ALNUM, 28);
            let text = shape.replace("{s}", &secret);
            let got = scanner.redact(&text);
            assert!(!got.text.contains(&secret), "{text}");
            assert_eq!(
                got.text,
                text.replace(&secret, "[secret: generic-secret]"),
                "only the value goes"
            );
        }
        // The same shapes around code or words keep their text.
        for text in [
            "var deployToken string = os.Getenv(\"DEPLOY_TOKEN\")",
            "if (token > limit) { return; }",
            "fields = [\"password\", \"confirm_password\"]",
            "f(token, \"Xk9fJ2mQ8vL3pR7tQ1w\")",
            "<deployToken>\n    ${DEPLOY_TOKEN}\n</deployToken>",
            "\"bucket_key\": \"SalesResults-1.2\"",
        ] {
            assert_eq!(scanner.redact(text).text, text);
        }
    }

    #[test]
    fn words_in_a_token_and_versions_are_stand_ins() {
        assert!(spells_words("xoxp-1-SlackAppConfigurationAccessTokenHere"));
        assert!(!spells_words("AKIAQWERTYUIOPASDFGHJ"));
        assert!(!spells_words("AIzajunkaMVY_uoQOPQZ"));
        assert!(!spells_words("xoxp-1-Mi0yLTM0MTQwNDE0MDE3Ni0z"));
        assert!(!spells_words("ghp_QkVmXrTbNwHsLdPaCzYeUoJiGfRt"));
        assert!(reads_as_words("SalesResults-1.2"));
        assert!(!reads_as_words("Xk9fJ2mQ8vL3pR7t-1.2"));
        assert_eq!(without_version("api-v2.1"), "api");
        assert_eq!(without_version("build-2024"), "build-2024");
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
}
