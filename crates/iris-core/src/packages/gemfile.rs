//! Gemfile.lock: sections (`GEM`, `GIT`, `PATH`) whose `specs:` list each gem as
//! `name (version)` four spaces in (its own dependencies six spaces in), and `BUNDLED WITH`,
//! the bundler that wrote it.

use super::Installed;

/// The gems a Gemfile.lock installs, and bundler's version as `bundler`.
pub(super) fn parse(text: &str) -> Installed {
    let mut installed = Installed::default();
    let mut section = "";
    let mut in_specs = false;
    for line in text.lines() {
        if !line.starts_with(' ') {
            section = line.trim();
            in_specs = false;
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let item = line.trim();
        match (section, indent) {
            ("GEM" | "GIT" | "PATH", 2) => in_specs = item == "specs:",
            ("GEM" | "GIT" | "PATH", 4) if in_specs => {
                if let Some((name, rest)) = item.split_once(" (") {
                    let version = rest.trim_end_matches(')');
                    // `1.16.0-x86_64-linux`: the platform is no part of the version.
                    let version = version.split('-').next().unwrap_or(version);
                    installed.add(name, version);
                }
            }
            ("BUNDLED WITH", _) => installed.add("bundler", item),
            _ => {}
        }
    }
    installed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_of_each_source_and_bundler() {
        let lock = "GIT
  remote: https://github.com/rails/rails.git
  revision: 0123456789abcdef
  specs:
    rails (7.2.0.alpha)
      actionpack (= 7.2.0.alpha)

GEM
  remote: https://rubygems.org/
  specs:
    nokogiri (1.16.0-x86_64-linux)
      racc (~> 1.4)
    nokogiri (1.16.0-arm64-darwin)
    racc (1.7.3)

PLATFORMS
  x86_64-linux

DEPENDENCIES
  rails!

BUNDLED WITH
   2.5.4
";
        let installed = parse(lock);
        assert_eq!(installed.len(), 4, "{installed:?}");
        assert_eq!(
            installed
                .versions("nokogiri")
                .map(|v| v.iter().cloned().collect::<Vec<_>>()),
            Some(vec!["1.16.0".to_string()])
        );
        assert!(
            installed
                .versions("rails")
                .is_some_and(|v| v.contains("7.2.0.alpha"))
        );
        assert!(
            installed
                .versions("bundler")
                .is_some_and(|v| v.contains("2.5.4"))
        );
        assert!(
            installed.versions("actionpack").is_none(),
            "a dependency line is no gem"
        );
    }
}
