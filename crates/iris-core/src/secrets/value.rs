//! Checks on a candidate value: how random it is, and whether it is a stand-in (a
//! placeholder, a reference to somewhere else, a filler) rather than a secret.

use std::sync::LazyLock;

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

/// Words that mark a value as a stand-in, wherever they occur in it, in lower case, upper
/// case or capitalised (`example` covers AWS's documented `AKIA...EXAMPLE` key). Mixed
/// case (`fAKE`) is what random tokens hold by chance.
const PLACEHOLDER_WORDS: &str = "\
    example dummy fake sample placeholder your changeme change_me change-me replace redacted \
    insert notreal not_real not-real _here -here xxxx";
/// Marks of a stand-in in any case.
const PLACEHOLDER_MARKS: &[&str] = &["****", "...", "…", "${", "{{", "<", ">"];

/// Each placeholder word in lower case, upper case and capitalised.
static PLACEHOLDER_FORMS: LazyLock<Vec<String>> = LazyLock::new(|| {
    PLACEHOLDER_WORDS
        .split_whitespace()
        .flat_map(|w| {
            let mut capitalised = w.to_owned();
            if let Some(first) = capitalised.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            [w.to_owned(), w.to_ascii_uppercase(), capitalised]
        })
        .collect()
});

/// Whether `value` reads as a stand-in (`your_token_here`, `AKIA...EXAMPLE`, `${TOKEN}`),
/// which the generic rules leave alone, as gitleaks' stopwords do; a random token that
/// happens to spell one of the words is left alone too.
pub fn is_placeholder(value: &str) -> bool {
    // `...TokenHere`, `RANDOMSTRINGHERE`: a slot to fill.
    ["here", "HERE", "Here"].iter().any(|h| value.ends_with(h))
        || PLACEHOLDER_FORMS.iter().any(|w| value.contains(w.as_str()))
        || PLACEHOLDER_MARKS.iter().any(|m| value.contains(m))
}

/// Runs of one character or counting sequences (`aaaaaa`, `1234567`, `hijkl`) over at least
/// a fifth of the value: typed by hand, not drawn at random. One short run in a long token
/// is chance or the format (`AAAA` in some vendors' tokens); digits need a longer run, as
/// tokens with numeric parts (Slack's) hold short ones by chance.
pub(crate) fn has_filler(value: &str) -> bool {
    let bytes = value.as_bytes();
    let (mut same, mut counting) = (1, 1);
    // Bytes inside a run long enough to count, each counted once.
    let (mut covered, mut counted_to) = (0, 0);
    for (i, pair) in bytes.windows(2).enumerate() {
        same = if pair[0] == pair[1] { same + 1 } else { 1 };
        let next = pair[0].is_ascii_alphanumeric() && pair[1] == pair[0].wrapping_add(1);
        counting = if next { counting + 1 } else { 1 };
        let needed = if pair[1].is_ascii_digit() { 7 } else { 5 };
        let run = if same >= 6 {
            same
        } else if counting >= needed {
            counting
        } else {
            continue;
        };
        let end = i + 2;
        let start = (end - run).max(counted_to);
        covered += end - start;
        counted_to = end;
    }
    covered > 0 && covered * 5 >= bytes.len()
}

/// Whole values that stand for no password at all.
const EMPTY_WORDS: &str = "\
    password passwd pass pwd secret token null none nil true false undefined empty string \
    admin root guest default user username required optional hidden masked xxx foo bar baz \
    qux foobar opensesame";

/// One of [`EMPTY_WORDS`], maybe with a number after it (`secret123`, `password1`).
pub(crate) fn is_empty_word(value: &str) -> bool {
    let word = value.trim_end_matches(|c: char| c.is_ascii_digit());
    EMPTY_WORDS
        .split_whitespace()
        .any(|w| word.eq_ignore_ascii_case(w))
}

/// A value written by a template or a shell rather than typed in: `$VAR`, `${VAR}`,
/// `{{ var }}`, `%VAR%`, `%(name)s`, `{name}`, `<name>`, `#{var}`.
pub(crate) fn is_reference(value: &str) -> bool {
    matches!(value.as_bytes().first(), Some(b'$' | b'%' | b'{' | b'<'))
        || ["${", "{{", "}}", "{}", "#{", "%("]
            .iter()
            .any(|t| value.contains(t))
}

/// The password of `scheme://user:password@host`, unless it is a stand-in, a default, or
/// the URL is a documentation example (`@example.com`).
pub(crate) fn url_password(password: &str, user: &str, host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    password.len() >= 4
        && !host.contains("example")
        && ![".test", ".invalid"].iter().any(|t| host.ends_with(t))
        && !is_reference(password)
        && !is_empty_word(password)
        && !is_placeholder(password)
        && !password.bytes().all(|b| b == b'*' || b == b'x' || b == b'X')
        // `[PASSWORD]`: a slot in documentation.
        && !(password.starts_with('[') && password.ends_with(']'))
        // Default credentials of local services (`postgres:postgres`, `guest:guest`).
        && password != user
        // `cvs://:pserver:anoncvs@host`: no user, so no password either.
        && !(user.is_empty() && password.contains(':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_in_one_case_only() {
        for value in [
            concat!("AKIAIOSFODNN7", "EXAMPLE"),
            "my-fake-key",
            "Dummy123",
            "abcXXXXdef",
            "<token>",
        ] {
            assert!(is_placeholder(value), "{value}");
        }
        for value in ["Vx8fAKE2kLm", "q9XXxx7Rt", "Q1yOuRt5"] {
            assert!(!is_placeholder(value), "{value}");
        }
    }

    #[test]
    fn entropy_of_simple_strings() {
        assert_eq!(entropy(""), 0.0);
        assert_eq!(entropy("aaaa"), 0.0);
        assert!((entropy("abcd") - 2.0).abs() < 1e-9);
    }
}
