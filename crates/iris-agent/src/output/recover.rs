//! Bending a parsed reply into the shape its schema asks for.

use serde_json::{Map, Value};

use super::coerce::{string_items, to_bool, to_number, to_text};

/// Nesting deeper than this is returned as it is (a guard against pathological input).
const MAX_DEPTH: usize = 64;

/// `value` reshaped to fit `schema` (an inlined JSON schema, as
/// [`iris_studio_core::artifact::schema::full_schema`] makes): missing required fields get defaults (the
/// schema's `default`, else null for nullable ones, else empty, false or 0); nulls become
/// defaults where null is not allowed; wrong types are coerced (numbers and booleans to
/// strings, numeric strings to numbers, "true"/"yes" to booleans, a single value to an
/// array, an array of strings joined into a string); enum values match ignoring case;
/// fields the schema does not name are dropped; an object wrapped in a single-key object or a
/// one-element array is unwrapped.
pub fn recover(value: Value, schema: &Value) -> Value {
    recover_node(value, schema, 0)
}

fn recover_node(value: Value, schema: &Value, depth: usize) -> Value {
    let Some(node) = schema.as_object() else {
        return value;
    };
    if depth > MAX_DEPTH {
        return value;
    }
    if let Some(branches) = union_branches(node) {
        return recover_union(value, branches, node, depth);
    }
    if let Some(allowed) = enum_values(node) {
        return recover_enum(value, &allowed, node);
    }
    let types = types_of(node);
    let nullable = types.contains(&"null");
    if value.is_null() {
        return if nullable {
            Value::Null
        } else {
            default_for(schema, depth)
        };
    }
    let Some(&kind) = types
        .iter()
        .find(|t| fits(&value, t))
        .or_else(|| types.iter().find(|t| **t != "null"))
    else {
        return value;
    };
    let coerced = match kind {
        "string" => Some(Value::String(to_text(value))),
        "integer" => to_number(&value, node, true),
        "number" => to_number(&value, node, false),
        "boolean" => to_bool(&value).map(Value::Bool),
        "array" => Some(to_array(value, node, depth)),
        "object" => Some(to_object(value, node, depth)),
        _ => Some(value),
    };
    coerced.unwrap_or_else(|| {
        if nullable {
            Value::Null
        } else {
            default_for(schema, depth)
        }
    })
}

fn union_branches(node: &Map<String, Value>) -> Option<&Vec<Value>> {
    node.get("anyOf")
        .or_else(|| node.get("oneOf"))
        .and_then(Value::as_array)
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type").is_some_and(|t| t == "null")
}

/// The schema's types: `"type": "x"` or `"type": ["x", "null"]`; an object schema without a
/// type counts as `object`.
fn types_of(node: &Map<String, Value>) -> Vec<&str> {
    match node.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ if node.contains_key("properties") => vec!["object"],
        _ if node.contains_key("items") => vec!["array"],
        _ => Vec::new(),
    }
}

fn enum_values(node: &Map<String, Value>) -> Option<Vec<Value>> {
    match (node.get("enum"), node.get("const")) {
        (Some(Value::Array(values)), _) => Some(values.clone()),
        (_, Some(value)) => Some(vec![value.clone()]),
        _ => None,
    }
}

fn fits(value: &Value, kind: &str) -> bool {
    match kind {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => false,
    }
}

fn recover_union(
    value: Value,
    branches: &[Value],
    node: &Map<String, Value>,
    depth: usize,
) -> Value {
    let nullable = branches.iter().any(is_null_schema);
    let others: Vec<&Value> = branches.iter().filter(|b| !is_null_schema(b)).collect();
    if value.is_null() && nullable {
        return Value::Null;
    }
    let enums: Option<Vec<Vec<Value>>> = others
        .iter()
        .map(|b| b.as_object().and_then(enum_values))
        .collect();
    if let Some(enums) = enums {
        let mut allowed: Vec<Value> = enums.into_iter().flatten().collect();
        if nullable {
            allowed.push(Value::Null);
        }
        return recover_enum(value, &allowed, node);
    }
    let chosen = others
        .iter()
        .find(|b| {
            b.as_object()
                .is_some_and(|o| types_of(o).iter().any(|t| fits(&value, t)))
        })
        .or_else(|| others.first());
    match chosen {
        Some(branch) => recover_node(value, branch, depth + 1),
        None => value,
    }
}

/// The allowed value `value` stands for: itself, the same name ignoring case, spaces and
/// dashes, or a name it starts (or that starts it); else the default.
fn recover_enum(value: Value, allowed: &[Value], node: &Map<String, Value>) -> Value {
    if allowed.contains(&value) {
        return value;
    }
    if let Value::String(text) = &value {
        let wanted = enum_key(text);
        let named = |v: &&Value| v.as_str().map(enum_key);
        if let Some(found) = allowed
            .iter()
            .find(|v| named(v).as_deref() == Some(&wanted))
        {
            return found.clone();
        }
        if wanted.len() >= 3
            && let Some(found) = allowed.iter().find(|v| {
                named(v).is_some_and(|name| name.starts_with(&wanted) || wanted.starts_with(&name))
            })
        {
            return found.clone();
        }
    }
    match node.get("default") {
        Some(default) if allowed.contains(default) => default.clone(),
        _ if allowed.contains(&Value::Null) => Value::Null,
        _ => allowed.first().cloned().unwrap_or(value),
    }
}

fn enum_key(text: &str) -> String {
    text.trim()
        .chars()
        .map(|c| {
            if c == '-' || c == ' ' {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

fn to_array(value: Value, node: &Map<String, Value>, depth: usize) -> Value {
    let items_schema = node.get("items").cloned().unwrap_or(Value::Bool(true));
    let item_nullable = items_schema.as_object().is_some_and(|o| {
        types_of(o).contains(&"null")
            || union_branches(o).is_some_and(|b| b.iter().any(is_null_schema))
    });
    let items = match value {
        Value::Array(items) => items,
        Value::String(text) => string_items(&text),
        other => vec![other],
    };
    Value::Array(
        items
            .into_iter()
            .filter(|item| item_nullable || !item.is_null())
            .map(|item| recover_node(item, &items_schema, depth + 1))
            .collect(),
    )
}

fn to_object(value: Value, node: &Map<String, Value>, depth: usize) -> Value {
    let map = match value {
        Value::Object(map) => map,
        Value::String(text) => match serde_json::from_str(text.trim()) {
            Ok(Value::Object(map)) => map,
            _ => return default_object(node, depth),
        },
        Value::Array(mut items) if items.len() == 1 && items[0].is_object() => {
            return to_object(items.remove(0), node, depth);
        }
        _ => return default_object(node, depth),
    };
    let Some(properties) = node.get("properties").and_then(Value::as_object) else {
        return match node.get("additionalProperties") {
            Some(extra @ Value::Object(_)) => Value::Object(
                map.into_iter()
                    .map(|(k, v)| (k, recover_node(v, extra, depth + 1)))
                    .collect(),
            ),
            _ => Value::Object(map),
        };
    };
    // `{"review": {...}}` for a review: look inside the one wrapper field.
    let named_any = map.keys().any(|k| find_property(properties, k).is_some());
    if !named_any
        && map.len() == 1
        && let Some(inner @ Value::Object(_)) = map.values().next()
    {
        return to_object(inner.clone(), node, depth + 1);
    }
    let required = required_names(node);
    let mut fields: Map<String, Value> = Map::new();
    for (key, field) in map {
        if let Some(name) = find_property(properties, &key)
            && !fields.contains_key(name)
        {
            let recovered = recover_node(field, &properties[name], depth + 1);
            fields.insert(name.to_string(), recovered);
        }
    }
    for (name, schema) in properties {
        if !fields.contains_key(name) && required.contains(&name.as_str()) {
            fields.insert(name.clone(), default_for(schema, depth + 1));
        }
    }
    Value::Object(fields)
}

/// Whether `key` names one of `properties`, as [`find_property`] matches it.
pub(super) fn names(properties: &Map<String, Value>, key: &str) -> bool {
    find_property(properties, key).is_some()
}

/// The property a key names: itself, or the same name ignoring case, `_` and `-`
/// (`breakingChanges` for `breaking_changes`).
fn find_property<'a>(properties: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    if let Some((name, _)) = properties.get_key_value(key) {
        return Some(name.as_str());
    }
    let loose = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let wanted = loose(key);
    properties
        .keys()
        .find(|name| loose(name) == wanted)
        .map(String::as_str)
}

fn required_names(node: &Map<String, Value>) -> Vec<&str> {
    node.get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn default_object(node: &Map<String, Value>, depth: usize) -> Value {
    let mut fields = Map::new();
    if let Some(properties) = node.get("properties").and_then(Value::as_object) {
        for name in required_names(node) {
            if let Some(schema) = properties.get(name) {
                fields.insert(name.to_string(), default_for(schema, depth + 1));
            }
        }
    }
    Value::Object(fields)
}

/// The value a schema takes when the reply gives none: its `default`, null when nullable,
/// else the empty value of its type.
fn default_for(schema: &Value, depth: usize) -> Value {
    let Some(node) = schema.as_object() else {
        return Value::Null;
    };
    if let Some(default) = node.get("default") {
        return default.clone();
    }
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    if let Some(branches) = union_branches(node) {
        return match branches.iter().find(|b| !is_null_schema(b)) {
            _ if branches.iter().any(is_null_schema) => Value::Null,
            Some(first) => default_for(first, depth + 1),
            None => Value::Null,
        };
    }
    if let Some(allowed) = enum_values(node) {
        return if allowed.contains(&Value::Null) {
            Value::Null
        } else {
            allowed.first().cloned().unwrap_or(Value::Null)
        };
    }
    let types = types_of(node);
    if types.contains(&"null") {
        return Value::Null;
    }
    match types.first().copied() {
        Some("string") => Value::String(String::new()),
        Some("integer") => Value::from(0),
        Some("number") => Value::from(0.0),
        Some("boolean") => Value::Bool(false),
        Some("array") => Value::Array(Vec::new()),
        Some("object") => default_object(node, depth),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "line": {"type": ["integer", "null"], "minimum": 0},
                "count": {"type": "integer"},
                "confidence": {"type": "number", "minimum": 0.0, "maximum": 1.0},
                "ok": {"type": "boolean"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "severity": {"type": "string", "enum": ["critical", "high", "medium"], "default": "medium"},
                "kind": {"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]},
                "inner": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "n": {"type": "integer"}},
                    "required": ["name", "n"]
                },
                "items": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}
                }
            },
            "required": ["title", "line", "count", "confidence", "ok", "tags", "severity", "kind", "inner", "items"]
        })
    }

    #[test]
    fn missing_required_fields_get_defaults() {
        assert_eq!(
            recover(json!({}), &schema()),
            json!({
                "title": "", "line": null, "count": 0, "confidence": 0.0, "ok": false, "tags": [],
                "severity": "medium", "kind": null, "inner": {"name": "", "n": 0}, "items": []
            })
        );
    }

    #[test]
    fn optional_fields_stay_missing_and_unknown_fields_go() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert_eq!(recover(json!({"b": 1}), &schema), json!({}));
        assert_eq!(
            recover(json!({"a": "x", "b": 1}), &schema),
            json!({"a": "x"})
        );
    }

    #[test]
    fn nulls_become_defaults_unless_allowed() {
        let value = recover(
            json!({"title": null, "line": null, "tags": null, "ok": null, "inner": null, "items": [null, {"x": null}]}),
            &schema(),
        );
        assert_eq!(value["title"], "");
        assert_eq!(value["line"], Value::Null);
        assert_eq!(value["tags"], json!([]));
        assert_eq!(value["ok"], false);
        assert_eq!(value["inner"], json!({"name": "", "n": 0}));
        assert_eq!(value["items"], json!([{"x": ""}]));
    }

    #[test]
    fn wrong_types_are_coerced() {
        let value = recover(
            json!({
                "title": ["Fix the parser", "", "and the lexer"],
                "line": "L42",
                "count": "12-15",
                "confidence": "85%",
                "ok": "Yes",
                "tags": "single",
                "inner": {"name": 7, "n": 2.6}
            }),
            &schema(),
        );
        assert_eq!(value["title"], "Fix the parser\nand the lexer");
        assert_eq!(value["line"], 42);
        assert_eq!(value["count"], 12);
        assert_eq!(value["confidence"], 0.85);
        assert_eq!(value["ok"], true);
        assert_eq!(value["tags"], json!(["single"]));
        assert_eq!(value["inner"], json!({"name": "7", "n": 3}));
    }

    #[test]
    fn numbers_are_clamped_and_bad_numbers_default() {
        let value = recover(
            json!({"confidence": 7, "line": -3, "count": "many"}),
            &schema(),
        );
        assert_eq!(value["confidence"], 1.0);
        assert_eq!(value["line"], 0);
        assert_eq!(value["count"], 0);
        let value = recover(json!({"line": "none", "ok": "perhaps"}), &schema());
        assert_eq!(value["line"], Value::Null);
        assert_eq!(value["ok"], false);
    }

    #[test]
    fn strings_for_arrays_split_bullets_and_decode_json() {
        let value = recover(
            json!({"tags": "- one\n- two\n\n* three", "items": "[{\"x\": \"a\"}]"}),
            &schema(),
        );
        assert_eq!(value["tags"], json!(["one", "two", "three"]));
        assert_eq!(value["items"], json!([{"x": "a"}]));
        assert_eq!(recover(json!({"tags": "  "}), &schema())["tags"], json!([]));
        assert_eq!(
            recover(json!({"tags": "one line\nwith prose"}), &schema())["tags"],
            json!(["one line\nwith prose"])
        );
    }

    #[test]
    fn enums_match_ignoring_case_and_fall_back_to_the_default() {
        let value = recover(json!({"severity": " HIGH ", "kind": "B"}), &schema());
        assert_eq!(value["severity"], "high");
        assert_eq!(value["kind"], "b");
        assert_eq!(
            recover(json!({"severity": "Crit"}), &schema())["severity"],
            "critical"
        );
        assert_eq!(
            recover(json!({"severity": "severe"}), &schema())["severity"],
            "medium"
        );
        assert_eq!(
            recover(json!({"kind": "zzz"}), &schema())["kind"],
            Value::Null
        );
        let plain = json!({"type": "string", "enum": ["x", "y"]});
        assert_eq!(recover(json!("q"), &plain), "x");
    }

    #[test]
    fn keys_match_loosely_and_wrappers_unwrap() {
        let schema = json!({
            "type": "object",
            "properties": {"breaking_changes": {"type": "array", "items": {"type": "string"}}}
        });
        assert_eq!(
            recover(json!({"breakingChanges": ["x"]}), &schema),
            json!({"breaking_changes": ["x"]})
        );
        assert_eq!(
            recover(json!({"pull_request": {"Breaking-Changes": "y"}}), &schema),
            json!({"breaking_changes": ["y"]})
        );
        assert_eq!(
            recover(json!([{"breaking_changes": []}]), &schema),
            json!({"breaking_changes": []})
        );
        assert_eq!(
            recover(json!("{\"breaking_changes\": []}"), &schema),
            json!({"breaking_changes": []})
        );
    }

    #[test]
    fn an_object_for_a_string_field_is_written_as_json() {
        let schema = json!({"type": "string"});
        assert_eq!(recover(json!({"a": 1}), &schema), "{\"a\":1}");
        assert_eq!(recover(json!(true), &schema), "true");
        assert_eq!(recover(json!(3.5), &schema), "3.5");
    }

    #[test]
    fn schemas_without_shape_keep_the_value() {
        assert_eq!(recover(json!({"a": [1]}), &json!({})), json!({"a": [1]}));
        assert_eq!(recover(json!(5), &json!(true)), json!(5));
    }
}
