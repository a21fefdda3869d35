//! A merge, cherry-pick, revert or rebase that stopped for the user: what git prepared for
//! its commit (`.git/MERGE_MSG`) and how its conflicts were resolved, as evidence for the
//! message that concludes it. Pure: git's files and diffs in, text out.

/// An operation in progress, as git's state files tell it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// `merge`, `cherry-pick`, `revert` or `rebase`.
    pub kind: String,
    /// The commits coming in (merged, picked, reverted or replayed): short id and title.
    pub incoming: Vec<(String, String)>,
    /// git's prepared message without its comment lines; `None` when git wrote none.
    pub prepared: Option<String>,
    /// How each path git reported conflicting stands now.
    pub resolutions: Vec<Resolution>,
}

/// One conflicted path: its resolution against each side, as patches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The path, relative to the repository's root.
    pub path: String,
    /// Still conflicting in the index (not resolved and added yet).
    pub unresolved: bool,
    /// The resolved file against this branch's version (HEAD).
    pub against_ours: String,
    /// The resolved file against the incoming commit's version.
    pub against_theirs: String,
}

/// git's prepared message split into its text (comment lines out, as `git commit` cleans it)
/// and the paths of its `Conflicts:` list. The comment character is the one the list is
/// written with (`core.commentChar`, `auto` included), `#` when there is no list.
pub fn parse_prepared(text: &str) -> (String, Vec<String>) {
    let comment = text
        .lines()
        .find_map(|l| {
            let mut chars = l.chars();
            let first = chars.next()?;
            (chars.as_str() == " Conflicts:").then_some(first)
        })
        .unwrap_or('#');
    let mut conflicts = Vec::new();
    let mut in_list = false;
    let mut kept = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix(comment) else {
            in_list = false;
            kept.push(line);
            continue;
        };
        if rest == " Conflicts:" {
            in_list = true;
        } else if let Some(path) = rest.strip_prefix('\t').filter(|_| in_list) {
            conflicts.push(path.to_string());
        } else if rest.trim().is_empty() && in_list {
            // `#` alone between the heading and the paths
        } else {
            in_list = false;
        }
    }
    let message = kept.join("\n").trim().to_string();
    (message, conflicts)
}

/// Whether a line of a request is the heading of [`section`].
pub fn is_heading(line: &str) -> bool {
    line.starts_with("## A ") && line.ends_with(" is in progress")
}

/// Whether a line of [`section`] is git's or a commit's own words (the prepared message, an
/// incoming commit's title), which a message may rightly keep.
pub fn is_kept_line(line: &str) -> bool {
    let incoming = line
        .strip_prefix("- ")
        .and_then(|l| l.split_once(' '))
        .is_some_and(|(id, _)| id.len() >= 7 && id.chars().all(|c| c.is_ascii_hexdigit()));
    line.starts_with('>') || incoming
}

/// Longest patch of one side of a resolution the request carries.
const PATCH_BUDGET: usize = 3_000;

/// The request's section about the operation: what git prepared, what comes in, and each
/// conflict's resolution, with what the message should do with them.
pub fn section(op: &Operation) -> String {
    let mut out = format!("## A {} is in progress\n\n", op.kind);
    out.push_str(match op.kind.as_str() {
        "merge" => {
            "This commit concludes a merge. Keep the title git prepared (below) unless the \
             repository's history titles its merges otherwise; in the body, say what the merge \
             brings (the incoming commits) and, for each conflict, how it was resolved. The \
             staged diff is everything the merge changes on this branch, most of it the \
             incoming commits' own work: do not describe it as new work.\n"
        }
        "cherry-pick" | "rebase" => {
            "This commit replays an existing commit. Keep its message (git's prepared message, \
             below) and add, for each conflict, a sentence on how it was resolved where that is \
             not obvious.\n"
        }
        _ => {
            "Start from git's prepared message (below): keep its title and say why the commit \
             is undone, from the evidence, and how each conflict was resolved.\n"
        }
    });
    if let Some(prepared) = op.prepared.as_deref().filter(|p| !p.is_empty()) {
        out.push_str("\ngit's prepared message:\n");
        for line in prepared.lines() {
            out.push_str(format!("> {line}").trim_end());
            out.push('\n');
        }
    }
    if !op.incoming.is_empty() {
        out.push_str("\nIncoming commits:\n");
        for (id, title) in &op.incoming {
            out.push_str(&format!("- {id} {title}\n"));
            debug_assert!(is_kept_line(&format!("- {id} {title}")));
        }
    }
    if op.resolutions.is_empty() {
        out.push_str("\nNo conflicts: git merged every file on its own.\n");
    }
    for r in &op.resolutions {
        if r.unresolved {
            out.push_str(&format!(
                "\nConflict in {}: not resolved yet (still unmerged in the index).\n",
                r.path
            ));
            continue;
        }
        out.push_str(&format!("\nConflict in {}, as resolved:\n", r.path));
        for (side, patch) in [
            ("against this branch (HEAD)", &r.against_ours),
            ("against the incoming version", &r.against_theirs),
        ] {
            let patch = patch.trim_end();
            if patch.is_empty() {
                out.push_str(&format!("- {side}: the same (that side was kept)\n"));
            } else {
                out.push_str(&format!("- {side}:\n{}\n", bounded(patch)));
            }
        }
    }
    out
}

/// A patch cut at a line end within [`PATCH_BUDGET`], saying how much was left out.
fn bounded(patch: &str) -> String {
    let mut shown = String::new();
    let mut left = 0;
    for line in patch.lines() {
        if left == 0 && shown.len() + line.len() < PATCH_BUDGET {
            shown.push_str(line);
            shown.push('\n');
        } else {
            left += 1;
        }
    }
    if left > 0 {
        shown.push_str(&format!("({left} more lines)\n"));
    }
    shown.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_message_loses_its_comments_and_gives_its_conflicts() {
        let text = "Merge branch 'feature'\n\n# Conflicts:\n#\ts.txt\n#\tsrc/日本.rs\n";
        let (message, conflicts) = parse_prepared(text);
        assert_eq!(message, "Merge branch 'feature'");
        assert_eq!(conflicts, ["s.txt", "src/日本.rs"]);
    }

    #[test]
    fn another_comment_character_is_read_from_the_list() {
        let text =
            "pick: keep me\n\n# not a comment here\n; Conflicts:\n;\ta.rs\n; trailing note\n";
        let (message, conflicts) = parse_prepared(text);
        assert_eq!(message, "pick: keep me\n\n# not a comment here");
        assert_eq!(conflicts, ["a.rs"]);
    }

    #[test]
    fn a_message_with_no_list_keeps_all_but_hash_comments() {
        let (message, conflicts) =
            parse_prepared("Revert \"x\"\n\nThis reverts commit abc.\n# c\n");
        assert_eq!(message, "Revert \"x\"\n\nThis reverts commit abc.");
        assert!(conflicts.is_empty());
    }

    #[test]
    fn the_section_shows_each_side_of_a_resolution() {
        let op = Operation {
            kind: "merge".into(),
            incoming: vec![("abc1234".into(), "feature: change b".into())],
            prepared: Some("Merge branch 'feature'".into()),
            resolutions: vec![
                Resolution {
                    path: "s.txt".into(),
                    unresolved: false,
                    against_ours: "@@ -2 +2 @@\n-B-main\n+B-both\n".into(),
                    against_theirs: String::new(),
                },
                Resolution {
                    path: "t.txt".into(),
                    unresolved: true,
                    against_ours: String::new(),
                    against_theirs: String::new(),
                },
            ],
        };
        let text = section(&op);
        assert!(text.starts_with("## A merge is in progress"), "{text}");
        assert!(text.contains("> Merge branch 'feature'\n"), "{text}");
        assert!(text.contains("- abc1234 feature: change b\n"), "{text}");
        assert!(
            text.contains("against this branch (HEAD):\n@@ -2 +2 @@\n-B-main\n+B-both"),
            "{text}"
        );
        assert!(
            text.contains("against the incoming version: the same (that side was kept)"),
            "{text}"
        );
        assert!(
            text.contains("Conflict in t.txt: not resolved yet"),
            "{text}"
        );
    }
}
