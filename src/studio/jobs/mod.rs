//! Git and file work for the studio, off the UI thread: each job reads the repository and
//! becomes an [`Action`]. Jobs for the same pane are numbered, so only the newest request's
//! result arrives: a job whose request was overtaken (the user moved on through the list)
//! skips its work if it has not started and drops its result if it has, as gitui's async
//! jobs do. Files are read through the working tree's [`Boundary`], the one check every read
//! passes.

mod ranking;

use crate::studio::fail;
use iris_studio_tui::failure::{Done, Outcome};
use iris_studio_tui::features::msgs::{
    ChangesFx, ChangesMsg, DiffMsg, ExploreMsg, RangeMsg, WhyMsg,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::mpsc::UnboundedSender;

use crate::app::stores::IrisDir;
use crate::app::vcs::{Base, ChangeAsked, How, Recording, Vcs, Working};
use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::secrets::Scanner;
use iris_studio_git::{DiffTarget, GitRepo};
use iris_studio_tui::action::{Action, OpenedFile, RepoSnapshot};
use iris_studio_tui::state::{CommitFlags, CommitRow, FileEntry, Mode};
use iris_studio_workspace::{Boundary, FileText, read_text};
pub use ranking::rank_staged;

/// The newest request of one kind; a job holding an older ticket is stale.
#[derive(Debug, Clone, Default)]
pub struct Latest(Arc<AtomicU64>);

/// One request's place in its kind's order.
#[derive(Debug, Clone)]
pub struct Ticket {
    latest: Arc<AtomicU64>,
    number: u64,
}

impl Latest {
    /// A ticket for a new request, which makes every earlier one stale.
    pub fn next(&self) -> Ticket {
        let number = self.0.fetch_add(1, Ordering::SeqCst) + 1;
        Ticket {
            latest: self.0.clone(),
            number,
        }
    }
}

impl Ticket {
    /// Whether no newer request of its kind has been made since.
    pub fn is_current(&self) -> bool {
        self.latest.load(Ordering::SeqCst) == self.number
    }
}

/// What the studio asks of git and the files, with the newest request of each pane winning.
pub struct Jobs {
    tx: UnboundedSender<Action>,
    root: PathBuf,
    /// Finds the secrets staged files add (`None`: the scan is off or there is no provider).
    scanner: Option<Arc<Scanner>>,
    status: Latest,
    /// The diff pane: a file's diff or a commit's.
    diff: Latest,
    file: Latest,
    commits: Latest,
    /// A commit shown in explore's code view.
    shown_commit: Latest,
    /// The version control: what the change being made is (git's index, jj's `@`).
    vcs: Arc<dyn Vcs>,
}

impl Jobs {
    /// Jobs on the repository at `root` under `vcs`, their results sent to the loop
    /// through `tx`.
    pub fn new(
        tx: UnboundedSender<Action>,
        root: PathBuf,
        vcs: Arc<dyn Vcs>,
        scanner: Option<Arc<Scanner>>,
    ) -> Self {
        Self {
            tx,
            scanner,
            status: Latest::default(),
            diff: Latest::default(),
            file: Latest::default(),
            commits: Latest::default(),
            shown_commit: Latest::default(),
            vcs,
            root,
        }
    }

    /// What a generation of `kind` covers: the change being made (the staged changes, jj's
    /// `@`) or the range the mode shows (by default HEAD's commit). Blocking: call it off the
    /// async threads.
    pub fn scope(
        &self,
        kind: ArtifactKind,
        range: Option<(String, String)>,
    ) -> impl FnOnce() -> Outcome<Scope> + Send + 'static {
        let (vcs, root) = (self.vcs.clone(), self.root.clone());
        move || {
            let repo = GitRepo::discover(&root).map_err(fail::any)?;
            if range.is_none() && !kind.uses_range() {
                let change = vcs.change(&repo, &ChangeAsked::default());
                return change.map(|c| c.scope).map_err(fail::any);
            }
            let (from, to) = match &range {
                Some((from, to)) => (Some(from.as_str()), Some(to.as_str())),
                None => (None, None),
            };
            let (from, to) = range_of(vcs.as_ref(), &repo, from, to, Base::Parent)?;
            Ok(Scope::range(&from, &to))
        }
    }

    /// The version control the jobs work under.
    pub fn vcs(&self) -> Arc<dyn Vcs> {
        self.vcs.clone()
    }

    /// The scanner Iris' requests pass, which also marks the staged files that add a secret.
    pub fn scanner(&self) -> Option<Arc<Scanner>> {
        self.scanner.clone()
    }

    /// Iris' scanner, once setup has started her.
    pub fn set_scanner(&mut self, scanner: Option<Arc<Scanner>>) {
        self.scanner = scanner;
    }

    /// The ranked staged files, then the full status.
    pub fn load_status(&self) {
        let tx = self.tx.clone();
        let read = self.status_reader();
        self.newest(&self.status, move |root| read(&tx, root));
    }

    /// Reads the status (the ranking sent through `tx` as it goes); the last action is
    /// returned.
    pub fn status_reader(
        &self,
    ) -> impl FnOnce(&UnboundedSender<Action>, PathBuf) -> Action + Send + 'static {
        let (vcs, scanner) = (self.vcs.clone(), self.scanner.clone());
        move |tx, root| status(tx, root, vcs.as_ref(), scanner.as_deref())
    }

    /// The diff pane's file at `path`: its staged changes, then its unstaged ones (jj: its
    /// change in `@`).
    pub fn load_diff(&self, path: String) {
        let vcs = self.vcs.clone();
        self.newest(&self.diff, move |root| {
            let diff = GitRepo::discover(&root)
                .map_err(anyhow::Error::from)
                .and_then(|repo| vcs.file_diff(&repo, &path))
                .map_err(fail::any);
            let (result, staged) = match diff {
                Ok((files, staged)) => (Ok(files), Some(staged)),
                Err(err) => (Err(err), None),
            };
            diff_loaded(path, result, staged)
        });
    }

    /// The diff pane's commit `id`, against its first parent.
    pub fn load_commit_diff(&self, id: String) {
        self.newest(&self.diff, move |root| {
            let path = format!("commit {}", &id[..id.len().min(7)]);
            diff_loaded(path, commit_diff(&root, id), None)
        });
    }

    /// A commit's diff for explore's code view (its own order: the diff pane's is another).
    pub fn show_commit(&self, id: String) {
        self.newest(&self.shown_commit, move |root| {
            let result = commit_diff(&root, id.clone());
            if let Ok(files) = &result {
                warm_highlighting(files);
            }
            Action::Why(WhyMsg::CommitShown { id, result })
        });
    }

    /// Every file of the working tree that .gitignore does not ignore, for explore.
    pub fn load_tree(&self) {
        self.run(|root| Action::Explore(ExploreMsg::Tree(tree(root))));
    }

    /// The file and its history; then, from the same read, when each of its lines was last
    /// committed (a blame can take a while on a long history, so it comes second).
    pub fn open_file(&self, path: String) {
        self.newest_sending(&self.file, move |root, send| {
            let (result, text) = match open_file(&root, &path) {
                Ok((opened, text)) => (Ok(opened), text),
                Err(err) => (Err(err), None),
            };
            send(Action::Explore(ExploreMsg::FileOpened {
                path: path.clone(),
                result,
            }));
            if let Some(text) = text {
                let result = GitRepo::discover(&root)
                    .and_then(|repo| repo.line_times(&path, text.as_bytes()))
                    .map_err(fail::any);
                send(Action::Explore(ExploreMsg::LinesAged { path, result }));
            }
        });
    }

    /// The commits of `from..to` for `mode` (its default base when `from` is `None`).
    pub fn load_commits(&self, mode: Mode, from: Option<String>, to: Option<String>) {
        let vcs = self.vcs.clone();
        self.newest(&self.commits, move |root| {
            Action::Range(RangeMsg::Commits {
                mode,
                result: commits(root, vcs.as_ref(), mode, from, to),
            })
        });
    }

    /// A git operation (staging, a commit), the effect `tried`; its message goes to the
    /// status line.
    pub fn git(
        &self,
        tried: ChangesFx,
        work: impl FnOnce(&GitRepo) -> anyhow::Result<String> + Send + 'static,
    ) {
        self.run(move |root| {
            let result = GitRepo::discover(&root)
                .map_err(anyhow::Error::from)
                .and_then(|repo| work(&repo))
                .map(Done)
                .map_err(fail::any);
            Action::Changes(ChangesMsg::GitDone { result, tried })
        });
    }

    /// Records the change being made with `message` (git commit, jj commit); what Iris had
    /// `written` for it is remembered first, for `iris eval --accepted`.
    pub fn commit(
        &self,
        tried: ChangesFx,
        message: String,
        written: Option<String>,
        flags: CommitFlags,
    ) {
        let (vcs, scanner) = (self.vcs.clone(), self.scanner.clone());
        let CommitFlags { amend, no_verify } = flags;
        self.git(tried, move |repo| {
            let how = if amend { How::Amend } else { How::Commit };
            let asked = ChangeAsked {
                amend,
                recording: Some(how),
                keyed: written.is_some(),
                ..ChangeAsked::default()
            };
            let change = vcs.change(repo, &asked)?;
            if let (Some(written), Some(key)) = (&written, &change.key) {
                let stores = IrisDir::of(&repo.state_dir());
                crate::app::stores::accepted::remember(&stores, key, written, "studio");
            }
            let recording = Recording {
                how,
                no_verify,
                scanner: scanner.as_deref(),
            };
            vcs.record(repo, &change, &message, &recording)
        });
    }

    fn run(&self, work: impl FnOnce(PathBuf) -> Action + Send + 'static) {
        let tx = self.tx.clone();
        let root = self.root.clone();
        tokio::task::spawn_blocking(move || {
            let _ = tx.send(work(root));
            super::memory::give_back();
        });
    }

    /// Runs `work` for the newest request of `latest`'s kind only.
    fn newest(&self, latest: &Latest, work: impl FnOnce(PathBuf) -> Action + Send + 'static) {
        self.newest_sending(latest, move |root, send| send(work(root)));
    }

    /// [`Jobs::newest`] for work that sends more than one result as it goes: each is sent
    /// only while no newer request has been made.
    fn newest_sending(
        &self,
        latest: &Latest,
        work: impl FnOnce(PathBuf, &dyn Fn(Action)) + Send + 'static,
    ) {
        let ticket = latest.next();
        let tx = self.tx.clone();
        let root = self.root.clone();
        tokio::task::spawn_blocking(move || {
            if !ticket.is_current() {
                return; // overtaken before it started
            }
            work(root, &|action| {
                if ticket.is_current() {
                    let _ = tx.send(action);
                }
            });
            super::memory::give_back();
        });
    }
}

fn commit_diff(root: &Path, id: String) -> Outcome<Vec<iris_studio_core::change::FileDiff>> {
    GitRepo::discover(root)
        .and_then(|repo| repo.diff_files(&DiffTarget::Commit(id), &[]))
        .map_err(fail::any)
}

/// Files bigger than this open as "too large" rather than being read.
const MAX_OPEN_BYTES: u64 = 2 * 1024 * 1024;

/// The repository's files (what .gitignore does not ignore), sorted.
fn tree(root: PathBuf) -> Outcome<Vec<String>> {
    let boundary = Boundary::open(&root).map_err(fail::any)?;
    let files = std::sync::Mutex::new(Vec::new());
    boundary
        .par_files(
            None,
            || (),
            |_, _, relative| {
                if let Ok(mut files) = files.lock() {
                    files.push(relative);
                }
            },
        )
        .map_err(fail::any)?;
    let mut files = files.into_inner().map_err(fail::any)?;
    files.sort();
    Ok(files)
}

/// A file's lines (None when binary or too large) and its last commits, with its text.
fn open_file(root: &Path, path: &str) -> Outcome<(OpenedFile, Option<String>)> {
    let boundary = Boundary::open(root).map_err(fail::any)?;
    let file = boundary.resolve(path).map_err(fail::any)?;
    let text = match read_text(&file.absolute, MAX_OPEN_BYTES) {
        Ok(FileText::Text(text)) => Some(text),
        Ok(FileText::Binary { .. } | FileText::TooLarge { .. }) => None,
        Err(e) => return Err(fail::any(e)),
    };
    let lines: Option<Vec<String>> = text
        .as_ref()
        .map(|text| text.lines().map(str::to_string).collect());
    if let Some(lines) = &lines {
        crate::studio::app::syntaxes()
            .warm(path, lines.iter().take(WARM_LINES).map(String::as_str));
    }
    let repo = GitRepo::discover(root).map_err(fail::any)?;
    let history = repo
        .file_history(path, 20)
        .map_err(fail::any)?
        .into_iter()
        .map(commit_row)
        .collect();
    let digest = text.as_deref().map_or(0, digest);
    Ok((
        OpenedFile {
            lines,
            history,
            digest,
        },
        text,
    ))
}

/// A digest of a file's text (what Iris said about it holds while it is the same).
fn digest(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// The commits of FROM..TO; without FROM, the default branch for a PR and the latest tag (else
/// the default branch) for a changelog or release notes (jj: `trunk()`).
fn commits(
    root: PathBuf,
    vcs: &dyn Vcs,
    mode: Mode,
    from: Option<String>,
    to: Option<String>,
) -> Outcome<(String, Vec<CommitRow>)> {
    let repo = GitRepo::discover(&root).map_err(fail::any)?;
    const NO_BASE: &str = "no default branch or tag to start from";
    let base = match mode == Mode::PR {
        true => Base::DefaultBranch(NO_BASE),
        false => Base::LatestTag(NO_BASE),
    };
    let (from, to) = range_of(vcs, &repo, from.as_deref(), to.as_deref(), base)?;
    let rows = repo
        .log_range(&from, &to, 1000)
        .map_err(fail::any)?
        .into_iter()
        .map(commit_row)
        .collect();
    Ok((from, rows))
}

/// The range FROM..TO as the version control reads it (`HEAD` is the studio's word for the
/// top). A FROM that comes back as a full commit id (jj's) is shortened, as git and jj both
/// read it.
fn range_of(
    vcs: &dyn Vcs,
    repo: &GitRepo,
    from: Option<&str>,
    to: Option<&str>,
    base: Base,
) -> Outcome<(String, String)> {
    let (from, to) = vcs
        .range(repo, from, to, base)
        .map_err(|e| fail::any(e).also("R picks the range"))?;
    let full_id = from.len() >= 40 && from.bytes().all(|b| b.is_ascii_hexdigit());
    let from = if full_id {
        from[..12].to_string()
    } else {
        from
    };
    Ok((from, to))
}

/// The change being made as the studio's list shows it.
fn snapshot_of(working: Working) -> RepoSnapshot {
    let files = working
        .files
        .into_iter()
        .map(|f| FileEntry {
            relevance: None,
            secret: None,
            path: f.path,
            staged: f.staged,
            unstaged: f.unstaged,
            untracked: f.untracked,
            conflicted: f.conflicted,
        })
        .collect();
    RepoSnapshot {
        branch: working.on,
        head: working.head,
        files,
        jj_change: working.change_id,
        change_key: working.key,
    }
}

/// The ranked files of the change being made first (a diff of the index, or of jj's `@`,
/// using every core), sent at once; then its files (git: a walk of the working tree),
/// returned. A change listed unranked (a conflicted jj change) is sent as an empty ranking.
fn status(
    tx: &UnboundedSender<Action>,
    root: PathBuf,
    vcs: &dyn Vcs,
    scanner: Option<&Scanner>,
) -> Action {
    let rank = |result, complete| {
        let _ = tx.send(Action::Changes(ChangesMsg::Ranked { result, complete }));
    };
    let target = GitRepo::discover(&root)
        .map_err(anyhow::Error::from)
        .and_then(|repo| Ok((vcs.working_diff(&repo)?, repo)));
    let repo = match target {
        Ok((Some(target), repo)) => {
            rank_staged(&repo, &target, scanner, rank);
            repo
        }
        Ok((None, repo)) => {
            rank(Ok(Vec::new()), true);
            repo
        }
        Err(err) => {
            let err = fail::of(&err);
            rank(Err(err.clone()), true);
            return Action::Changes(ChangesMsg::Status(Err(err)));
        }
    };
    let working = vcs.working(&repo).map_err(fail::any);
    Action::Changes(ChangesMsg::Status(working.map(snapshot_of)))
}

/// About a screenful of lines: what the first frame of a diff or file shows.
const WARM_LINES: usize = 100;

/// A loaded diff, with the highlighting patterns its first screen needs compiled here in the
/// background rather than in the UI thread's next frame.
fn diff_loaded(
    path: String,
    result: Outcome<Vec<iris_studio_core::change::FileDiff>>,
    staged: Option<usize>,
) -> Action {
    if let Ok(files) = &result {
        warm_highlighting(files);
    }
    Action::Diff(DiffMsg::Loaded {
        path,
        result,
        staged,
    })
}

fn warm_highlighting(files: &[iris_studio_core::change::FileDiff]) {
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
        crate::studio::app::syntaxes().warm(&file.path, lines.into_iter());
        if budget == 0 {
            break;
        }
    }
}

/// A commit of git's log as the studio's range lists it.
fn commit_row(c: iris_studio_git::CommitInfo) -> CommitRow {
    CommitRow {
        date: c.date(),
        id: c.id,
        short_id: c.short_id,
        summary: c.summary,
        author: c.author_name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_newest_request_of_a_kind_is_current() {
        let diff = Latest::default();
        let first = diff.next();
        assert!(first.is_current());
        let second = diff.next();
        assert!(!first.is_current(), "overtaken by the second request");
        assert!(second.is_current());
        // Another kind's requests do not overtake it.
        let _file = Latest::default().next();
        assert!(second.is_current());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_overtaken_job_sends_nothing_even_when_it_finishes_last() {
        let dir = tempfile::tempdir().unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let git = Arc::new(crate::app::vcs::Git);
        let jobs = Jobs::new(tx, dir.path().to_path_buf(), git, None);
        let latest = Latest::default();
        // The older request has started and is the slower one: without the check as it
        // sends, it would arrive last.
        let (started_tx, started) = std::sync::mpsc::channel();
        jobs.newest_sending(&latest, move |_, send| {
            let _ = started_tx.send(());
            std::thread::sleep(std::time::Duration::from_millis(300));
            send(Action::ResizeTo(1, 1));
        });
        started
            .recv_timeout(std::time::Duration::from_secs(5))
            .unwrap();
        jobs.newest_sending(&latest, |_, send| send(Action::ResizeTo(2, 2)));
        let mut arrived = Vec::new();
        while let Ok(Some(action)) =
            tokio::time::timeout(std::time::Duration::from_millis(800), rx.recv()).await
        {
            if let Action::ResizeTo(width, _) = action {
                arrived.push(width);
            }
        }
        assert_eq!(arrived, vec![2]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_newest_diff_arrives_last() {
        let dir = tempfile::tempdir().unwrap();
        git2::Repository::init(dir.path()).unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let git = Arc::new(crate::app::vcs::Git);
        let jobs = Jobs::new(tx, dir.path().to_path_buf(), git, None);
        for path in ["a.rs", "b.rs", "c.rs"] {
            jobs.load_diff(path.to_string());
        }
        let mut arrived = Vec::new();
        while let Ok(Some(action)) =
            tokio::time::timeout(std::time::Duration::from_millis(500), rx.recv()).await
        {
            if let Action::Diff(DiffMsg::Loaded { path, .. }) = action {
                arrived.push(path);
            }
        }
        // The newest request's diff arrives, and last: an older job that had not finished
        // when it was overtaken never sends its result.
        assert_eq!(arrived.last().map(String::as_str), Some("c.rs"));
        assert_eq!(arrived.iter().filter(|p| *p == "c.rs").count(), 1);
    }
}
