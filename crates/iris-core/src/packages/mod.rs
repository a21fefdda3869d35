//! The packages a change moves: each lock file's two versions parsed with its format's own
//! structure (Cargo.lock, package-lock.json, yarn.lock, pnpm-lock.yaml, go.sum, poetry.lock,
//! uv.lock, Gemfile.lock, composer.lock), and the GitHub Actions a workflow pins, compared
//! into the names and versions a request carries whether or not the lock's diff is shown.
//!
//! Pure: the crates above read both versions of the changed files ([`crate::change::Sides`],
//! at most [`MAX_LOCK_BYTES`] of each) and look pinned commits up; this module only reads
//! text.

mod actions;
mod bumps;
mod composer;
mod gemfile;
mod go_sum;
mod npm;
mod pnpm;
mod toml_locks;
mod versions;
mod yarn;

use std::collections::{BTreeMap, BTreeSet};

pub use actions::{PinMove, PinRef, is_workflow};
pub use bumps::{Bump, Bumps, LockBumps};

/// The title of the request's Packages section, as other parts of a request name it.
pub const HEADING: &str = "Packages the change moves";

/// The most of a lock file or workflow read: a larger one is named, not parsed, so a huge
/// lock never costs more than this in memory and time.
pub const MAX_LOCK_BYTES: u64 = 8 * 1024 * 1024;

/// A lock file's format, known by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Cargo.lock.
    Cargo,
    /// package-lock.json or npm-shrinkwrap.json.
    Npm,
    /// yarn.lock, classic (v1) or berry.
    Yarn,
    /// pnpm-lock.yaml.
    Pnpm,
    /// go.sum.
    GoSum,
    /// poetry.lock.
    Poetry,
    /// uv.lock.
    Uv,
    /// Gemfile.lock.
    Gemfile,
    /// composer.lock.
    Composer,
}

impl Format {
    /// The format of the lock file at `path`, by its file name; `None` for any other file.
    pub fn of(path: &str) -> Option<Self> {
        let name = path.rsplit('/').next().unwrap_or(path);
        Some(match name {
            "Cargo.lock" => Format::Cargo,
            "package-lock.json" | "npm-shrinkwrap.json" => Format::Npm,
            "yarn.lock" => Format::Yarn,
            "pnpm-lock.yaml" => Format::Pnpm,
            "go.sum" => Format::GoSum,
            "poetry.lock" => Format::Poetry,
            "uv.lock" => Format::Uv,
            "Gemfile.lock" | "gems.locked" => Format::Gemfile,
            "composer.lock" => Format::Composer,
            _ => return None,
        })
    }

    /// The file name of the manifest the lock is resolved from.
    pub fn manifest(self) -> &'static str {
        match self {
            Format::Cargo => "Cargo.toml",
            Format::Npm | Format::Yarn | Format::Pnpm => "package.json",
            Format::GoSum => "go.mod",
            Format::Poetry | Format::Uv => "pyproject.toml",
            Format::Gemfile => "Gemfile",
            Format::Composer => "composer.json",
        }
    }

    /// The packages `text` (a whole lock file of this format) installs.
    pub fn parse(self, text: &str) -> Result<Installed, String> {
        match self {
            Format::Cargo | Format::Poetry | Format::Uv => toml_locks::parse(text),
            Format::Npm => npm::parse(text),
            Format::Yarn => Ok(yarn::parse(text)),
            Format::Pnpm => pnpm::parse(text),
            Format::GoSum => Ok(go_sum::parse(text)),
            Format::Gemfile => Ok(gemfile::parse(text)),
            Format::Composer => composer::parse(text),
        }
    }
}

/// Whether the packages of a change are read from both versions of the file at `path`: a
/// lock file, or a GitHub Actions workflow.
pub fn reads(path: &str) -> bool {
    Format::of(path).is_some() || is_workflow(path)
}

/// The packages a lock file installs: each name with its versions (a lock may hold several
/// versions of one package).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Installed(BTreeMap<String, BTreeSet<String>>);

impl Installed {
    /// Records `version` of `name`; an empty name or version is no package.
    fn add(&mut self, name: &str, version: &str) {
        let (name, version) = (name.trim(), version.trim());
        if !name.is_empty() && !version.is_empty() {
            self.0
                .entry(name.to_string())
                .or_default()
                .insert(version.to_string());
        }
    }

    /// The versions of `name`, if it is installed.
    pub fn versions(&self, name: &str) -> Option<&BTreeSet<String>> {
        self.0.get(name)
    }

    /// How many packages (names) it holds.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it holds no package.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
