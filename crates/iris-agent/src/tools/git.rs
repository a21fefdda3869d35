//! The git tools: status, log, show, changed files, blame and repository facts.
//! (`git_diff`, with its relevance ranking, has a file of its own.)

use iris_studio_core::protocol::Risk;
use std::collections::HashSet;
use std::fmt::Write;

use schemars::JsonSchema;
use serde::Deserialize;

use super::{IrisTool, ToolContext, ToolFailure, blocking, bound_output};
use crate::evidence::{change_label, log};
use iris_studio_core::change::ChangeKind;
use iris_studio_git::{ChangedFile, DiffTarget, GitRepo, StatusEntry};

/// Output bounds, in characters, for tools whose size the model does not choose.
const MAX_STATUS_CHARS: usize = 20_000;
const MAX_BLAME_CHARS: usize = 30_000;

// ---------------------------------------------------------------- git_status

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GitStatusArgs {
    /// Also list unstaged and untracked files (staged files are always listed).
    #[serde(default)]
    pub include_unstaged: bool,
}

pub struct GitStatus;

impl IrisTool for GitStatus {
    const NAME: &'static str = "git_status";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "The current branch and the changed files: staged always, \
        unstaged and untracked with include_unstaged. Shows renames, conflicts and any merge or \
        rebase in progress.";
    type Args = GitStatusArgs;

    async fn run(&self, ctx: &ToolContext, args: GitStatusArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

impl GitStatus {
    fn run_blocking(ctx: &ToolContext, args: GitStatusArgs) -> Result<String, ToolFailure> {
        let repo = ctx.repo()?;
        let status = repo.status()?;
        let mut out = format!("Branch: {}\n", status.head);
        if let Some(op) = &status.operation {
            let _ = writeln!(out, "In progress: {op}");
        }
        let staged: Vec<&StatusEntry> = status.staged().collect();
        let conflicted: Vec<&StatusEntry> =
            status.entries.iter().filter(|e| e.conflicted).collect();
        let unstaged: Vec<&StatusEntry> = status
            .entries
            .iter()
            .filter(|e| e.unstaged.is_some() && !e.conflicted)
            .collect();
        let untracked: Vec<&StatusEntry> = status.entries.iter().filter(|e| e.untracked).collect();

        section(&mut out, "Staged", &staged, |e| e.staged);
        section(&mut out, "Conflicted (unmerged)", &conflicted, |_| None);
        if args.include_unstaged {
            section(&mut out, "Unstaged", &unstaged, |e| e.unstaged);
            section(&mut out, "Untracked", &untracked, |_| {
                Some(ChangeKind::Added)
            });
        } else if !unstaged.is_empty() || !untracked.is_empty() {
            let _ = writeln!(
                out,
                "\n{} unstaged and {} untracked not listed (pass include_unstaged: true).",
                unstaged.len(),
                untracked.len()
            );
        }
        if status.entries.is_empty() {
            out.push_str("\nWorking tree clean: nothing staged, modified or untracked.\n");
        }
        Ok(bound_output(
            out,
            MAX_STATUS_CHARS,
            "use git_changed_files or git_diff for a narrower view",
        ))
    }
}

fn section(
    out: &mut String,
    title: &str,
    entries: &[&StatusEntry],
    kind: impl Fn(&StatusEntry) -> Option<ChangeKind>,
) {
    if entries.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{title} ({}):", entries.len());
    for entry in entries {
        let label = kind(entry).map_or("conflict", change_label);
        match &entry.old_path {
            Some(old) if kind(entry) == Some(ChangeKind::Renamed) => {
                let _ = writeln!(out, "  {label:<9} {old} -> {}", entry.path);
            }
            _ => {
                let _ = writeln!(out, "  {label:<9} {}", entry.path);
            }
        }
    }
}

// ---------------------------------------------------------------- git_log

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GitLogArgs {
    /// How many recent commits to list (1-100, default 10). Ignored when a range is given.
    #[serde(default)]
    pub count: Option<usize>,
    /// Start of a range (exclusive): list the commits in from..to.
    #[serde(default)]
    pub from: Option<String>,
    /// End of a range (inclusive), default HEAD.
    #[serde(default)]
    pub to: Option<String>,
}

pub struct GitLog;

impl IrisTool for GitLog {
    const NAME: &'static str = "git_log";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Recent commits (count, default 10), or with from/to the \
        commits in from..to followed by the list of contributors (bots left out). Useful for the \
        repository's commit message style and for changelogs.";
    type Args = GitLogArgs;

    async fn run(&self, ctx: &ToolContext, args: GitLogArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

impl GitLog {
    fn run_blocking(ctx: &ToolContext, args: GitLogArgs) -> Result<String, ToolFailure> {
        let repo = ctx.repo()?;
        Ok(match (&args.from, &args.to) {
            (None, None) => log::recent(&repo, args.count.unwrap_or(10))?,
            (None, Some(_)) => {
                return Err(ToolFailure::new(
                    "'to' without 'from': give 'from' to list a range, or neither for recent commits",
                ));
            }
            (Some(from), to) => log::range(&repo, from, to.as_deref().unwrap_or("HEAD"))?,
        })
    }
}

// ---------------------------------------------------------------- git_show

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GitShowArgs {
    /// The commit: a hash, branch, tag or expression such as HEAD~2.
    pub commit: String,
    /// Only these files' patches (paths relative to the repository root).
    #[serde(default)]
    pub files: Option<Vec<String>>,
    /// Bound on the output (1000-50000, default 20000).
    #[serde(default)]
    pub max_output_chars: Option<usize>,
}

pub struct GitShow;

impl IrisTool for GitShow {
    const NAME: &'static str = "git_show";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "One commit: its message, author, date, a stat of the \
        files it changed and its patch (against the first parent), optionally limited to files.";
    type Args = GitShowArgs;

    async fn run(&self, ctx: &ToolContext, args: GitShowArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

impl GitShow {
    fn run_blocking(ctx: &ToolContext, args: GitShowArgs) -> Result<String, ToolFailure> {
        let max = args.max_output_chars.unwrap_or(20_000).clamp(1_000, 50_000);
        let repo = ctx.repo()?;
        let files = args.files.unwrap_or_default();
        let shown = repo.show(&args.commit, &files)?;
        let c = &shown.commit;
        let mut out = String::new();
        let _ = writeln!(out, "commit {}", c.id);
        if c.parent_count > 1 {
            let _ = writeln!(
                out,
                "Merge: {} parents (patch shown against the first)",
                c.parent_count
            );
        }
        let _ = writeln!(out, "Author: {} <{}>", c.author_name, c.author_email);
        if shown.committer_email != c.author_email {
            let _ = writeln!(
                out,
                "Committer: {} <{}>",
                shown.committer_name, shown.committer_email
            );
        }
        let _ = writeln!(out, "Date: {}\n", c.date());
        for line in c.message.lines() {
            let _ = writeln!(out, "    {line}");
        }
        let _ = write!(out, "\n{}\n{}", shown.stat, as_read(&shown.patch));
        Ok(bound_output(
            out,
            max,
            "pass files to see particular patches, or raise max_output_chars",
        ))
    }
}

/// A patch as the model reads it: the same text, unless a file in it is one git LFS stores,
/// whose pointer then reads as its object's size (as in git_diff).
fn as_read(patch: &str) -> std::borrow::Cow<'_, str> {
    let files = iris_studio_core::change::parse_unified_diff(patch);
    if !files.iter().any(|f| f.lfs_sizes().is_some()) {
        return patch.into();
    }
    let notes = crate::evidence::diff::Notes::new();
    files
        .iter()
        .map(|f| crate::evidence::diff::file_text(f, &notes))
        .collect::<Vec<_>>()
        .join("\n")
        .into()
}

// ---------------------------------------------------------------- git_changed_files

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GitChangedFilesArgs {
    /// Start of a range (exclusive); needs `to`.
    #[serde(default)]
    pub from: Option<String>,
    /// End of a range; alone, the files of that one commit.
    #[serde(default)]
    pub to: Option<String>,
}

pub struct GitChangedFiles;

impl IrisTool for GitChangedFiles {
    const NAME: &'static str = "git_changed_files";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "The files a change touches, with their status: the staged \
        files when neither from nor to is given, one commit's files with only `to`, the files of \
        from..to with both.";
    type Args = GitChangedFilesArgs;

    async fn run(
        &self,
        ctx: &ToolContext,
        args: GitChangedFilesArgs,
    ) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

impl GitChangedFiles {
    fn run_blocking(ctx: &ToolContext, args: GitChangedFilesArgs) -> Result<String, ToolFailure> {
        let target = match (args.from, args.to) {
            (None, None) => DiffTarget::Staged,
            (None, Some(to)) => DiffTarget::Commit(to),
            (Some(from), Some(to)) => DiffTarget::Range { from, to },
            (Some(_), None) => {
                return Err(ToolFailure::new(
                    "'from' needs 'to': give both for a range, only 'to' for one commit, or neither for the staged files",
                ));
            }
        };
        let repo: GitRepo = ctx.repo()?;
        let files = repo.changed_files(&target)?;
        Ok(render_changed_files(&files, &target))
    }
}

fn render_changed_files(files: &[ChangedFile], target: &DiffTarget) -> String {
    let what = match target {
        DiffTarget::Staged => "staged".to_string(),
        DiffTarget::Commit(rev) => format!("in commit {rev}"),
        DiffTarget::Range { from, to } => format!("in {from}..{to}"),
        DiffTarget::Unstaged | DiffTarget::WorkingTree => "in the working tree".to_string(),
    };
    if files.is_empty() {
        return format!("No files changed {what}.\n");
    }
    let mut out = format!("{} file(s) changed {what}:\n", files.len());
    for file in files {
        let label = if file.conflicted {
            "conflict"
        } else {
            change_label(file.kind)
        };
        match &file.old_path {
            Some(old) => {
                let _ = writeln!(out, "  {label:<9} {old} -> {}", file.path);
            }
            None => {
                let _ = writeln!(out, "  {label:<9} {}", file.path);
            }
        }
    }
    bound_output(out, MAX_STATUS_CHARS, "narrow the range")
}

// ---------------------------------------------------------------- git_blame

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GitBlameArgs {
    /// The file, relative to the repository root.
    pub file: String,
    /// First line (1-based, default 1).
    #[serde(default)]
    pub start_line: Option<usize>,
    /// Last line (default: the end of the file).
    #[serde(default)]
    pub end_line: Option<usize>,
    /// How many of the most recent commits behind these lines to describe (1-10, default 3).
    #[serde(default)]
    pub recent_commits: Option<usize>,
}

pub struct GitBlame;

impl IrisTool for GitBlame {
    const NAME: &'static str = "git_blame";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Who last changed each line of a committed file (a line \
        range of it), and the messages of the most recent commits behind those lines.";
    type Args = GitBlameArgs;

    async fn run(&self, ctx: &ToolContext, args: GitBlameArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

impl GitBlame {
    fn run_blocking(ctx: &ToolContext, args: GitBlameArgs) -> Result<String, ToolFailure> {
        let start = args.start_line.unwrap_or(1).max(1);
        if let Some(end) = args.end_line
            && end < start
        {
            return Err(ToolFailure::new(format!(
                "end_line ({end}) is before start_line ({start})"
            )));
        }
        let recent = args.recent_commits.unwrap_or(3).clamp(1, 10);
        let repo = ctx.repo()?;
        let lines = repo.blame(&args.file, start, args.end_line)?;
        let mut out = format!(
            "Blame of {} lines {}-{} (as committed at HEAD):\n",
            args.file,
            start,
            lines.last().map_or(start, |l| l.line)
        );
        for l in &lines {
            let _ = writeln!(out, "{} {:>5}| {}", l.short_id, l.line, l.content);
        }
        // The newest commits first, each once.
        let mut by_time: Vec<(i64, &str)> =
            lines.iter().map(|l| (l.time, l.commit.as_str())).collect();
        by_time.sort_by(|a, b| b.cmp(a));
        let mut seen = HashSet::new();
        let newest: Vec<&str> = by_time
            .into_iter()
            .filter(|(_, id)| seen.insert(*id))
            .map(|(_, id)| id)
            .take(recent)
            .collect();
        let _ = writeln!(out, "\nMost recent commits behind these lines:");
        for id in newest {
            let commit = repo.commit_info(id)?;
            let _ = writeln!(
                out,
                "{} {} {}: {}",
                commit.short_id,
                commit.date(),
                commit.author_name,
                commit.summary
            );
        }
        Ok(bound_output(
            out,
            MAX_BLAME_CHARS,
            "blame a smaller line range",
        ))
    }
}

// ---------------------------------------------------------------- git_repo_info

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GitRepoInfoArgs {}

pub struct GitRepoInfo;

impl IrisTool for GitRepoInfo {
    const NAME: &'static str = "git_repo_info";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "The repository's path, current branch, remote URL, \
        number of commits and default branch.";
    type Args = GitRepoInfoArgs;

    async fn run(&self, ctx: &ToolContext, _args: GitRepoInfoArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, _args)).await
    }
}

impl GitRepoInfo {
    fn run_blocking(ctx: &ToolContext, _args: GitRepoInfoArgs) -> Result<String, ToolFailure> {
        let info = ctx.repo()?.info()?;
        Ok(format!(
            "Path: {}\nBranch: {}\nRemote: {}\nCommits: {}\nDefault branch: {}\n",
            info.root.display(),
            info.head,
            info.remote_url.as_deref().unwrap_or("(none)"),
            info.commit_count,
            info.default_branch.as_deref().unwrap_or("(unknown)"),
        ))
    }
}
