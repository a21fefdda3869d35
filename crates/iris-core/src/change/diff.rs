//! Parse unified diff text, as `git diff` or libgit2's `DiffFormat::Patch` prints it.
//!
//! The parser is a single pass over the lines with a small state machine. Hunk bodies are
//! delimited by the counts in their `@@` header, never by what a line looks like, so a removed
//! line that reads `-- foo` (printed `--- foo`) stays content.

use std::fmt::Write as _;

/// How a file changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// A new file.
    Added,
    /// The content or the mode changed.
    Modified,
    /// A file removed.
    Deleted,
    /// Moved from `old_path`, maybe with changes.
    Renamed,
    /// Copied from `old_path`, maybe with changes.
    Copied,
    /// Now another kind of file (a regular file became a symlink, say).
    TypeChanged,
}

/// The role of one line inside a hunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum LineKind {
    /// Unchanged, shown around the changes.
    Context,
    /// Only in the new version (`+`).
    Added,
    /// Only in the old version (`-`).
    Removed,
}

/// One hunk line; `content` has neither the `+`/`-`/space prefix nor the newline.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DiffLine {
    /// Context, added or removed.
    pub kind: LineKind,
    /// The line's text.
    pub content: String,
    /// The last line of a file that does not end in a newline (git's `\ No newline at end of
    /// file` follows it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_newline: bool,
}

/// One `@@ -a,b +c,d @@` hunk; `header` is the whole header line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Hunk {
    /// The whole `@@` line as the diff printed it (a section heading may follow the counts).
    pub header: String,
    /// The first line on the old side, 1-based (0 when that side is empty).
    pub old_start: u32,
    /// How many lines the hunk covers on the old side.
    pub old_lines: u32,
    /// The first line on the new side, 1-based (0 when that side is empty).
    pub new_start: u32,
    /// How many lines the hunk covers on the new side.
    pub new_lines: u32,
    /// The hunk's lines, in order.
    pub lines: Vec<DiffLine>,
}

/// The changes to one file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FileDiff {
    /// The new path, or the old one for deletions.
    pub path: String,
    /// The source path of a rename or copy; `None` otherwise.
    pub old_path: Option<String>,
    /// How the file changed.
    pub kind: ChangeKind,
    /// A binary file: git printed no lines for it, so it has no hunks.
    pub binary: bool,
    /// A text file too large to show: no hunks, its sides' size and lines instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub large: Option<LargeText>,
    /// The hunks, in the file's order.
    pub hunks: Vec<Hunk>,
    /// Lines added, over all hunks.
    pub additions: usize,
    /// Lines removed, over all hunks.
    pub deletions: usize,
    /// The file's modes (`0o100644`, `0o100755`, `0o120000`...) where the diff names them: a
    /// new or deleted file, or a change of mode. This is the mode before the change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_mode: Option<u32>,
    /// The mode after the change, where the diff names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_mode: Option<u32>,
}

/// A text file too large to show line by line (its lines would swamp a prompt and the
/// screen): how big it is and how many lines each side has, so it is never taken for an
/// empty or binary change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LargeText {
    /// The new side's size in bytes (the old side's for a deletion).
    pub bytes: u64,
    /// Lines on the old side (0 for a new file).
    pub old_lines: usize,
    /// Lines on the new side (0 for a deleted file).
    pub new_lines: usize,
}

/// How a diff's text says a file is [`LargeText`] (the line written where git would put the
/// hunks), read back by [`parse_unified_diff`].
const LARGE_TEXT: &str = "Text too large to show: ";

impl LargeText {
    /// The line a diff's text carries for it: `Text too large to show: 0 -> 1700000 lines,
    /// 52428800 bytes`.
    pub fn diff_line(&self) -> String {
        format!(
            "{LARGE_TEXT}{} -> {} lines, {} bytes\n",
            self.old_lines, self.new_lines, self.bytes
        )
    }

    /// The line [`Self::diff_line`] wrote, read back.
    fn parse(line: &str) -> Option<LargeText> {
        let rest = line.strip_prefix(LARGE_TEXT)?;
        let (lines, bytes) = rest.split_once(" lines, ")?;
        let (old, new) = lines.split_once(" -> ")?;
        Some(LargeText {
            bytes: bytes.strip_suffix(" bytes")?.parse().ok()?,
            old_lines: old.parse().ok()?,
            new_lines: new.parse().ok()?,
        })
    }

    /// Lines added and removed as far as they are known without diffing the sides: all of a
    /// new file's, all of a deleted one's; a changed one counts both sides whole (at most).
    pub fn additions_deletions(&self) -> (usize, usize) {
        (self.new_lines, self.old_lines)
    }
}

impl LineKind {
    /// The mark a unified diff puts before such a line.
    pub fn mark(self) -> char {
        match self {
            LineKind::Context => ' ',
            LineKind::Added => '+',
            LineKind::Removed => '-',
        }
    }
}

impl Hunk {
    /// Each line with the old and the new line numbers where it stands: its own on the sides
    /// it is on; for a removed line the new side's next line, for an added one the old side's.
    pub fn numbered(&self) -> impl Iterator<Item = (&DiffLine, u32, u32)> {
        let (mut old, mut new) = (self.old_start, self.new_start);
        self.lines.iter().map(move |line| {
            let at = (line, old, new);
            if line.kind != LineKind::Added {
                old += 1;
            }
            if line.kind != LineKind::Removed {
                new += 1;
            }
            at
        })
    }
}

impl FileDiff {
    /// Added plus removed lines.
    pub fn changed_lines(&self) -> usize {
        self.additions + self.deletions
    }

    /// The text of every added line, in order.
    pub fn added_lines(&self) -> impl Iterator<Item = &str> {
        self.lines_of(LineKind::Added)
    }

    /// The text of every removed line, in order.
    pub fn removed_lines(&self) -> impl Iterator<Item = &str> {
        self.lines_of(LineKind::Removed)
    }

    /// For a submodule whose commit moved, the commit before and after (as the diff's
    /// `Subproject commit` lines name them); `None` for anything else.
    pub fn submodule_bump(&self) -> Option<(String, String)> {
        let commit = |line: &str| {
            line.strip_prefix("Subproject commit ")
                .map(|id| id.trim().to_string())
        };
        let old = self.removed_lines().find_map(commit)?;
        let new = self.added_lines().find_map(commit)?;
        Some((old, new))
    }

    /// For a file git LFS stores, the sizes of the objects its pointer named before and after
    /// the change (`None` on a side without a pointer): the pointer's text says nothing a
    /// reader wants. `None` when neither side is a pointer.
    pub fn lfs_sizes(&self) -> Option<(Option<u64>, Option<u64>)> {
        // Each side as it reads: its own lines with the context between them.
        let side = |dropped: LineKind| {
            let lines: Vec<&str> = self
                .hunks
                .iter()
                .flat_map(|h| &h.lines)
                .filter(|l| l.kind != dropped)
                .map(|l| l.content.as_str())
                .collect();
            lfs_pointer_size(&lines)
        };
        let (old, new) = (side(LineKind::Added), side(LineKind::Removed));
        (old.is_some() || new.is_some()).then_some((old, new))
    }

    fn lines_of(&self, kind: LineKind) -> impl Iterator<Item = &str> {
        self.hunks
            .iter()
            .flat_map(|h| &h.lines)
            .filter(move |l| l.kind == kind)
            .map(|l| l.content.as_str())
    }

    /// Append this file as a unified diff in git's format (a new or deleted file whose mode
    /// is unknown is written as `100644`).
    pub fn render(&self, out: &mut String) {
        let old = self.old_path.as_deref().unwrap_or(&self.path);
        out.push_str("diff --git ");
        push_path(out, "a/", old);
        out.push(' ');
        push_path(out, "b/", &self.path);
        out.push('\n');
        const REGULAR: u32 = 0o100644;
        match (self.kind, self.old_mode, self.new_mode) {
            (ChangeKind::Added, _, new) => {
                let _ = writeln!(out, "new file mode {:o}", new.unwrap_or(REGULAR));
            }
            (ChangeKind::Deleted, old, _) => {
                let _ = writeln!(out, "deleted file mode {:o}", old.unwrap_or(REGULAR));
            }
            (_, Some(old), Some(new)) if old != new => {
                let _ = writeln!(out, "old mode {old:o}\nnew mode {new:o}");
            }
            _ => {}
        }
        match self.kind {
            ChangeKind::Renamed | ChangeKind::Copied => {
                let verb = if self.kind == ChangeKind::Renamed {
                    "rename"
                } else {
                    "copy"
                };
                for (dir, p) in [("from", old), ("to", self.path.as_str())] {
                    let _ = write!(out, "{verb} {dir} ");
                    push_path(out, "", p);
                    out.push('\n');
                }
            }
            _ => {}
        }
        let push_old = |out: &mut String| match self.kind {
            ChangeKind::Added => out.push_str("/dev/null"),
            _ => push_path(out, "a/", old),
        };
        let push_new = |out: &mut String| match self.kind {
            ChangeKind::Deleted => out.push_str("/dev/null"),
            _ => push_path(out, "b/", &self.path),
        };
        if let Some(large) = &self.large {
            out.push_str(&large.diff_line());
            return;
        }
        if self.binary {
            out.push_str("Binary files ");
            push_old(out);
            out.push_str(" and ");
            push_new(out);
            out.push_str(" differ\n");
            return;
        }
        if self.hunks.is_empty() {
            return;
        }
        // git ends a name (as printed) that holds a space with a tab, so its end is clear.
        for (prefix, push) in [
            ("--- ", &push_old as &dyn Fn(&mut String)),
            ("+++ ", &push_new),
        ] {
            out.push_str(prefix);
            let start = out.len();
            push(out);
            if out[start..].contains(' ') {
                out.push('\t');
            }
            out.push('\n');
        }
        for hunk in &self.hunks {
            if hunk.header.is_empty() {
                let _ = writeln!(
                    out,
                    "@@ -{},{} +{},{} @@",
                    hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines
                );
            } else {
                out.push_str(&hunk.header);
                out.push('\n');
            }
            for line in &hunk.lines {
                out.push(line.kind.mark());
                out.push_str(&line.content);
                out.push('\n');
                if line.no_newline {
                    out.push_str("\\ No newline at end of file\n");
                }
            }
        }
    }
}

/// Parse a unified diff into its files. Never fails: what cannot be understood is skipped.
pub fn parse_unified_diff(text: &str) -> Vec<FileDiff> {
    let mut files = Vec::new();
    let mut cur: Option<Pending> = None;
    let mut state = State::Outside;
    let mut lines = text.split_terminator('\n').peekable();

    while let Some(line) = lines.next() {
        if let State::Hunk { old_left, new_left } = state {
            if let Some(next) = cur
                .as_mut()
                .and_then(|p| p.hunk_line(line, old_left, new_left))
            {
                state = next;
                continue;
            }
            // Not a hunk line (or counts exhausted): the hunk is over, read it as a header.
            state = State::AfterHunk;
        }
        if matches!(state, State::AfterHunk) && line.starts_with('\\') {
            // The marker after a hunk's last line.
            if let Some(p) = cur.as_mut() {
                p.mark_no_newline();
            }
            continue;
        }

        if let Some(rest) = line.strip_prefix("diff --git ") {
            finish(&mut files, cur.take());
            let (git_old, git_new) = git_header_paths(trim_cr(rest));
            cur = Some(Pending {
                git_old,
                git_new,
                ..Pending::default()
            });
            state = State::Header;
            continue;
        }
        if let Some(rest) = line
            .strip_prefix("diff --cc ")
            .or_else(|| line.strip_prefix("diff --combined "))
        {
            // Combined (merge) diffs have multi-column hunks we do not model: keep the file,
            // skip its body.
            finish(&mut files, cur.take());
            cur = Some(Pending {
                git_new: Some(plain_or_quoted(trim_cr(rest))),
                ..Pending::default()
            });
            state = State::Skip;
            continue;
        }

        // A plain unified diff (no `diff --git` line) starts each file with `---` then `+++`.
        if line.starts_with("--- ")
            && !matches!(state, State::Header)
            && lines.peek().is_some_and(|next| next.starts_with("+++ "))
        {
            finish(&mut files, cur.take());
            cur = Some(Pending::default());
            state = State::Header;
        }

        let Some(p) = cur.as_mut() else {
            continue;
        };
        if line.starts_with("@@ ") {
            state = match parse_hunk_header(line) {
                Some(hunk) => {
                    let next = if hunk.old_lines == 0 && hunk.new_lines == 0 {
                        State::AfterHunk
                    } else {
                        State::Hunk {
                            old_left: hunk.old_lines,
                            new_left: hunk.new_lines,
                        }
                    };
                    p.hunks.push(hunk);
                    next
                }
                None => State::Skip,
            };
            continue;
        }
        if matches!(state, State::Header) && p.header_line(line) {
            state = State::Skip;
        }
    }
    finish(&mut files, cur);
    files
}

#[derive(Debug, Clone, Copy)]
enum State {
    /// Before the first file.
    Outside,
    /// Between `diff --git` and the first hunk: extended headers, `---`, `+++`.
    Header,
    /// Inside a hunk, with the old and new line counts still to read.
    Hunk { old_left: u32, new_left: u32 },
    /// After a hunk: another hunk or another file may follow.
    AfterHunk,
    /// Ignore lines until the next file or hunk (binary patch data, unparsable hunks).
    Skip,
}

/// One side of a `---`/`+++` line.
#[derive(Debug)]
enum Side {
    DevNull,
    Path(String),
}

/// What is known about the file being parsed.
#[derive(Debug, Default)]
struct Pending {
    git_old: Option<String>,
    git_new: Option<String>,
    minus: Option<Side>,
    plus: Option<Side>,
    rename_from: Option<String>,
    rename_to: Option<String>,
    copy_from: Option<String>,
    copy_to: Option<String>,
    old_mode: Option<u32>,
    new_mode: Option<u32>,
    new_file: bool,
    deleted: bool,
    binary: bool,
    large: Option<LargeText>,
    hunks: Vec<Hunk>,
    additions: usize,
    deletions: usize,
}

impl Pending {
    /// Take `line` as part of the current hunk; `None` if it is not a hunk line.
    fn hunk_line(&mut self, line: &str, old_left: u32, new_left: u32) -> Option<State> {
        let (kind, old_used, new_used) = match line.as_bytes().first() {
            // Some tools strip the space of empty context lines.
            Some(b' ') | None if old_left > 0 && new_left > 0 => (LineKind::Context, 1, 1),
            Some(b'+') if new_left > 0 => (LineKind::Added, 0, 1),
            Some(b'-') if old_left > 0 => (LineKind::Removed, 1, 0),
            Some(b'\\') => {
                self.mark_no_newline();
                return Some(State::Hunk { old_left, new_left });
            }
            _ => return None,
        };
        let hunk = self.hunks.last_mut()?;
        hunk.lines.push(DiffLine {
            kind,
            content: line.get(1..).unwrap_or("").to_owned(),
            no_newline: false,
        });
        match kind {
            LineKind::Added => self.additions += 1,
            LineKind::Removed => self.deletions += 1,
            LineKind::Context => {}
        }
        let (old_left, new_left) = (old_left - old_used, new_left - new_used);
        Some(if old_left == 0 && new_left == 0 {
            State::AfterHunk
        } else {
            State::Hunk { old_left, new_left }
        })
    }

    /// git's `\ No newline at end of file`: about the line just read.
    fn mark_no_newline(&mut self) {
        if let Some(line) = self.hunks.last_mut().and_then(|h| h.lines.last_mut()) {
            line.no_newline = true;
        }
    }

    /// Read one extended header line; returns true when binary patch data follows.
    fn header_line(&mut self, line: &str) -> bool {
        let line = trim_cr(line);
        if let Some(rest) = line.strip_prefix("--- ") {
            self.minus = Some(side_path(rest, "a/"));
        } else if let Some(rest) = line.strip_prefix("+++ ") {
            self.plus = Some(side_path(rest, "b/"));
        } else if let Some(rest) = line.strip_prefix("new file mode ") {
            self.new_file = true;
            self.new_mode = parse_mode(rest);
        } else if let Some(rest) = line.strip_prefix("deleted file mode ") {
            self.deleted = true;
            self.old_mode = parse_mode(rest);
        } else if let Some(rest) = line.strip_prefix("old mode ") {
            self.old_mode = parse_mode(rest);
        } else if let Some(rest) = line.strip_prefix("new mode ") {
            self.new_mode = parse_mode(rest);
        } else if let Some(rest) = line.strip_prefix("rename from ") {
            self.rename_from = Some(plain_or_quoted(rest));
        } else if let Some(rest) = line.strip_prefix("rename to ") {
            self.rename_to = Some(plain_or_quoted(rest));
        } else if let Some(rest) = line.strip_prefix("copy from ") {
            self.copy_from = Some(plain_or_quoted(rest));
        } else if let Some(rest) = line.strip_prefix("copy to ") {
            self.copy_to = Some(plain_or_quoted(rest));
        } else if line.starts_with("Binary files ") {
            self.binary = true;
        } else if let Some(large) = LargeText::parse(line) {
            (self.additions, self.deletions) = large.additions_deletions();
            self.large = Some(large);
        } else if line.starts_with("GIT binary patch") {
            self.binary = true;
            return true;
        }
        false
    }

    fn into_file(self) -> Option<FileDiff> {
        let kind = if self.rename_from.is_some() || self.rename_to.is_some() {
            ChangeKind::Renamed
        } else if self.copy_from.is_some() || self.copy_to.is_some() {
            ChangeKind::Copied
        } else if self.new_file || matches!(self.minus, Some(Side::DevNull)) {
            ChangeKind::Added
        } else if self.deleted || matches!(self.plus, Some(Side::DevNull)) {
            ChangeKind::Deleted
        } else if matches!((self.old_mode, self.new_mode),
            (Some(old), Some(new)) if old & 0o170000 != new & 0o170000)
        {
            ChangeKind::TypeChanged
        } else {
            ChangeKind::Modified
        };
        let side = |s: Option<Side>| match s {
            Some(Side::Path(p)) => Some(p),
            _ => None,
        };
        let new_path = (self.rename_to.or(self.copy_to))
            .or_else(|| side(self.plus))
            .or(self.git_new);
        let old_path = (self.rename_from.or(self.copy_from))
            .or_else(|| side(self.minus))
            .or(self.git_old);
        let (path, old_path) = match kind {
            ChangeKind::Deleted => (old_path.or(new_path)?, None),
            ChangeKind::Renamed | ChangeKind::Copied => match new_path {
                Some(new) => (new, old_path),
                None => (old_path?, None),
            },
            _ => (new_path.or(old_path)?, None),
        };
        if path.is_empty() {
            return None;
        }
        Some(FileDiff {
            path,
            old_path,
            kind,
            binary: self.binary,
            large: self.large,
            hunks: self.hunks,
            additions: self.additions,
            deletions: self.deletions,
            old_mode: self.old_mode,
            new_mode: self.new_mode,
        })
    }
}

fn finish(files: &mut Vec<FileDiff>, pending: Option<Pending>) {
    if let Some(file) = pending.and_then(Pending::into_file) {
        files.push(file);
    }
}

fn trim_cr(s: &str) -> &str {
    s.strip_suffix('\r').unwrap_or(s)
}

fn parse_mode(s: &str) -> Option<u32> {
    u32::from_str_radix(s.trim(), 8).ok()
}

/// `@@ -a[,b] +c[,d] @@ ...`; an omitted count means 1.
fn parse_hunk_header(line: &str) -> Option<Hunk> {
    let line = trim_cr(line);
    let rest = line.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(' ')?;
    let (new, rest) = rest.strip_prefix('+')?.split_once(' ')?;
    if !rest.starts_with("@@") {
        return None;
    }
    let range = |s: &str| -> Option<(u32, u32)> {
        match s.split_once(',') {
            Some((start, count)) => Some((start.parse().ok()?, count.parse().ok()?)),
            None => Some((s.parse().ok()?, 1)),
        }
    };
    let (old_start, old_lines) = range(old)?;
    let (new_start, new_lines) = range(new)?;
    Some(Hunk {
        header: line.to_owned(),
        old_start,
        old_lines,
        new_start,
        new_lines,
        // At most old + new lines; capped so a garbage header cannot reserve gigabytes.
        lines: Vec::with_capacity(old_lines.saturating_add(new_lines).min(4096) as usize),
    })
}

/// A `---`/`+++` path: quoted or cut at the first tab (git appends one to names with spaces,
/// GNU diff a timestamp), `/dev/null`, and the `a/`/`b/` prefix removed.
fn side_path(rest: &str, prefix: &str) -> Side {
    if rest.starts_with('"')
        && let Some((path, _)) = unquote(rest)
    {
        if path == "/dev/null" {
            return Side::DevNull;
        }
        return Side::Path(match path.strip_prefix(prefix) {
            Some(p) => p.to_owned(),
            None => path,
        });
    }
    let path = rest.split('\t').next().unwrap_or(rest);
    if path == "/dev/null" {
        Side::DevNull
    } else {
        Side::Path(path.strip_prefix(prefix).unwrap_or(path).to_owned())
    }
}

fn plain_or_quoted(s: &str) -> String {
    match unquote(s) {
        Some((path, _)) => path,
        None => s.to_owned(),
    }
}

/// The two paths of `diff --git a/old b/new`. Unquoted names with spaces are ambiguous; the
/// equal-halves split (an unchanged name) is tried first, renames get exact paths from their
/// `rename from/to` lines anyway.
fn git_header_paths(rest: &str) -> (Option<String>, Option<String>) {
    let strip = |p: String, prefix: &str| match p.strip_prefix(prefix) {
        Some(s) => s.to_owned(),
        None => p,
    };
    if rest.starts_with('"') {
        let Some((old, tail)) = unquote(rest) else {
            return (None, None);
        };
        let tail = tail.strip_prefix(' ').unwrap_or(tail);
        let new = plain_or_quoted(tail);
        return (Some(strip(old, "a/")), Some(strip(new, "b/")));
    }
    if rest.ends_with('"')
        && let Some(idx) = rest.find(" \"")
    {
        let new = unquote(&rest[idx + 1..]).map(|(p, _)| strip(p, "b/"));
        let old = &rest[..idx];
        return (Some(old.strip_prefix("a/").unwrap_or(old).to_owned()), new);
    }
    let len = rest.len();
    if len % 2 == 1
        && rest.as_bytes()[len / 2] == b' '
        && let (Some(old), Some(new)) = (rest.get(..len / 2), rest.get(len / 2 + 1..))
    {
        let old = old.strip_prefix("a/").unwrap_or(old);
        let new = new.strip_prefix("b/").unwrap_or(new);
        if old == new {
            return (Some(old.to_owned()), Some(new.to_owned()));
        }
    }
    match rest.split_once(" b/") {
        Some((old, new)) => (
            Some(old.strip_prefix("a/").unwrap_or(old).to_owned()),
            Some(new.to_owned()),
        ),
        None => (None, None),
    }
}

/// Decode a C-quoted path as git writes it (`"a/caf\303\251.txt"`): returns the path and what
/// follows the closing quote, or `None` if `s` is not a complete quoted string.
fn unquote(s: &str) -> Option<(String, &str)> {
    let bytes = s.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let path = String::from_utf8_lossy(&out).into_owned();
                return Some((path, &s[i + 1..]));
            }
            b'\\' => {
                let escaped = *bytes.get(i + 1)?;
                i += 2;
                out.push(match escaped {
                    b'n' => b'\n',
                    b't' => b'\t',
                    b'r' => b'\r',
                    b'a' => 0x07,
                    b'b' => 0x08,
                    b'f' => 0x0c,
                    b'v' => 0x0b,
                    b'0'..=b'7' => {
                        let mut value = u32::from(escaped - b'0');
                        for _ in 0..2 {
                            match bytes.get(i) {
                                Some(&d @ b'0'..=b'7') => {
                                    value = value * 8 + u32::from(d - b'0');
                                    i += 1;
                                }
                                _ => break,
                            }
                        }
                        (value & 0xff) as u8
                    }
                    // `\"`, `\\` and unknown escapes stand for themselves.
                    other => other,
                });
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    None
}

/// Write `prefix` + `path`, quoted the way git quotes it when the path needs it.
/// The size an LFS pointer names, when `lines` are one (`version https://git-lfs...`, `oid
/// sha256:...`, `size N`).
fn lfs_pointer_size(lines: &[&str]) -> Option<u64> {
    let version = lines.first()?.strip_prefix("version ")?;
    if !version.starts_with("https://git-lfs.github.com/spec/") || lines.len() > 6 {
        return None;
    }
    lines
        .iter()
        .any(|l| l.starts_with("oid sha256:"))
        .then_some(())?;
    lines
        .iter()
        .find_map(|l| l.strip_prefix("size ")?.trim().parse().ok())
}

fn push_path(out: &mut String, prefix: &str, path: &str) {
    out.push_str(&quote_path(prefix, path));
}

/// `prefix` and `path` as git writes them in a diff's headers with `core.quotePath=false`:
/// as they are, or quoted with C escapes when the path holds a control character, a quote or a
/// backslash. A name in any script stays readable.
pub fn quote_path(prefix: &str, path: &str) -> String {
    let needs_quote = |c: char| c.is_control() || c == '"' || c == '\\';
    if !path.chars().any(needs_quote) {
        return format!("{prefix}{path}");
    }
    let mut out = format!("\"{prefix}");
    for c in path.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{07}' => out.push_str("\\a"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0b}' => out.push_str("\\v"),
            '\u{0c}' => out.push_str("\\f"),
            c if c.is_control() => {
                let mut buffer = [0u8; 4];
                for b in c.encode_utf8(&mut buffer).bytes() {
                    let _ = write!(out, "\\{b:03o}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_FILES: &str = "\
diff --git a/src/lib.rs b/src/lib.rs
index 3b18e51..a8c9f2d 100644
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -1,3 +1,4 @@ mod foo;
 use std::fmt;
-fn old() {}
+fn new() {}
+fn other() {}
 // end
@@ -10 +11 @@
-x
+y
diff --git a/README.md b/README.md
new file mode 100644
index 0000000..e69de29
--- /dev/null
+++ b/README.md
@@ -0,0 +1,2 @@
+# Title
+text
\\ No newline at end of file
";

    fn parse_one(text: &str) -> FileDiff {
        let mut files = parse_unified_diff(text);
        assert_eq!(files.len(), 1, "{files:#?}");
        files.remove(0)
    }

    #[test]
    fn empty_and_garbage_input() {
        assert!(parse_unified_diff("").is_empty());
        assert!(parse_unified_diff("hello\nworld\n").is_empty());
        for text in [
            "diff --git",
            "diff --git \n@@ -1,2 +1,2 @@\n",
            "diff --git a/x b/x\n@@ -1,99999999999 +1 @@\n+a\n",
            "diff --git a/x b/x\n@@ -4294967295,4294967295 +1,4294967295 @@\n-\n+\n \n",
            "diff --git \"a/\\\n@@ @@\n--- \"\n+++ \"\\",
            "\"\\3",
            "--- a\n+++ b\n@@ -1 +1 @@\n",
            "@@ -1 +1 @@\n+x\n",
            "diff --cc x\n@@@ -1,2 -1,2 +1,3 @@@\n+++x\n",
        ] {
            let _ = parse_unified_diff(text);
        }
    }

    #[test]
    fn several_files_with_hunks() {
        let files = parse_unified_diff(TWO_FILES);
        assert_eq!(files.len(), 2);
        let lib = &files[0];
        assert_eq!(lib.path, "src/lib.rs");
        assert_eq!(lib.kind, ChangeKind::Modified);
        assert_eq!(lib.old_path, None);
        assert_eq!(lib.hunks.len(), 2);
        assert_eq!(lib.hunks[0].header, "@@ -1,3 +1,4 @@ mod foo;");
        assert_eq!(
            (lib.hunks[0].old_start, lib.hunks[0].old_lines),
            (1, 3),
            "old range"
        );
        assert_eq!((lib.hunks[0].new_start, lib.hunks[0].new_lines), (1, 4));
        assert_eq!((lib.hunks[1].old_lines, lib.hunks[1].new_lines), (1, 1));
        assert_eq!((lib.additions, lib.deletions), (3, 2));
        assert_eq!(lib.changed_lines(), 5);
        assert_eq!(
            lib.added_lines().collect::<Vec<_>>(),
            ["fn new() {}", "fn other() {}", "y"]
        );
        assert_eq!(
            lib.removed_lines().collect::<Vec<_>>(),
            ["fn old() {}", "x"]
        );
        assert_eq!(lib.hunks[0].lines[0].kind, LineKind::Context);
        assert_eq!(lib.hunks[0].lines[0].content, "use std::fmt;");

        let readme = &files[1];
        assert_eq!(readme.path, "README.md");
        assert_eq!(readme.kind, ChangeKind::Added);
        assert_eq!((readme.additions, readme.deletions), (2, 0));
        assert_eq!(
            readme.hunks[0].lines.len(),
            2,
            "no-newline marker is dropped"
        );
    }

    #[test]
    fn header_like_lines_inside_a_hunk_are_content() {
        let text = "\
diff --git a/notes.txt b/notes.txt
--- a/notes.txt
+++ b/notes.txt
@@ -1,3 +1,3 @@
--- a/old heading
+++ b/new heading
 diff --git a/x b/x (context, not a header)
-keep
+kept
";
        // `diff --git` after a space is a context line, not a header.
        let file = parse_one(text);
        assert_eq!(file.hunks[0].lines.len(), 5);
        assert_eq!(
            file.removed_lines().collect::<Vec<_>>(),
            ["-- a/old heading", "keep"]
        );
        assert_eq!(
            file.added_lines().collect::<Vec<_>>(),
            ["++ b/new heading", "kept"]
        );
    }

    #[test]
    fn hunk_end_is_found_by_counts() {
        let text = "\
diff --git a/a.txt b/a.txt
--- a/a.txt
+++ b/a.txt
@@ -1 +1 @@
-old
+new
--- a/b.txt
+++ b/b.txt
@@ -1 +1 @@
-x
+y
";
        // A plain `---`/`+++` pair after a finished hunk starts another file.
        let files = parse_unified_diff(text);
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].changed_lines(), 2);
        assert_eq!(files[1].path, "b.txt");
        assert_eq!(files[1].changed_lines(), 2);
    }

    #[test]
    fn plain_unified_diff_without_git_header() {
        let text = "\
--- foo.c\t2024-01-01 10:00:00
+++ foo.c\t2024-01-02 10:00:00
@@ -1,2 +1,2 @@
 a
-b
+c
";
        let file = parse_one(text);
        assert_eq!(file.path, "foo.c");
        assert_eq!(file.kind, ChangeKind::Modified);
        assert_eq!(file.changed_lines(), 2);
    }

    #[test]
    fn deleted_file() {
        let text = "\
diff --git a/gone.rs b/gone.rs
deleted file mode 100644
index e69de29..0000000
--- a/gone.rs
+++ /dev/null
@@ -1,2 +0,0 @@
-fn a() {}
-fn b() {}
";
        let file = parse_one(text);
        assert_eq!(file.kind, ChangeKind::Deleted);
        assert_eq!(file.path, "gone.rs");
        assert_eq!((file.additions, file.deletions), (0, 2));
    }

    #[test]
    fn dev_null_alone_marks_added_and_deleted() {
        let added = parse_one("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+x\n");
        assert_eq!(
            (added.kind, added.path.as_str()),
            (ChangeKind::Added, "new.txt")
        );
        let deleted = parse_one("--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n");
        assert_eq!(
            (deleted.kind, deleted.path.as_str()),
            (ChangeKind::Deleted, "old.txt")
        );
    }

    #[test]
    fn rename_with_and_without_changes() {
        let text = "\
diff --git a/old name.rs b/new name.rs
similarity index 100%
rename from old name.rs
rename to new name.rs
diff --git a/src/a.rs b/src/b.rs
similarity index 90%
rename from src/a.rs
rename to src/b.rs
index 1111111..2222222 100644
--- a/src/a.rs
+++ b/src/b.rs
@@ -1 +1 @@
-a
+b
";
        let files = parse_unified_diff(text);
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].kind, ChangeKind::Renamed);
        assert_eq!(files[0].path, "new name.rs");
        assert_eq!(files[0].old_path.as_deref(), Some("old name.rs"));
        assert!(files[0].hunks.is_empty());
        assert_eq!(files[1].kind, ChangeKind::Renamed);
        assert_eq!(files[1].path, "src/b.rs");
        assert_eq!(files[1].old_path.as_deref(), Some("src/a.rs"));
        assert_eq!(files[1].changed_lines(), 2);
    }

    #[test]
    fn copy() {
        let text = "\
diff --git a/a.txt b/c.txt
similarity index 100%
copy from a.txt
copy to c.txt
";
        let file = parse_one(text);
        assert_eq!(file.kind, ChangeKind::Copied);
        assert_eq!(file.path, "c.txt");
        assert_eq!(file.old_path.as_deref(), Some("a.txt"));
    }

    #[test]
    fn mode_change_and_type_change() {
        let mode = parse_one("diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n");
        assert_eq!(mode.kind, ChangeKind::Modified);
        assert_eq!(mode.path, "run.sh");
        assert!(mode.hunks.is_empty());

        let text = "\
diff --git a/link b/link
old mode 100644
new mode 120000
index 1111111..2222222
--- a/link
+++ b/link
@@ -1 +1 @@
-contents
+target
\\ No newline at end of file
";
        let typechange = parse_one(text);
        assert_eq!(typechange.kind, ChangeKind::TypeChanged);
        assert_eq!(typechange.changed_lines(), 2);
    }

    #[test]
    fn binary_files() {
        let text = "\
diff --git a/logo.png b/logo.png
index 1111111..2222222 100644
Binary files a/logo.png and b/logo.png differ
diff --git a/icon.png b/icon.png
new file mode 100644
index 0000000000000000000000000000000000000000..1111111111111111111111111111111111111111
GIT binary patch
literal 12
Tcmb=Z@B+b-<K3`<Ac-{D

literal 0
HcmV?d00001

diff --git a/after.txt b/after.txt
--- a/after.txt
+++ b/after.txt
@@ -1 +1 @@
-a
+b
";
        let files = parse_unified_diff(text);
        assert_eq!(files.len(), 3);
        assert!(files[0].binary && files[0].hunks.is_empty());
        assert_eq!(files[0].kind, ChangeKind::Modified);
        assert!(files[1].binary && files[1].hunks.is_empty());
        assert_eq!(files[1].kind, ChangeKind::Added);
        assert_eq!(files[1].path, "icon.png");
        assert!(!files[2].binary);
        assert_eq!(files[2].changed_lines(), 2);
    }

    #[test]
    fn a_submodule_bump_names_both_commits() {
        let text = "diff --git a/sub b/sub\n--- a/sub\n+++ b/sub\n@@ -1 +1 @@\n-Subproject commit aaa\n+Subproject commit bbb\n";
        assert_eq!(
            parse_unified_diff(text)[0].submodule_bump(),
            Some(("aaa".to_string(), "bbb".to_string()))
        );
        let plain = "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n";
        assert_eq!(parse_unified_diff(plain)[0].submodule_bump(), None);
    }

    #[test]
    fn an_lfs_pointer_is_read_as_its_object_s_size() {
        let text = "diff --git a/big.bin b/big.bin\n--- a/big.bin\n+++ b/big.bin\n@@ -1,3 +1,3 @@\n version https://git-lfs.github.com/spec/v1\n-oid sha256:aaaa\n-size 1200\n+oid sha256:bbbb\n+size 3400\n";
        let files = parse_unified_diff(text);
        assert_eq!(files[0].lfs_sizes(), Some((Some(1200), Some(3400))));
        let added = "diff --git a/big.bin b/big.bin\nnew file mode 100644\n--- /dev/null\n+++ b/big.bin\n@@ -0,0 +1,3 @@\n+version https://git-lfs.github.com/spec/v1\n+oid sha256:bbbb\n+size 3400\n";
        assert_eq!(
            parse_unified_diff(added)[0].lfs_sizes(),
            Some((None, Some(3400)))
        );
        let plain =
            "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-size 3\n+size 4\n";
        assert_eq!(parse_unified_diff(plain)[0].lfs_sizes(), None);
    }

    #[test]
    fn quoted_paths() {
        let text = "\
diff --git \"a/caf\\303\\251.txt\" \"b/caf\\303\\251.txt\"
index 1111111..2222222 100644
--- \"a/caf\\303\\251.txt\"
+++ \"b/caf\\303\\251.txt\"
@@ -1 +1 @@
-a
+b
diff --git \"a/tab\\there\" \"b/quote\\\"and\\\\back\"
similarity index 100%
rename from \"tab\\there\"
rename to \"quote\\\"and\\\\back\"
";
        let files = parse_unified_diff(text);
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].path, "café.txt");
        assert_eq!(files[1].path, "quote\"and\\back");
        assert_eq!(files[1].old_path.as_deref(), Some("tab\there"));

        // Header-only entries rely on the `diff --git` paths.
        let only_header = parse_one(
            "diff --git \"a/\\346\\227\\245.md\" \"b/\\346\\227\\245.md\"\nold mode 100644\nnew mode 100755\n",
        );
        assert_eq!(only_header.path, "日.md");
        // Invalid UTF-8 is replaced, never a panic.
        let lossy =
            parse_one("diff --git \"a/\\377\" \"b/\\377\"\nold mode 100644\nnew mode 100755\n");
        assert_eq!(lossy.path, "\u{fffd}");
    }

    #[test]
    fn paths_with_spaces() {
        let text = "\
diff --git a/my dir/a b.txt b/my dir/a b.txt
index 1111111..2222222 100644
--- a/my dir/a b.txt\t
+++ b/my dir/a b.txt\t
@@ -1 +1 @@
-a
+b
";
        assert_eq!(parse_one(text).path, "my dir/a b.txt");
        let header_only =
            parse_one("diff --git a/x b/y b/x b/y\nold mode 100644\nnew mode 100755\n");
        assert_eq!(header_only.path, "x b/y");
    }

    #[test]
    fn omitted_counts_and_empty_context_lines() {
        let text = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -3 +3,2 @@\n\n+added\n";
        let file = parse_one(text);
        let hunk = &file.hunks[0];
        assert_eq!((hunk.old_start, hunk.old_lines), (3, 1));
        assert_eq!((hunk.new_start, hunk.new_lines), (3, 2));
        assert_eq!(hunk.lines.len(), 2);
        assert_eq!(hunk.lines[0].kind, LineKind::Context);
        assert_eq!(hunk.lines[0].content, "");
    }

    #[test]
    fn submodule_lines_are_plain_lines() {
        let text = "\
diff --git a/vendor/lib b/vendor/lib
index 1111111..2222222 160000
--- a/vendor/lib
+++ b/vendor/lib
@@ -1 +1 @@
-Subproject commit 1111111111111111111111111111111111111111
+Subproject commit 2222222222222222222222222222222222222222
";
        let file = parse_one(text);
        assert_eq!(file.changed_lines(), 2);
        assert_eq!(
            file.added_lines().next(),
            Some("Subproject commit 2222222222222222222222222222222222222222")
        );
    }

    #[test]
    fn crlf_headers() {
        let text = "diff --git a/w.txt b/w.txt\r\n--- a/w.txt\r\n+++ b/w.txt\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n";
        let file = parse_one(text);
        assert_eq!(file.path, "w.txt");
        assert_eq!(file.hunks[0].header, "@@ -1 +1 @@");
        assert_eq!(file.changed_lines(), 2);
    }

    #[test]
    fn render_round_trips() {
        let text = "\
diff --git a/src/lib.rs b/src/lib.rs
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -1,3 +1,4 @@ mod foo;
 use std::fmt;
-fn old() {}
+fn new() {}
+fn other() {}
 // end
diff --git a/README.md b/README.md
new file mode 100644
--- /dev/null
+++ b/README.md
@@ -0,0 +1 @@
+# Title
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/a.rs b/b.rs
rename from a.rs
rename to b.rs
diff --git a/run.sh b/run.sh
new file mode 100755
--- /dev/null
+++ b/run.sh
@@ -0,0 +1 @@
+echo hi
diff --git a/tool.sh b/tool.sh
old mode 100644
new mode 100755
diff --git a/script b/bin/script
old mode 100644
new mode 100755
rename from script
rename to bin/script
diff --git a/logo.png b/logo.png
Binary files a/logo.png and b/logo.png differ
diff --git \"a/café \\\"x\\\".txt\" \"b/café \\\"x\\\".txt\"
--- \"a/café \\\"x\\\".txt\"\t
+++ \"b/café \\\"x\\\".txt\"\t
@@ -1 +1 @@
-a
+b
";
        let files = parse_unified_diff(text);
        assert_eq!(files.len(), 9);
        let mut out = String::new();
        for file in &files {
            file.render(&mut out);
        }
        assert_eq!(out, text);
        assert_eq!(parse_unified_diff(&out), files);
    }

    #[test]
    fn render_binary_added() {
        let file = FileDiff {
            path: "new.bin".into(),
            old_path: None,
            kind: ChangeKind::Added,
            binary: true,
            large: None,
            hunks: Vec::new(),
            additions: 0,
            deletions: 0,
            old_mode: None,
            new_mode: None,
        };
        let mut out = String::new();
        file.render(&mut out);
        assert_eq!(
            out,
            "diff --git a/new.bin b/new.bin\nnew file mode 100644\nBinary files /dev/null and b/new.bin differ\n"
        );
    }

    #[test]
    fn large_diff_is_parsed_completely() {
        let mut text = String::new();
        for f in 0..2_000 {
            let _ = write!(
                text,
                "diff --git a/src/f{f}.rs b/src/f{f}.rs\n--- a/src/f{f}.rs\n+++ b/src/f{f}.rs\n@@ -1,50 +1,50 @@\n"
            );
            for i in 0..25 {
                let _ = writeln!(text, "-old line {i}\n+new line {i}");
            }
            for i in 0..25 {
                let _ = writeln!(text, " context {i}");
            }
        }
        let files = parse_unified_diff(&text);
        assert_eq!(files.len(), 2_000);
        assert!(files.iter().all(|f| f.additions == 25 && f.deletions == 25));
    }
}
