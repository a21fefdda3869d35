//! One small tree every configuration format becomes: JSON, YAML, TOML and the object
//! literal of a JavaScript file, whose unreadable parts stay in it as [`Node::Unreadable`].

/// How deep a configuration may nest; real ones stay under ten.
pub const MAX_DEPTH: usize = 64;

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    /// Infinity is a number too (`Infinity` in JavaScript, `.inf` in YAML).
    Number(f64),
    String(String),
    Array(Vec<Node>),
    /// Keys in file order; a later duplicate wins on lookup, as in JavaScript.
    Object(Vec<(String, Node)>),
    /// A JavaScript regular expression literal, as written (`/^(\w*): (.*)$/i`).
    Regex(String),
    /// Something the reader could not evaluate (a function, a computed value), in words.
    Unreadable(String),
}

impl Node {
    /// The value under `key` of an object (the last one, when a key repeats).
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object(entries) => entries.iter().rev().find(|(k, _)| k == key).map(|e| &e.1),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value in words for a note: a short description, never the whole subtree.
    pub fn kind(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "a boolean",
            Node::Number(_) => "a number",
            Node::String(_) => "a string",
            Node::Array(_) => "a list",
            Node::Object(_) => "an object",
            Node::Regex(_) => "a regular expression",
            Node::Unreadable(_) => "an expression",
        }
    }
}

/// A JSON document's tree (serde_json bounds its own nesting).
pub fn from_json(value: &serde_json::Value) -> Node {
    match value {
        serde_json::Value::Null => Node::Null,
        serde_json::Value::Bool(b) => Node::Bool(*b),
        serde_json::Value::Number(n) => Node::Number(n.as_f64().unwrap_or(f64::NAN)),
        serde_json::Value::String(s) => Node::String(s.clone()),
        serde_json::Value::Array(items) => Node::Array(items.iter().map(from_json).collect()),
        serde_json::Value::Object(map) => {
            Node::Object(map.iter().map(|(k, v)| (k.clone(), from_json(v))).collect())
        }
    }
}

/// A TOML document's tree (dates become strings).
pub fn from_toml(value: &toml::Value) -> Node {
    match value {
        toml::Value::String(s) => Node::String(s.clone()),
        toml::Value::Integer(i) => Node::Number(*i as f64),
        toml::Value::Float(f) => Node::Number(*f),
        toml::Value::Boolean(b) => Node::Bool(*b),
        toml::Value::Datetime(d) => Node::String(d.to_string()),
        toml::Value::Array(items) => Node::Array(items.iter().map(from_toml).collect()),
        toml::Value::Table(table) => Node::Object(
            table
                .iter()
                .map(|(k, v)| (k.clone(), from_toml(v)))
                .collect(),
        ),
    }
}

/// Reads a YAML document into the tree; `Err` with the parser's reason. An empty document
/// is `Null`.
pub fn from_yaml_text(text: &str) -> Result<Node, String> {
    let docs = yaml_rust2::YamlLoader::load_from_str(text).map_err(|e| e.to_string())?;
    match docs.first() {
        Some(doc) => from_yaml(doc, 0),
        None => Ok(Node::Null),
    }
}

fn from_yaml(value: &yaml_rust2::Yaml, depth: usize) -> Result<Node, String> {
    use yaml_rust2::Yaml;
    if depth > MAX_DEPTH {
        return Err(format!("nested more than {MAX_DEPTH} levels deep"));
    }
    Ok(match value {
        Yaml::Real(text) => Node::Number(
            value
                .as_f64()
                .unwrap_or_else(|| text.parse::<f64>().unwrap_or(f64::NAN)),
        ),
        Yaml::Integer(i) => Node::Number(*i as f64),
        Yaml::String(s) => Node::String(s.clone()),
        Yaml::Boolean(b) => Node::Bool(*b),
        Yaml::Array(items) => Node::Array(
            items
                .iter()
                .map(|item| from_yaml(item, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Yaml::Hash(map) => {
            let mut entries = Vec::with_capacity(map.len());
            for (k, v) in map {
                let key = match k {
                    Yaml::String(s) | Yaml::Real(s) => s.clone(),
                    Yaml::Integer(i) => i.to_string(),
                    Yaml::Boolean(b) => b.to_string(),
                    _ => continue,
                };
                entries.push((key, from_yaml(v, depth + 1)?));
            }
            Node::Object(entries)
        }
        Yaml::Alias(_) => Node::Unreadable("a YAML alias".into()),
        Yaml::Null | Yaml::BadValue => Node::Null,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_becomes_the_tree_with_infinity_and_nesting() {
        let node = from_yaml_text("rules:\n  a: [2, always, .inf]\n  b: 'x'\n").unwrap();
        let rules = node.get("rules").unwrap();
        assert_eq!(
            rules.get("a"),
            Some(&Node::Array(vec![
                Node::Number(2.0),
                Node::String("always".into()),
                Node::Number(f64::INFINITY)
            ]))
        );
        assert_eq!(rules.get("b").and_then(Node::as_str), Some("x"));
    }

    #[test]
    fn broken_yaml_is_an_error_and_empty_yaml_is_null() {
        assert!(from_yaml_text("rules: [1, 2").is_err());
        assert_eq!(from_yaml_text(""), Ok(Node::Null));
    }

    #[test]
    fn the_last_duplicate_key_wins() {
        let node = Node::Object(vec![
            ("a".into(), Node::Number(1.0)),
            ("a".into(), Node::Number(2.0)),
        ]);
        assert_eq!(node.get("a"), Some(&Node::Number(2.0)));
    }
}
