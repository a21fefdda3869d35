//! The words of a text as lodash splits them for its compound cases (`kebabCase`,
//! `startCase`, ...), which commitlint's case rules use: accents dropped (`deburr`),
//! apostrophes removed, then either plain runs of letters and digits or, for a text with
//! mixed case, digits next to letters or punctuation, lodash's Unicode word pattern
//! (`fooBar` is `foo`, `Bar`; `HTMLParser` is `HTML`, `Parser`; `1st` stays whole).

use std::sync::LazyLock;

use fancy_regex::Regex;

use super::pattern::{WORD_BOUNDARY, built_in_fancy};

/// The words of `text` for a compound case.
pub fn compound(text: &str) -> Vec<String> {
    let text: String = deburr(text)
        .chars()
        .filter(|c| !matches!(c, '\'' | '\u{2019}'))
        .collect();
    let pattern: &Regex = if HAS_UNICODE_WORD.is_match(&text).unwrap_or(false) {
        &UNICODE_WORD
    } else {
        &ASCII_WORD
    };
    pattern
        .find_iter(&text)
        .filter_map(Result::ok)
        .map(|m| m.as_str().to_string())
        .collect()
}

static HAS_UNICODE_WORD: LazyLock<Regex> = LazyLock::new(|| {
    built_in_fancy("[a-z][A-Z]|[A-Z]{2}[a-z]|[0-9][a-zA-Z]|[a-zA-Z][0-9]|[^a-zA-Z0-9 ]")
});

static ASCII_WORD: LazyLock<Regex> =
    LazyLock::new(|| built_in_fancy(r"[^\x{0}-\x{2f}\x{3a}-\x{40}\x{5b}-\x{60}\x{7b}-\x{7f}]+"));

static UNICODE_WORD: LazyLock<Regex> = LazyLock::new(|| {
    const BREAK: &str = concat!(
        r"\x{ac}\x{b1}\x{d7}\x{f7}\x{0}-\x{2f}\x{3a}-\x{40}\x{5b}-\x{60}\x{7b}-\x{bf}",
        r"\x{2000}-\x{206f} \t\x{b}\x{c}\x{a0}\x{feff}\n\r\x{2028}\x{2029}\x{1680}",
        r"\x{180e}\x{202f}\x{205f}\x{3000}"
    );
    const LOWER: &str = r"a-z\x{df}-\x{f6}\x{f8}-\x{ff}";
    const UPPER: &str = r"A-Z\x{c0}-\x{d6}\x{d8}-\x{de}";
    const DINGBAT: &str = r"\x{2700}-\x{27bf}";
    const ASTRAL: &str = r"\x{10000}-\x{10ffff}";
    let brk = format!("[{BREAK}]");
    let lower = format!("[{LOWER}]");
    let upper = format!("[{UPPER}]");
    let misc = format!("[^{ASTRAL}{BREAK}0-9+{DINGBAT}{LOWER}{UPPER}]");
    let misc_lower = format!("(?:{lower}|{misc})");
    let misc_upper = format!("(?:{upper}|{misc})");
    let contr_lower = "(?:['\u{2019}](?:d|ll|m|re|s|t|ve))?";
    let contr_upper = "(?:['\u{2019}](?:D|LL|M|RE|S|T|VE))?";
    let regional = r"(?:[\x{1f1e6}-\x{1f1ff}]){2}";
    let surrogate_pair = format!("[{ASTRAL}]");
    let modifier = r"(?:[\x{300}-\x{36f}\x{fe20}-\x{fe2f}\x{20d0}-\x{20ff}]|[\x{1f3fb}-\x{1f3ff}])";
    let variation = r"[\x{fe0e}\x{fe0f}]?";
    let join = format!(
        r"(?:\x{{200d}}(?:[\x{{0}}-\x{{ffff}}]|{regional}|{surrogate_pair}){variation}{modifier}?)*"
    );
    let emoji = format!("(?:[{DINGBAT}]|{regional}|{surrogate_pair}){variation}{modifier}?{join}");
    let alternatives = [
        format!("{upper}?{lower}+{contr_lower}(?={brk}|{upper}|$)"),
        format!("{misc_upper}+{contr_upper}(?={brk}|{upper}{misc_lower}|$)"),
        format!("{upper}?{misc_lower}+{contr_lower}"),
        format!("{upper}+{contr_upper}"),
        format!("[0-9]*(?:1ST|2ND|3RD|(?![123])[0-9]TH)(?={WORD_BOUNDARY}|[a-z_])"),
        format!("[0-9]*(?:1st|2nd|3rd|(?![123])[0-9]th)(?={WORD_BOUNDARY}|[A-Z_])"),
        "[0-9]+".to_string(),
        emoji,
    ];
    built_in_fancy(&alternatives.join("|"))
});

/// lodash's `deburr`: Latin-1 and Latin Extended-A letters as plain ASCII, combining marks
/// dropped.
fn deburr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\u{300}'..='\u{36f}' | '\u{fe20}'..='\u{fe2f}' | '\u{20d0}'..='\u{20ff}' => {}
            _ => match plain(c) {
                Some(s) => out.push_str(s),
                None => out.push(c),
            },
        }
    }
    out
}

/// The ASCII letters lodash writes for an accented one.
fn plain(c: char) -> Option<&'static str> {
    const TABLE: &[(&str, &str)] = &[
        ("ÀÁÂÃÄÅĀĂĄ", "A"),
        ("àáâãäåāăą", "a"),
        ("ÇĆĈĊČ", "C"),
        ("çćĉċč", "c"),
        ("ÐĎĐ", "D"),
        ("ðďđ", "d"),
        ("ÈÉÊËĒĔĖĘĚ", "E"),
        ("èéêëēĕėęě", "e"),
        ("ĜĞĠĢ", "G"),
        ("ĝğġģ", "g"),
        ("ĤĦ", "H"),
        ("ĥħ", "h"),
        ("ÌÍÎÏĨĪĬĮİ", "I"),
        ("ìíîïĩīĭįı", "i"),
        ("Ĵ", "J"),
        ("ĵ", "j"),
        ("Ķ", "K"),
        ("ķĸ", "k"),
        ("ĹĻĽĿŁ", "L"),
        ("ĺļľŀł", "l"),
        ("ÑŃŅŇŊ", "N"),
        ("ñńņňŋ", "n"),
        ("ÒÓÔÕÖØŌŎŐ", "O"),
        ("òóôõöøōŏő", "o"),
        ("ŔŖŘ", "R"),
        ("ŕŗř", "r"),
        ("ŚŜŞŠ", "S"),
        ("śŝşšſ", "s"),
        ("ŢŤŦ", "T"),
        ("ţťŧ", "t"),
        ("ÙÚÛÜŨŪŬŮŰŲ", "U"),
        ("ùúûüũūŭůűų", "u"),
        ("Ŵ", "W"),
        ("ŵ", "w"),
        ("ÝŶŸ", "Y"),
        ("ýÿŷ", "y"),
        ("ŹŻŽ", "Z"),
        ("źżž", "z"),
        ("Æ", "Ae"),
        ("æ", "ae"),
        ("Þ", "Th"),
        ("þ", "th"),
        ("ß", "ss"),
        ("Ĳ", "IJ"),
        ("ĳ", "ij"),
        ("Œ", "Oe"),
        ("œ", "oe"),
        ("ŉ", "'n"),
    ];
    if !matches!(c, '\u{c0}'..='\u{17f}') {
        return None;
    }
    TABLE
        .iter()
        .find(|(from, _)| from.contains(c))
        .map(|(_, to)| *to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_as_lodash_splits_them() {
        let cases: [(&str, &[&str]); 8] = [
            ("fooBar", &["foo", "Bar"]),
            ("HTMLParser", &["HTML", "Parser"]),
            ("foo_bar-baz", &["foo", "bar", "baz"]),
            ("add the parser", &["add", "the", "parser"]),
            ("v2 release", &["v", "2", "release"]),
            ("the 1st time", &["the", "1st", "time"]),
            ("don't stop", &["dont", "stop"]),
            ("café crème", &["cafe", "creme"]),
        ];
        for (text, words) in cases {
            assert_eq!(compound(text), words, "{text}");
        }
    }
}
