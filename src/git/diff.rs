//! Diffs: staged, unstaged, working tree, ranges and single commits, as unified text or parsed.

use std::fmt::Write as _;

use git2::{Delta, Diff, DiffDelta, DiffFile, DiffFindOptions, DiffOptions, FileMode, Patch, Tree};
use serde::Serialize;

use super::{GitError, GitRepo, Result, check_relative_path, lossy};
use crate::context::{ChangeKind, FileDiff, parse_unified_diff};

/// Blobs above this size are reported as binary instead of being diffed line by line,
/// so a huge file never lands whole in memory, in a prompt or on screen.
pub const MAX_DIFF_BLOB_BYTES: u64 = 2 * 1024 * 1024;

/// What to compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffTarget {
    /// The index against HEAD (`git diff --cached`).
    Staged,
    /// The working tree against the index (`git diff`).
    Unstaged,
    /// The working tree and index against HEAD (`git diff HEAD`).
    WorkingTree,
    /// `from..to` (`git diff from to`).
    Range { from: String, to: String },
    /// One commit against its first parent (the empty tree for a root commit).
    Commit(String),
}

/// One entry of `git diff --name-status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangedFile {
    pub path: String,
    pub old_path: Option<String>,
    pub kind: ChangeKind,
    /// A conflicted (unmerged) entry in the middle of a merge.
    pub conflicted: bool,
}

impl GitRepo {
    /// The unified diff text for `target`, limited to `paths` when any are given.
    pub fn diff_text(&self, target: &DiffTarget, paths: &[String]) -> Result<String> {
        let mut out = String::new();
        self.for_each_file_patch(target, paths, |text| out.push_str(text))?;
        Ok(out)
    }

    /// The diff for `target`, parsed into files, hunks and lines. Each file is parsed as soon
    /// as it is written, so the whole text of a huge change never sits in memory.
    pub fn diff_files(&self, target: &DiffTarget, paths: &[String]) -> Result<Vec<FileDiff>> {
        let mut files = Vec::new();
        self.for_each_file_patch(target, paths, |text| {
            files.extend(parse_unified_diff(text));
        })?;
        Ok(files)
    }

    /// Hands the unified diff of each changed file, in git's format, to `sink`.
    ///
    /// libgit2 finds the changed files; the patches are made here from the two sides' bytes,
    /// because libgit2's own patch printing resolves `.gitattributes` for every file (a dozen
    /// system calls per file) and would make a large diff several times slower than git.
    fn for_each_file_patch(
        &self,
        target: &DiffTarget,
        paths: &[String],
        mut sink: impl FnMut(&str),
    ) -> Result<()> {
        let diff = self.diff(target, paths)?;
        let workdir = matches!(target, DiffTarget::Unstaged | DiffTarget::WorkingTree);
        let mut text = String::new();
        for delta in diff.deltas() {
            text.clear();
            self.write_file_patch(&delta, workdir, &mut text)?;
            sink(&text);
        }
        Ok(())
    }

    /// Writes one file's patch; `workdir` says the new side may be a working-tree file.
    fn write_file_patch(
        &self,
        delta: &DiffDelta<'_>,
        workdir: bool,
        out: &mut String,
    ) -> Result<()> {
        let (old, new) = (delta.old_file(), delta.new_file());
        let old_raw = old.path_bytes().or(new.path_bytes()).unwrap_or_default();
        let new_raw = new.path_bytes().or(old.path_bytes()).unwrap_or_default();
        let (old_path, new_path) = (quote_path(old_raw), quote_path(new_raw));
        let a = quote_path(&[b"a/", old_raw].concat());
        let b = quote_path(&[b"b/", new_raw].concat());
        let _ = writeln!(out, "diff --git {a} {b}");
        let (old_mode, new_mode) = (mode_bits(old.mode()), mode_bits(new.mode()));
        match delta.status() {
            Delta::Added | Delta::Untracked => {
                let _ = writeln!(out, "new file mode {new_mode:o}");
            }
            Delta::Deleted => {
                let _ = writeln!(out, "deleted file mode {old_mode:o}");
            }
            Delta::Renamed | Delta::Copied => {
                let verb = if delta.status() == Delta::Renamed {
                    "rename"
                } else {
                    "copy"
                };
                if old_mode != new_mode {
                    let _ = writeln!(out, "old mode {old_mode:o}\nnew mode {new_mode:o}");
                }
                let _ = writeln!(out, "{verb} from {old_path}\n{verb} to {new_path}");
            }
            Delta::Conflicted => {
                // git prints nothing but this line for an unmerged path.
                let _ = writeln!(out, "* Unmerged path {new_path}");
                return Ok(());
            }
            _ if old_mode != new_mode => {
                let _ = writeln!(out, "old mode {old_mode:o}\nnew mode {new_mode:o}");
            }
            _ => {}
        }
        let old_side = self.side(&old, false)?;
        let new_side = self.side(&new, workdir)?;
        let (a, b) = match delta.status() {
            Delta::Added | Delta::Untracked => ("/dev/null".to_string(), b),
            Delta::Deleted => (a, "/dev/null".to_string()),
            _ => (a, b),
        };
        if matches!(old_side, Side::Binary) || matches!(new_side, Side::Binary) {
            let _ = writeln!(out, "Binary files {a} and {b} differ");
            return Ok(());
        }
        let (before, after) = (old_side.bytes(), new_side.bytes());
        if before == after {
            return Ok(()); // a pure rename or mode change
        }
        // git ends a ---/+++ name that holds a space with a tab, so the name's end is clear.
        let tab = |name: &str| if name.contains(' ') { "\t" } else { "" };
        let _ = writeln!(out, "--- {a}{}\n+++ {b}{}", tab(&a), tab(&b));
        if before.is_empty() {
            // A new file: every line is added; no diff algorithm needed (nor for deletions).
            write_whole(after, '+', out);
        } else if after.is_empty() {
            write_whole(before, '-', out);
        } else {
            // From buffers, not blobs: with blobs libgit2 resolves `.gitattributes` per file.
            write_hunks(&Patch::from_buffers(before, None, after, None, None)?, out)?;
        }
        Ok(())
    }

    /// One side of a change: a blob, bytes from the working tree or made up (a submodule is
    /// its `Subproject commit` line, as in git; an absent side is empty), or `Binary` when it is
    /// binary or too large to diff line by line.
    fn side(&self, file: &DiffFile<'_>, workdir: bool) -> Result<Side<'_>> {
        if !file.exists() {
            return Ok(Side::Bytes(Vec::new()));
        }
        if file.mode() == FileMode::Commit {
            return Ok(Side::Bytes(
                format!("Subproject commit {}\n", file.id()).into_bytes(),
            ));
        }
        if file.id().is_zero() || (workdir && !self.in_odb(file.id())) {
            return self.workdir_side(file);
        }
        let blob = self.repo.find_blob(file.id())?;
        Ok(
            if blob.size() as u64 > MAX_DIFF_BLOB_BYTES || looks_binary(blob.content()) {
                Side::Binary
            } else {
                Side::Blob(blob)
            },
        )
    }

    /// A working-tree file libgit2 did not hash, read from disk (a symbolic link is its target).
    fn workdir_side(&self, file: &DiffFile<'_>) -> Result<Side<'_>> {
        let Some(path) = file.path() else {
            return Ok(Side::Bytes(Vec::new()));
        };
        let full = self.root().join(path);
        let meta = std::fs::symlink_metadata(&full).map_err(io_error)?;
        let bytes = if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&full).map_err(io_error)?;
            target.to_string_lossy().into_owned().into_bytes()
        } else if meta.len() > MAX_DIFF_BLOB_BYTES {
            return Ok(Side::Binary);
        } else {
            std::fs::read(&full).map_err(io_error)?
        };
        Ok(if looks_binary(&bytes) {
            Side::Binary
        } else {
            Side::Bytes(bytes)
        })
    }

    fn in_odb(&self, id: git2::Oid) -> bool {
        self.repo.odb().is_ok_and(|odb| odb.exists(id))
    }

    /// The files `target` changes, without their content (`git diff --name-status`).
    pub fn changed_files(&self, target: &DiffTarget) -> Result<Vec<ChangedFile>> {
        let diff = self.diff(target, &[])?;
        Ok(diff
            .deltas()
            .filter_map(|delta| {
                let new = delta.new_file().path_bytes().map(lossy);
                let old = delta.old_file().path_bytes().map(lossy);
                let (kind, conflicted) = match delta.status() {
                    Delta::Added | Delta::Untracked => (ChangeKind::Added, false),
                    Delta::Deleted => (ChangeKind::Deleted, false),
                    Delta::Renamed => (ChangeKind::Renamed, false),
                    Delta::Copied => (ChangeKind::Copied, false),
                    Delta::Typechange => (ChangeKind::TypeChanged, false),
                    Delta::Conflicted => (ChangeKind::Modified, true),
                    Delta::Modified => (ChangeKind::Modified, false),
                    Delta::Unmodified | Delta::Ignored | Delta::Unreadable => return None,
                };
                let path = match kind {
                    ChangeKind::Deleted => old.clone().or(new)?,
                    _ => new.clone().or(old.clone())?,
                };
                let old_path = matches!(kind, ChangeKind::Renamed | ChangeKind::Copied)
                    .then_some(old)
                    .flatten();
                Some(ChangedFile {
                    path,
                    old_path,
                    kind,
                    conflicted,
                })
            })
            .collect())
    }

    pub(super) fn diff(&self, target: &DiffTarget, paths: &[String]) -> Result<Diff<'_>> {
        let mut opts = DiffOptions::new();
        opts.max_size(MAX_DIFF_BLOB_BYTES as i64)
            .ignore_submodules(false)
            .include_typechange(true);
        for path in paths {
            let clean = check_relative_path(path)?;
            opts.pathspec(clean.to_string_lossy().as_ref());
        }
        let repo = &self.repo;
        let mut diff = match target {
            DiffTarget::Staged => {
                let head = self.head_tree()?;
                repo.diff_tree_to_index(head.as_ref(), None, Some(&mut opts))?
            }
            DiffTarget::Unstaged => repo.diff_index_to_workdir(None, Some(&mut opts))?,
            DiffTarget::WorkingTree => {
                let head = self.head_tree()?;
                repo.diff_tree_to_workdir_with_index(head.as_ref(), Some(&mut opts))?
            }
            DiffTarget::Range { from, to } => {
                let old = self.resolve_commit(from)?.tree()?;
                let new = self.resolve_commit(to)?.tree()?;
                repo.diff_tree_to_tree(Some(&old), Some(&new), Some(&mut opts))?
            }
            DiffTarget::Commit(rev) => {
                let commit = self.resolve_commit(rev)?;
                let parent = match commit.parent_count() {
                    0 => None,
                    _ => Some(commit.parent(0)?.tree()?),
                };
                repo.diff_tree_to_tree(parent.as_ref(), Some(&commit.tree()?), Some(&mut opts))?
            }
        };
        // git detects renames by default (diff.renames); libgit2 only when asked.
        let mut find = DiffFindOptions::new();
        find.renames(true);
        diff.find_similar(Some(&mut find))?;
        Ok(diff)
    }

    fn head_tree(&self) -> Result<Option<Tree<'_>>> {
        self.head_commit()?
            .map(|commit| commit.tree().map_err(GitError::from))
            .transpose()
    }
}

enum Side<'r> {
    Blob(git2::Blob<'r>),
    Bytes(Vec<u8>),
    Binary,
}

impl Side<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Side::Blob(blob) => blob.content(),
            Side::Bytes(bytes) => bytes,
            Side::Binary => &[],
        }
    }
}

/// A whole file as one hunk of added (`+`) or removed (`-`) lines, as git prints a new or
/// deleted file.
fn write_whole(content: &[u8], sign: char, out: &mut String) {
    let text = String::from_utf8_lossy(content);
    // Lines keep their terminators, so a CRLF file keeps its '\r'.
    let count = text.split_inclusive('\n').count();
    let range = if count == 1 {
        "1".to_string()
    } else {
        format!("1,{count}")
    };
    let _ = match sign {
        '+' => writeln!(out, "@@ -0,0 +{range} @@"),
        _ => writeln!(out, "@@ -{range} +0,0 @@"),
    };
    for line in text.split_inclusive('\n') {
        out.push(sign);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

/// Writes the hunks of a patch: headers, lines with their `+`/`-`/space prefix, and git's
/// marker for a missing newline at the end of a file.
fn write_hunks(patch: &Patch<'_>, out: &mut String) -> Result<()> {
    for h in 0..patch.num_hunks() {
        let (hunk, lines) = patch.hunk(h)?;
        out.push_str(&String::from_utf8_lossy(hunk.header()));
        for l in 0..lines {
            let line = patch.line_in_hunk(h, l)?;
            match line.origin() {
                origin @ ('+' | '-' | ' ') => {
                    out.push(origin);
                    out.push_str(&String::from_utf8_lossy(line.content()));
                    if !line.content().ends_with(b"\n") {
                        out.push('\n');
                    }
                }
                '>' | '<' | '=' => out.push_str("\\ No newline at end of file\n"),
                _ => {}
            }
        }
    }
    Ok(())
}

/// git's rule: a NUL byte in the first 8000 bytes makes a file binary.
fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(8000)].contains(&0)
}

/// The permission bits git prints (100644, 100755, 120000, 160000).
fn mode_bits(mode: FileMode) -> u32 {
    u32::try_from(i32::from(mode)).unwrap_or_default()
}

/// A path as git prints it in diff headers: quoted, with C escapes, when it holds control
/// characters, quotes, backslashes or bytes outside ASCII.
fn quote_path(bytes: &[u8]) -> String {
    let needs_quotes = bytes
        .iter()
        .any(|&b| !(0x20..0x7f).contains(&b) || b == b'"' || b == b'\\');
    if !needs_quotes {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut out = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}

fn io_error(err: std::io::Error) -> GitError {
    GitError::Unsupported(format!("could not read a working-tree file: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_quoted_as_git_quotes_them() {
        assert_eq!(quote_path(b"src/a b.rs"), "src/a b.rs");
        assert_eq!(quote_path("café.txt".as_bytes()), "\"caf\\303\\251.txt\"");
        assert_eq!(quote_path(b"a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(quote_path(b"tab\there"), "\"tab\\there\"");
    }

    #[test]
    fn nul_bytes_make_a_file_binary() {
        assert!(looks_binary(b"PNG\0\x01"));
        assert!(!looks_binary("plain text é".as_bytes()));
    }
}
