//! The text a forge wants: a PR's title and body from its markdown, a base branch as the forge
//! names it (pure).

use super::PublishError;

/// A pull request's title and body, as the forge takes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrText {
    /// One line, without its markdown markers.
    pub title: String,
    /// The rest of the description, markdown, trimmed.
    pub body: String,
}

/// Splits a PR description (the studio's and `iris pr`'s "# Title\n\n## Summary\n...") into
/// its title and body. The title is the first `# ` heading, else the first non-empty line
/// with its markdown markers stripped; the body is everything else, trimmed. Lines inside
/// code fences are never the title.
pub fn split_pr(markdown: &str) -> Result<PrText, PublishError> {
    let lines: Vec<&str> = markdown.lines().collect();
    let outside_fences = unfenced(&lines);
    let heading = outside_fences.iter().find_map(|&i| {
        let line = lines[i].trim_start();
        let rest = line
            .strip_prefix("# ")
            .or_else(|| (line == "#").then_some(""))?;
        Some((i, closing_hashes_removed(rest).to_string()))
    });
    let (index, title) = match heading {
        Some(found) => found,
        None => match lines.iter().position(|l| !l.trim().is_empty()) {
            Some(i) => (i, markers_stripped(lines[i])),
            None => return Err(no_title()),
        },
    };
    if title.is_empty() {
        return Err(no_title());
    }
    let body: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != index)
        .map(|(_, l)| *l)
        .collect();
    Ok(PrText {
        title,
        body: body.join("\n").trim().to_string(),
    })
}

fn no_title() -> PublishError {
    PublishError(
        "the pull request description has no title: write one as its first line (`# Title`)".into(),
    )
}

/// The indexes of the lines outside ``` and ~~~ code fences.
fn unfenced(lines: &[&str]) -> Vec<usize> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m => fence = None,
            (None, None) => out.push(i),
            _ => {}
        }
    }
    out
}

/// `Title ##` -> `Title` (an ATX heading's optional closing sequence), trimmed.
fn closing_hashes_removed(text: &str) -> &str {
    let text = text.trim();
    let without = text.trim_end_matches('#');
    if without.len() < text.len() && (without.is_empty() || without.ends_with(' ')) {
        without.trim_end()
    } else {
        text
    }
}

/// A line as plain text: no heading hashes, quote marker, list bullet or wrapping emphasis.
fn markers_stripped(line: &str) -> String {
    let mut text = line.trim();
    text = text.trim_start_matches('>').trim_start();
    let hashes = text.len() - text.trim_start_matches('#').len();
    if hashes > 0 && (text[hashes..].starts_with(' ') || text.len() == hashes) {
        text = closing_hashes_removed(&text[hashes..]);
    }
    for bullet in ["- ", "* ", "+ "] {
        if let Some(rest) = text.strip_prefix(bullet) {
            text = rest.trim_start();
        }
    }
    for wrap in ["**", "__", "*", "_", "`"] {
        if text.len() > 2 * wrap.len() && text.starts_with(wrap) && text.ends_with(wrap) {
            text = &text[wrap.len()..text.len() - wrap.len()];
        }
    }
    text.trim().to_string()
}

/// A base as git names it, as the forge names it: `origin/main` -> `main` when `origin` is one
/// of `remotes`, `refs/heads/main` and `refs/remotes/origin/main` -> `main`. A branch whose
/// name only looks like a remote's (`feature/x` with no remote `feature`) is kept whole.
pub fn base_branch(base: &str, remotes: &[String]) -> String {
    let base = base.trim();
    if let Some(rest) = base.strip_prefix("refs/heads/") {
        return rest.to_string();
    }
    let base = base.strip_prefix("refs/remotes/").unwrap_or(base);
    match base.split_once('/') {
        Some((remote, branch)) if !branch.is_empty() && remotes.iter().any(|r| r == remote) => {
            branch.to_string()
        }
        _ => base.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> PrText {
        split_pr(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    #[test]
    fn the_title_is_the_first_level_one_heading_and_the_body_the_rest() {
        let pr = split("# Add two()\n\n## Summary\n\nAdds two().\n\n## Changes\n\n- src/lib.rs\n");
        assert_eq!(pr.title, "Add two()");
        assert_eq!(
            pr.body,
            "## Summary\n\nAdds two().\n\n## Changes\n\n- src/lib.rs"
        );
    }

    #[test]
    fn text_before_the_heading_stays_in_the_body() {
        let pr = split("\n\n<!-- draft -->\n# Rank files ##\nBody line\n");
        assert_eq!(pr.title, "Rank files");
        assert_eq!(pr.body, "<!-- draft -->\nBody line");
    }

    #[test]
    fn without_a_heading_the_first_line_is_the_title_without_its_markers() {
        assert_eq!(
            split("Fix the parser\n\nIt failed on tabs.").title,
            "Fix the parser"
        );
        let pr = split("\n## Summary\n\nAdds two().");
        assert_eq!(
            (pr.title.as_str(), pr.body.as_str()),
            ("Summary", "Adds two().")
        );
        assert_eq!(split("**Bold title**\nx").title, "Bold title");
        assert_eq!(split("- `listed`\nx").title, "listed");
        assert_eq!(split("> quoted\n").title, "quoted");
        assert_eq!(split("> quoted\n").body, "");
    }

    #[test]
    fn a_heading_inside_a_code_fence_is_not_the_title() {
        let pr = split("Run it\n\n```sh\n# install first\nmake\n```\n");
        assert_eq!(pr.title, "Run it");
        assert!(pr.body.contains("# install first"), "{}", pr.body);
        let pr = split("```\n# not me\n```\n# Me\n");
        assert_eq!(pr.title, "Me");
    }

    #[test]
    fn an_empty_description_or_title_is_an_error() {
        for text in ["", "  \n\n\t\n", "#\n\nbody", "# \n", "## \n"] {
            let err = split_pr(text).expect_err(text);
            assert!(err.to_string().contains("no title"), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_remote_prefix_is_stripped_from_the_base() {
        let remotes = vec!["origin".to_string(), "upstream".to_string()];
        assert_eq!(base_branch("origin/main", &remotes), "main");
        assert_eq!(base_branch("upstream/release/1.x", &remotes), "release/1.x");
        assert_eq!(base_branch("main", &remotes), "main");
        assert_eq!(base_branch("feature/x", &remotes), "feature/x");
        assert_eq!(base_branch("refs/heads/dev", &remotes), "dev");
        assert_eq!(base_branch("refs/remotes/origin/dev", &remotes), "dev");
        assert_eq!(base_branch("origin/", &remotes), "origin/");
        assert_eq!(base_branch("origin/main", &[]), "origin/main");
    }
}
