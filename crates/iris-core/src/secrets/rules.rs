//! The rule table: what each kind of secret looks like, written from the vendors' published
//! token formats. A rule is a keyword list (the prefilter: its pattern only runs on lines
//! that hold one of them), a pattern whose group `s` is the secret (`generic-secret`'s finds
//! the assignment, the value after it is read by hand), and the check that tells a secret
//! from a look-alike. Earlier rules win where matches overlap, so the specific ones come
//! first and `generic-secret` last.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::Regex;

/// How a match is judged after the pattern found it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Check {
    /// A token with a vendor prefix: refused only when it is a placeholder or a filler
    /// (too little entropy). `joined` are the bytes besides ASCII letters and digits that
    /// may continue the token, so a neighbour of that kind means the match is part of
    /// something longer.
    Token {
        min_entropy: f64,
        joined: &'static [u8],
        needs_digit: bool,
        /// Lines holding one of these are documented public values.
        unless: &'static [&'static str],
    },
    /// Like `Token`, without the placeholder words: a long base64 body holds them by chance.
    Opaque { joined: &'static [u8] },
    /// `-----BEGIN ... PRIVATE KEY-----` blocks, handled by their own code (the pattern is
    /// the BEGIN line).
    PrivateKey,
    /// The password of `scheme://user:password@host`.
    UrlPassword,
    /// A random-looking value assigned to a secret-sounding name.
    Generic,
}

pub(crate) struct Rule {
    pub id: &'static str,
    /// What a line must hold for the pattern to run on it: token prefixes exactly as
    /// written; words of lower-case letters in lower, upper and capitalised case.
    pub keywords: &'static [&'static str],
    pub pattern: &'static str,
    pub check: Check,
}

const fn token(min_entropy: f64, joined: &'static [u8]) -> Check {
    Check::Token {
        min_entropy,
        joined,
        needs_digit: false,
        unless: &[],
    }
}

/// Every rule id a finding can carry, in the order of the table (a few kinds have two rows;
/// `gcp-service-account` has none, see [`RULES`]).
pub const RULE_IDS: &[&str] = &[
    "private-key",
    "gcp-service-account",
    "aws-access-key",
    "aws-secret-key",
    "gcp-api-key",
    "google-oauth-secret",
    "azure-storage-key",
    "azure-client-secret",
    "azure-sas",
    "github-token",
    "gitlab-token",
    "slack-token",
    "slack-webhook",
    "stripe-key",
    "openai-key",
    "anthropic-key",
    "openrouter-key",
    "groq-key",
    "huggingface-token",
    "npm-token",
    "pypi-token",
    "sendgrid-key",
    "digitalocean-token",
    "jwt",
    "password-in-url",
    "generic-secret",
];

/// `gcp-service-account` has no row: it is a private key found inside a service-account
/// JSON's `"private_key"` string, reported by the private-key code under its own id.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "private-key",
        keywords: &["PRIVATE KEY"],
        pattern: r"-{4,5} ?BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)? ?-{4,5}",
        check: Check::PrivateKey,
    },
    Rule {
        id: "aws-access-key",
        keywords: &["AKIA", "ASIA", "ABIA", "ACCA"],
        pattern: r"(?P<s>(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})",
        check: token(3.0, b""),
    },
    Rule {
        // `aws_secret_access_key = ...`, `AWS_SECRET_ACCESS_KEY=...`, `"SecretAccessKey": ...`.
        id: "aws-secret-key",
        keywords: &["secret"],
        pattern: r#"(?i:aws[a-z0-9_.-]*secret|secret[_.-]?access[_.-]?key)[A-Za-z0-9_.-]*["'\]]{0,2}[ \t]*(?::=|=>|=|:)[ \t]*["']?(?P<s>[A-Za-z0-9/+]{40})"#,
        check: token(3.5, b"/+="),
    },
    Rule {
        id: "gcp-api-key",
        keywords: &["AIza"],
        pattern: r"(?P<s>AIza[0-9A-Za-z_-]{35})",
        check: token(3.0, b"_-"),
    },
    Rule {
        id: "google-oauth-secret",
        keywords: &["GOCSPX-"],
        pattern: r"(?P<s>GOCSPX-[0-9A-Za-z_-]{28})",
        check: token(3.0, b"_-"),
    },
    Rule {
        // 64 random bytes in base64, in a connection string.
        id: "azure-storage-key",
        keywords: &["key"], // AccountKey, accountKey
        pattern: r"(?i:AccountKey)=(?P<s>[A-Za-z0-9+/]{86}==)",
        check: Check::Token {
            min_entropy: 3.5,
            joined: b"+/=",
            needs_digit: false,
            // The storage emulator's account and key are published by Microsoft.
            unless: &["devstoreaccount1"],
        },
    },
    Rule {
        // Entra ID client secrets: three characters, a digit, `Q~`, then 31 to 34 more.
        id: "azure-client-secret",
        // `Q~` alone is too short for the prefilter; the secret's name says what it is.
        keywords: &["secret", "credential", "pass", "key", "token"],
        pattern: r"(?P<s>[0-9A-Za-z_~.-]{3}[0-9]Q~[0-9A-Za-z_~.-]{31,34})",
        check: token(3.0, b"_~.-"),
    },
    Rule {
        id: "azure-sas",
        keywords: &["key"], // SharedAccessKey
        pattern: r"(?i:SharedAccessKey)=(?P<s>[A-Za-z0-9+/]{40,86}={0,2})",
        check: token(3.5, b"+/="),
    },
    Rule {
        // The signature of a shared access signature URL (URL-encoded base64).
        id: "azure-sas",
        keywords: &["sig="],
        pattern: r"[?&]sig=(?P<s>[A-Za-z0-9%+/]{40,120})",
        check: token(3.5, b"%+/="),
    },
    Rule {
        id: "github-token",
        keywords: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        pattern: r"(?P<s>gh[pousr]_[0-9A-Za-z]{36,251})",
        check: token(3.0, b"_"),
    },
    Rule {
        id: "github-token",
        keywords: &["github_pat_"],
        pattern: r"(?P<s>github_pat_[0-9A-Za-z_]{60,244})",
        check: token(3.0, b"_"),
    },
    Rule {
        id: "gitlab-token",
        keywords: &[
            "glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glsoat-", "glcbt-", "glimt-", "gloas-",
            "glagent-", "glffct-",
        ],
        pattern: r"(?P<s>gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt|oas|agent|ffct)-[0-9A-Za-z_-]{20,250}(?:\.[0-9A-Za-z_-]{1,50}){0,3})",
        check: token(3.0, b"_-"),
    },
    Rule {
        // Runner registration tokens.
        id: "gitlab-token",
        keywords: &["GR1348941"],
        pattern: r"(?P<s>GR1348941[0-9A-Za-z_-]{20,50})",
        check: token(3.0, b"_-"),
    },
    Rule {
        id: "slack-token",
        keywords: &["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-"],
        pattern: r"(?P<s>xox[bpars]-[0-9A-Za-z][0-9A-Za-z-]{9,250})",
        check: Check::Token {
            min_entropy: 3.0,
            joined: b"-",
            needs_digit: true,
            unless: &[],
        },
    },
    Rule {
        id: "slack-token",
        keywords: &["xapp-"],
        pattern: r"(?P<s>xapp-[0-9]-[0-9A-Za-z-]{10,250})",
        check: token(3.0, b"-"),
    },
    Rule {
        id: "slack-webhook",
        keywords: &["hooks.slack.com"],
        pattern: r"(?P<s>https?://hooks\.slack\.com/(?:services|workflows|triggers)/[0-9A-Za-z_/-]{20,200})",
        check: token(3.0, b"_/-"),
    },
    Rule {
        id: "stripe-key",
        keywords: &["sk_live_", "rk_live_", "sk_test_", "rk_test_"],
        pattern: r"(?P<s>[sr]k_(?:live|test)_[0-9A-Za-z]{24,247})",
        check: token(3.0, b"_"),
    },
    Rule {
        // Webhook signing secrets.
        id: "stripe-key",
        keywords: &["whsec_"],
        pattern: r"(?P<s>whsec_[0-9A-Za-z+/=]{32,100})",
        check: token(3.0, b"_+/="),
    },
    Rule {
        id: "openai-key",
        keywords: &["sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"],
        pattern: r"(?P<s>sk-(?:proj|svcacct|admin|None)-[0-9A-Za-z_-]{40,250})",
        check: token(3.0, b"_-"),
    },
    Rule {
        // Legacy keys carry `T3BlbkFJ` (base64 of "OpenAI") in the middle.
        id: "openai-key",
        keywords: &["T3BlbkFJ"],
        pattern: r"(?P<s>sk-[0-9A-Za-z]{20}T3BlbkFJ[0-9A-Za-z]{20})",
        check: token(3.0, b"_-"),
    },
    Rule {
        id: "anthropic-key",
        keywords: &["sk-ant-"],
        pattern: r"(?P<s>sk-ant-(?:api|admin|oat|ort|sid)[0-9]{2}-[0-9A-Za-z_-]{32,250})",
        check: token(3.0, b"_-"),
    },
    Rule {
        id: "openrouter-key",
        keywords: &["sk-or-v1-"],
        pattern: r"(?P<s>sk-or-v1-[0-9a-f]{64})",
        check: token(3.0, b"_-"),
    },
    Rule {
        id: "groq-key",
        keywords: &["gsk_"],
        pattern: r"(?P<s>gsk_[0-9A-Za-z]{52})",
        check: token(3.0, b"_"),
    },
    Rule {
        id: "huggingface-token",
        keywords: &["hf_"],
        pattern: r"(?P<s>hf_[0-9A-Za-z]{34})",
        check: Check::Token {
            min_entropy: 3.5,
            joined: b"_",
            needs_digit: false,
            unless: &[],
        },
    },
    Rule {
        id: "npm-token",
        keywords: &["npm_"],
        pattern: r"(?P<s>npm_[0-9A-Za-z]{36})",
        check: token(3.0, b"_"),
    },
    Rule {
        // A macaroon whose first bytes encode "pypi.org".
        id: "pypi-token",
        keywords: &["pypi-AgEIcHlwaS5vcmc"],
        pattern: r"(?P<s>pypi-AgEIcHlwaS5vcmc[0-9A-Za-z_-]{50,400})",
        check: Check::Opaque { joined: b"_-" },
    },
    Rule {
        id: "sendgrid-key",
        keywords: &["SG."],
        pattern: r"(?P<s>SG\.[0-9A-Za-z_-]{22}\.[0-9A-Za-z_-]{43})",
        check: token(3.0, b"_-"),
    },
    Rule {
        id: "digitalocean-token",
        keywords: &["dop_v1_", "doo_v1_", "dor_v1_"],
        pattern: r"(?P<s>do[por]_v1_[0-9a-f]{64})",
        check: token(3.0, b"_"),
    },
    Rule {
        // Header and payload are base64url JSON objects, so both start with `eyJ` (`{"`).
        id: "jwt",
        keywords: &["eyJ"],
        pattern: r"(?P<s>eyJ[0-9A-Za-z_-]{8,}\.eyJ[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{16,})",
        check: Check::Opaque { joined: b"_-" },
    },
    Rule {
        id: "password-in-url",
        keywords: &["://"],
        pattern: r#"[A-Za-z][0-9A-Za-z+.-]{1,30}://(?P<user>[^\s:/?#@\[\]"'<>]*):(?P<s>[^\s/?#@"'<>]+)@(?P<host>[0-9A-Za-z\[_-][0-9A-Za-z._-]*)"#,
        check: Check::UrlPassword,
    },
    Rule {
        // A name, an assignment (`=`, `:`, `:=`, `=>`, or a typed `name: Type =`), a value
        // (quoted or not; an `Authorization`-style `Bearer ` in front is skipped).
        id: "generic-secret",
        keywords: &[
            "key",
            "token",
            "secret",
            "pass",
            "pwd",
            "credential",
            "auth",
        ],
        // The name and the assignment; the value after it is read by hand (generic.rs), so
        // the search needs no capture groups.
        pattern: r#"(?x)
            [0-9A-Za-z_.-]*(?i:key|token|secret|pass|pwd|credential|auth)[0-9A-Za-z_.-]*
            ["'\]]{0,2} [\ \t]*
            (?:
                :[\ \t]*&?(?:'static[\ \t]+)?[A-Za-z_][0-9A-Za-z_:<>\[\]&'\ ]{0,40}?[\ \t]*=
              | :=
              | =>
              | =
              | :
            )"#,
        check: Check::Generic,
    },
];

/// What this module writes in place of a secret; never itself a match.
pub(crate) const MARKER_KEYWORD: &str = "[secret:";

/// Bit of a line's mask that says it holds a marker this module wrote.
pub(crate) const MARKER_BIT: u64 = 1 << 63;

/// Keywords found in one pass over the text, and the rules each wakes.
pub(crate) struct Keywords {
    /// Leftmost-longest, so that the search runs on its (SIMD) prefilter and never reports
    /// overlapping matches.
    pub automaton: AhoCorasick,
    /// For each pattern: the rules it wakes (bit i = `RULES[i]`, [`MARKER_BIT`] for the
    /// marker).
    pub wakes: Vec<u64>,
}

pub(crate) struct Compiled {
    pub rules: Vec<(&'static Rule, Regex)>,
    /// Token prefixes and other keywords with one spelling, matched as written.
    pub exact: Keywords,
    /// Keywords of lower-case letters (`key`, `token`, ...), matched in lower case, upper
    /// case and capitalised: `api_key`, `API_KEY`, `apiKey`. Two small sets search faster
    /// than one large one: each stays within what the prefilter takes (64 patterns of at
    /// least 3 bytes).
    pub words: Keywords,
    pub marker: Regex,
    pub end_of_key: Regex,
}

/// A keyword of lower-case letters is a word (matched in three cases); any other is exact.
fn is_word(keyword: &str) -> bool {
    keyword.bytes().all(|b| b.is_ascii_lowercase())
}

#[allow(
    clippy::expect_used,
    reason = "the keywords are compiled in: a bad set fails every test, never a user's input"
)]
fn keywords(patterns: Vec<(String, u64)>) -> Keywords {
    let mut unique: Vec<(String, u64)> = Vec::new();
    for (pattern, wake) in patterns {
        match unique.iter_mut().find(|(p, _)| *p == pattern) {
            Some((_, mask)) => *mask |= wake,
            None => unique.push((pattern, wake)),
        }
    }
    // The search reports the longest keyword at a place, not the shorter ones inside it
    // (`Key` in `AccountKey`): a keyword wakes the rules of those too.
    let wakes = unique
        .iter()
        .map(|(outer, _)| {
            unique
                .iter()
                .filter(|(inner, _)| outer.contains(inner.as_str()))
                .fold(0, |mask, (_, wake)| mask | wake)
        })
        .collect();
    let automaton = AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostLongest)
        .build(unique.iter().map(|(p, _)| p))
        .expect("keyword automaton");
    Keywords { automaton, wakes }
}

#[allow(
    clippy::expect_used,
    reason = "the patterns are compiled in: a bad one fails every test, never a user's input"
)]
fn compile() -> Compiled {
    assert!(RULES.len() < 63, "rule bits and the marker's share a u64");
    let mut exact = vec![(MARKER_KEYWORD.to_owned(), MARKER_BIT)];
    let mut words = Vec::new();
    for (i, rule) in RULES.iter().enumerate() {
        for &keyword in rule.keywords {
            if is_word(keyword) {
                let mut capitalised = keyword.to_owned();
                capitalised[..1].make_ascii_uppercase();
                for form in [
                    keyword.to_owned(),
                    keyword.to_ascii_uppercase(),
                    capitalised,
                ] {
                    words.push((form, 1 << i));
                }
            } else {
                exact.push((keyword.to_owned(), 1 << i));
            }
        }
    }
    let rules = RULES
        .iter()
        .map(|rule| {
            (
                rule,
                Regex::new(rule.pattern).expect("built-in secret pattern"),
            )
        })
        .collect();
    Compiled {
        rules,
        exact: keywords(exact),
        words: keywords(words),
        marker: Regex::new(r"\[secret: [a-z0-9-]+(?:, [^\]\r\n]*:[0-9]+)?\]").expect("marker"),
        end_of_key: Regex::new(r"-{4,5} ?END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)? ?-{4,5}")
            .expect("end of key"),
    }
}

pub(crate) static COMPILED: LazyLock<Compiled> = LazyLock::new(compile);

/// A secret found in the text, before locations and the ignore file are applied.
#[derive(Debug)]
pub(crate) struct Suspect {
    pub rule: &'static str,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles_and_names_its_secret() {
        let compiled = &*COMPILED;
        for (rule, regex) in &compiled.rules {
            let named = regex.capture_names().flatten().any(|n| n == "s");
            assert!(
                named || matches!(rule.check, Check::Generic | Check::PrivateKey),
                "{} has no group s",
                rule.id
            );
        }
    }

    #[test]
    fn the_keyword_sets_stay_within_what_the_prefilter_takes() {
        // Past 64 patterns, or with one shorter than 3 bytes, the search runs without its
        // SIMD prefilter, several times slower (see benches/secrets.rs).
        let compiled = &*COMPILED;
        for set in [&compiled.exact, &compiled.words] {
            assert!(set.automaton.patterns_len() <= 64);
            assert!(set.automaton.min_pattern_len() >= 3);
        }
    }

    #[test]
    fn ids_are_kebab_case_and_listed() {
        for rule in RULES {
            assert!(
                rule.id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                rule.id
            );
            assert!(RULE_IDS.contains(&rule.id), "{} not in RULE_IDS", rule.id);
            assert!(!rule.keywords.is_empty(), "{}", rule.id);
        }
        for id in RULE_IDS {
            let has_row = RULES.iter().any(|rule| rule.id == *id);
            assert!(has_row || *id == "gcp-service-account", "{id} has no row");
        }
    }
}
