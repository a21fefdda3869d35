//! Sees what changes outside the studio: a file saved in another window, `git add` or a
//! commit made there. On Linux the working tree is watched directory by directory (those git
//! ignores, such as `target/` or `node_modules/`, are left out; elsewhere one watch covers the
//! tree and their events are filtered out), and so are git's own files (the index,
//! HEAD, the refs). Events are gathered until things are quiet, and the studio is told at most
//! every [`MIN_GAP`]: it then reads the status again as `r` does. An idle studio does no work:
//! the thread sleeps until the system reports an event.
//!
//! Where the system cannot watch (no inotify, or too many directories for its limit), git's
//! own files are polled every [`POLL`] instead, which sees staging and commits; the terminal's
//! focus and `r` cover the rest.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant, SystemTime};

use notify::{EventKind, RecursiveMode, Watcher};
use tokio::sync::mpsc::UnboundedSender;

use iris_studio_git::GitRepo;
use iris_studio_tui::action::Action;

/// Quiet this long after the last event before the studio is told.
const QUIET: Duration = Duration::from_millis(250);
/// Events that never stop are reported this long after the first.
const AT_MOST: Duration = Duration::from_secs(1);
/// The least time between two refreshes, so that a tool writing all the time (a build, a
/// formatter on save) cannot keep the studio busy.
const MIN_GAP: Duration = Duration::from_secs(2);
/// How often git's files are polled where watching is not possible.
const POLL: Duration = Duration::from_secs(2);
/// The longest the watcher waits for the studio's first status and ranking before it starts.
const START_AT_MOST: Duration = Duration::from_secs(3);

/// Whether to watch: not with `IRIS_WATCH=0` (or `off`, `false`), for a file system where
/// watching costs more than it brings (a network mount); `r` and the focus still refresh.
pub fn wanted() -> bool {
    !std::env::var("IRIS_WATCH").is_ok_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "0" | "off" | "false" | "no"
        )
    })
}

/// Starts watching the repository at `root` on a thread of its own, once [`Begin::now`] is
/// called (or after [`START_AT_MOST`]); changes come to `tx` as [`Action::ChangedOutside`].
/// The thread ends with the studio (when `tx` is closed).
///
/// The wait is for the studio's first status and ranking: the watcher's first walk reads
/// every directory of the tree, and at 20,000 files, run beside them on two cores, it made
/// the fully ranked list a third later (114 ms against 82 without a watcher).
pub fn start(root: PathBuf, tx: UnboundedSender<Action>) -> Begin {
    let (begin, wait) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("iris-watch".into())
        .spawn(move || {
            // The studio gone before it said go: nothing to watch for.
            if let Err(RecvTimeoutError::Disconnected) = wait.recv_timeout(START_AT_MOST) {
                return;
            }
            watch(&root, &tx);
        });
    if let Err(err) = spawned {
        tracing::warn!("the watcher did not start: {err}");
    }
    Begin(begin)
}

/// Lets the watcher start.
pub struct Begin(mpsc::Sender<()>);

impl Begin {
    /// Now: the studio's files are read and ranked.
    pub fn now(self) {
        let _ = self.0.send(());
    }
}

fn watch(root: &Path, tx: &UnboundedSender<Action>) {
    let repo = match GitRepo::discover(root) {
        Ok(repo) => repo,
        Err(err) => return tracing::warn!("not watching: {err}"),
    };
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let places = Places {
        root: canonical(root),
        git_dirs: vec![canonical(repo.git_dir()), canonical(repo.common_dir())],
    };
    let (events_tx, events) = mpsc::channel();
    let mut watcher = match notify::recommended_watcher(events_tx) {
        Ok(watcher) => watcher,
        Err(err) => {
            let _ = tx.send(Action::WatchLimited(format!(
                "changes outside the studio are not watched ({err}): git's files are polled, r reads everything again"
            )));
            return poll(&places.git_dirs[0], &places.git_dirs[1], tx);
        }
    };
    // The worktree's own git dir, and the one linked worktrees share when it is another.
    let (git_dir, common) = (&places.git_dirs[0], &places.git_dirs[1]);
    for dir in [Some(git_dir), (common != git_dir).then_some(common)]
        .into_iter()
        .flatten()
    {
        if let Err(err) = watcher.watch(dir, RecursiveMode::NonRecursive) {
            tracing::warn!("not watching {}: {err}", dir.display());
        }
    }
    let refs = common.join("refs");
    if let Err(err) = watcher.watch(&refs, RecursiveMode::Recursive) {
        tracing::warn!("not watching {}: {err}", refs.display());
    }
    let started = Instant::now();
    match watch_tree(&mut watcher, &places.root) {
        Ok(dirs) => tracing::debug!("watching {dirs} directories ({:?})", started.elapsed()),
        Err(err) => {
            let _ = tx.send(Action::WatchLimited(format!(
                "the working tree is only partly watched ({err}): r reads it again; on Linux, \
                 raise fs.inotify.max_user_watches"
            )));
        }
    }

    let mut debounce = Debounce::default();
    loop {
        let received = match debounce.due_at() {
            None => events.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(due) => events.recv_timeout(due.saturating_duration_since(Instant::now())),
        };
        match received {
            Ok(Ok(event)) => {
                if !counts(&event.kind) {
                    continue;
                }
                let ignored = |relative: &Path| repo.is_ignored(relative);
                if event.paths.iter().any(|p| places.relevant(p, &ignored)) {
                    debounce.note(Instant::now());
                }
                if adds_directory(&event.kind) {
                    // A new directory is watched too, with whatever it already holds.
                    for path in event.paths.iter().filter(|p| p.is_dir()) {
                        if places.in_tree(path, &ignored) {
                            let _ = watch_tree(&mut watcher, path);
                        }
                    }
                }
            }
            Ok(Err(err)) => tracing::debug!("watch error: {err}"),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        let now = Instant::now();
        if debounce.due_at().is_some_and(|due| due <= now) {
            if tx.send(Action::ChangedOutside).is_err() {
                return;
            }
            debounce.sent(now);
        }
    }
}

/// Watches `dir` and every directory below it that git does not ignore, one by one; how many.
/// A directory that cannot be read or is gone is passed over; the system's limit stops it.
#[cfg(target_os = "linux")]
fn watch_tree(watcher: &mut impl Watcher, dir: &Path) -> notify::Result<usize> {
    let walk = ignore::WalkBuilder::new(dir)
        .hidden(false)
        .ignore(false)
        .require_git(false)
        .filter_entry(|entry| entry.file_name() != ".git" && entry.file_name() != ".jj")
        .build();
    let mut count = 0;
    for entry in walk.flatten() {
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            match watcher.watch(entry.path(), RecursiveMode::NonRecursive) {
                Ok(()) => count += 1,
                Err(err) if is_limit(&err) => return Err(err),
                Err(err) => tracing::debug!("not watching {}: {err}", entry.path().display()),
            }
        }
    }
    Ok(count)
}

/// Elsewhere one watch covers the tree (FSEvents and Windows watch a tree at once, and
/// restart for every directory added); the events are filtered as on Linux.
#[cfg(not(target_os = "linux"))]
fn watch_tree(watcher: &mut impl Watcher, dir: &Path) -> notify::Result<usize> {
    watcher.watch(dir, RecursiveMode::Recursive).map(|()| 1)
}

/// The system's limit on watches (inotify's `max_user_watches`) was reached.
#[cfg(target_os = "linux")]
fn is_limit(err: &notify::Error) -> bool {
    match &err.kind {
        notify::ErrorKind::MaxFilesWatch => true,
        notify::ErrorKind::Io(io) => io.raw_os_error() == Some(28), // ENOSPC
        _ => false,
    }
}

/// Where events come from: the working tree and git's directories (the worktree's own and the
/// one linked worktrees share), canonical.
struct Places {
    root: PathBuf,
    git_dirs: Vec<PathBuf>,
}

impl Places {
    /// Whether an event at `path` may change what the studio shows.
    fn relevant(&self, path: &Path, ignored: &dyn Fn(&Path) -> bool) -> bool {
        if let Some(inside) = self.git_dirs.iter().find_map(|d| path.strip_prefix(d).ok()) {
            return git_file_counts(inside);
        }
        self.in_tree(path, ignored)
    }

    /// Whether `path` is in the working tree, outside `.git` and not ignored by git.
    fn in_tree(&self, path: &Path, ignored: &dyn Fn(&Path) -> bool) -> bool {
        let Ok(relative) = path.strip_prefix(&self.root) else {
            return false;
        };
        !relative.as_os_str().is_empty()
            && !relative
                .components()
                .any(|c| c.as_os_str() == ".git" || c.as_os_str() == ".jj")
            && !ignored(relative)
    }
}

/// A directory created, or moved in, is to be watched too.
fn adds_directory(kind: &EventKind) -> bool {
    use notify::event::{ModifyKind, RenameMode};
    matches!(
        kind,
        EventKind::Create(_)
            | EventKind::Modify(ModifyKind::Name(RenameMode::To | RenameMode::Both))
    )
}

/// Opening and reading a file changes nothing (and the studio's own reads must not wake it).
fn counts(kind: &EventKind) -> bool {
    !matches!(kind, EventKind::Access(_))
}

/// Which of git's files count: the index, HEAD, the refs; not lock files on their way to
/// becoming one, objects, logs, or Iris' own folder (drafts are written there as you type).
fn git_file_counts(inside: &Path) -> bool {
    let first = inside.components().next().map(|c| c.as_os_str());
    let skipped = ["iris", "objects", "logs"];
    !inside.as_os_str().is_empty()
        && !first.is_some_and(|f| skipped.iter().any(|s| f == *s))
        && inside.extension().is_none_or(|e| e != "lock")
}

/// Gathers events until things are quiet.
#[derive(Debug, Default)]
struct Debounce {
    first: Option<Instant>,
    last: Option<Instant>,
    sent: Option<Instant>,
}

impl Debounce {
    fn note(&mut self, now: Instant) {
        self.first.get_or_insert(now);
        self.last = Some(now);
    }

    /// When the studio is to be told, if anything happened.
    fn due_at(&self) -> Option<Instant> {
        let (first, last) = (self.first?, self.last?);
        let due = (last + QUIET).min(first + AT_MOST);
        Some(self.sent.map_or(due, |sent| due.max(sent + MIN_GAP)))
    }

    fn sent(&mut self, now: Instant) {
        *self = Self {
            sent: Some(now),
            ..Self::default()
        };
    }
}

/// Where the system cannot watch: git's index, HEAD, the branch HEAD names and the packed
/// refs, looked at every [`POLL`].
fn poll(git_dir: &Path, common_dir: &Path, tx: &UnboundedSender<Action>) {
    let stamp_of = |path: PathBuf| {
        std::fs::metadata(path)
            .ok()
            .map(|m| (m.len(), m.modified().unwrap_or(SystemTime::UNIX_EPOCH)))
    };
    let stamp = || {
        let branch = std::fs::read_to_string(git_dir.join("HEAD"))
            .ok()
            .and_then(|head| Some(head.strip_prefix("ref: ")?.trim().to_string()));
        [
            stamp_of(git_dir.join("index")),
            stamp_of(git_dir.join("HEAD")),
            branch.and_then(|b| stamp_of(common_dir.join(b))),
            stamp_of(common_dir.join("packed-refs")),
        ]
    };
    let mut last = stamp();
    while !tx.is_closed() {
        std::thread::sleep(POLL);
        let now = stamp();
        if now != last {
            last = now;
            if tx.send(Action::ChangedOutside).is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places() -> Places {
        Places {
            root: PathBuf::from("/r"),
            git_dirs: vec![PathBuf::from("/r/.git"), PathBuf::from("/r/.git")],
        }
    }

    #[test]
    fn what_counts_in_the_tree_and_in_git_s_files() {
        let places = places();
        let ignored = |p: &Path| p.starts_with("target");
        let relevant = |p: &str| places.relevant(Path::new(p), &ignored);
        assert!(relevant("/r/src/lib.rs"));
        assert!(relevant("/r/.git/index"));
        assert!(relevant("/r/.git/HEAD"));
        assert!(relevant("/r/.git/refs/heads/main"));
        assert!(!relevant("/r/target/debug/iris"));
        assert!(!relevant("/r/.git/index.lock"));
        assert!(!relevant("/r/.git/iris/drafts/commit.json"));
        assert!(!relevant("/r/.git/objects/ab/cdef"));
        assert!(!relevant("/r/.git/logs/HEAD"));
        assert!(!relevant("/r/sub/.git/index"));
        assert!(!relevant("/elsewhere/file"));
        assert!(!counts(&EventKind::Access(notify::event::AccessKind::Any)));
        assert!(counts(&EventKind::Modify(notify::event::ModifyKind::Any)));
        use notify::event::{CreateKind, ModifyKind, RenameMode};
        assert!(adds_directory(&EventKind::Create(CreateKind::Folder)));
        assert!(adds_directory(&EventKind::Modify(ModifyKind::Name(
            RenameMode::To
        ))));
        assert!(!adds_directory(&EventKind::Modify(ModifyKind::Name(
            RenameMode::From
        ))));
    }

    #[test]
    fn events_are_gathered_until_quiet_and_refreshes_kept_apart() {
        let t0 = Instant::now();
        let mut debounce = Debounce::default();
        assert_eq!(debounce.due_at(), None);
        debounce.note(t0);
        assert_eq!(debounce.due_at(), Some(t0 + QUIET));
        debounce.note(t0 + Duration::from_millis(100));
        assert_eq!(
            debounce.due_at(),
            Some(t0 + Duration::from_millis(100) + QUIET)
        );
        // Events that never stop are reported after AT_MOST.
        debounce.note(t0 + Duration::from_millis(900));
        assert_eq!(debounce.due_at(), Some(t0 + AT_MOST));
        debounce.sent(t0 + AT_MOST);
        assert_eq!(debounce.due_at(), None);
        // The next refresh waits for the gap.
        let t1 = t0 + AT_MOST + Duration::from_millis(10);
        debounce.note(t1);
        assert_eq!(debounce.due_at(), Some(t0 + AT_MOST + MIN_GAP));
    }
}
