//! Where a repository keeps its pull request templates, which one is used, and its text, read within bounds.
//!
//! The places looked in, in order (file and directory names in any case, `.md` or `.txt`):
//! 1. one template: `.github/pull_request_template.md`, `pull_request_template.md` at the
//!    root, `docs/pull_request_template.md`;
//! 2. a directory of several: `.github/PULL_REQUEST_TEMPLATE/*`, `PULL_REQUEST_TEMPLATE/*`,
//!    `docs/PULL_REQUEST_TEMPLATE/*`, each in name order;
//! 3. GitLab's `.gitlab/merge_request_templates/*.md`, in name order.
//!
//! Without a name the default is the first single template (what GitHub fills a new pull
//! request with), else a directory's `default` (GitLab's `Default.md`) or
//! `pull_request_template`; among other templates of a directory none is picked (GitHub uses
//! them only when named), and the caller says which `--template` names.

use std::io::Read;
use std::path::{Path, PathBuf};

use iris_studio_core::paths::{Escape, escape_of};
use iris_studio_core::pr_template::{Template, TemplateError};

/// The largest template read; a bigger one is refused (with a warning, by the caller).
pub const MAX_TEMPLATE_BYTES: u64 = 20 * 1024;

/// The most entries of one directory read (a bound against a pathological directory; the
/// root of a large repository has far fewer).
const MAX_ENTRIES: usize = 100_000;

/// The most templates of one directory offered.
const MAX_TEMPLATES: usize = 200;

/// Where single templates are looked for, in order ("" is the root).
const SINGLE_DIRS: [&str; 3] = [".github", "", "docs"];

/// GitLab's merge request templates.
const GITLAB_DIR: &str = ".gitlab/merge_request_templates";

/// A template the repository has: its path from the root (`/`-separated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateFile {
    /// From the repository's root, `/`-separated.
    pub path: String,
    /// One of several in a directory (not the single default template).
    pub in_directory: bool,
}

impl TemplateFile {
    /// The repository's single default template at `path`.
    pub fn single(path: &str) -> Self {
        Self {
            path: path.to_string(),
            in_directory: false,
        }
    }

    /// One of several templates in a directory, at `path`.
    pub fn listed(path: &str) -> Self {
        Self {
            path: path.to_string(),
            in_directory: true,
        }
    }

    /// Its file name.
    pub fn file_name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }

    /// The name `--template` knows it by: the file name without its extension.
    pub fn name(&self) -> &str {
        let file = self.file_name();
        file.rsplit_once('.').map_or(file, |(stem, _)| stem)
    }

    /// Whether `name` names it: its name, file name or path, in any case.
    fn answers_to(&self, name: &str) -> bool {
        let name = name.trim().trim_start_matches("./");
        [self.name(), self.file_name(), self.path.as_str()]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name))
    }
}

/// The template to use among `found` (in lookup order): the one `name` names, or the
/// default (see the module's documentation). `None` when there is none and none was named.
pub fn choose<'a>(
    found: &'a [TemplateFile],
    name: Option<&str>,
) -> Result<Option<&'a TemplateFile>, TemplateError> {
    let known = || {
        found
            .iter()
            .map(|c| format!("{} ({})", c.name(), c.path))
            .collect()
    };
    if let Some(name) = name {
        return found
            .iter()
            .find(|c| c.answers_to(name))
            .map(Some)
            .ok_or_else(|| TemplateError::Unknown {
                name: name.to_string(),
                known: known(),
            });
    }
    // GitHub fills a new pull request only with a single template; one of a directory only
    // when it is named. A directory's `default` (GitLab's Default.md) is the exception.
    let default = found.iter().find(|c| !c.in_directory).or_else(|| {
        found.iter().find(|c| {
            let name = c.name().to_ascii_lowercase();
            name == "default" || name == "pull_request_template"
        })
    });
    match default {
        None if !found.is_empty() => Err(TemplateError::NoDefault { known: known() }),
        default => Ok(default),
    }
}

/// The templates of the repository at `root`, in lookup order.
pub fn candidates(root: &Path) -> Vec<TemplateFile> {
    let mut found = Vec::new();
    for dir in SINGLE_DIRS {
        for (name, path) in entries(&root.join(dir)) {
            let lower = name.to_ascii_lowercase();
            if matches!(
                lower.as_str(),
                "pull_request_template.md" | "pull_request_template.txt"
            ) && path.is_file()
            {
                found.push(TemplateFile::single(&relative(dir, &name)));
            }
        }
    }
    for dir in SINGLE_DIRS {
        for (name, path) in entries(&root.join(dir)) {
            if name.eq_ignore_ascii_case("pull_request_template") && path.is_dir() {
                let sub = relative(dir, &name);
                found.extend(
                    templates_in(&path, &["md", "txt"])
                        .map(|file| TemplateFile::listed(&relative(&sub, &file))),
                );
            }
        }
    }
    found.extend(
        templates_in(&root.join(GITLAB_DIR), &["md"])
            .map(|file| TemplateFile::listed(&relative(GITLAB_DIR, &file))),
    );
    found
}

/// `dir/name`, or `name` at the root.
fn relative(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The names of the files in `dir` with one of `extensions` (in any case).
fn templates_in<'a>(dir: &Path, extensions: &'a [&str]) -> impl Iterator<Item = String> + 'a {
    entries(dir)
        .into_iter()
        .filter_map(move |(name, path)| {
            let (_, ext) = name.rsplit_once('.')?;
            let wanted = extensions.iter().any(|e| e.eq_ignore_ascii_case(ext));
            (wanted && path.is_file()).then_some(name)
        })
        .take(MAX_TEMPLATES)
}

/// The entries of `dir` with UTF-8 names, in name order (case aside; all of them are read
/// before sorting, so which are found does not depend on the file system's order, up to
/// [`MAX_ENTRIES`]); none when it cannot be read.
fn entries(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(String, PathBuf)> = read
        .take(MAX_ENTRIES)
        .filter_map(Result::ok)
        .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
        .collect();
    out.sort_by_key(|(name, _)| (name.to_lowercase(), name.clone()));
    out
}

/// What [`find`] found: the template and how many the repository has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The template chosen: where it is and its text.
    pub template: Template,
    /// How many templates the repository has in all.
    pub of: usize,
}

/// The repository's template named `name`, or its default: `None` when it has none (or
/// the one found is blank). A name it does not have is an error listing those it has; a
/// template that cannot be read (too big, not UTF-8, a link out of the repository) is an
/// error the caller turns into a warning.
pub fn find(root: &Path, name: Option<&str>) -> Result<Option<Found>, TemplateError> {
    let found = candidates(root);
    let Some(chosen) = choose(&found, name)? else {
        return Ok(None);
    };
    let text = read_bounded(root, &chosen.path)?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    Ok(Some(Found {
        template: Template {
            source: chosen.path.clone(),
            text,
        },
        of: found.len(),
    }))
}

/// The text of the template at `path` (from `root`), its line endings made `\n` and a
/// byte order mark dropped; refused past [`MAX_TEMPLATE_BYTES`] (without reading it all),
/// when it is not UTF-8, or when it is a link that leads out of the repository.
fn read_bounded(root: &Path, path: &str) -> Result<String, TemplateError> {
    let refuse = |why: String| TemplateError::Unreadable {
        path: path.to_string(),
        why,
    };
    let full = root.join(path);
    let real = full.canonicalize().map_err(|e| refuse(e.to_string()))?;
    let real_root = root.canonicalize().map_err(|e| refuse(e.to_string()))?;
    match escape_of(&real_root, &real) {
        Some(Escape::Outside) => {
            return Err(refuse(
                "it is a link to a file outside the repository".into(),
            ));
        }
        Some(Escape::GitData) => {
            return Err(refuse("it is a link into .git, git's own data".into()));
        }
        None => {}
    }
    let too_big = || {
        refuse(format!(
            "it is larger than the {} KB a template may be",
            MAX_TEMPLATE_BYTES / 1024
        ))
    };
    let file = std::fs::File::open(&real).map_err(|e| refuse(e.to_string()))?;
    if file.metadata().is_ok_and(|m| m.len() > MAX_TEMPLATE_BYTES) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    file.take(MAX_TEMPLATE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refuse(e.to_string()))?;
    if bytes.len() as u64 > MAX_TEMPLATE_BYTES {
        return Err(too_big());
    }
    let text = String::from_utf8(bytes).map_err(|_| refuse("it is not UTF-8 text".into()))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    Ok(text.replace("\r\n", "\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(files: &[(&str, &[u8])]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("dirs");
            std::fs::write(path, text).expect("write");
        }
        dir
    }

    fn paths(root: &Path) -> Vec<String> {
        candidates(root).into_iter().map(|c| c.path).collect()
    }

    fn default_of(root: &Path) -> Option<String> {
        find(root, None).expect("found").map(|f| f.template.source)
    }

    #[test]
    fn a_crowded_directory_is_read_whole_before_it_is_sorted() {
        let mut files: Vec<(String, &[u8])> = (0..300)
            .map(|i| (format!("docs/page-{i:03}.md"), &b"x"[..]))
            .collect();
        files.push(("docs/pull_request_template.md".to_string(), b"docs"));
        let borrowed: Vec<(&str, &[u8])> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
        let dir = repo(&borrowed);
        assert_eq!(
            default_of(dir.path()).as_deref(),
            Some("docs/pull_request_template.md")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_into_git_data_is_refused() {
        let dir = repo(&[(
            ".git/config",
            b"[remote \"origin\"]\nurl = https://token@x\n",
        )]);
        std::fs::create_dir_all(dir.path().join(".github")).expect("dir");
        std::os::unix::fs::symlink(
            "../.git/config",
            dir.path().join(".github/pull_request_template.md"),
        )
        .expect("link");
        let err = find(dir.path(), None).expect_err("refused");
        assert!(err.to_string().contains("a link into .git"), "{err}");
    }

    #[test]
    fn every_location_is_found_in_lookup_order() {
        let dir = repo(&[
            ("docs/pull_request_template.md", b"docs"),
            ("PULL_REQUEST_TEMPLATE.md", b"root"),
            (".github/Pull_Request_Template.txt", b"github"),
            (".github/PULL_REQUEST_TEMPLATE/feature.md", b"feature"),
            (".github/PULL_REQUEST_TEMPLATE/Bug.md", b"bug"),
            (".github/PULL_REQUEST_TEMPLATE/notes.json", b"{}"),
            ("pull_request_template/root.md", b"root dir"),
            ("docs/PULL_REQUEST_TEMPLATE/docs.md", b"docs dir"),
            (".gitlab/merge_request_templates/Default.md", b"gitlab"),
            (".gitlab/merge_request_templates/a.txt", b"not gitlab's"),
            ("src/pull_request_template.md", b"not a place"),
        ]);
        assert_eq!(
            paths(dir.path()),
            vec![
                ".github/Pull_Request_Template.txt",
                "PULL_REQUEST_TEMPLATE.md",
                "docs/pull_request_template.md",
                ".github/PULL_REQUEST_TEMPLATE/Bug.md",
                ".github/PULL_REQUEST_TEMPLATE/feature.md",
                "pull_request_template/root.md",
                "docs/PULL_REQUEST_TEMPLATE/docs.md",
                ".gitlab/merge_request_templates/Default.md",
            ]
        );
        let found = find(dir.path(), None).expect("read").expect("a template");
        assert_eq!(found.template.source, ".github/Pull_Request_Template.txt");
        assert_eq!(found.template.text, "github");
        assert_eq!(found.of, 8);
    }

    #[test]
    fn a_single_template_wins_in_each_place_in_turn() {
        let dir = repo(&[
            ("docs/pull_request_template.md", b"docs"),
            (".github/PULL_REQUEST_TEMPLATE/a.md", b"a"),
        ]);
        assert_eq!(
            default_of(dir.path()).as_deref(),
            Some("docs/pull_request_template.md")
        );
        std::fs::write(dir.path().join("pull_request_template.md"), "root").expect("write");
        assert_eq!(
            default_of(dir.path()).as_deref(),
            Some("pull_request_template.md")
        );
        std::fs::create_dir_all(dir.path().join(".github")).expect("dir");
        std::fs::write(dir.path().join(".github/pull_request_template.md"), "gh").expect("w");
        assert_eq!(
            default_of(dir.path()).as_deref(),
            Some(".github/pull_request_template.md")
        );
    }

    #[test]
    fn among_several_the_default_is_named_default_else_none_is_picked() {
        let dir = repo(&[
            (".github/PULL_REQUEST_TEMPLATE/bug.md", b"bug"),
            (".github/PULL_REQUEST_TEMPLATE/feature.md", b"feature"),
        ]);
        let err = find(dir.path(), None).expect_err("no default");
        assert_eq!(
            err.to_string(),
            "the repository has several pull request templates and no default (bug \
             (.github/PULL_REQUEST_TEMPLATE/bug.md), feature \
             (.github/PULL_REQUEST_TEMPLATE/feature.md)): `iris pr --template NAME` picks one"
        );
        let gitlab = repo(&[
            (".gitlab/merge_request_templates/Bug.md", b"bug"),
            (".gitlab/merge_request_templates/Default.md", b"default"),
        ]);
        let found = find(gitlab.path(), None).expect("read").expect("one");
        assert_eq!(
            found.template.source,
            ".gitlab/merge_request_templates/Default.md"
        );
        assert_eq!((found.template.text.as_str(), found.of), ("default", 2));
    }

    #[test]
    fn a_name_picks_by_name_file_name_or_path_and_an_unknown_one_lists_them() {
        let found = vec![
            TemplateFile::single(".github/pull_request_template.md"),
            TemplateFile::listed(".github/PULL_REQUEST_TEMPLATE/bug.md"),
            TemplateFile::listed(".github/PULL_REQUEST_TEMPLATE/feature.md"),
        ];
        for name in [
            "feature",
            "Feature.md",
            ".github/PULL_REQUEST_TEMPLATE/feature.md",
        ] {
            assert_eq!(
                choose(&found, Some(name)).expect("known"),
                Some(&found[2]),
                "{name}"
            );
        }
        assert_eq!(
            choose(&found, Some("pull_request_template")).expect("known"),
            Some(&found[0])
        );
        let err = choose(&found, Some("docs")).expect_err("unknown");
        assert_eq!(
            err.to_string(),
            "no pull request template named `docs`; the repository's templates: \
             pull_request_template (.github/pull_request_template.md), bug \
             (.github/PULL_REQUEST_TEMPLATE/bug.md), feature \
             (.github/PULL_REQUEST_TEMPLATE/feature.md)"
        );
        let err = choose(&[], Some("docs")).expect_err("unknown");
        assert!(
            err.to_string()
                .starts_with("no pull request template named `docs`: the repository has none"),
            "{err}"
        );
        assert_eq!(choose(&[], None).expect("fine"), None);
    }

    #[test]
    fn big_binary_and_blank_templates_are_not_read() {
        let big = vec![b'a'; MAX_TEMPLATE_BYTES as usize + 1];
        let dir = repo(&[(".github/pull_request_template.md", &big)]);
        let err = find(dir.path(), None).expect_err("too big");
        assert_eq!(
            err.to_string(),
            ".github/pull_request_template.md: it is larger than the 20 KB a template may be"
        );
        let exact = vec![b'a'; MAX_TEMPLATE_BYTES as usize];
        let dir = repo(&[(".github/pull_request_template.md", &exact)]);
        assert!(find(dir.path(), None).expect("read").is_some());

        let dir = repo(&[("pull_request_template.md", b"## R\xe9sum\xe9\n")]);
        let err = find(dir.path(), None).expect_err("not UTF-8");
        assert!(err.to_string().ends_with("it is not UTF-8 text"), "{err}");

        let dir = repo(&[("pull_request_template.md", b" \n\n")]);
        assert_eq!(find(dir.path(), None).expect("read"), None);

        let dir = repo(&[(
            "docs/pull_request_template.md",
            b"\xef\xbb\xbf## A\r\n- [ ] b\r\n",
        )]);
        let found = find(dir.path(), None).expect("read").expect("one");
        assert_eq!(found.template.text, "## A\n- [ ] b\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_repository_is_refused() {
        let outside = repo(&[("secret.md", b"## Not yours")]);
        let dir = repo(&[]);
        std::fs::create_dir_all(dir.path().join(".github")).expect("dir");
        std::os::unix::fs::symlink(
            outside.path().join("secret.md"),
            dir.path().join(".github/pull_request_template.md"),
        )
        .expect("link");
        let err = find(dir.path(), None).expect_err("refused");
        assert!(err.to_string().contains("outside the repository"), "{err}");
    }
}
