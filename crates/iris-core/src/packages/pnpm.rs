//! pnpm-lock.yaml, read as YAML events (yaml-rust2's parser): every installed package is a
//! key of `packages`, written `/name/1.2.3_peer@1.0.0` up to lockfileVersion 5,
//! `/name@1.2.3(peer@1.0.0)` in 6, and `name@1.2.3` from 9 on (peers under `snapshots`). The
//! events are read as they come and aliases are never expanded, so a lock's size bounds the
//! work (a document of nested aliases cannot grow in memory).

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

use super::Installed;

/// The packages of a pnpm-lock.yaml.
pub(super) fn parse(text: &str) -> Result<Installed, String> {
    let mut reader = Reader::default();
    Parser::new_from_str(text)
        .load(&mut reader, false)
        .map_err(|e| e.to_string())?;
    // Up to lockfileVersion 5 the version follows the name's last `/`.
    let slashed = reader
        .lockfile_version
        .as_deref()
        .and_then(|v| v.parse::<f64>().ok())
        .is_some_and(|v| v < 6.0);
    let mut installed = Installed::default();
    for entry in &reader.entries {
        // A package from a tarball or a git repository names itself.
        let named = entry.name.as_deref().zip(entry.version.as_deref());
        if let Some((name, version)) = named.or_else(|| split(&entry.key, slashed)) {
            installed.add(name, version);
        }
    }
    Ok(installed)
}

/// What is kept of the events: the lock's version and each entry of `packages`.
#[derive(Default)]
struct Reader {
    /// The containers open, outermost first.
    open: Vec<Open>,
    lockfile_version: Option<String>,
    entries: Vec<Entry>,
}

/// A mapping or sequence being read.
struct Open {
    mapping: bool,
    /// The key it is the value of, in a mapping.
    under: Option<String>,
    /// In a mapping, the key read whose value comes next.
    key: Option<String>,
    /// It is itself a mapping's key (no lock writes one).
    is_key: bool,
}

/// One entry of `packages`: its key, and the `name` and `version` it gives.
struct Entry {
    key: String,
    name: Option<String>,
    version: Option<String>,
}

impl Reader {
    /// Whether the containers open are the root, `packages` and one package's mapping.
    fn in_entry(&self) -> bool {
        self.open.len() == 3 && self.open[1].under.as_deref() == Some("packages")
    }

    fn open(&mut self, mapping: bool) {
        let (under, is_key) = match self.open.last_mut() {
            Some(top) if top.mapping => match top.key.take() {
                Some(key) => (Some(key), false),
                None => (None, true),
            },
            _ => (None, false),
        };
        self.open.push(Open {
            mapping,
            under: under.clone(),
            key: None,
            is_key,
        });
        if self.in_entry()
            && let Some(key) = under
        {
            self.entries.push(Entry {
                key,
                name: None,
                version: None,
            });
        }
    }

    fn close(&mut self) {
        if let Some(closed) = self.open.pop()
            && closed.is_key
            && let Some(top) = self.open.last_mut()
        {
            top.key = Some(String::new());
        }
    }

    /// A scalar (`None`: an alias, never expanded): a mapping's key, or a value.
    fn scalar(&mut self, text: Option<String>) {
        let Some(top) = self.open.last_mut() else {
            return;
        };
        if !top.mapping {
            return;
        }
        let Some(key) = top.key.take() else {
            top.key = Some(text.unwrap_or_default());
            return;
        };
        let Some(text) = text else {
            return;
        };
        match (self.open.len(), key.as_str()) {
            (1, "lockfileVersion") => self.lockfile_version = Some(text),
            (2, _) if self.open[1].under.as_deref() == Some("packages") => {
                self.entries.push(Entry {
                    key,
                    name: None,
                    version: None,
                });
            }
            (3, "name" | "version") if self.in_entry() => {
                if let Some(entry) = self.entries.last_mut() {
                    match key.as_str() {
                        "name" => entry.name = Some(text),
                        _ => entry.version = Some(text),
                    }
                }
            }
            _ => {}
        }
    }
}

impl MarkedEventReceiver for Reader {
    fn on_event(&mut self, event: Event, _mark: Marker) {
        match event {
            Event::MappingStart(..) => self.open(true),
            Event::SequenceStart(..) => self.open(false),
            Event::MappingEnd | Event::SequenceEnd => self.close(),
            Event::Scalar(text, ..) => self.scalar(Some(text)),
            Event::Alias(_) => self.scalar(None),
            _ => {}
        }
    }
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

    #[test]
    fn a_tarball_names_itself_and_aliases_are_not_expanded() {
        let lock = "lockfileVersion: '9.0'
packages:
  '@org/tool@https://example.com/tool.tgz':
    resolution: {tarball: https://example.com/tool.tgz}
    name: '@org/tool'
    version: 2.0.0
  a@1.0.0: &a
    resolution: {integrity: sha512-x}
  b@1.0.0: *a
";
        let installed = parse(lock).expect("parsed");
        assert!(
            installed
                .versions("@org/tool")
                .is_some_and(|v| v.contains("2.0.0"))
        );
        assert!(installed.versions("a").is_some());
        assert!(
            installed.versions("b").is_none(),
            "an alias is no entry: {installed:?}"
        );
        // A billion laughs is read in time and memory bounded by its text.
        let mut laughs = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for i in 1..30 {
            let prev = i - 1;
            laughs.push_str(&format!(
                "l{i}: &l{i} [*l{prev}, *l{prev}, *l{prev}, *l{prev}, *l{prev}, *l{prev}]\n"
            ));
        }
        let laughs = laughs.replace("*l0", "*a");
        assert!(parse(&laughs).expect("read").is_empty());
    }
}
