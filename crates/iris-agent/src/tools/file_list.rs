//! `file_list`: the entries of one directory of the repository, like `ls -l` without the noise.

use iris_studio_core::protocol::Risk;
use std::cmp::Ordering;
use std::fmt::Write;
use std::sync::Mutex;

use schemars::JsonSchema;
use serde::Deserialize;

use super::{IrisTool, ToolContext, ToolFailure, blocking, bound_output};
use iris_studio_workspace::{Boundary, WorkspacePath};

/// Entries shown in one call at most.
const MAX_ENTRIES: usize = 500;
/// Characters of the answer at most (500 very long names would be a lot).
const MAX_CHARS: usize = 40_000;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FileListArgs {
    /// The directory, relative to the repository root; "" or "." is the root itself.
    #[serde(default)]
    pub path: String,
}

pub struct FileList;

impl IrisTool for FileList {
    const NAME: &'static str = "file_list";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Lists one directory of the repository (path relative to \
        its root; \"\" or \".\" is the root): each entry's type (dir, file, symlink) and a file's \
        size in bytes, directories first, then by name. Files ignored by .gitignore and .git are \
        left out (the answer says how many were). Use it to see what a directory holds; to find \
        files by name anywhere use file_search, to see what the code defines use repo_map, to \
        read a file use file_read.";
    type Args = FileListArgs;

    async fn run(&self, ctx: &ToolContext, args: FileListArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

/// What an entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Dir,
    File {
        bytes: u64,
    },
    /// Where the link leads, as the model should name it, or why a tool will not follow it.
    Symlink(Result<String, &'static str>),
    /// A FIFO, socket or device.
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    name: String,
    kind: Kind,
}

impl FileList {
    fn run_blocking(ctx: &ToolContext, args: FileListArgs) -> Result<String, ToolFailure> {
        let boundary = Boundary::open(&ctx.repo_root)?;
        let dir = boundary.existing_dir(
            &args.path,
            "file_list takes a directory relative to the repository root; \"\" is the root; \
             file_search finds files by name",
        )?;
        let (entries, ignored) = list(&boundary, &dir)?;
        Ok(bound_output(
            render(&dir.relative, entries, ignored),
            MAX_CHARS,
            "list a subdirectory, or use file_search with a pattern, to see fewer entries",
        ))
    }
}

/// The directory's entries the walk keeps, sorted, and how many it left out as ignored.
fn list(boundary: &Boundary, dir: &WorkspacePath) -> Result<(Vec<Entry>, usize), ToolFailure> {
    let cannot =
        |e: std::io::Error| ToolFailure::new(format!("cannot list '{}': {e}", dir.relative));
    let mut all = 0usize;
    for entry in std::fs::read_dir(&dir.absolute).map_err(cannot)? {
        if entry.map_err(cannot)?.file_name() != ".git" {
            all += 1;
        }
    }
    let kept = Mutex::new(Vec::new());
    let reached = boundary.par_entries_under(
        &dir.absolute,
        Some(1),
        || (),
        |(), entry, _relative| {
            let Some(file_type) = entry.file_type() else {
                return;
            };
            let kind = if file_type.is_symlink() {
                Kind::Symlink(boundary.link_target(entry.path()))
            } else if file_type.is_dir() {
                Kind::Dir
            } else if file_type.is_file() {
                let bytes = entry.metadata().map_or(0, |m| m.len());
                Kind::File { bytes }
            } else {
                Kind::Other
            };
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Ok(mut kept) = kept.lock() {
                kept.push(Entry { name, kind });
            }
        },
    );
    if !reached {
        return Err(ToolFailure::new(format!(
            "'{}' is ignored by .gitignore (or lies in an ignored directory), so its entries are \
             not listed; it is likely build output or dependencies",
            dir.relative
        )));
    }
    let mut entries = kept
        .into_inner()
        .map_err(|_| ToolFailure::new("the listing stopped unexpectedly"))?;
    entries.sort_by(order);
    let ignored = all.saturating_sub(entries.len());
    Ok((entries, ignored))
}

/// Directories first, then everything else, each by name.
fn order(a: &Entry, b: &Entry) -> Ordering {
    let is_dir = |e: &Entry| e.kind == Kind::Dir;
    is_dir(b).cmp(&is_dir(a)).then_with(|| a.name.cmp(&b.name))
}

/// The answer: a header with the counts, one line per entry, and what was left out.
fn render(relative: &str, entries: Vec<Entry>, ignored: usize) -> String {
    let shown_name = if relative.is_empty() {
        "./ (the repository root)".to_string()
    } else {
        format!("{relative}/")
    };
    let count = |kind: fn(&Kind) -> bool| entries.iter().filter(|e| kind(&e.kind)).count();
    let counts = [
        (count(|k| *k == Kind::Dir), "directory", "directories"),
        (count(|k| matches!(k, Kind::File { .. })), "file", "files"),
        (
            count(|k| matches!(k, Kind::Symlink(_))),
            "symlink",
            "symlinks",
        ),
        (count(|k| *k == Kind::Other), "other entry", "other entries"),
    ];
    let counts: Vec<String> = counts
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| format!("{n} {}", if *n == 1 { one } else { many }))
        .collect();
    let ignored_note = match ignored {
        0 => String::new(),
        1 => "; 1 entry ignored by .gitignore not shown".to_string(),
        n => format!("; {n} entries ignored by .gitignore not shown"),
    };
    let mut out = if counts.is_empty() {
        format!("{shown_name}: no entries{ignored_note}\n")
    } else {
        format!("{shown_name}: {}{ignored_note}\n", counts.join(", "))
    };
    let total = entries.len();
    for entry in entries.into_iter().take(MAX_ENTRIES) {
        let _ = match entry.kind {
            Kind::Dir => writeln!(out, "dir      {}/", entry.name),
            Kind::File { bytes: 1 } => writeln!(out, "file     {}  1 byte", entry.name),
            Kind::File { bytes } => writeln!(out, "file     {}  {bytes} bytes", entry.name),
            Kind::Symlink(Ok(target)) => writeln!(out, "symlink  {} -> {target}", entry.name),
            Kind::Symlink(Err(why)) => writeln!(out, "symlink  {} ({why})", entry.name),
            Kind::Other => writeln!(out, "other    {} (not a regular file)", entry.name),
        };
    }
    if total > MAX_ENTRIES {
        let _ = writeln!(
            out,
            "[{} more entries not shown (at most {MAX_ENTRIES} per call); list a subdirectory, or \
             use file_search with a pattern, to narrow]",
            total - MAX_ENTRIES
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, kind: Kind) -> Entry {
        Entry {
            name: name.into(),
            kind,
        }
    }

    #[test]
    fn directories_come_first_then_the_rest_by_name() {
        let mut entries = [
            entry("b.rs", Kind::File { bytes: 2 }),
            entry("zeta", Kind::Dir),
            entry("a.rs", Kind::File { bytes: 1 }),
            entry("alias", Kind::Symlink(Ok("a.rs".into()))),
            entry("alpha", Kind::Dir),
        ];
        entries.sort_by(order);
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["alpha", "zeta", "a.rs", "alias", "b.rs"]);
    }

    #[test]
    fn each_entry_shows_its_type_and_a_file_its_size() {
        let out = render(
            "src",
            vec![
                entry("agent", Kind::Dir),
                entry("lib.rs", Kind::File { bytes: 1234 }),
                entry("alias.rs", Kind::Symlink(Ok("src/lib.rs".into()))),
                entry("out", Kind::Symlink(Err("it leads outside the repository"))),
                entry("pipe", Kind::Other),
            ],
            2,
        );
        assert_eq!(
            out,
            "src/: 1 directory, 1 file, 2 symlinks, 1 other entry; 2 entries ignored by \
             .gitignore not shown\n\
             dir      agent/\n\
             file     lib.rs  1234 bytes\n\
             symlink  alias.rs -> src/lib.rs\n\
             symlink  out (it leads outside the repository)\n\
             other    pipe (not a regular file)\n"
        );
        assert_eq!(
            render("", vec![], 1),
            "./ (the repository root): no entries; 1 entry ignored by .gitignore not shown\n"
        );
    }

    #[test]
    fn a_long_directory_is_cut_at_the_bound_with_the_count_left_out() {
        let entries: Vec<Entry> = (0..MAX_ENTRIES + 7)
            .map(|i| entry(&format!("f{i:04}"), Kind::File { bytes: 1 }))
            .collect();
        let out = render("big", entries, 0);
        assert!(out.starts_with("big/: 507 files\n"), "{}", &out[..40]);
        assert_eq!(out.lines().filter(|l| l.starts_with("file ")).count(), 500);
        assert!(out.contains("file     f0499  1 byte\n"));
        assert!(!out.contains("f0500"));
        assert!(out.ends_with(
            "[7 more entries not shown (at most 500 per call); list a subdirectory, or use \
             file_search with a pattern, to narrow]\n"
        ));
    }
}
