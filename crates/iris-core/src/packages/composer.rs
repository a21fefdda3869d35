//! composer.lock: JSON, the packages under `packages` and `packages-dev`, each with its
//! `name` and `version`.

use serde_json::Value;

use super::Installed;
use super::toml_locks::first_line;

/// The packages of a composer.lock.
pub(super) fn parse(text: &str) -> Result<Installed, String> {
    let lock: Value = serde_json::from_str(text).map_err(|e| first_line(&e.to_string()))?;
    let mut installed = Installed::default();
    for list in ["packages", "packages-dev"] {
        for package in lock
            .get(list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let field = |key: &str| package.get(key).and_then(Value::as_str);
            if let (Some(name), Some(version)) = (field("name"), field("version")) {
                installed.add(name, version);
            }
        }
    }
    Ok(installed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_and_dev_packages() {
        let lock = r#"{
  "content-hash": "abc",
  "packages": [{"name": "monolog/monolog", "version": "3.5.0", "source": {}}],
  "packages-dev": [{"name": "phpunit/phpunit", "version": "10.5.2"}]
}"#;
        let installed = parse(lock).expect("parsed");
        assert!(
            installed
                .versions("monolog/monolog")
                .is_some_and(|v| v.contains("3.5.0"))
        );
        assert!(installed.versions("phpunit/phpunit").is_some());
    }
}
