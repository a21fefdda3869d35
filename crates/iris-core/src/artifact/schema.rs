//! JSON schemas for the artifacts, shaped the way providers accept them.
//!
//! Providers' structured-output modes dislike `$ref`/`$defs` and some keywords, and the strict
//! ones want every property listed in `required`. [`provider_schema`] gives that shape;
//! [`full_schema`] keeps the `default` values, which output recovery uses.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The schema of `T` with every subschema inlined, keeping `default` values.
pub fn full_schema<T: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    let mut schema = serde_json::to_value(generator.into_root_schema_for::<T>())
        .unwrap_or_else(|_| Value::Object(Map::new()));
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
    }
    schema
}

/// The schema of `T` for a provider: inlined, every object closed (`additionalProperties:
/// false`) with all its properties required (optional ones are nullable), and without the
/// `default` and numeric `format` keywords strict modes reject.
pub fn provider_schema<T: JsonSchema>() -> Value {
    let mut schema = full_schema::<T>();
    make_strict(&mut schema);
    schema
}

fn make_strict(node: &mut Value) {
    match node {
        Value::Object(object) => {
            object.remove("default");
            let is_string = object.get("type").is_some_and(|t| t == "string");
            if !is_string {
                object.remove("format");
            }
            if let Some(Value::Object(properties)) = object.get("properties") {
                let names: Vec<Value> = properties.keys().cloned().map(Value::String).collect();
                object.insert("required".into(), Value::Array(names));
                object.insert("additionalProperties".into(), Value::Bool(false));
            }
            for child in object.values_mut() {
                make_strict(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(make_strict),
        _ => {}
    }
}

/// `schema` (an object's) without its property `name`, in `properties` and `required`.
pub fn without_property(schema: &mut Value, name: &str) {
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        properties.remove(name);
    }
    if let Some(Value::Array(required)) = schema.get_mut("required") {
        required.retain(|r| r != name);
    }
}

/// `schema` without its `description`s, and each description with the path of the field it
/// describes (`title`, `findings[].body`): for a small model, which fills the fields of a
/// schema with the nearest text it has seen, the guidance goes in the prompt as prose.
pub fn split_descriptions(schema: &Value) -> (Value, Vec<(String, String)>) {
    let mut bare = schema.clone();
    let mut guidance = Vec::new();
    strip(&mut bare, String::new(), &mut guidance);
    (bare, guidance)
}

fn strip(node: &mut Value, path: String, guidance: &mut Vec<(String, String)>) {
    let Value::Object(object) = node else { return };
    if let Some(Value::String(text)) = object.remove("description")
        && !path.is_empty()
    {
        guidance.push((path.clone(), text));
    }
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for (name, child) in properties.iter_mut() {
            let child_path = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}.{name}")
            };
            strip(child, child_path, guidance);
        }
    }
    if let Some(items) = object.get_mut("items") {
        strip(items, format!("{path}[]"), guidance);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(variants)) = object.get_mut(key) {
            for variant in variants {
                strip(variant, path.clone(), guidance);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_come_out_of_the_schema_with_their_fields() {
        let (bare, guidance) = split_descriptions(&provider_schema::<crate::artifact::Review>());
        assert!(!bare.to_string().contains("\"description\""), "{bare}");
        let fields: Vec<&str> = guidance.iter().map(|(f, _)| f.as_str()).collect();
        assert!(fields.contains(&"summary"), "{fields:?}");
        assert!(
            fields.iter().any(|f| f.starts_with("findings[].")),
            "{fields:?}"
        );
        // Only descriptions go: the shape stays.
        let described = provider_schema::<crate::artifact::Review>();
        let keys = |v: &Value| -> Vec<String> {
            v["properties"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect()
        };
        assert_eq!(keys(&bare), keys(&described));
        assert_eq!(bare["required"], described["required"]);
        assert_eq!(bare["additionalProperties"], false);
    }

    #[test]
    fn a_property_goes_from_the_properties_and_the_required() {
        let mut schema = provider_schema::<crate::artifact::GeneratedMessage>();
        without_property(&mut schema, "emoji");
        assert!(schema["properties"].get("emoji").is_none());
        assert_eq!(schema["required"], serde_json::json!(["message", "title"]));
    }
    use serde::{Deserialize, Serialize};

    #[derive(Default, Serialize, Deserialize, JsonSchema)]
    #[serde(default)]
    struct Inner {
        /// A count.
        count: u32,
    }

    #[derive(Default, Serialize, Deserialize, JsonSchema)]
    #[serde(default)]
    struct Outer {
        name: String,
        inner: Inner,
        items: Vec<Inner>,
        note: Option<String>,
    }

    #[test]
    fn provider_schema_is_inlined_closed_and_fully_required() {
        let schema = provider_schema::<Outer>();
        let text = schema.to_string();
        assert!(!text.contains("$ref") && !text.contains("$defs"), "{text}");
        assert!(
            !text.contains("\"default\"") && !text.contains("uint32"),
            "{text}"
        );
        // serde_json's maps are sorted (no `preserve_order`), so the names come sorted.
        assert_eq!(
            schema["required"],
            serde_json::json!(["inner", "items", "name", "note"])
        );
        assert_eq!(schema["additionalProperties"], false);
        assert_eq!(
            schema["properties"]["inner"]["required"],
            serde_json::json!(["count"])
        );
        assert_eq!(
            schema["properties"]["items"]["items"]["properties"]["count"]["description"],
            "A count."
        );
        assert!(schema.get("title").is_none() && schema.get("$schema").is_none());
    }

    #[test]
    fn full_schema_keeps_defaults() {
        let schema = full_schema::<Outer>();
        assert!(schema.to_string().contains("\"default\""), "{schema}");
        assert!(!schema.to_string().contains("$ref"));
    }
}
