//! What a change did to its packages: each lock file's packages updated, added and removed,
//! the manifests changed beside it, and the Actions pins moved; and the request section that
//! says so, bounded (the first packages by name, then how many more) so that a whole
//! `cargo update` stays small.

use std::collections::BTreeSet;
use std::fmt::Write;

use super::actions::{self, PinMove};
use super::{Format, HEADING, Installed, MAX_LOCK_BYTES, versions};
use crate::change::{SideText, Sides};

/// Packages listed for one lock file; past them, a count.
const MAX_PACKAGES: usize = 30;
/// Lock files listed; past them, a count.
const MAX_LOCKS: usize = 10;
/// Manifests named beside one lock.
const MAX_MANIFESTS: usize = 5;
/// Pins listed; past them, a count.
const MAX_PINS: usize = 30;

/// One package a lock file moved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bump {
    /// From one version to another.
    Updated {
        /// The package.
        name: String,
        /// Its version before.
        old: String,
        /// Its version after.
        new: String,
    },
    /// A package (or a version of it) the lock did not hold before.
    Added {
        /// The package.
        name: String,
        /// The version added.
        version: String,
    },
    /// A package (or a version of it) the lock no longer holds.
    Removed {
        /// The package.
        name: String,
        /// The version removed.
        version: String,
    },
}

impl Bump {
    /// `- regex 1.10.2 -> 1.10.3`, `- tinyvec 1.6.0 (added)`.
    fn line(&self) -> String {
        match self {
            Bump::Updated { name, old, new } => format!("- {name} {old} -> {new}"),
            Bump::Added { name, version } => format!("- {name} {version} (added)"),
            Bump::Removed { name, version } => format!("- {name} {version} (removed)"),
        }
    }
}

/// One lock file's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockBumps {
    /// The lock file.
    pub path: String,
    /// Its manifests the change also touches (`Cargo.toml`, `crates/a/Cargo.toml`).
    pub manifests: Vec<String>,
    /// Its packages that moved, by name.
    pub bumps: Vec<Bump>,
    /// Why its versions could not be compared (too large, binary, unreadable), when so.
    pub unread: Option<String>,
}

impl LockBumps {
    /// A lock of `format` read on both sides of a change, with `manifests`, those of the
    /// change's files that are its.
    fn of(format: Format, sides: &Sides, manifests: Vec<String>) -> Self {
        let read = |side: &SideText, which: &str| match side {
            SideText::Absent => Ok(Installed::default()),
            SideText::Text(text) => format
                .parse(text)
                .map_err(|e| format!("its {which} version could not be read ({e})")),
            SideText::TooLarge { bytes } => Err(format!(
                "its {which} version ({bytes} bytes) is larger than the {} MiB read",
                MAX_LOCK_BYTES >> 20
            )),
            SideText::Binary => Err(format!("its {which} version is binary")),
        };
        let (bumps, unread) = match (read(&sides.old, "old"), read(&sides.new, "new")) {
            (Ok(old), Ok(new)) => (diff(&old, &new), None),
            (Err(why), _) | (_, Err(why)) => (Vec::new(), Some(why)),
        };
        Self {
            path: sides.path.clone(),
            manifests,
            bumps,
            unread,
        }
    }

    fn write(&self, out: &mut String) {
        let _ = write!(out, "{}", self.path);
        if !self.manifests.is_empty() {
            let _ = write!(out, " ({} changed too)", self.manifests.join(", "));
        }
        if let Some(why) = &self.unread {
            let _ = writeln!(out, ": {why}");
            return;
        }
        let count = |f: fn(&Bump) -> bool| self.bumps.iter().filter(|b| f(b)).count();
        let counts: Vec<String> = [
            (count(|b| matches!(b, Bump::Updated { .. })), "updated"),
            (count(|b| matches!(b, Bump::Added { .. })), "added"),
            (count(|b| matches!(b, Bump::Removed { .. })), "removed"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        if counts.is_empty() {
            let _ = writeln!(out, ": no package's version changed");
            return;
        }
        let _ = writeln!(out, ": {}", counts.join(", "));
        for bump in self.bumps.iter().take(MAX_PACKAGES) {
            let _ = writeln!(out, "{}", bump.line());
        }
        if self.bumps.len() > MAX_PACKAGES {
            let _ = writeln!(out, "- and {} more", self.bumps.len() - MAX_PACKAGES);
        }
    }
}

/// The packages updated, added and removed between two versions of a lock, by name.
fn diff(old: &Installed, new: &Installed) -> Vec<Bump> {
    let names: BTreeSet<&String> = old.0.keys().chain(new.0.keys()).collect();
    let none = BTreeSet::new();
    let mut bumps = Vec::new();
    for name in names {
        let (before, after) = (
            old.0.get(name).unwrap_or(&none),
            new.0.get(name).unwrap_or(&none),
        );
        let moved = versions::pair(
            before.difference(after).cloned().collect(),
            after.difference(before).cloned().collect(),
        );
        let name = name.to_string();
        bumps.extend(moved.updated.into_iter().map(|(old, new)| Bump::Updated {
            name: name.clone(),
            old,
            new,
        }));
        bumps.extend(moved.added.into_iter().map(|version| Bump::Added {
            name: name.clone(),
            version,
        }));
        bumps.extend(moved.removed.into_iter().map(|version| Bump::Removed {
            name: name.clone(),
            version,
        }));
    }
    bumps
}

/// The manifests among `changed` that the lock at `lock` is resolved from: those of its
/// format in its folder or below it (a workspace's members), unless another of the changed
/// `locks` sits nearer to them.
fn manifests_of(
    lock: &str,
    format: Format,
    locks: &[(Format, &str)],
    changed: &[String],
) -> Vec<String> {
    let folder = |path: &str| path.rsplit_once('/').map_or("", |(dir, _)| dir).to_string();
    let within = |path: &str, dir: &str| dir.is_empty() || path.starts_with(&format!("{dir}/"));
    let dir = folder(lock);
    changed
        .iter()
        .filter(|path| {
            path.rsplit('/').next() == Some(format.manifest())
                && within(path, &dir)
                && !locks.iter().any(|(other, at)| {
                    let nearer = folder(at);
                    *at != lock
                        && other.manifest() == format.manifest()
                        && nearer.len() > dir.len()
                        && within(path, &nearer)
                })
        })
        .take(MAX_MANIFESTS)
        .cloned()
        .collect()
}

/// What a change did to its packages: its lock files' and its workflows' pins.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bumps {
    /// Each lock file the change touches, by path.
    pub locks: Vec<LockBumps>,
    /// The Actions pins it moves, by action.
    pub pins: Vec<PinMove>,
}

impl Bumps {
    /// From both versions of the changed files [`super::reads`] wants (`sides`), and
    /// every path the change touches (`changed`, where the manifests are found).
    pub fn of(sides: &[Sides], changed: &[String]) -> Self {
        let mut bumps = Bumps::default();
        let locks: Vec<(Format, &str)> = sides
            .iter()
            .filter_map(|s| Some((Format::of(&s.path)?, s.path.as_str())))
            .collect();
        for side in sides {
            if let Some(format) = Format::of(&side.path) {
                let manifests = manifests_of(&side.path, format, &locks, changed);
                bumps.locks.push(LockBumps::of(format, side, manifests));
            } else if actions::is_workflow(&side.path) {
                let text = |s: &SideText| match s {
                    SideText::Text(text) => text.clone(),
                    _ => String::new(),
                };
                let moves = actions::moves(&side.path, &text(&side.old), &text(&side.new));
                bumps.add_pins(moves);
            }
        }
        bumps.locks.sort_by(|a, b| a.path.cmp(&b.path));
        bumps
    }

    /// Adds `more`'s locks and pins (a change made of two, as an amended commit's is).
    pub fn extend(&mut self, more: Bumps) {
        self.locks.extend(more.locks);
        self.add_pins(more.pins);
    }

    /// Adds `moves`, one move named once with every workflow it is in.
    fn add_pins(&mut self, moves: Vec<PinMove>) {
        for mv in moves {
            let same = self.pins.iter_mut().find(|p| {
                p.action == mv.action
                    && p.old.reference == mv.old.reference
                    && p.new.reference == mv.new.reference
            });
            match same {
                Some(known) => known.files.extend(mv.files),
                None => self.pins.push(mv),
            }
        }
        self.pins.sort_by(|a, b| a.action.cmp(&b.action));
    }

    /// Whether the change touches no lock file and moves no pin.
    pub fn is_empty(&self) -> bool {
        self.locks.is_empty() && self.pins.is_empty()
    }

    /// The repositories whose tags would name a pinned commit, each once, with the tag
    /// prefix the comments suggest (see [`PinMove::lookup`]).
    pub fn lookups(&self) -> Vec<(String, Option<String>)> {
        let mut found: Vec<(String, Option<String>)> = Vec::new();
        for lookup in self.pins.iter().filter_map(PinMove::lookup) {
            if !found.contains(&lookup) {
                found.push(lookup);
            }
        }
        found
    }

    /// Names the pinned commits of `repo`'s actions by `tags` (name, commit).
    pub fn resolve(&mut self, repo: &str, tags: &[(String, String)]) {
        for pin in &mut self.pins {
            if pin.lookup().is_some_and(|(r, _)| r == repo) {
                pin.resolve(tags);
            }
        }
    }

    /// The request's section: each lock's packages with their old and new versions, and
    /// the pins moved; `None` when the change touches no lock file and moves no pin.
    pub fn section(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let mut out = format!(
            "## {HEADING}\n\nRead from both versions of each lock file and workflow the change \
             touches (names and versions only, whether or not their diffs are shown).\n"
        );
        for lock in self.locks.iter().take(MAX_LOCKS) {
            out.push('\n');
            lock.write(&mut out);
        }
        if self.locks.len() > MAX_LOCKS {
            let _ = writeln!(
                out,
                "\nand {} more lock files",
                self.locks.len() - MAX_LOCKS
            );
        }
        if !self.pins.is_empty() {
            out.push_str("\nGitHub Actions pins (`uses:`):\n");
            for pin in self.pins.iter().take(MAX_PINS) {
                let _ = writeln!(out, "{}", pin.line());
            }
            if self.pins.len() > MAX_PINS {
                let _ = writeln!(out, "- and {} more", self.pins.len() - MAX_PINS);
            }
        }
        Some(out.trim_end().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(path: &str, old: Option<&str>, new: Option<&str>) -> Sides {
        let side = |text: Option<&str>| text.map_or(SideText::Absent, |t| SideText::Text(t.into()));
        Sides {
            path: path.into(),
            old: side(old),
            new: side(new),
        }
    }

    fn cargo_lock(packages: &[(&str, &str)]) -> String {
        packages
            .iter()
            .map(|(name, version)| {
                format!("[[package]]\nname = \"{name}\"\nversion = \"{version}\"\n\n")
            })
            .collect()
    }

    #[test]
    fn a_cargo_update_names_each_package_and_both_versions() {
        let old = cargo_lock(&[("app", "0.1.0"), ("regex", "1.10.2"), ("winapi", "0.3.9")]);
        let new = cargo_lock(&[("app", "0.1.0"), ("regex", "1.10.3"), ("tinyvec", "1.6.0")]);
        let bumps = Bumps::of(
            &[sides("Cargo.lock", Some(&old), Some(&new))],
            &[
                "Cargo.lock".into(),
                "Cargo.toml".into(),
                "src/main.rs".into(),
            ],
        );
        assert_eq!(
            bumps.section().as_deref(),
            Some(
                "## Packages the change moves\n\nRead from both versions of each lock file and \
                 workflow the change touches (names and versions only, whether or not their \
                 diffs are shown).\n\nCargo.lock (Cargo.toml changed too): 1 updated, 1 added, \
                 1 removed\n- regex 1.10.2 -> 1.10.3\n- tinyvec 1.6.0 (added)\n- winapi 0.3.9 \
                 (removed)"
            )
        );
    }

    #[test]
    fn a_large_update_is_bounded_and_counted() {
        let old: Vec<(String, String)> = (0..100)
            .map(|i| (format!("crate{i:03}"), "1.0.0".into()))
            .collect();
        let new: Vec<(String, String)> = (0..100)
            .map(|i| (format!("crate{i:03}"), "1.0.1".into()))
            .collect();
        let as_refs = |list: &[(String, String)]| {
            cargo_lock(
                &list
                    .iter()
                    .map(|(n, v)| (n.as_str(), v.as_str()))
                    .collect::<Vec<_>>(),
            )
        };
        let bumps = Bumps::of(
            &[sides(
                "Cargo.lock",
                Some(&as_refs(&old)),
                Some(&as_refs(&new)),
            )],
            &[],
        );
        let section = bumps.section().unwrap_or_default();
        assert!(
            section.contains("Cargo.lock: 100 updated\n- crate000 1.0.0 -> 1.0.1\n"),
            "{section}"
        );
        assert!(
            section.contains("- crate029 1.0.0 -> 1.0.1\n- and 70 more"),
            "{section}"
        );
        assert!(!section.contains("crate030"), "{section}");
    }

    #[test]
    fn what_cannot_be_compared_is_said() {
        let mut large = sides("web/package-lock.json", Some("{}"), None);
        large.new = SideText::TooLarge { bytes: 9_000_000 };
        let broken = sides(
            "yarn.lock",
            None,
            Some("lodash@^4:\n  version \"4.17.21\"\n"),
        );
        let unparsed = sides("composer.lock", Some("{"), Some("{}"));
        let bumps = Bumps::of(
            &[
                large,
                broken,
                unparsed,
                sides("go.sum", Some("a v1 h1:x\n"), Some("a v1 h1:x\n")),
            ],
            &["web/package.json".into(), "package.json".into()],
        );
        let section = bumps.section().unwrap_or_default();
        assert!(
            section.contains("\ncomposer.lock: its old version could not be read ("),
            "{section}"
        );
        assert!(
            section.contains("\ngo.sum: no package's version changed"),
            "{section}"
        );
        assert!(
            section.contains(
                "\nweb/package-lock.json (web/package.json changed too): its new version \
                 (9000000 bytes) is larger than the 8 MiB read"
            ),
            "{section}"
        );
        assert!(
            section.contains(
                "\nyarn.lock (package.json changed too): 1 added\n- lodash 4.17.21 (added)"
            ),
            "{section}"
        );
    }

    #[test]
    fn one_pin_moved_in_two_workflows_is_one_line() {
        let old = "steps:\n  - uses: actions/checkout@v3\n";
        let new = "steps:\n  - uses: actions/checkout@v4\n";
        let bumps = Bumps::of(
            &[
                sides(".github/workflows/a.yml", Some(old), Some(new)),
                sides(".github/workflows/b.yml", Some(old), Some(new)),
                sides("README.md", Some(old), Some(new)),
            ],
            &[],
        );
        assert!(bumps.locks.is_empty());
        assert_eq!(
            bumps.section().as_deref(),
            Some(
                "## Packages the change moves\n\nRead from both versions of each lock file and \
                 workflow the change touches (names and versions only, whether or not their \
                 diffs are shown).\n\nGitHub Actions pins (`uses:`):\n- actions/checkout moved \
                 from v3 to v4, in .github/workflows/a.yml, .github/workflows/b.yml"
            )
        );
        assert!(bumps.lookups().is_empty());
        assert_eq!(Bumps::default().section(), None);
    }
}
