//! The README and the book stay inside the repository: every link in them names a file of the
//! repository that exists (and a heading of it, for `#anchor`), none leaves it (no `http://`,
//! no path above the root), and every chapter of `docs/` is in the book's SUMMARY.md.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The markdown files the front door and the book are made of, relative to the root.
pub(crate) fn pages() -> Vec<PathBuf> {
    let mut pages = vec![
        PathBuf::from("README.md"),
        PathBuf::from("CHANGELOG.md"),
        PathBuf::from("CONTRIBUTING.md"),
    ];
    let mut folders = vec![PathBuf::from("docs")];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(root().join(&folder)).expect("docs/ is readable");
        for entry in entries.flatten() {
            let path = folder.join(entry.file_name());
            // The pictures' folder is a link to assets/ (for the book's build), not pages.
            let file_type = entry.file_type().expect("a file type");
            if file_type.is_dir() {
                folders.push(path);
            } else if file_type.is_file() && path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// The text of `markdown` outside code: fenced blocks and inline code spans become blanks,
/// so what remains is what a reader sees as prose and links.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    let mut fence: Option<&str> = None;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if let Some(marker) = fence {
            if trimmed.starts_with(marker) {
                fence = None;
            }
            out.push('\n');
            continue;
        }
        if let Some(marker) = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m)) {
            fence = Some(marker);
            out.push('\n');
            continue;
        }
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
                out.push(' ');
            } else {
                out.push(if in_code { ' ' } else { c });
            }
        }
        out.push('\n');
    }
    out
}

/// Every link target in `prose`: `[text](target)`, `![alt](target)` and `[name]: target`.
fn targets(prose: &str) -> Vec<String> {
    let inline = regex::Regex::new(r#"\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)"#).expect("regex");
    let reference =
        regex::Regex::new(r"(?m)^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)").expect("regex");
    inline
        .captures_iter(prose)
        .chain(reference.captures_iter(prose))
        .map(|c| c[1].to_string())
        .collect()
}

/// A heading's anchor as mdBook and GitHub make it: lower case, the words joined by `-`,
/// punctuation dropped (inline code, emphasis and links reduced to their text first).
fn slug(heading: &str) -> String {
    let link = regex::Regex::new(r"\[([^\]]*)\]\([^)]*\)").expect("regex");
    let text = link.replace_all(heading, "$1");
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a markdown file's headings (a repeated heading's gets `-1`, `-2`, ...).
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut fence = false;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence || !line.starts_with('#') {
            continue;
        }
        let base = slug(line.trim_start_matches('#'));
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// `page`'s folder joined with `target`, `..` resolved; `None` when it climbs above the root.
fn resolve(page: &Path, target: &str) -> Option<PathBuf> {
    let mut path = PathBuf::new();
    let joined = page.parent().unwrap_or(Path::new("")).join(target);
    for component in joined.components() {
        match component {
            Component::Normal(part) => path.push(part),
            Component::ParentDir => {
                if !path.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(path)
}

/// What is wrong with each link of `page` (empty: nothing).
fn broken_links(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(page)).expect("a page is readable");
    let prose = prose(&text);
    let mut broken = Vec::new();
    // A bare address in prose is a link on GitHub, where the README is read.
    for word in prose.split_whitespace() {
        if word.contains("http://") || word.contains("https://") {
            broken.push(format!(
                "{}: an address outside the repository: {word}",
                page.display()
            ));
        }
    }
    for target in targets(&prose) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue; // already reported above, as an address in prose
        }
        let (file, anchor) = match target.split_once('#') {
            Some((file, anchor)) => (file, Some(anchor)),
            None => (target.as_str(), None),
        };
        let path = if file.is_empty() {
            Some(page.to_path_buf())
        } else {
            resolve(page, file)
        };
        let Some(path) = path else {
            broken.push(format!(
                "{}: `{target}` leaves the repository",
                page.display()
            ));
            continue;
        };
        let full = root().join(&path);
        if !full.exists() {
            broken.push(format!("{}: `{target}`: no such file", page.display()));
            continue;
        }
        if let Some(anchor) = anchor.filter(|_| path.extension().is_some_and(|e| e == "md")) {
            let headings = anchors(&std::fs::read_to_string(&full).expect("a linked page"));
            if !headings.contains(anchor) {
                broken.push(format!(
                    "{}: `{target}`: {} has no heading `#{anchor}`",
                    page.display(),
                    path.display()
                ));
            }
        }
    }
    broken
}

#[test]
fn links_stay_inside_the_repository_and_name_what_exists() {
    let broken: Vec<String> = pages().iter().flat_map(|p| broken_links(p)).collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_chapter_is_in_the_books_summary() {
    let summary = std::fs::read_to_string(root().join("docs/SUMMARY.md")).expect("SUMMARY.md");
    let listed: BTreeSet<PathBuf> = targets(&prose(&summary))
        .iter()
        .map(|t| Path::new("docs").join(t))
        .collect();
    let chapters: BTreeSet<PathBuf> = pages()
        .into_iter()
        .filter(|p| p.starts_with("docs") && p != Path::new("docs/SUMMARY.md"))
        .collect();
    let missing: Vec<_> = chapters.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "pages of docs/ the book leaves out: {missing:?}"
    );
}

#[test]
fn the_checks_find_what_they_look_for() {
    let text = "See [a](https://example.com), [b](../../x.md) and `[c](nowhere.md)`.\n\
                ```\n[d](inside-code.md)\n```\n[e]: other.md#part\n";
    let found = targets(&prose(text));
    assert_eq!(
        found,
        ["https://example.com", "../../x.md", "other.md#part"]
    );
    assert_eq!(resolve(Path::new("docs/a.md"), "../../x.md"), None);
    assert_eq!(
        resolve(Path::new("docs/a.md"), "../README.md"),
        Some(PathBuf::from("README.md"))
    );
    assert_eq!(
        slug(" Splitting a tangled change into commits: `iris split`"),
        "splitting-a-tangled-change-into-commits-iris-split"
    );
    assert_eq!(slug(" Iris' tools"), "iris-tools");
    let twice = anchors("# Notes\n\n## Notes\n```\n# not a heading\n```\n");
    assert_eq!(
        twice,
        BTreeSet::from(["notes".to_string(), "notes-1".to_string()])
    );
}
