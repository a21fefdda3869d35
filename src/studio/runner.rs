//! The effects runner: carries out what `update` asks for, off the UI thread (git work in
//! `spawn_blocking`, Iris in tokio tasks kept by id so Esc can abort them), and sends the
//! results back as actions.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;

use super::action::{Action, ChatOutcome, OpenedFile, RepoSnapshot};
use super::effect::Effect;
use super::ranking::rank_staged;
use super::state::{ChatMessage, CommitRow, FileEntry, Mode, Speaker};
use super::ui::highlight;
use crate::agent::IrisAgent;
use crate::agent::chat::{ChatTarget, Turn};
use crate::agent::requests::Scope;
use crate::agent::{AgentEvent, EventSink};
use crate::git::{CommitOptions, DiffTarget, GitRepo};

pub struct Runner {
    tx: UnboundedSender<Action>,
    root: PathBuf,
    drafts: PathBuf,
    /// Draft writes, carried out one after another so a later text never loses to an earlier
    /// one (`None` removes the draft).
    draft_writes: UnboundedSender<(PathBuf, Option<String>)>,
    /// The task writing them, awaited on the way out.
    draft_writer: JoinHandle<()>,
    iris: Option<Arc<IrisAgent>>,
    tasks: HashMap<u64, JoinHandle<()>>,
}

impl Runner {
    pub fn new(
        tx: UnboundedSender<Action>,
        root: PathBuf,
        git_dir: PathBuf,
        iris: Option<IrisAgent>,
    ) -> Self {
        let (draft_writes, draft_writer) = draft_writer();
        Self {
            tx,
            root,
            drafts: git_dir.join("iris").join("drafts"),
            draft_writes,
            draft_writer,
            iris: iris.map(Arc::new),
            tasks: HashMap::new(),
        }
    }

    pub fn run(&mut self, effect: Effect) {
        self.tasks.retain(|_, handle| !handle.is_finished());
        match effect {
            Effect::LoadStatus => {
                let tx = self.tx.clone();
                self.blocking(move |root| {
                    send_rankings(&tx, &root);
                    Action::StatusLoaded(snapshot(root))
                });
            }
            Effect::LoadDiff { path } => self.blocking(move |root| {
                let (result, staged) = match file_diff(root, &path) {
                    Ok((files, staged)) => (Ok(files), Some(staged)),
                    Err(err) => (Err(err), None),
                };
                diff_loaded(path, result, staged)
            }),
            Effect::Generate { task, mode, range } => self.generate(task, mode, range),
            Effect::LoadTree => self.blocking(|root| Action::TreeLoaded(tree(&root))),
            Effect::OpenFile { path } => self.blocking(move |root| Action::FileOpened {
                result: open_file(&root, &path),
                path,
            }),
            Effect::LoadCommits { mode, from, to } => {
                self.blocking(move |root| Action::CommitsLoaded {
                    mode,
                    result: commits(root, mode, from, to),
                })
            }
            Effect::LoadCommitDiff { id } => self.blocking(move |root| {
                let path = format!("commit {}", &id[..id.len().min(7)]);
                let result = GitRepo::discover(&root)
                    .and_then(|repo| repo.diff_files(&DiffTarget::Commit(id), &[]))
                    .map_err(|e| e.to_string());
                diff_loaded(path, result, None)
            }),
            Effect::Chat {
                task,
                mode,
                history,
                message,
                artifact,
            } => self.chat(task, mode, history, message, artifact),
            Effect::Cancel { task } => {
                if let Some(handle) = self.tasks.remove(&task) {
                    handle.abort();
                }
            }
            Effect::Stage { path } => self.git(false, move |repo| {
                repo.stage(&path)?;
                Ok(format!("staged {path}"))
            }),
            Effect::Unstage { path } => self.git(false, move |repo| {
                repo.unstage(&path)?;
                Ok(format!("unstaged {path}"))
            }),
            Effect::StageAll => self.git(false, |repo| {
                repo.stage_all()?;
                Ok("staged everything".to_string())
            }),
            Effect::UnstageAll => self.git(false, |repo| {
                repo.unstage_all()?;
                Ok("unstaged everything".to_string())
            }),
            Effect::StageHunk { path, hunk } => self.git(false, move |repo| {
                repo.stage_hunk(&path, hunk)?;
                Ok(format!("staged hunk {} of {path}", hunk + 1))
            }),
            Effect::UnstageHunk { path, hunk } => self.git(false, move |repo| {
                repo.unstage_hunk(&path, hunk)?;
                Ok(format!("unstaged hunk {} of {path}", hunk + 1))
            }),
            Effect::Commit { message, flags } => self.git(true, move |repo| {
                let options = CommitOptions {
                    amend: flags.amend,
                    no_verify: flags.no_verify,
                };
                Ok(repo.commit(&message, options)?)
            }),
            Effect::SaveDraft { mode, text } => {
                let _ = self
                    .draft_writes
                    .send((self.drafts.join(format!("{}.md", mode.name())), Some(text)));
            }
            Effect::ClearDraft { mode } => {
                let _ = self
                    .draft_writes
                    .send((self.drafts.join(format!("{}.md", mode.name())), None));
            }
        }
    }

    /// The first loads: the drafts an earlier session left, then the status, in that order.
    /// A restored draft has to be in place before the status arrives, or entering commit mode
    /// would have Iris write a message over the one the user already has.
    pub fn start(&self) {
        let drafts = self.drafts.clone();
        let root = self.root.clone();
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let found: Vec<(Mode, String)> = Mode::ALL
                .into_iter()
                .filter_map(|mode| {
                    let text =
                        std::fs::read_to_string(drafts.join(format!("{}.md", mode.name()))).ok()?;
                    (!text.trim().is_empty()).then_some((mode, text))
                })
                .collect();
            // Nothing found changes nothing on screen: no action, no frame to wait for.
            if !found.is_empty() {
                let _ = tx.send(Action::DraftsLoaded(found));
            }
            // The ranked staged files first (a diff of the index, using every core), then the
            // full status (a walk of the working tree) fills in, while the syntax definitions
            // load, so the first highlighted diff does not hold up the UI thread.
            send_rankings(&tx, &root);
            tokio::task::spawn_blocking(highlight::preload);
            let _ = tx.send(Action::StatusLoaded(snapshot(root)));
        });
    }

    /// On the way out: the drafts still queued are written (a quit right after typing
    /// keeps the last keys), for a few seconds at most; Iris' tasks are stopped.
    pub async fn finish(self) {
        for handle in self.tasks.values() {
            handle.abort();
        }
        drop(self.draft_writes);
        let _ = tokio::time::timeout(std::time::Duration::from_secs(3), self.draft_writer).await;
    }

    fn blocking(&self, work: impl FnOnce(PathBuf) -> Action + Send + 'static) {
        let tx = self.tx.clone();
        let root = self.root.clone();
        tokio::task::spawn_blocking(move || {
            let _ = tx.send(work(root));
        });
    }

    fn git(
        &self,
        committed: bool,
        work: impl FnOnce(&GitRepo) -> anyhow::Result<String> + Send + 'static,
    ) {
        self.blocking(move |root| {
            let result = GitRepo::discover(&root)
                .map_err(anyhow::Error::from)
                .and_then(|repo| work(&repo))
                .map_err(|e| format!("{e:#}"));
            Action::GitDone { result, committed }
        });
    }

    /// Forwards a task's events to the studio as actions.
    fn sink(&self, task: u64) -> EventSink {
        let (events, mut rx) = unbounded_channel::<AgentEvent>();
        let tx = self.tx.clone();
        tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                if tx.send(Action::Agent { task, event }).is_err() {
                    break;
                }
            }
        });
        EventSink::new(events)
    }

    fn generate(&mut self, task: u64, mode: Mode, range: Option<(String, String)>) {
        let (Some(iris), Some(kind)) = (self.iris.clone(), mode.artifact()) else {
            return;
        };
        let tx = self.tx.clone();
        let sink = self.sink(task);
        let handle = tokio::spawn(async move {
            let scope = match range {
                Some((from, to)) if kind.uses_range() => Scope::range(&from, &to),
                _ if kind.uses_range() => Scope::range("HEAD~1", "HEAD"),
                _ => Scope::Staged,
            };
            let result = iris.write(kind, &scope, false, &sink).await;
            let _ = tx.send(Action::Generated {
                task,
                mode,
                result: result.map(|w| w.text).map_err(|e| format!("{e:#}")),
            });
        });
        self.tasks.insert(task, handle);
    }

    fn chat(
        &mut self,
        task: u64,
        mode: Mode,
        history: Vec<ChatMessage>,
        message: String,
        artifact: String,
    ) {
        let (Some(iris), Some(kind)) = (self.iris.clone(), mode.artifact()) else {
            return;
        };
        let tx = self.tx.clone();
        let sink = self.sink(task);
        let updates = self.tx.clone();
        let handle = tokio::spawn(async move {
            let target = ChatTarget { kind, artifact };
            let turns: Vec<Turn> = history
                .into_iter()
                .map(|m| Turn {
                    from_user: m.speaker == Speaker::User,
                    text: m.text,
                })
                .collect();
            let on_update = Arc::new(move |text: String| {
                let _ = updates.send(Action::ArtifactUpdated { task, mode, text });
            });
            let result = iris.chat(&target, &turns, &message, on_update, &sink).await;
            let _ = tx.send(Action::ChatReplied {
                task,
                mode,
                result: result
                    .map(|reply| ChatOutcome { reply })
                    .map_err(|e| format!("{e:#}")),
            });
        });
        self.tasks.insert(task, handle);
    }
}

/// The task that writes drafts in order, off the UI thread.
fn draft_writer() -> (UnboundedSender<(PathBuf, Option<String>)>, JoinHandle<()>) {
    let (tx, mut rx) = unbounded_channel::<(PathBuf, Option<String>)>();
    let writer = tokio::spawn(async move {
        while let Some((path, text)) = rx.recv().await {
            let _ = tokio::task::spawn_blocking(move || match text {
                Some(text) => {
                    if let Some(dir) = path.parent() {
                        let _ = std::fs::create_dir_all(dir);
                    }
                    let _ = std::fs::write(path, text);
                }
                None => {
                    let _ = std::fs::remove_file(path);
                }
            })
            .await;
        }
    });
    (tx, writer)
}

/// Files bigger than this open as "too large" rather than being read.
const MAX_OPEN_BYTES: u64 = 2 * 1024 * 1024;

/// The repository's files (what .gitignore does not ignore), sorted.
fn tree(root: &std::path::Path) -> Result<Vec<String>, String> {
    let mut files: Vec<String> = ignore::WalkBuilder::new(root)
        .hidden(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| {
            e.path()
                .strip_prefix(root)
                .ok()
                .map(|p| p.to_string_lossy().replace('\\', "/"))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// A file's lines (None when binary or too large) and its last commits.
fn open_file(root: &std::path::Path, path: &str) -> Result<OpenedFile, String> {
    let full = root.join(path);
    let size = std::fs::metadata(&full).map_err(|e| e.to_string())?.len();
    let lines: Option<Vec<String>> = if size > MAX_OPEN_BYTES {
        None
    } else {
        let bytes = std::fs::read(&full).map_err(|e| e.to_string())?;
        (!crate::git::looks_binary(&bytes)).then(|| {
            String::from_utf8_lossy(&bytes)
                .lines()
                .map(str::to_string)
                .collect()
        })
    };
    if let Some(lines) = &lines {
        highlight::warm(path, lines.iter().take(WARM_LINES).map(String::as_str));
    }
    let repo = GitRepo::discover(root).map_err(|e| e.to_string())?;
    let history = repo
        .file_history(path, 20)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(CommitRow::from)
        .collect();
    Ok(OpenedFile { lines, history })
}

/// The commits of FROM..TO; without FROM, the default branch for a PR and the latest tag (else
/// the default branch) for a changelog or release notes.
fn commits(
    root: PathBuf,
    mode: Mode,
    from: Option<String>,
    to: Option<String>,
) -> Result<(String, Vec<CommitRow>), String> {
    let repo = GitRepo::discover(&root).map_err(|e| e.to_string())?;
    let from = match from {
        Some(from) => from,
        None => {
            let tag = if mode == Mode::PR {
                None
            } else {
                repo.latest_tag()
            };
            tag.or_else(|| repo.default_branch()).ok_or_else(|| {
                "no default branch or tag to start from: R picks the range".to_string()
            })?
        }
    };
    let to = to.unwrap_or_else(|| "HEAD".to_string());
    let rows = repo
        .log_range(&from, &to, 1000)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(CommitRow::from)
        .collect();
    Ok((from, rows))
}

/// Every changed path from `git status` (relevance comes from [`ranking`]).
pub fn snapshot(root: PathBuf) -> Result<RepoSnapshot, String> {
    let status = GitRepo::discover(&root)
        .and_then(|repo| repo.status())
        .map_err(|e| e.to_string())?;
    let files = status
        .entries
        .into_iter()
        .map(|e| FileEntry {
            relevance: None,
            path: e.path,
            staged: e.staged,
            unstaged: e.unstaged,
            untracked: e.untracked,
            conflicted: e.conflicted,
        })
        .collect();
    Ok(RepoSnapshot {
        branch: status.head.to_string(),
        files,
    })
}

/// Sends the first ranking (from paths and kinds) and then the complete one.
fn send_rankings(tx: &UnboundedSender<Action>, root: &std::path::Path) {
    rank_staged(root, |result, complete| {
        let _ = tx.send(Action::RankingLoaded { result, complete });
    });
}

/// About a screenful of lines: what the first frame of a diff or file shows.
const WARM_LINES: usize = 100;

/// A loaded diff, with the highlighting patterns its first screen needs compiled here in the
/// background rather than in the UI thread's next frame.
fn diff_loaded(
    path: String,
    result: Result<Vec<crate::change::FileDiff>, String>,
    staged: Option<usize>,
) -> Action {
    if let Ok(files) = &result {
        warm_highlighting(files);
    }
    Action::DiffLoaded {
        path,
        result,
        staged,
    }
}

fn warm_highlighting(files: &[crate::change::FileDiff]) {
    let mut budget = WARM_LINES;
    for file in files {
        let lines: Vec<&str> = file
            .hunks
            .iter()
            .flat_map(|h| &h.lines)
            .take(budget)
            .map(|l| l.content.as_str())
            .collect();
        budget -= lines.len();
        highlight::warm(&file.path, lines.into_iter());
        if budget == 0 {
            break;
        }
    }
}

/// The selected file's staged changes, then its unstaged ones, and how many files the staged
/// part has; an untracked file shows as added (unstaged).
fn file_diff(root: PathBuf, path: &str) -> Result<(Vec<crate::change::FileDiff>, usize), String> {
    let repo = GitRepo::discover(&root).map_err(|e| e.to_string())?;
    let paths = [path.to_string()];
    let diff = |target| repo.diff_files(&target, &paths).map_err(|e| e.to_string());
    let mut files = diff(DiffTarget::Staged)?;
    let staged = files.len();
    files.extend(diff(DiffTarget::Unstaged)?);
    if !files.is_empty()
        || root.join(path).is_dir()
        || !repo.is_untracked(path).map_err(|e| e.to_string())?
    {
        return Ok((files, staged));
    }
    let patch = repo.untracked_file_patch(path).map_err(|e| e.to_string())?;
    Ok((crate::change::parse_unified_diff(&patch), 0))
}
