//! commitlint's default ignores: messages that tools write (merges, reverts, fixups, bare
//! versions) pass untouched. Matched on the whole message as commitlint 20 matches them: the two merge patterns look at every line, the others at the start.

use std::sync::LazyLock;

use regex::Regex;

use super::built_in;

static WILDCARDS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r"(?mR)^((Merge pull request)|(Merge (.*?) into (.*?)|(Merge branch (.*?)))(?:\r?\n)*$)",
        r"(?mR)^(Merge tag (.*?))(?:\r?\n)*$",
        r"^(R|r)evert (.*)",
        r"^(R|r)eapply (.*)",
        r"^(amend|fixup|squash)!",
        r"^(Merged (.*?)(in|into) (.*)|Merged PR (.*): (.*))",
        r"^Merge remote-tracking branch(\s*)(.*)",
        r"^Automatic merge(.*)",
        r"^Auto-merged (.*?) into (.*)",
    ]
    .iter()
    .map(|p| built_in(p))
    .collect()
});

/// Whether `message` is one commitlint's default ignores let pass.
pub fn is_ignored(message: &str) -> bool {
    WILDCARDS.iter().any(|re| re.is_match(message)) || is_release(message)
}

/// A first line that is a version alone (`1.2.0`, `chore(release): v1.2.0 [skip ci]`), as
/// release tools write.
fn is_release(message: &str) -> bool {
    static CHORE: LazyLock<Regex> = LazyLock::new(|| built_in(r"^chore(\([^)]+\))?:"));
    static SKIP: LazyLock<[Regex; 2]> = LazyLock::new(|| {
        [
            built_in(r"(?i)\[(skip|ci)(-|\s)(ci|skip)\]"),
            built_in(r"(?i)\((skip|ci)(-|\s)(ci|skip)\)"),
        ]
    });
    let first = message.split('\n').next().unwrap_or_default();
    let first = CHORE.replace(first, "");
    let first = SKIP[0].replace(&first, "");
    let first = SKIP[1].replace(&first, "");
    is_semver(first.trim())
}

/// node-semver's strict `valid`: `1.2.3`, an optional `v`, a pre-release and build part;
/// no leading zeros in numbers.
fn is_semver(text: &str) -> bool {
    static SEMVER: LazyLock<Regex> = LazyLock::new(|| {
        let number = "(?:0|[1-9][0-9]*)";
        let identifier = "(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][a-zA-Z0-9-]*)";
        let build = "[0-9A-Za-z-]+";
        built_in(&format!(
            r"^v?{number}\.{number}\.{number}(?:-{identifier}(?:\.{identifier})*)?(?:\+{build}(?:\.{build})*)?$"
        ))
    });
    const MAX_SAFE: u64 = (1 << 53) - 1;
    text.len() <= 256
        && SEMVER.is_match(text)
        && text
            .trim_start_matches('v')
            .split(['-', '+'])
            .next()
            .unwrap_or_default()
            .split('.')
            .all(|n| n.parse::<u64>().is_ok_and(|n| n <= MAX_SAFE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_tools_write() {
        for message in [
            "Merge branch 'main' into feature",
            "Merge pull request #12 from a/b\n\nbody",
            "feat: x\n\nMerge branch 'main'",
            "Merge tag 'v1.0.0'",
            "Revert \"feat: x\"",
            "reapply stuff",
            "fixup! feat: x",
            "amend! feat: x",
            "1.2.3",
            "v1.2.3-beta.1+build.5\n",
            "chore(release): v1.2.3 [skip ci]",
            "Auto-merged main into feature",
            "Merged in feature/x (pull request #12)",
            "Merged PR 42: add x",
            "Merge remote-tracking branch 'origin/main'",
            "Automatic merge from CI",
        ] {
            assert!(is_ignored(message), "{message}");
        }
    }

    #[test]
    fn messages_people_write() {
        for message in [
            "feat: merge branches",
            "Reverting things",
            "1.2",
            "01.2.3",
            "\n1.2.3",
            "chore: bump to 1.2.3",
            "fix: x\n\nRevert the change",
        ] {
            assert!(!is_ignored(message), "{message}");
        }
    }
}
