//! The built-in tables (`assets/services.toml`, `assets/prices.toml`) are TOML, to be read and
//! edited by people. Every `iris` command reads both when it loads its configuration, and
//! parsing them as TOML was a tenth of a short command's time; the same data as JSON parses
//! about four times faster. So they are turned into JSON here, and a table that is not valid
//! TOML fails the build.
//!
//! `assets/` in this crate holds links to the top-level files, so the published crate carries them.

use std::path::{Path, PathBuf};

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for name in ["services", "prices"] {
        let source = Path::new("assets").join(format!("{name}.toml"));
        println!("cargo::rerun-if-changed={}", source.display());
        let text = std::fs::read_to_string(&source)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", source.display()));
        let table: toml::Table = toml::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not valid TOML: {e}", source.display()));
        let json = serde_json::to_string(&table).expect("a TOML table is JSON");
        std::fs::write(out.join(format!("{name}.json")), json).expect("OUT_DIR is writable");
    }
}
