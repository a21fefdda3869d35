//! pnpm-lock.yaml, read as YAML (yaml-rust2): every installed package is a key of
//! `packages`, written `/name/1.2.3_peer@1.0.0` up to lockfileVersion 5,
//! `/name@1.2.3(peer@1.0.0)` in 6, and `name@1.2.3` from 9 on (peers under `snapshots`).

use yaml_rust2::{Yaml, YamlLoader};

use super::Installed;

/// The packages of a pnpm-lock.yaml.
pub(super) fn parse(text: &str) -> Result<Installed, String> {
    let docs = YamlLoader::load_from_str(text).map_err(|e| e.to_string())?;
    let mut installed = Installed::default();
    let Some(doc) = docs.first() else {
        return Ok(installed);
    };
    let slashed = match &doc["lockfileVersion"] {
        Yaml::Real(v) | Yaml::String(v) => v.parse::<f64>().is_ok_and(|v| v < 6.0),
        Yaml::Integer(v) => *v < 6,
        _ => false,
    };
    let Some(packages) = doc["packages"].as_hash() else {
        return Ok(installed);
    };
    for (key, package) in packages {
        let field = |name: &str| package[name].as_str();
        // A package from a tarball or a git repository names itself.
        let named = field("name").zip(field("version"));
        if let Some((name, version)) =
            named.or_else(|| key.as_str().and_then(|k| split(k, slashed)))
        {
            installed.add(name, version);
        }
    }
    Ok(installed)
}

/// A `packages` key as (name, version), its peers left off.
fn split(key: &str, slashed: bool) -> Option<(&str, &str)> {
    let key = key.strip_prefix('/').unwrap_or(key);
    let key = key.split('(').next()?;
    if slashed {
        let (name, version) = key.rsplit_once('/')?;
        return Some((name, version.split('_').next()?));
    }
    // `@scope/name@1.2.3`: the version follows the last `@` that does not open the name.
    let at = key.get(1..)?.rfind('@')? + 1;
    Some((&key[..at], &key[at + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_9_keys() {
        let lock = "lockfileVersion: '9.0'

importers:
  .:
    dependencies:
      react:
        specifier: ^18.2.0
        version: 18.2.0

packages:
  '@types/node@20.11.5':
    resolution: {integrity: sha512-x}
  react@18.2.0:
    resolution: {integrity: sha512-y}
    engines: {node: '>=0.10.0'}

snapshots:
  react@18.2.0:
    dependencies:
      loose-envify: 1.4.0
";
        let installed = parse(lock).expect("parsed");
        assert_eq!(installed.len(), 2, "{installed:?}");
        assert!(
            installed
                .versions("@types/node")
                .is_some_and(|v| v.contains("20.11.5"))
        );
        assert!(
            installed
                .versions("react")
                .is_some_and(|v| v.contains("18.2.0"))
        );
    }

    #[test]
    fn version_6_and_5_keys() {
        let six = "lockfileVersion: '6.0'
packages:
  /@emotion/react@11.11.1(react@18.2.0):
    resolution: {integrity: sha512-x}
  /lodash@4.17.21:
    resolution: {integrity: sha512-y}
";
        let installed = parse(six).expect("parsed");
        assert!(
            installed
                .versions("@emotion/react")
                .is_some_and(|v| v.contains("11.11.1"))
        );
        assert!(installed.versions("lodash").is_some());
        let five = "lockfileVersion: 5.4
packages:
  /@emotion/react/11.11.1_react@18.2.0:
    resolution: {integrity: sha512-x}
  /lodash/4.17.21:
    resolution: {integrity: sha512-y}
";
        let installed = parse(five).expect("parsed");
        assert!(
            installed
                .versions("@emotion/react")
                .is_some_and(|v| v.contains("11.11.1"))
        );
        assert!(
            installed
                .versions("lodash")
                .is_some_and(|v| v.contains("4.17.21"))
        );
        assert!(parse("packages: [").is_err());
    }
}
