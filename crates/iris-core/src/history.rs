//! The repository's own history as a model of how its people write: which commits count (no
//! merges, no bots), and the sample of them a commit message is written after.
//!
//! The sample prefers the commits that touched the files of the change, then the current
//! author's, then the rest, and shows titles and short bodies only: no dates, no e-mail
//! addresses (they help no model and belong to people).

/// Automation accounts: their commits teach how bots write, not how people do.
pub fn is_bot(name: &str, email: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let email = email.to_ascii_lowercase();
    name.ends_with("[bot]")
        || email.contains("[bot]@")
        || [
            "dependabot",
            "renovate",
            "github-actions",
            "greenkeeper",
            "snyk-bot",
        ]
        .iter()
        .any(|bot| name.starts_with(bot) || email.starts_with(bot))
}

/// Whether a commit shows how the repository's people write: not a merge, not a bot's.
pub fn by_people(parents: usize, name: &str, email: &str) -> bool {
    parents < 2 && !is_bot(name, email)
}

/// A past commit, as far as the sample goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PastCommit {
    /// The message's first line.
    pub title: String,
    /// The rest of the message, after the title.
    pub body: String,
    /// The author's name, to tell bots' commits and the current author's.
    pub author_name: String,
    /// The author's e-mail address, for the same; never shown.
    pub author_email: String,
    /// How many parents it has: two or more is a merge.
    pub parents: usize,
    /// The paths it changed against its first parent (none read for a merge).
    pub files: Vec<String>,
}

impl PastCommit {
    fn by_people(&self) -> bool {
        by_people(self.parents, &self.author_name, &self.author_email)
    }

    fn touches(&self, files: &[String]) -> bool {
        self.files.iter().any(|f| files.contains(f))
    }

    fn by(&self, author: &Author) -> bool {
        let same = |a: &str, b: &str| !a.is_empty() && a.eq_ignore_ascii_case(b);
        same(&author.name, &self.author_name) || same(&author.email, &self.author_email)
    }
}

/// Who is committing now (git's `user.name` and `user.email`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Author {
    /// Git's `user.name`.
    pub name: String,
    /// Git's `user.email`.
    pub email: String,
}

/// Commits shown at most.
pub const SAMPLE_SIZE: usize = 10;
/// A body is shown when it has at most this many lines...
const SHORT_BODY_LINES: usize = 6;
/// ...and then at most this many of them, each cut at this many characters.
const BODY_LINES_SHOWN: usize = 3;
const LINE_CHARS: usize = 100;

/// The commits a message for a change of `files` is written after: by people, those that
/// touched the same files first, then `author`'s, then the rest, each group newest first
/// (`history` is newest first); [`SAMPLE_SIZE`] at most.
pub fn sample<'a>(
    history: &'a [PastCommit],
    files: &[String],
    author: Option<&Author>,
) -> Vec<&'a PastCommit> {
    let people: Vec<&PastCommit> = history.iter().filter(|c| c.by_people()).collect();
    let mut chosen: Vec<&PastCommit> = Vec::new();
    let tiers: [&dyn Fn(&PastCommit) -> bool; 3] = [
        &|c| c.touches(files),
        &|c| author.is_some_and(|a| c.by(a)),
        &|_| true,
    ];
    for tier in tiers {
        for commit in &people {
            if chosen.len() >= SAMPLE_SIZE {
                return chosen;
            }
            if tier(commit) && !chosen.iter().any(|c| std::ptr::eq(*c, *commit)) {
                chosen.push(commit);
            }
        }
    }
    chosen
}

/// How the sample's section of a request begins; its commits follow, one `- title` each.
pub const SAMPLE_INTRO: &str = "How this repository's people write their commit messages";

/// Each line of a request that holds the sample's section, marked when it is one of the
/// sample's commits (its `- title` or a body line under it); the section's introduction is
/// not.
pub fn sample_marked(request: &str) -> impl Iterator<Item = (&str, bool)> {
    let mut in_sample = false;
    request.lines().map(move |line| {
        if line.starts_with(SAMPLE_INTRO) {
            in_sample = true;
            return (line, false);
        }
        in_sample &= line.starts_with("- ") || line.starts_with("  ");
        (line, in_sample)
    })
}

/// The titles of the sample's commits in a request that holds the sample's section.
pub fn sample_titles(request: &str) -> Vec<&str> {
    sample_marked(request)
        .filter(|(_, commit)| *commit)
        .filter_map(|(line, _)| line.strip_prefix("- "))
        .collect()
}

/// Whether the sample's titles mostly carry a scope (`fix(parser): ...`), two at least.
pub fn sample_uses_scopes(request: &str) -> bool {
    let titles = sample_titles(request);
    let scoped = titles
        .iter()
        .filter(|t| {
            t.split_once(": ").is_some_and(|(head, _)| {
                let head = head.trim_end_matches('!');
                head.ends_with(')') && head.contains('(') && !head.contains(' ')
            })
        })
        .count();
    scoped >= 2 && scoped * 2 >= titles.len()
}

/// The sample as a section of the request. `history_len`: commits looked at, to say why
/// the sample is empty.
pub fn render(sample: &[&PastCommit], history_len: usize) -> String {
    if sample.is_empty() {
        return if history_len == 0 {
            "How this repository writes its commit messages: it has no commits yet; write in \
             the default style."
                .to_string()
        } else {
            "How this repository writes its commit messages: its recent history is only merges \
             and automated commits, no style of its people to follow; write in the default style."
                .to_string()
        };
    }
    let mut text = format!(
        "{SAMPLE_INTRO} (their recent commits, newest first, those that changed the same files \
         ahead of the rest; merges and bots left out):\n"
    );
    for commit in sample {
        text.push_str(&format!("- {}\n", cut(commit.title.trim())));
        for line in short_body(&commit.body) {
            text.push_str(&format!("  {}\n", cut(line)));
        }
    }
    text
}

/// The first lines of a short body, trailers left out; nothing for a long one.
fn short_body(body: &str) -> Vec<&str> {
    let lines: Vec<&str> = body
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty() && !is_trailer(l))
        .collect();
    if lines.len() > SHORT_BODY_LINES {
        return Vec::new();
    }
    lines.into_iter().take(BODY_LINES_SHOWN).collect()
}

fn is_trailer(line: &str) -> bool {
    [
        "signed-off-by:",
        "co-authored-by:",
        "reviewed-by:",
        "change-id:",
    ]
    .iter()
    .any(|t| line.trim_start().to_ascii_lowercase().starts_with(t))
}

fn cut(line: &str) -> String {
    if line.chars().count() <= LINE_CHARS {
        line.to_string()
    } else {
        let mut cut: String = line.chars().take(LINE_CHARS - 1).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_samples_titles_are_read_back_and_scopes_seen() {
        let request = format!(
            "## Evidence\n{SAMPLE_INTRO} (newest first):\n- fix(parser): handle CRLF\n  A body line.\n\
             - feat(cli)!: drop --old\n- docs: typo\n\nAfter the sample.\n- not a title\n"
        );
        assert_eq!(
            sample_titles(&request),
            [
                "fix(parser): handle CRLF",
                "feat(cli)!: drop --old",
                "docs: typo"
            ]
        );
        assert!(sample_uses_scopes(&request));
        assert!(!sample_uses_scopes(&request.replace("(cli)", "")));
    }

    #[test]
    fn scopes_are_seen_when_at_least_half_of_the_titles_carry_one_and_two_at_least() {
        let with = |titles: &[&str]| {
            let lines: Vec<String> = titles.iter().map(|t| format!("- {t}")).collect();
            sample_uses_scopes(&format!("{SAMPLE_INTRO}:\n{}\n", lines.join("\n")))
        };
        // Three scoped of six: half.
        assert!(with(&[
            "a(x): 1", "b(y): 2", "c(z): 3", "d: 4", "e: 5", "f: 6"
        ]));
        // Two of five: less than half.
        assert!(!with(&["a(x): 1", "b(y): 2", "d: 3", "e: 4", "f: 5"]));
        // One alone is no habit.
        assert!(!with(&["a(x): 1"]));
        // A scope is `(...)` closing the head, with no space in it.
        assert!(!with(&["fix): 1", "feat): 2"]));
        assert!(!with(&["fix (a): 1", "feat (b): 2"]));
    }

    #[test]
    fn a_short_body_is_shown_in_part_and_long_lines_are_cut_to_their_width() {
        let six: Vec<String> = (1..=SHORT_BODY_LINES)
            .map(|i| format!("line {i}"))
            .collect();
        assert_eq!(short_body(&six.join("\n")), ["line 1", "line 2", "line 3"]);
        let seven = format!("{}\nline 7", six.join("\n"));
        assert!(short_body(&seven).is_empty(), "a long body shows nothing");
        let long = "x".repeat(LINE_CHARS + 20);
        let shown = cut(&long);
        assert_eq!(shown.chars().count(), LINE_CHARS);
        assert!(shown.ends_with('…'));
        assert_eq!(cut("short"), "short");
    }

    fn commit(title: &str, name: &str, files: &[&str]) -> PastCommit {
        PastCommit {
            title: title.into(),
            body: String::new(),
            author_name: name.into(),
            author_email: format!("{}@example.com", name.to_lowercase()),
            parents: 1,
            files: files.iter().map(|f| f.to_string()).collect(),
        }
    }

    fn titles(sample: &[&PastCommit]) -> Vec<String> {
        sample.iter().map(|c| c.title.clone()).collect()
    }

    #[test]
    fn bots_are_recognised() {
        assert!(is_bot(
            "dependabot[bot]",
            "49699333+dependabot[bot]@users.noreply.github.com"
        ));
        assert!(is_bot("renovate-bot", "bot@renovateapp.com"));
        assert!(is_bot(
            "github-actions",
            "41898282+github-actions[bot]@users.noreply.github.com"
        ));
        assert!(!is_bot("Ada Lovelace", "ada@example.com"));
        assert!(!by_people(2, "Ada", "ada@example.com"));
    }

    #[test]
    fn same_files_first_then_the_author_then_the_rest_without_merges_or_bots() {
        let mut merge = commit("Merge pull request #2 from x/y", "Ada", &[]);
        merge.parents = 2;
        let history = vec![
            merge,
            commit(
                "build(deps): bump serde",
                "dependabot[bot]",
                &["Cargo.toml"],
            ),
            commit("Fix the README", "Bob", &["README.md"]),
            commit("Tune the walker", "Ada", &["src/walk.rs"]),
            commit("Speed up the parser", "Cy", &["src/parse.rs"]),
            commit("Handle empty input", "Bob", &["src/parse.rs", "tests/a.rs"]),
        ];
        let author = Author {
            name: "Ada".into(),
            email: String::new(),
        };
        let files = vec!["src/parse.rs".to_string(), "Cargo.toml".to_string()];
        let chosen = sample(&history, &files, Some(&author));
        assert_eq!(
            titles(&chosen),
            [
                "Speed up the parser",
                "Handle empty input",
                "Tune the walker",
                "Fix the README"
            ]
        );
        // Without an author: the same files, then the rest by age.
        assert_eq!(
            titles(&sample(&history, &files, None))[2..],
            ["Fix the README", "Tune the walker"]
        );
    }

    #[test]
    fn ten_at_most_and_no_addresses_or_dates() {
        let history: Vec<PastCommit> = (0..30)
            .map(|i| commit(&format!("Change {i}"), "Ada", &[]))
            .collect();
        let chosen = sample(&history, &[], None);
        assert_eq!(chosen.len(), SAMPLE_SIZE);
        let text = render(&chosen, history.len());
        assert!(!text.contains('@'), "{text}");
        assert!(!text.contains("Ada"), "{text}");
        assert!(text.contains("- Change 0\n") && text.contains("- Change 9\n"));
    }

    #[test]
    fn a_short_body_shows_its_first_lines_a_long_one_none() {
        let mut short = commit("Fix the lexer", "Ada", &[]);
        short.body = "It read past the end.\n\nSigned-off-by: Ada <ada@example.com>".into();
        let mut long = commit("Rework the parser", "Ada", &[]);
        long.body = (0..10).map(|i| format!("line {i}\n")).collect();
        let text = render(&[&short, &long], 2);
        assert!(
            text.contains("- Fix the lexer\n  It read past the end.\n"),
            "{text}"
        );
        assert!(
            !text.contains("Signed-off-by") && !text.contains("line 0"),
            "{text}"
        );
    }

    #[test]
    fn a_history_of_only_bots_and_merges_says_so() {
        let mut merge = commit("Merge branch 'x'", "Ada", &[]);
        merge.parents = 2;
        let history = vec![merge, commit("chore(deps): bump", "renovate[bot]", &[])];
        let chosen = sample(&history, &[], None);
        assert!(chosen.is_empty());
        assert!(render(&chosen, history.len()).contains("only merges and automated commits"));
        assert!(render(&[], 0).contains("no commits yet"));
    }
}
