//! Unified diff text for each changed file, as `git diff` prints it.
//!
//! libgit2 finds the changed files (see `diff.rs`); the patches are made here from the two
//! sides' bytes, because libgit2's own patch printing resolves `.gitattributes` for every file
//! (a dozen system calls per file) and would make a large diff several times slower than git.
//! Large changes are split across threads, each with its own repository handle.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::PathBuf;

use git2::{Delta, DiffDelta, DiffFile, FileMode, Oid, Patch, Repository};
use gix_imara_diff::{Algorithm, Diff, InternedInput};

use super::diff::LineChanges;
use super::{GitError, GitRepo, Result};
use iris_studio_core::change::LargeText;

/// Blobs above this size are not diffed line by line (a text one is reported as too large
/// to show, with its size and lines counted), so a huge file never lands whole in a prompt
/// or on screen.
pub const MAX_DIFF_BLOB_BYTES: u64 = 2 * 1024 * 1024;

/// Below this many files one thread is quicker than starting more.
const FILES_PER_THREAD_MIN: usize = 64;

/// One changed file, as plain data that can cross threads (a `DiffDelta` cannot).
pub(super) struct FileChange {
    status: Delta,
    old: FileSide,
    new: FileSide,
}

pub(super) struct FileSide {
    pub(super) path: Option<Vec<u8>>,
    pub(super) id: Oid,
    pub(super) mode: FileMode,
    pub(super) exists: bool,
}

impl FileChange {
    pub(super) fn from_delta(delta: &DiffDelta<'_>) -> Self {
        let side = |file: DiffFile<'_>| FileSide {
            path: file.path_bytes().map(<[u8]>::to_vec),
            id: file.id(),
            mode: file.mode(),
            exists: file.exists(),
        };
        Self {
            status: delta.status(),
            old: side(delta.old_file()),
            new: side(delta.new_file()),
        }
    }

    /// A change between two stored sides (a tree and the index): `None` for a side that is
    /// not there, as libgit2 writes it (the other side's path, a zero id, no mode).
    pub(super) fn stored(
        status: Delta,
        old: Option<(&[u8], Oid, u32)>,
        new: Option<(&[u8], Oid, u32)>,
    ) -> Self {
        let path = old.or(new).map(|(path, _, _)| path.to_vec());
        let side = |side: Option<(&[u8], Oid, u32)>| match side {
            Some((path, id, mode)) => FileSide {
                path: Some(path.to_vec()),
                id,
                mode: file_mode(mode),
                exists: true,
            },
            None => FileSide {
                path: path.clone(),
                id: Oid::ZERO_SHA1,
                mode: FileMode::Unreadable,
                exists: false,
            },
        };
        Self {
            status,
            old: side(old),
            new: side(new),
        }
    }

    /// Every field, for comparing two ways of finding the same change.
    #[cfg(test)]
    pub(super) fn describe(&self) -> String {
        let side = |s: &FileSide| {
            format!(
                "{}:{}:{:o}:{}",
                String::from_utf8_lossy(s.path.as_deref().unwrap_or_default()),
                s.id,
                mode_bits(s.mode),
                s.exists
            )
        };
        format!("{:?} {} {}", self.status, side(&self.old), side(&self.new))
    }

    pub(super) fn status(&self) -> Delta {
        self.status
    }

    /// The old and the new side's paths.
    pub(super) fn paths(&self) -> (Option<&[u8]>, Option<&[u8]>) {
        (self.old.path.as_deref(), self.new.path.as_deref())
    }

    /// The old and the new side.
    pub(super) fn sides(&self) -> (&FileSide, &FileSide) {
        (&self.old, &self.new)
    }
}

/// A mode as the index and trees write it.
fn file_mode(raw: u32) -> FileMode {
    match raw {
        0o040000 => FileMode::Tree,
        0o100755 => FileMode::BlobExecutable,
        0o100664 => FileMode::BlobGroupWritable,
        0o120000 => FileMode::Link,
        0o160000 => FileMode::Commit,
        _ => FileMode::Blob,
    }
}

impl GitRepo {
    /// The patch of every change, turned into a `T` by `map`, in order. `workdir` says the new
    /// sides may be working-tree files.
    pub(super) fn patches<T: Send>(
        &self,
        changes: &[FileChange],
        workdir: bool,
        map: &(impl Fn(&str) -> T + Sync),
    ) -> Result<Vec<T>> {
        self.each_change(changes, &|repo, change| {
            let mut text = String::new();
            repo.write_file_patch(change, workdir, &mut text)?;
            Ok(map(&text))
        })
    }

    /// One change's added and removed lines, turned into a `T` by `map`; no patch text is
    /// written.
    pub(super) fn file_line_changes<T>(
        &self,
        change: &FileChange,
        workdir: bool,
        map: impl Fn(&LineChanges<'_>) -> T,
    ) -> Result<T> {
        let mut mapped = None;
        self.each_line_change(change, workdir, &mut |lines| {
            mapped = Some(map(lines));
        })?;
        mapped.ok_or_else(|| GitError::Unsupported("a change's lines were not read".into()))
    }

    /// The work of [`Self::file_line_changes`], not generic: so it is compiled here, with this
    /// crate's optimisation (a generic is compiled in the crate that calls it, and the
    /// release build optimises the binary's own crate for size).
    fn each_line_change(
        &self,
        change: &FileChange,
        workdir: bool,
        map: &mut dyn FnMut(&LineChanges<'_>),
    ) -> Result<()> {
        let content = match change.status {
            Delta::Conflicted => Content::Same,
            _ => self.content(change, workdir)?,
        };
        let (before, after) = match &content {
            Content::Text(old, new) => (old.bytes(), new.bytes()),
            Content::Binary | Content::Same | Content::Large(_) => (&[][..], &[][..]),
        };
        let (mut added, mut removed) = (Vec::new(), Vec::new());
        // A new or deleted file needs no diff: all its lines are added or removed.
        if before.is_empty() || after.is_empty() {
            added.extend(lines(after));
            removed.extend(lines(before));
        } else {
            let (gone, new) = changed_lines(before, after);
            removed.extend(gone.into_iter().map(lossy_line));
            added.extend(new.into_iter().map(lossy_line));
        }
        let added: Vec<&str> = added.iter().map(AsRef::as_ref).collect();
        let removed: Vec<&str> = removed.iter().map(AsRef::as_ref).collect();
        map(&LineChanges {
            added: &added,
            removed: &removed,
            binary: matches!(content, Content::Binary),
            large: match content {
                Content::Large(large) => Some(large),
                _ => None,
            },
        });
        Ok(())
    }

    /// `work` done on every change, in order. Large changes are split across threads, each
    /// with its own repository handle.
    pub(super) fn each_change<C: Sync, T: Send>(
        &self,
        changes: &[C],
        work: &(impl Fn(&GitRepo, &C) -> Result<T> + Sync),
    ) -> Result<Vec<T>> {
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(changes.len() / FILES_PER_THREAD_MIN)
            .clamp(1, 4);
        if threads == 1 {
            return changes.iter().map(|change| work(self, change)).collect();
        }
        let git_dir = self.repo.path().to_path_buf();
        std::thread::scope(|scope| {
            let workers: Vec<_> = changes
                .chunks(changes.len().div_ceil(threads))
                .map(|part| {
                    let git_dir = &git_dir;
                    scope.spawn(move || {
                        let repo = GitRepo::wrap(Repository::open(git_dir)?);
                        part.iter()
                            .map(|change| work(&repo, change))
                            .collect::<Result<Vec<T>>>()
                    })
                })
                .collect();
            let mut all = Vec::with_capacity(changes.len());
            for worker in workers {
                let part = worker
                    .join()
                    .map_err(|_| GitError::Unsupported("a diff worker thread failed".into()))??;
                all.extend(part);
            }
            Ok(all)
        })
    }

    /// Writes one file's patch; `workdir` says the new side may be a working-tree file.
    fn write_file_patch(&self, change: &FileChange, workdir: bool, out: &mut String) -> Result<()> {
        let (old, new) = (&change.old, &change.new);
        let old_raw = old
            .path
            .as_deref()
            .or(new.path.as_deref())
            .unwrap_or_default();
        let new_raw = new
            .path
            .as_deref()
            .or(old.path.as_deref())
            .unwrap_or_default();
        let (old_path, new_path) = (quote_path(old_raw), quote_path(new_raw));
        let a = quote_path(&[b"a/", old_raw].concat());
        let b = quote_path(&[b"b/", new_raw].concat());
        let _ = writeln!(out, "diff --git {a} {b}");
        let (old_mode, new_mode) = (mode_bits(old.mode), mode_bits(new.mode));
        match change.status {
            Delta::Added | Delta::Untracked => {
                let _ = writeln!(out, "new file mode {new_mode:o}");
            }
            Delta::Deleted => {
                let _ = writeln!(out, "deleted file mode {old_mode:o}");
            }
            Delta::Renamed | Delta::Copied => {
                let verb = if change.status == Delta::Renamed {
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
        let (a, b) = match change.status {
            Delta::Added | Delta::Untracked => ("/dev/null".to_string(), b),
            Delta::Deleted => (a, "/dev/null".to_string()),
            _ => (a, b),
        };
        let (old_side, new_side) = match self.content(change, workdir)? {
            Content::Binary => {
                let _ = writeln!(out, "Binary files {a} and {b} differ");
                return Ok(());
            }
            Content::Large(large) => {
                out.push_str(&large.diff_line());
                return Ok(());
            }
            Content::Same => return Ok(()), // a pure rename or mode change
            Content::Text(old_side, new_side) => (old_side, new_side),
        };
        write_names(&a, &b, out);
        write_text_change(old_side.bytes(), new_side.bytes(), out)
    }

    /// What a change's two sides hold: binary content, text too large to show, the same
    /// bytes, or two texts.
    fn content(&self, change: &FileChange, workdir: bool) -> Result<Content<'_>> {
        let old_side = self.side(&change.old, false)?;
        let new_side = self.side(&change.new, workdir)?;
        let large = |side: &Side<'_>| matches!(side, Side::Large { .. });
        let (old, new) = (&change.old, &change.new);
        if old.exists && new.exists && old.id == new.id && !old.id.is_zero() {
            return Ok(Content::Same); // a large file renamed as it was
        }
        Ok(
            if matches!(old_side, Side::Binary) || matches!(new_side, Side::Binary) {
                Content::Binary
            } else if large(&old_side) || large(&new_side) {
                let bytes = match change.new.exists {
                    true => new_side.size(),
                    false => old_side.size(),
                };
                Content::Large(LargeText {
                    bytes,
                    old_lines: old_side.line_count(),
                    new_lines: new_side.line_count(),
                })
            } else if old_side.bytes() == new_side.bytes() {
                Content::Same
            } else {
                Content::Text(old_side, new_side)
            },
        )
    }

    /// One side of a change: a blob, bytes from the working tree or made up (a submodule is
    /// its `Subproject commit` line, as in git; an absent side is empty), `Binary` when it is
    /// binary, or `Large` when it is text too large to diff line by line.
    fn side(&self, file: &FileSide, workdir: bool) -> Result<Side<'_>> {
        if !file.exists {
            return Ok(Side::Bytes(Vec::new()));
        }
        if file.mode == FileMode::Commit {
            return Ok(Side::Bytes(
                format!("Subproject commit {}\n", file.id).into_bytes(),
            ));
        }
        if self.in_workdir(file, workdir) {
            return self.workdir_side(file);
        }
        let blob = self.repo.find_blob(file.id)?;
        Ok(if looks_binary(blob.content()) {
            Side::Binary
        } else if blob.size() as u64 > MAX_DIFF_BLOB_BYTES {
            Side::Large {
                bytes: blob.size() as u64,
                lines: line_count(blob.content()),
            }
        } else {
            Side::Blob(blob)
        })
    }

    /// A working-tree file libgit2 did not hash, read from disk (a symbolic link is its target).
    fn workdir_side(&self, file: &FileSide) -> Result<Side<'_>> {
        let Some(path) = &file.path else {
            return Ok(Side::Bytes(Vec::new()));
        };
        let full = self.root().join(bytes_to_path(path));
        let meta = std::fs::symlink_metadata(&full).map_err(io_error)?;
        let bytes = if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&full).map_err(io_error)?;
            target.to_string_lossy().into_owned().into_bytes()
        } else if meta.len() > MAX_DIFF_BLOB_BYTES {
            return large_file(&full, meta.len());
        } else {
            std::fs::read(&full).map_err(io_error)?
        };
        Ok(if looks_binary(&bytes) {
            Side::Binary
        } else {
            Side::Bytes(bytes)
        })
    }

    /// An untracked file as the patch that would add it (what `git add -N` then `git diff`
    /// shows), bounded like any other side.
    pub fn untracked_file_patch(&self, path: &str) -> Result<String> {
        let clean = super::check_relative_path(path)?;
        let raw = clean.to_string_lossy().into_owned();
        let file = FileSide {
            path: Some(raw.clone().into_bytes()),
            id: Oid::ZERO_SHA1,
            mode: FileMode::Blob,
            exists: true,
        };
        let b = quote_path(&[b"b/", raw.as_bytes()].concat());
        let mut out = format!(
            "diff --git {} {b}\nnew file mode 100644\n",
            quote_path(&[b"a/", raw.as_bytes()].concat())
        );
        match self.workdir_side(&file)? {
            Side::Bytes(bytes) if !bytes.is_empty() => {
                write_names("/dev/null", &b, &mut out);
                write_whole(&bytes, '+', &mut out);
            }
            Side::Bytes(_) => {}
            Side::Large { bytes, lines } => out.push_str(
                &LargeText {
                    bytes,
                    old_lines: 0,
                    new_lines: lines,
                }
                .diff_line(),
            ),
            _ => out.push_str(&format!("Binary files /dev/null and {b} differ\n")),
        }
        Ok(out)
    }

    /// Whether `file`'s bytes are read from the working tree: libgit2 did not hash it, or
    /// (on a `workdir` side) its id is of content not stored yet.
    pub(super) fn in_workdir(&self, file: &FileSide, workdir: bool) -> bool {
        file.id.is_zero() || (workdir && !self.in_odb(file.id))
    }

    fn in_odb(&self, id: git2::Oid) -> bool {
        self.repo.odb().is_ok_and(|odb| odb.exists(id))
    }
}

enum Content<'r> {
    Binary,
    Large(LargeText),
    Same,
    Text(Side<'r>, Side<'r>),
}

enum Side<'r> {
    Blob(git2::Blob<'r>),
    Bytes(Vec<u8>),
    Binary,
    /// Text too large to diff: its size and lines, counted as it was read.
    Large {
        bytes: u64,
        lines: usize,
    },
}

impl Side<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Side::Blob(blob) => blob.content(),
            Side::Bytes(bytes) => bytes,
            Side::Binary | Side::Large { .. } => &[],
        }
    }

    fn size(&self) -> u64 {
        match self {
            Side::Large { bytes, .. } => *bytes,
            side => side.bytes().len() as u64,
        }
    }

    fn line_count(&self) -> usize {
        match self {
            Side::Large { lines, .. } => *lines,
            side => line_count(side.bytes()),
        }
    }
}

/// How many lines `content` has, as a patch counts them (a last line without a newline too).
fn line_count(content: &[u8]) -> usize {
    let newlines = content.iter().filter(|&&b| b == b'\n').count();
    newlines + usize::from(content.last().is_some_and(|&b| b != b'\n'))
}

/// A working-tree file too large to diff, read a block at a time (never whole): binary by
/// git's rule, else its lines counted.
fn large_file(path: &std::path::Path, bytes: u64) -> Result<Side<'static>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).map_err(io_error)?;
    let mut block = vec![0; 64 * 1024];
    let (mut newlines, mut last, mut first) = (0, b'\n', true);
    loop {
        let n = file.read(&mut block).map_err(io_error)?;
        if n == 0 {
            break;
        }
        if first && looks_binary(&block[..n]) {
            return Ok(Side::Binary);
        }
        first = false;
        newlines += block[..n].iter().filter(|&&b| b == b'\n').count();
        last = block[n - 1];
    }
    let lines = newlines + usize::from(last != b'\n');
    Ok(Side::Large { bytes, lines })
}

/// A file's lines without their newlines (a CRLF line keeps its '\r', as in a patch).
fn lines(content: &[u8]) -> impl Iterator<Item = Cow<'_, str>> {
    content.split_inclusive(|&b| b == b'\n').map(lossy_line)
}

/// One line's text without its newline.
fn lossy_line(line: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(line.strip_suffix(b"\n").unwrap_or(line))
}

/// The hunks that turn `before` into `after` (two texts).
fn write_text_change(before: &[u8], after: &[u8], out: &mut String) -> Result<()> {
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

/// The lines `before` loses and the lines `after` gains (each with its newline), in order,
/// as git's default algorithm (Myers') finds them, slid where git's indent heuristic puts
/// them. Not libgit2's patch: that hashes both texts before it compares them.
fn changed_lines<'a>(before: &'a [u8], after: &'a [u8]) -> (Vec<&'a [u8]>, Vec<&'a [u8]>) {
    let input = InternedInput::new(before, after);
    let mut diff = Diff::compute(Algorithm::Myers, &input);
    diff.postprocess_lines(&input);
    let (mut removed, mut added) = (Vec::new(), Vec::new());
    for hunk in diff.hunks() {
        let text = |tokens: &[gix_imara_diff::Token]| -> Vec<&'a [u8]> {
            tokens.iter().map(|&token| input.interner[token]).collect()
        };
        let (old, new) = (hunk.before, hunk.after);
        removed.extend(text(&input.before[old.start as usize..old.end as usize]));
        added.extend(text(&input.after[new.start as usize..new.end as usize]));
    }
    (removed, added)
}

/// The hunks from `before` to `after`, empty when they are the same; a line saying so for
/// binary content.
pub(crate) fn text_change(before: &[u8], after: &[u8]) -> Result<String> {
    let mut out = String::new();
    if before == after {
        return Ok(out);
    }
    if looks_binary(before) || looks_binary(after) {
        out.push_str("(binary content differs)\n");
        return Ok(out);
    }
    write_text_change(before, after, &mut out)?;
    Ok(out)
}

/// The `---` / `+++` lines. git ends a name that holds a space with a tab, so its end is clear.
fn write_names(a: &str, b: &str, out: &mut String) {
    let tab = |name: &str| if name.contains(' ') { "\t" } else { "" };
    let _ = writeln!(out, "--- {a}{}\n+++ {b}{}", tab(a), tab(b));
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
pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(8000)].contains(&0)
}

/// The permission bits git prints (100644, 100755, 120000, 160000).
fn mode_bits(mode: FileMode) -> u32 {
    u32::try_from(i32::from(mode)).unwrap_or_default()
}

/// A path as git prints it in diff headers with `core.quotePath=false`: quoted, with C
/// escapes, only when it holds control characters, quotes, backslashes or bytes that are not
/// UTF-8; a name in another script is written as it is.
fn quote_path(bytes: &[u8]) -> String {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return iris_studio_core::change::quote_path("", text);
    }
    // Bytes that are not UTF-8: escaped, as git escapes them.
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

pub(super) fn io_error(err: std::io::Error) -> GitError {
    GitError::Unsupported(format!("could not read a working-tree file: {err}"))
}

#[cfg(unix)]
pub(super) fn bytes_to_path(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
pub(super) fn bytes_to_path(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_quoted_as_git_quotes_them_with_quote_path_off() {
        assert_eq!(quote_path(b"src/a b.rs"), "src/a b.rs");
        // A name in another script is written as it is, for the model to read.
        assert_eq!(quote_path("café.txt".as_bytes()), "café.txt");
        assert_eq!(quote_path("src/日本.md".as_bytes()), "src/日本.md");
        assert_eq!(quote_path("src/файл.rs".as_bytes()), "src/файл.rs");
        // Bytes that are not UTF-8 stay escaped.
        assert_eq!(quote_path(b"caf\xe9.txt"), "\"caf\\351.txt\"");
        assert_eq!(quote_path("日\u{1}".as_bytes()), "\"日\\001\"");
        assert_eq!(quote_path(b"a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(quote_path(b"tab\there"), "\"tab\\there\"");
    }

    #[test]
    fn nul_bytes_make_a_file_binary() {
        assert!(looks_binary(b"PNG\0\x01"));
        assert!(!looks_binary("plain text é".as_bytes()));
    }
}
