//! Repairs for the JSON faults models commonly make. Valid JSON passes through unchanged.

/// The JSON with its common faults repaired: raw newlines, tabs and other control characters
/// inside strings escaped; invalid escapes (`\'`, `\d`) made literal; a quote inside a string
/// that cannot end it (not followed by `,` `}` `]` `:`) escaped; a comma missing between a
/// string and the next key on a new line restored; trailing commas before `}`/`]` dropped.
pub fn sanitize(json: &str) -> String {
    let chars: Vec<char> = json.chars().collect();
    let mut out = String::with_capacity(json.len() + 16);
    let mut in_string = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !in_string {
            match c {
                '"' => in_string = true,
                '}' | ']' => drop_trailing_comma(&mut out),
                _ => {}
            }
            out.push(c);
            i += 1;
            continue;
        }
        match c {
            '\\' => {
                i += escape(&chars[i + 1..], &mut out);
                continue;
            }
            '"' => match string_end(&chars[i + 1..]) {
                StringEnd::Ends => {
                    in_string = false;
                    out.push('"');
                }
                StringEnd::EndsMissingComma => {
                    in_string = false;
                    out.push_str("\",");
                }
                StringEnd::Literal => out.push_str("\\\""),
            },
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// Writes the escape that a backslash at a string position starts; returns how many
/// characters it used (the backslash included).
fn escape(after: &[char], out: &mut String) -> usize {
    match after.first() {
        Some(&n) if "\"\\/bfnrt".contains(n) => {
            out.push('\\');
            out.push(n);
            2
        }
        Some('u') if after.len() >= 5 && after[1..5].iter().all(char::is_ascii_hexdigit) => {
            out.push('\\');
            out.extend(&after[..5]);
            6
        }
        Some('\'') => {
            out.push('\'');
            2
        }
        // A lone backslash (a regex, a Windows path): keep it as a literal backslash.
        _ => {
            out.push_str("\\\\");
            1
        }
    }
}

enum StringEnd {
    Ends,
    EndsMissingComma,
    Literal,
}

/// Whether a quote inside a string ends it, judging by what follows: in valid JSON a closing
/// quote is followed by `,` `}` `]` `:` or the end of the text.
fn string_end(after: &[char]) -> StringEnd {
    let mut newline = false;
    for &c in after {
        match c {
            '\n' => newline = true,
            c if c.is_whitespace() => {}
            ',' | '}' | ']' | ':' => return StringEnd::Ends,
            '"' if newline => return StringEnd::EndsMissingComma,
            _ => return StringEnd::Literal,
        }
    }
    StringEnd::Ends
}

/// Removes a comma that is the last non-blank character written, keeping the blanks after it.
fn drop_trailing_comma(out: &mut String) {
    let content = out.trim_end().len();
    if out[..content].ends_with(',') {
        out.remove(content - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn parsed(json: &str) -> Value {
        serde_json::from_str(&sanitize(json)).unwrap_or(Value::Null)
    }

    #[test]
    fn valid_json_is_unchanged() {
        for json in [
            r#"{"a": "b\n\"c\" \\ \/ \u00e9 \t", "d": [1, 2.5, true, null], "e": {}}"#,
            "{\n  \"a\": \"x, y: z\",\n  \"b\": [\n    \"c\"\n  ]\n}",
            r#"["}", "]", ",", "{\"nested\": 1}"]"#,
        ] {
            assert_eq!(sanitize(json), json);
        }
    }

    #[test]
    fn raw_control_characters_in_strings_are_escaped() {
        let value = parsed("{\"m\": \"one\ntwo\r\n\tthree\u{1}\"}");
        assert_eq!(value["m"], "one\ntwo\r\n\tthree\u{1}");
        let pretty = "{\n  \"m\": \"a\nb\"\n}";
        assert_eq!(parsed(pretty)["m"], "a\nb");
    }

    #[test]
    fn trailing_commas_are_dropped() {
        let value = parsed("{\"a\": [1, 2, ], \"b\": {\"c\": 1,\n},\n}");
        assert_eq!(value, serde_json::json!({"a": [1, 2], "b": {"c": 1}}));
        assert_eq!(sanitize("{\"a\": \"x,}\"}"), "{\"a\": \"x,}\"}");
    }

    #[test]
    fn invalid_escapes_become_literal() {
        assert_eq!(
            parsed(r#"{"a": "it\'s \d+ C:\dir \u12"}"#)["a"],
            r"it's \d+ C:\dir \u12"
        );
    }

    #[test]
    fn unescaped_quotes_inside_strings_are_escaped() {
        let value = parsed(r#"{"title": "Rename "foo" to bar", "n": 1}"#);
        assert_eq!(value["title"], "Rename \"foo\" to bar");
        assert_eq!(value["n"], 1);
    }

    #[test]
    fn a_missing_comma_between_lines_is_restored() {
        let value = parsed("{\n\"title\": \"a\"\n\"message\": \"b\"\n}");
        assert_eq!(value, serde_json::json!({"title": "a", "message": "b"}));
    }
}
