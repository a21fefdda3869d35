//! go.sum: one line per module version, `module version hash`. A version whose code the
//! build downloads has a line of its own; `version/go.mod` lines only vouch for a module's
//! go.mod while the graph is resolved, so they are not packages the build installs.

use super::Installed;

/// The module versions a go.sum holds the code of.
pub(super) fn parse(text: &str) -> Installed {
    let mut installed = Installed::default();
    for line in text.lines() {
        let mut fields = line.split_whitespace();
        let (Some(module), Some(version), Some(_hash)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        if !version.ends_with("/go.mod") {
            installed.add(module, version);
        }
    }
    installed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_lines_count_and_go_mod_lines_do_not() {
        let sum = "github.com/spf13/cobra v1.8.0 h1:7aJaZx1B85qltLMc546zn58BxxfZdR/W22ej9CFoEf0=\n\
                   github.com/spf13/cobra v1.8.0/go.mod h1:WXLWApfZ71AjXPya3WOlMsY9yMs7YeiHhFVlvLyhcho=\n\
                   github.com/spf13/pflag v1.0.5/go.mod h1:McXfInJRrz4CZXVZOBLb0bTZqETkiAhM9Iw0y3An2Bg=\n\
                   \n";
        let installed = parse(sum);
        assert_eq!(installed.len(), 1);
        assert!(
            installed
                .versions("github.com/spf13/cobra")
                .is_some_and(|v| v.contains("v1.8.0"))
        );
    }
}
