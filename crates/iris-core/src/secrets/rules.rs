//! The rule table: what each kind of secret looks like. The built-in rows are data
//! (`assets/secrets.toml`, written from the vendors' published token formats); a user or a
//! project adds rows of the same shape ([`SecretRules`]). A row is a keyword list (the
//! prefilter: its pattern only runs on lines that hold one of them), a pattern whose group
//! `s` is the secret, and the check that tells a secret from a look-alike. Earlier rows win
//! where matches overlap, so the specific ones come first and `generic-secret` last.

use std::collections::HashSet;
use std::sync::{Arc, LazyLock};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use anyhow::{Context, bail};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use regex::{Regex, RegexBuilder};
use serde::Deserialize;

use super::generic;

/// The built-in table.
const BUILT_IN_TOML: &str = include_str!("../../assets/secrets.toml");

/// How a match is judged after the pattern found it.
#[derive(Debug, Clone)]
pub(crate) enum Check {
    /// A token with a vendor prefix: refused only when it is a placeholder or a filler
    /// (too little entropy). `joined` are the bytes besides ASCII letters and digits that
    /// may continue the token, so a neighbour of that kind means the match is part of
    /// something longer.
    Token {
        min_entropy: f64,
        joined: Vec<u8>,
        needs_digit: bool,
        /// Lines holding one of these are documented public values.
        public_near: Vec<String>,
    },
    /// Like `Token`, without the placeholder words: a long base64 body holds them by chance.
    Opaque { joined: Vec<u8> },
    /// A value of the shape `value` (the whole value) assigned to a name that holds one of
    /// the rule's keywords, read as `generic-secret` reads assignments.
    Named(generic::Named),
    /// `-----BEGIN ... PRIVATE KEY-----` blocks, handled by their own code (the pattern is
    /// the BEGIN line).
    PrivateKey,
    /// The `data:` values of a Kubernetes Secret manifest (the pattern is its `kind` line).
    KubernetesSecret,
    /// The password of `scheme://user:password@host`.
    UrlPassword,
    /// A random-looking value assigned to a secret-sounding name.
    Generic,
}

/// One compiled row.
#[derive(Debug)]
pub(crate) struct Rule {
    pub id: Arc<str>,
    /// What a line must hold for the pattern to run on it: token prefixes exactly as
    /// written; words of lower-case letters in lower, upper and capitalised case.
    pub keywords: Vec<String>,
    pub regex: Regex,
    pub check: Check,
    /// Values published on purpose: never a finding.
    pub public_values: HashSet<String>,
    /// Files the rule does not apply to.
    pub paths: Option<Gitignore>,
}

impl Rule {
    /// Whether the rule leaves this file alone.
    pub fn skips_path(&self, path: &str) -> bool {
        self.paths
            .as_ref()
            .is_some_and(|paths| paths.matched_path_or_any_parents(path, false).is_ignore())
    }
}

/// A row as written in the TOML table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleDef {
    id: String,
    keywords: Vec<String>,
    #[serde(default)]
    pattern: Option<String>,
    #[serde(default)]
    check: CheckKind,
    #[serde(default)]
    entropy: Option<f64>,
    #[serde(default)]
    joined: String,
    #[serde(default)]
    digit: bool,
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    secret_name: bool,
    #[serde(default)]
    public_near: Vec<String>,
    #[serde(default)]
    public_values: Vec<String>,
    #[serde(default)]
    paths: Vec<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum CheckKind {
    #[default]
    Token,
    Opaque,
    Named,
    PrivateKey,
    KubernetesSecret,
    UrlPassword,
    Generic,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    #[serde(default)]
    rule: Vec<RuleDef>,
}

/// Bytes a pattern may compile to: a user's row cannot make every scan slow.
const PATTERN_SIZE_LIMIT: usize = 1 << 20;
/// At most this many rows a user or project file may add.
const MAX_ADDED_RULES: usize = 200;

fn compile_row(def: RuleDef) -> anyhow::Result<Rule> {
    let id = def.id.as_str();
    let kebab = !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !kebab {
        bail!("rule id `{id}` is not kebab-case (a-z, 0-9, -)");
    }
    if def.keywords.is_empty() {
        bail!("rule `{id}` has no keywords: a line must hold one for its pattern to run");
    }
    if let Some(short) = def.keywords.iter().find(|k| k.len() < 3 || k.len() > 64) {
        bail!("rule `{id}`: the keyword `{short}` must be 3 to 64 bytes long");
    }
    let regex = |what: &str, pattern: &str| {
        RegexBuilder::new(pattern)
            .size_limit(PATTERN_SIZE_LIMIT)
            .build()
            .with_context(|| format!("rule `{id}`: bad {what}"))
    };
    let entropy = def.entropy.unwrap_or(3.0);
    let joined = def.joined.clone().into_bytes();
    let (check, pattern) = match def.check {
        CheckKind::Named | CheckKind::Generic => {
            if def.pattern.is_some() {
                bail!(
                    "rule `{id}`: a {:?} row has no pattern: its keywords name the name",
                    def.check
                );
            }
            let pattern = generic::assignment_pattern(&def.keywords);
            let check = match def.check {
                CheckKind::Named => {
                    let Some(value) = &def.value else {
                        bail!("rule `{id}`: a named row needs `value`, the shape of the value");
                    };
                    Check::Named(generic::Named {
                        min_entropy: entropy,
                        value: regex("value", &format!("^(?:{value})$"))?,
                        secret_name: def.secret_name,
                    })
                }
                _ => Check::Generic,
            };
            (check, pattern)
        }
        kind => {
            let Some(pattern) = def.pattern.clone() else {
                bail!("rule `{id}` has no pattern");
            };
            let check = match kind {
                CheckKind::Opaque => Check::Opaque { joined },
                CheckKind::PrivateKey => Check::PrivateKey,
                CheckKind::KubernetesSecret => Check::KubernetesSecret,
                CheckKind::UrlPassword => Check::UrlPassword,
                _ => Check::Token {
                    min_entropy: entropy,
                    joined,
                    needs_digit: def.digit,
                    public_near: def.public_near.clone(),
                },
            };
            (check, pattern)
        }
    };
    let regex = regex("pattern", &pattern)?;
    let named_s = regex.capture_names().flatten().any(|n| n == "s");
    if !named_s
        && !matches!(
            check,
            Check::PrivateKey | Check::KubernetesSecret | Check::Named(_) | Check::Generic
        )
    {
        bail!("rule `{id}`: the pattern has no group `s` (the secret): `(?P<s>...)`");
    }
    let paths = if def.paths.is_empty() {
        None
    } else {
        let mut builder = GitignoreBuilder::new(".");
        for path in &def.paths {
            builder
                .add_line(None, path)
                .with_context(|| format!("rule `{id}`: bad path pattern `{path}`"))?;
        }
        Some(
            builder
                .build()
                .with_context(|| format!("rule `{id}`: bad paths"))?,
        )
    };
    Ok(Rule {
        id: Arc::from(def.id),
        keywords: def.keywords,
        regex,
        check,
        public_values: def.public_values.into_iter().collect(),
        paths,
    })
}

fn parse_table(text: &str) -> anyhow::Result<Vec<Rule>> {
    let table: Table = toml::from_str(text)?;
    table.rule.into_iter().map(compile_row).collect()
}

#[allow(
    clippy::expect_used,
    reason = "the table is compiled in: a bad row fails every test, never a user's input"
)]
static BUILT_IN: LazyLock<Vec<Arc<Rule>>> = LazyLock::new(|| {
    parse_table(BUILT_IN_TOML)
        .expect("assets/secrets.toml")
        .into_iter()
        .map(Arc::new)
        .collect()
});

/// Every rule id a finding of the built-in table can carry, in the order of the table (a
/// few kinds have several rows; `gcp-service-account` has none: it is a private key found
/// inside a service-account JSON's `"private_key"` string).
pub static RULE_IDS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut ids = vec!["gcp-service-account"];
    for rule in BUILT_IN.iter() {
        if !ids.contains(&&*rule.id) {
            ids.push(&rule.id);
        }
    }
    ids
});

/// Rows a user or a project adds to the built-in table: `[[rule]]` entries of the same
/// shape, each a `token`, `opaque` or `named` check. They can add findings, never remove one.
#[derive(Debug, Clone, Default)]
pub struct SecretRules {
    rules: Vec<Arc<Rule>>,
}

impl SecretRules {
    /// The rows of a file's text, checked (each pattern compiles, within bounds); `file`
    /// names it in errors.
    pub fn parse(text: &str, file: &str) -> anyhow::Result<Self> {
        let table: Table = toml::from_str(text).with_context(|| file.to_owned())?;
        if table.rule.len() > MAX_ADDED_RULES {
            bail!("{file}: more than {MAX_ADDED_RULES} rules");
        }
        let mut rules = Vec::new();
        for def in table.rule {
            if !matches!(
                def.check,
                CheckKind::Token | CheckKind::Opaque | CheckKind::Named
            ) {
                bail!(
                    "{file}: rule `{}`: check must be token, opaque or named (the others are \
                     built-in code)",
                    def.id
                );
            }
            rules.push(Arc::new(compile_row(def).with_context(|| file.to_owned())?));
        }
        Ok(Self { rules })
    }

    /// These rows and then `other`'s.
    pub fn extend(&mut self, other: SecretRules) {
        self.rules.extend(other.rules);
    }

    /// Whether there is no rule at all.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// How many rules there are.
    pub fn len(&self) -> usize {
        self.rules.len()
    }
}

/// What this module writes in place of a secret; never itself a match.
pub(crate) const MARKER_KEYWORD: &str = "[secret:";

/// What a keyword wakes besides rows: the marker this module wrote.
pub(crate) const MARKER: u32 = u32::MAX;

/// Keywords found in one pass over the text each, and the rows each wakes.
pub(crate) struct KeywordSet {
    /// Leftmost-longest, so that the search runs on its (SIMD) prefilter and never reports
    /// overlapping matches.
    pub automaton: AhoCorasick,
    /// For each pattern: the rows it wakes (indices into [`Compiled::rules`], or
    /// [`MARKER`]).
    pub wakes: Vec<Vec<u32>>,
}

pub(crate) struct Compiled {
    pub rules: Vec<Arc<Rule>>,
    /// Token prefixes and words in their three cases, in sets of at most 64 patterns: the
    /// search's SIMD prefilter takes no more, and a few fast passes beat one slow one.
    pub keywords: Vec<KeywordSet>,
    pub marker: Regex,
    pub end_of_key: Regex,
}

/// A keyword of lower-case letters is a word (matched in three cases); any other is exact.
fn is_word(keyword: &str) -> bool {
    keyword.bytes().all(|b| b.is_ascii_lowercase())
}

/// Patterns per keyword set: what the prefilter takes.
const SET_SIZE: usize = 64;

#[allow(
    clippy::expect_used,
    reason = "keywords are checked when read (3 to 64 bytes, bounded count): the automaton \
              of such a set always builds"
)]
fn keyword_sets(mut patterns: Vec<(String, u32)>) -> Vec<KeywordSet> {
    // One entry per spelling, with every row it wakes; sorted, so that a keyword and the
    // longer ones holding it (`key`, `Key`, `AccountKey`) mostly share a set.
    patterns.sort();
    let mut unique: Vec<(String, Vec<u32>)> = Vec::new();
    for (pattern, wake) in patterns {
        match unique.last_mut() {
            Some((p, wakes)) if *p == pattern => {
                if !wakes.contains(&wake) {
                    wakes.push(wake);
                }
            }
            _ => unique.push((pattern, vec![wake])),
        }
    }
    // Exact prefixes and words apart: long prefixes are rare in text, short words common.
    unique.sort_by_key(|(p, _)| (p.len() <= 4, p.to_ascii_lowercase()));
    unique
        .chunks(SET_SIZE)
        .map(|chunk| {
            // The search reports the longest keyword at a place, not the shorter ones of its
            // set inside it (`Key` in `AccountKey`): a keyword wakes the rows of those too.
            let wakes = chunk
                .iter()
                .map(|(outer, _)| {
                    let mut all: Vec<u32> = chunk
                        .iter()
                        .filter(|(inner, _)| outer.contains(inner.as_str()))
                        .flat_map(|(_, w)| w.iter().copied())
                        .collect();
                    all.sort_unstable();
                    all.dedup();
                    all
                })
                .collect();
            let automaton = AhoCorasickBuilder::new()
                .match_kind(MatchKind::LeftmostLongest)
                .build(chunk.iter().map(|(p, _)| p))
                .expect("keyword automaton");
            KeywordSet { automaton, wakes }
        })
        .collect()
}

#[allow(
    clippy::expect_used,
    reason = "the marker patterns are compiled in: a bad one fails every test"
)]
impl Compiled {
    fn new(rules: Vec<Arc<Rule>>) -> Self {
        let mut patterns = vec![(MARKER_KEYWORD.to_owned(), MARKER)];
        for (i, rule) in rules.iter().enumerate() {
            let row = u32::try_from(i).unwrap_or(MARKER - 1);
            for keyword in &rule.keywords {
                if is_word(keyword) {
                    let mut capitalised = keyword.to_owned();
                    capitalised[..1].make_ascii_uppercase();
                    for form in [
                        keyword.to_owned(),
                        keyword.to_ascii_uppercase(),
                        capitalised,
                    ] {
                        patterns.push((form, row));
                    }
                } else {
                    patterns.push((keyword.to_owned(), row));
                }
            }
        }
        Compiled {
            keywords: keyword_sets(patterns),
            rules,
            marker: Regex::new(r"\[secret: [a-z0-9-]+(?:, [^\]\r\n]*:[0-9]+)?\]").expect("marker"),
            end_of_key: Regex::new(r"-{4,5} ?END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)? ?-{4,5}")
                .expect("end of key"),
        }
    }

    /// The built-in rows with `added` among them: after the specific rows, before the
    /// generic ones (which take whatever is left).
    pub fn with(added: &SecretRules) -> Self {
        let generic = |r: &Arc<Rule>| matches!(r.check, Check::Generic);
        let mut rules: Vec<Arc<Rule>> = BUILT_IN.iter().filter(|r| !generic(r)).cloned().collect();
        rules.extend(added.rules.iter().cloned());
        rules.extend(BUILT_IN.iter().filter(|r| generic(r)).cloned());
        Self::new(rules)
    }
}

/// The built-in rows, compiled once for the process.
pub(crate) static COMPILED: LazyLock<Compiled> =
    LazyLock::new(|| Compiled::with(&SecretRules::default()));

/// A secret found in the text, before locations and the ignore file are applied.
#[derive(Debug)]
pub(crate) struct Suspect {
    pub rule: Arc<str>,
    /// What the marker replaces.
    pub span: std::ops::Range<usize>,
    /// Appended after the marker: the line breaks and line prefixes of a private key's body,
    /// so the line count stays.
    pub tail: String,
    /// What the fingerprint is taken of, when not the span's text (a private key's body,
    /// normalised so the same key gives the same fingerprint in any layout).
    pub fingerprint_of: Option<String>,
    /// Row of the rule table; the lower wins an overlap.
    pub priority: usize,
}

impl Suspect {
    /// A secret of one span, fingerprinted by its own text.
    pub fn new(rule: &Arc<str>, span: std::ops::Range<usize>, priority: usize) -> Self {
        Self {
            rule: Arc::clone(rule),
            span,
            tail: String::new(),
            fingerprint_of: None,
            priority,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_table_reads() {
        assert!(BUILT_IN.len() > 30);
        assert!(matches!(
            BUILT_IN.last().map(|r| &r.check),
            Some(Check::Generic)
        ));
    }

    #[test]
    fn the_keyword_sets_stay_within_what_the_prefilter_takes() {
        // Past 64 patterns, or with one shorter than 3 bytes, the search runs without its
        // SIMD prefilter, several times slower (see benches/secrets.rs).
        for set in &COMPILED.keywords {
            assert!(set.automaton.patterns_len() <= SET_SIZE);
            assert!(set.automaton.min_pattern_len() >= 3);
        }
    }

    #[test]
    fn ids_are_listed() {
        for rule in BUILT_IN.iter() {
            assert!(RULE_IDS.contains(&&*rule.id), "{} not in RULE_IDS", rule.id);
        }
    }

    #[test]
    fn an_added_row_finds_its_kind_outside_the_paths_it_skips() {
        use crate::secrets::{Scanner, SecretsIgnore};
        let rows = SecretRules::parse(
            "[[rule]]\nid = \"acme-token\"\nkeywords = [\"acme_\"]\n\
             pattern = '(?P<s>acme_[0-9a-z]{20})'\npaths = [\"fixtures/\"]\n\
             public_values = [\"acme_k3j9x0q2m7v5t8r1w4z6\"]\n",
            "x.toml",
        )
        .unwrap();
        let scanner = Scanner::with_rules(rows, SecretsIgnore::none());
        let diff = |path: &str, token: &str| {
            format!("diff --git a/{path} b/{path}\n+++ b/{path}\n@@ -0,0 +1 @@\n+KEY={token}\n")
        };
        let token = "acme_p4z8w1q7k2m9x3v6t0r5";
        let got = scanner.redact(&diff("deploy.env", token));
        assert_eq!(got.findings.len(), 1);
        assert_eq!(&*got.findings[0].rule, "acme-token");
        assert!(got.findings[0].location.is_some());
        assert!(
            scanner
                .redact(&diff("fixtures/a.env", token))
                .findings
                .is_empty()
        );
        let public = "acme_k3j9x0q2m7v5t8r1w4z6";
        assert!(
            scanner
                .redact(&diff("deploy.env", public))
                .findings
                .is_empty()
        );
        // The built-in scanner knows no such kind.
        let plain = Scanner::new(SecretsIgnore::none());
        assert!(plain.redact(&diff("deploy.env", token)).findings.is_empty());
    }

    #[test]
    fn a_named_row_needs_the_vendor_in_a_name_that_holds_a_value() {
        use crate::secrets::{Scanner, SecretsIgnore};
        let scanner = Scanner::new(SecretsIgnore::none());
        let uuid = "3f9c2b7e-81d4-4a6f-b0e5-c27d94a1f836";
        for line in [
            format!("SNYK_TOKEN={uuid}"),
            format!("snykToken: \"{uuid}\""),
        ] {
            let got = scanner.redact(&line);
            let rules: Vec<&str> = got.findings.iter().map(|f| &*f.rule).collect();
            assert_eq!(rules, ["snyk-token"], "{line}");
        }
        for line in [
            format!("snyk_org_id = \"{uuid}\""),
            format!("request_id = \"{uuid}\""),
            "SNYK_TOKEN=00000000-0000-0000-0000-000000000000".to_owned(),
        ] {
            assert!(scanner.redact(&line).findings.is_empty(), "{line}");
        }
    }

    #[test]
    fn added_rows_are_checked() {
        let ok = SecretRules::parse(
            "[[rule]]\nid = \"acme-token\"\nkeywords = [\"acme_\"]\npattern = '(?P<s>acme_[0-9a-z]{32})'\n",
            "x.toml",
        )
        .unwrap();
        assert_eq!(ok.len(), 1);
        for (text, says) in [
            (
                "[[rule]]\nid = \"Acme\"\nkeywords = [\"acme_\"]\npattern = '(?P<s>x)'",
                "kebab-case",
            ),
            (
                "[[rule]]\nid = \"acme\"\nkeywords = []\npattern = '(?P<s>x)'",
                "no keywords",
            ),
            (
                "[[rule]]\nid = \"acme\"\nkeywords = [\"ac\"]\npattern = '(?P<s>x)'",
                "3 to 64",
            ),
            (
                "[[rule]]\nid = \"acme\"\nkeywords = [\"acme\"]\npattern = '(x'",
                "bad pattern",
            ),
            (
                "[[rule]]\nid = \"acme\"\nkeywords = [\"acme\"]\npattern = 'acme[0-9]+'",
                "group `s`",
            ),
            (
                "[[rule]]\nid = \"acme\"\nkeywords = [\"acme\"]\ncheck = \"generic\"",
                "token, opaque or named",
            ),
            (
                "[[rule]]\nid = \"acme\"\nkeywords = [\"acme\"]\ncheck = \"named\"",
                "needs `value`",
            ),
            (
                "[[rule]]\nid = \"acme\"\nkeywords = [\"acme\"]\npattern = '(?P<s>x)'\ncolour = 1",
                "unknown field",
            ),
            (
                "[[rule]]\nid = \"acme\"\nkeywords = [\"acme\"]\npattern = '(?P<s>x{1000}){1000}'",
                "bad pattern",
            ),
        ] {
            let err = format!("{:#}", SecretRules::parse(text, "x.toml").unwrap_err());
            assert!(
                err.contains(says) && err.contains("x.toml"),
                "{text}: {err}"
            );
        }
    }
}
