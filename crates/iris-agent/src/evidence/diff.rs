//! A change as the model reads it: the files ranked by relevance with their reasons, and
//! their diffs. One renderer for the `git_diff` tool's answers and for the evidence the
//! first request carries up front.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::bound_output;
use iris_studio_core::change::relevance::is_lock_or_generated;
use iris_studio_core::change::size::SizeBucket;
use iris_studio_core::change::size::guidance;
use iris_studio_core::change::{
    ChangeKind, FileDiff, LargeText, Relevance, ScoredFile, most_relevant_first, rank_files,
    score_lines, size_bucket,
};
use iris_studio_core::packages;
use iris_studio_git::{DiffTarget, GitRepo};

use super::change_label;

/// Files listed with their reasons; the rest get one short line each.
const DETAILED_FILES: usize = 40;
/// Bound on the summary part; past it, the remaining files are counted by directory.
const MAX_SUMMARY_CHARS: usize = 24_000;
/// Bound on the whole answer with full diffs.
const MAX_STANDARD_CHARS: usize = 60_000;
/// Lines of one file's diff shown when no `files` were named.
const MAX_LINES_PER_FILE: usize = 400;
/// Lock and generated files below this score keep their diff out of `standard`.
const LOW_RELEVANCE: f32 = 0.5;

/// One file as the ranking lists it.
struct Row<'a> {
    path: &'a str,
    old_path: Option<&'a str>,
    kind: ChangeKind,
    binary: bool,
    large: Option<LargeText>,
    additions: usize,
    deletions: usize,
    relevance: &'a Relevance,
}

impl<'a> Row<'a> {
    fn of(scored: &'a ScoredFile<'a>) -> Self {
        let f = scored.file;
        Row {
            path: &f.path,
            old_path: f.old_path.as_deref(),
            kind: f.kind,
            binary: f.binary,
            large: f.large,
            additions: f.additions,
            deletions: f.deletions,
            relevance: &scored.relevance,
        }
    }
}

/// The summary alone, from each file's changed lines: they are scored as they are read, on
/// the diff's threads, and not kept (a diff of thousands of files would hold them all).
pub(crate) fn summary(
    repo: &GitRepo,
    target: &DiffTarget,
    named: &[String],
) -> iris_studio_git::Result<String> {
    let list = repo.change_list(target, named)?;
    let scored = repo.map_changed_lines(&list, |file, lines| {
        let (relevance, _) = score_lines(&file.path, file.kind, lines.added, lines.removed);
        let (added, removed) = lines
            .large
            .map_or((lines.added.len(), lines.removed.len()), |large| {
                large.additions_deletions()
            });
        (relevance, added, removed, lines.binary, lines.large)
    })?;
    let mut rows: Vec<Row<'_>> = list
        .files
        .iter()
        .zip(&scored)
        .map(
            |(f, (relevance, additions, deletions, binary, large))| Row {
                path: &f.path,
                old_path: f.old_path.as_deref(),
                kind: f.kind,
                binary: *binary,
                large: *large,
                additions: *additions,
                deletions: *deletions,
                relevance,
            },
        )
        .collect();
    if rows.is_empty() {
        return Ok(no_changes(target));
    }
    rows.sort_by(|a, b| most_relevant_first((a.relevance, a.path), (b.relevance, b.path)));
    let mut out = header(&rows, target, !named.is_empty());
    out.push_str(RANKING);
    write_ranking(&mut out, &rows, MAX_SUMMARY_CHARS);
    Ok(out)
}

/// The change as the first request carries it, in at most about `budget` characters: the
/// summary, then the full diffs of the most relevant files that fit (every file of a Small
/// change, at most [`EVIDENCE_FILES`] of a bigger one), and what is left for the tool.
pub fn up_front(
    repo: &GitRepo,
    target: &DiffTarget,
    budget: usize,
) -> iris_studio_git::Result<String> {
    let diff = repo.diff_files(target, &[])?;
    let notes = submodule_notes(repo, &diff);
    if diff.is_empty() {
        return Ok(no_changes(target));
    }
    let ranked = rank_files(&diff);
    let rows: Vec<Row<'_>> = ranked.iter().map(Row::of).collect();
    // The ranking first, as long as it would be with the head alone: which diffs fit is
    // measured from it.
    let head = header(&rows, target, false);
    let mut ranking = head.clone();
    ranking.push_str(RANKING);
    write_ranking(&mut ranking, &rows, budget / 3);
    let small = size_bucket(diff.len(), lines(&diff), false) == SizeBucket::Small;
    let limit = if small { diff.len() } else { EVIDENCE_FILES };
    let mut diffs = String::new();
    let mut shown = Vec::new();
    let mut left = Vec::new();
    for scored in &ranked {
        let f = scored.file;
        if is_lock_or_generated(&f.path) && scored.relevance.score < LOW_RELEVANCE {
            left.push(f.path.as_str());
            continue;
        }
        let text = file_text(f, &notes);
        if shown.len() < limit && ranking.len() + diffs.len() + text.len() < budget {
            diffs.push('\n');
            diffs.push_str(&text);
            shown.push(f.path.as_str());
        } else {
            left.push(f.path.as_str());
        }
    }
    // What follows the ranking is said before it.
    let listed = &ranking[head.len()..];
    let mut out = head;
    if !shown.is_empty() {
        if left.is_empty() {
            out.push_str(
                "\nThe full diffs of every file follow the ranking: this is the whole change, \
                 git_diff would show nothing more.\n",
            );
        } else {
            let _ = writeln!(
                out,
                "\nThe full diffs of the {} most relevant file(s) follow the ranking.",
                shown.len()
            );
        }
    }
    out.push_str(listed);
    out.push_str(&diffs);
    if !left.is_empty() {
        // What a lock's diff would say is in the request already.
        let locks = match left.iter().any(|path| packages::Format::of(path).is_some()) {
            true => format!(
                "; the packages the lock files move are listed under \"{}\"",
                packages::HEADING
            ),
            false => String::new(),
        };
        let _ = writeln!(
            out,
            "\n[not shown: the diffs of {} other file(s) ({}); git_diff with detail=standard and files=[...] reads them{locks}]",
            left.len(),
            first_of(&left, 20),
        );
    }
    Ok(out)
}

/// Files of a bigger change whose diffs the first request carries.
const EVIDENCE_FILES: usize = 5;

fn lines(diff: &[FileDiff]) -> usize {
    diff.iter().map(|f| f.additions + f.deletions).sum()
}

/// How the ranking of the files begins, after the [`header`].
const RANKING: &str = "\nFiles by relevance:\n";

/// "Staged changes: 3 file(s), +10 -2 (12 lines)", the size and its advice.
fn header(rows: &[Row<'_>], target: &DiffTarget, filtered: bool) -> String {
    let added: usize = rows.iter().map(|f| f.additions).sum();
    let removed: usize = rows.iter().map(|f| f.deletions).sum();
    let bucket = size_bucket(rows.len(), added + removed, filtered);
    format!(
        "{}: {} file(s), +{added} -{removed} ({} lines)\nSize: {}. {}\n",
        describe(target),
        rows.len(),
        added + removed,
        bucket.name(),
        guidance(bucket, rows.len(), added + removed),
    )
}

/// The answer when `target` changes nothing.
fn no_changes(target: &DiffTarget) -> String {
    let hint = match target {
        DiffTarget::Staged => " (nothing is staged; see git_status with include_unstaged)",
        _ => "",
    };
    format!("{}: no changes{hint}.\n", describe(target))
}

fn describe(target: &DiffTarget) -> String {
    match target {
        DiffTarget::Staged => "Staged changes".to_string(),
        DiffTarget::Unstaged => "Unstaged changes".to_string(),
        DiffTarget::WorkingTree => "Uncommitted changes".to_string(),
        DiffTarget::Range { from, to } => format!("Changes in {from}..{to}"),
        DiffTarget::Commit(rev) => format!("Changes of commit {rev}"),
    }
}

/// The answer with full diffs, as the model reads it. Pure: everything it shows comes from
/// `diff`.
pub(crate) fn render(
    diff: &[FileDiff],
    target: &DiffTarget,
    named: &[String],
    notes: &Notes,
) -> String {
    if diff.is_empty() {
        return no_changes(target);
    }
    let ranked = rank_files(diff);
    let rows: Vec<Row<'_>> = ranked.iter().map(Row::of).collect();
    let mut out = header(&rows, target, !named.is_empty());
    out.push_str(RANKING);
    write_ranking(&mut out, &rows, MAX_SUMMARY_CHARS);
    write_diffs(&mut out, &ranked, !named.is_empty(), notes);
    bound_output(
        out,
        MAX_STANDARD_CHARS,
        "request fewer files with `files` to see the rest",
    )
}

fn write_ranking(out: &mut String, rows: &[Row<'_>], max_chars: usize) {
    for (i, f) in rows.iter().enumerate() {
        if out.len() > max_chars {
            write_remaining(out, &rows[i..]);
            return;
        }
        let r = f.relevance;
        let name = match &f.old_path {
            Some(old) => format!("{old} -> {}", f.path),
            None => f.path.to_string(),
        };
        let size = match (f.binary, &f.large) {
            (true, _) => "binary".to_string(),
            (false, Some(large)) => large_text(large, f.kind),
            (false, None) => format!("+{} -{}", f.additions, f.deletions),
        };
        if i < DETAILED_FILES {
            let _ = writeln!(
                out,
                "{:>3}% {} {name} ({}, {size})\n      {}",
                r.percent(),
                r.stars(),
                change_label(f.kind),
                r.reasons.join("; ")
            );
        } else {
            let _ = writeln!(out, "{:>3}% {name} ({size})", r.percent());
        }
    }
}

/// A text file too large to show, as its ranking row says it: its size and lines.
fn large_text(large: &LargeText, kind: ChangeKind) -> String {
    let size = human_size(large.bytes);
    let lines = match kind {
        ChangeKind::Added => format!("+{} -0", large.new_lines),
        ChangeKind::Deleted => format!("+0 -{}", large.old_lines),
        _ => format!(
            "{} lines, was {}: too large to diff, so the changed lines are not counted",
            large.new_lines, large.old_lines
        ),
    };
    format!("large text file, {size}, {lines}; too large to show, git_diff shows no lines of it")
}

/// Bytes as people read them: `512 B`, `3.1 MB`.
fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut size = bytes as f64 / 1024.0;
    let mut unit = 0;
    while size >= 1024.0 && unit + 1 < UNITS.len() {
        size /= 1024.0;
        unit += 1;
    }
    format!("{size:.1} {}", UNITS[unit])
}

/// The files past the summary's bound, counted by top-level directory.
fn write_remaining(out: &mut String, rest: &[Row<'_>]) {
    let mut by_dir: BTreeMap<&str, usize> = BTreeMap::new();
    for row in rest {
        let dir = row.path.split_once('/').map_or(".", |(dir, _)| dir);
        *by_dir.entry(dir).or_default() += 1;
    }
    let mut dirs: Vec<(&str, usize)> = by_dir.into_iter().collect();
    dirs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let listed: Vec<String> = dirs
        .iter()
        .map(|(dir, n)| format!("{dir}/ ({n})"))
        .collect();
    let _ = writeln!(
        out,
        "... and {} lower-relevance file(s), by directory: {}",
        rest.len(),
        first_of(&listed, 20),
    );
}

/// The first `n` items, comma-separated, with ", ..." when there are more.
fn first_of<S: AsRef<str>>(items: &[S], n: usize) -> String {
    let shown: Vec<&str> = items.iter().take(n).map(AsRef::as_ref).collect();
    let more = if items.len() > n { ", ..." } else { "" };
    format!("{}{more}", shown.join(", "))
}

/// What a file's diff alone does not say, by path: a submodule bump's commits.
pub(crate) type Notes = BTreeMap<String, String>;

/// For each submodule the change moves, the titles of the commits the bump brings (as `git
/// diff --submodule=log` lists them), or why they cannot be listed.
pub(crate) fn submodule_notes(repo: &iris_studio_git::GitRepo, diff: &[FileDiff]) -> Notes {
    const MOST: usize = 50;
    diff.iter()
        .filter_map(|f| {
            let (old, new) = f.submodule_bump()?;
            let short = |id: &str| id.chars().take(7).collect::<String>();
            let head = format!("Submodule {} {}..{}", f.path, short(&old), short(&new));
            let text = match repo.submodule_titles(&f.path, &old, &new, MOST) {
                Ok(titles) if titles.is_empty() => {
                    format!("{head}: no new commits (it moved back)")
                }
                Ok(titles) => {
                    let listed: Vec<String> = titles.iter().map(|t| format!("  > {t}")).collect();
                    format!("{head}:\n{}", listed.join("\n"))
                }
                Err(why) => format!("{head}: its commits cannot be listed: {why}"),
            };
            Some((f.path.clone(), text))
        })
        .collect()
}

/// A file's diff as the model reads it, with what `notes` add; a file git LFS stores is its
/// object's size, since its pointer's text says nothing.
pub(crate) fn file_text(f: &FileDiff, notes: &Notes) -> String {
    if let Some(sizes) = f.lfs_sizes() {
        let what = match sizes {
            (None, Some(new)) => format!("{new} bytes, added"),
            (Some(old), None) => format!("{old} bytes, removed"),
            (Some(old), Some(new)) => format!("{old} bytes before, {new} bytes now"),
            (None, None) => "its size unknown".to_string(),
        };
        return format!("[{}: an LFS object, {what}]\n", f.path);
    }
    let mut text = String::new();
    f.render(&mut text);
    if let Some(note) = notes.get(&f.path) {
        text.push_str(note);
        text.push('\n');
    }
    text
}

fn write_diffs(out: &mut String, ranked: &[ScoredFile<'_>], named: bool, notes: &Notes) {
    out.push_str("\nDiffs (most relevant first):\n");
    for scored in ranked {
        let f = scored.file;
        if !named && is_lock_or_generated(&f.path) && scored.relevance.score < LOW_RELEVANCE {
            let _ = writeln!(
                out,
                "\n[diff of {} left out: lock or generated file, +{} -{}]",
                f.path, f.additions, f.deletions
            );
            continue;
        }
        let text = file_text(f, notes);
        if !named && text.lines().count() > MAX_LINES_PER_FILE {
            let kept: Vec<&str> = text.lines().take(MAX_LINES_PER_FILE).collect();
            let _ = writeln!(
                out,
                "\n{}\n[diff of {} cut at {MAX_LINES_PER_FILE} lines; request it with files: [\"{}\"]]",
                kept.join("\n"),
                f.path,
                f.path
            );
        } else {
            out.push('\n');
            out.push_str(&text);
        }
    }
}
