//! Coercions of single values to the type a schema asks for.

use serde_json::{Map, Number, Value};

/// Any value as text: strings as they are, arrays one item per line, objects as JSON.
pub(super) fn to_text(value: Value) -> String {
    match value {
        Value::String(s) => s,
        Value::Null => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) => items
            .into_iter()
            .map(to_text)
            .filter(|s| !s.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
        object @ Value::Object(_) => object.to_string(),
    }
}

/// A number from a number or from the first number in a string ("42", "L42", "12-15", "80%":
/// a percentage becomes a fraction when the schema's maximum is at most 1), kept within the
/// schema's minimum and maximum (or the range of its integer `format`: a grammar lets a
/// model write a line number past `u32`), rounded for integers.
pub(super) fn to_number(value: &Value, node: &Map<String, Value>, integer: bool) -> Option<Value> {
    let maximum = node
        .get("maximum")
        .and_then(Value::as_f64)
        .or_else(|| format_maximum(node));
    let minimum = node.get("minimum").and_then(Value::as_f64);
    let mut number = match value {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => {
            let (number, percent) = first_number(s)?;
            if percent && !integer && maximum.is_some_and(|m| m <= 1.0) {
                number / 100.0
            } else {
                number
            }
        }
        _ => return None,
    };
    if let Some(max) = maximum {
        number = number.min(max);
    }
    if let Some(min) = minimum {
        number = number.max(min);
    }
    if integer {
        if let Value::Number(n) = value
            && (n.is_i64() || n.is_u64())
            && number == n.as_f64().unwrap_or(f64::NAN)
        {
            return Some(value.clone());
        }
        let rounded = number.round();
        return (rounded.is_finite() && rounded.abs() < 9.0e15)
            .then(|| Value::from(rounded as i64));
    }
    Number::from_f64(number).map(Value::Number)
}

/// The largest value of an integer `format` schemars writes ("uint32", "int64", ...).
fn format_maximum(node: &Map<String, Value>) -> Option<f64> {
    Some(match node.get("format")?.as_str()? {
        "uint8" => u8::MAX as f64,
        "int8" => i8::MAX as f64,
        "uint16" => u16::MAX as f64,
        "int16" => i16::MAX as f64,
        "uint32" | "uint" => u32::MAX as f64,
        "int32" | "int" => i32::MAX as f64,
        _ => return None,
    })
}

/// The first decimal number in the text, and whether a `%` follows it.
pub(super) fn first_number(text: &str) -> Option<(f64, bool)> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let negative = text[..start].ends_with('-')
        && !text[..start]
            .trim_end_matches('-')
            .ends_with(|c: char| c.is_alphanumeric());
    let rest = &text[start..];
    let mut end = rest
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(rest.len());
    // "1.2.3" reads as 1.2; a trailing dot is punctuation.
    if let Some(second_dot) = rest[..end].match_indices('.').nth(1).map(|(i, _)| i) {
        end = second_dot;
    }
    let digits = rest[..end].trim_end_matches('.');
    let number: f64 = digits.parse().ok()?;
    let percent = rest[end..].trim_start().starts_with('%');
    Some((if negative { -number } else { number }, percent))
}

pub(super) fn to_bool(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_f64().map(|n| n != 0.0),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" | "1" | "on" => Some(true),
            "false" | "no" | "n" | "0" | "off" | "" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// The items a string stands for when an array was expected: a JSON array it encodes, the
/// lines of a bullet list, nothing for blank text, else the string itself.
pub(super) fn string_items(text: &str) -> Vec<Value> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Vec::new();
    }
    if trimmed.starts_with('[')
        && let Ok(Value::Array(items)) = serde_json::from_str(trimmed)
    {
        return items;
    }
    let lines: Vec<&str> = trimmed.lines().filter(|l| !l.trim().is_empty()).collect();
    let bullet = |line: &str| {
        let line = line.trim_start();
        ["- ", "* ", "• "]
            .iter()
            .find_map(|b| line.strip_prefix(b))
            .map(str::to_string)
    };
    if lines.len() > 1
        && let Some(items) = lines.iter().map(|l| bullet(l)).collect::<Option<Vec<_>>>()
    {
        return items.into_iter().map(Value::String).collect();
    }
    if trimmed.starts_with('{')
        && let Ok(object @ Value::Object(_)) = serde_json::from_str(trimmed)
    {
        return vec![object];
    }
    vec![Value::String(text.to_string())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn first_number_reads_the_first_number() {
        assert_eq!(first_number("v1.2.3"), Some((1.2, false)));
        assert_eq!(first_number("line 10."), Some((10.0, false)));
        assert_eq!(first_number("-4"), Some((-4.0, false)));
        assert_eq!(first_number("a-4"), Some((4.0, false)));
        assert_eq!(first_number("90 %"), Some((90.0, true)));
        assert_eq!(first_number("none"), None);
    }

    #[test]
    fn text_from_any_value() {
        assert_eq!(to_text(json!(["a", "", 2, null])), "a\n2");
        assert_eq!(to_text(json!(null)), "");
        assert_eq!(to_text(json!({"k": true})), "{\"k\":true}");
    }

    #[test]
    fn booleans_from_words_and_numbers() {
        assert_eq!(to_bool(&json!("YES")), Some(true));
        assert_eq!(to_bool(&json!("off")), Some(false));
        assert_eq!(to_bool(&json!(0)), Some(false));
        assert_eq!(to_bool(&json!("maybe")), None);
        assert_eq!(to_bool(&json!([])), None);
    }

    #[test]
    fn integers_round_and_keep_exact_values() {
        let node = Map::new();
        assert_eq!(to_number(&json!(7), &node, true), Some(json!(7)));
        assert_eq!(to_number(&json!(2.5), &node, true), Some(json!(3)));
        assert_eq!(to_number(&json!(" 0.25 "), &node, false), Some(json!(0.25)));
        assert_eq!(to_number(&json!(true), &node, false), None);
        let line = json!({"type": ["integer", "null"], "format": "uint32", "minimum": 0});
        let line = line.as_object().cloned().unwrap_or_default();
        assert_eq!(
            to_number(&json!(17_671_635_322_487_u64), &line, true),
            Some(json!(u32::MAX)),
            "a number past the type's range is kept within it"
        );
    }

    #[test]
    fn string_items_read_lists() {
        assert_eq!(string_items("• a\n• b"), vec![json!("a"), json!("b")]);
        assert_eq!(string_items("[1, 2]"), vec![json!(1), json!(2)]);
        assert_eq!(string_items("{\"x\": 1}"), vec![json!({"x": 1})]);
        assert_eq!(string_items("- only one"), vec![json!("- only one")]);
    }
}
