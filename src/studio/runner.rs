//! The effects runner: carries out what `update` asks for, off the UI thread. Git and file
//! work goes to [`Jobs`]; Iris runs in tokio tasks kept by id so Esc can abort them; drafts
//! are written in order by one task. Results come back as actions.

use iris_studio_tui::features::msgs::EditorMsg;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;

use super::fail;
use super::jobs::Jobs;
use crate::app::Workspace;
use crate::app::stores::DraftStore;
use crate::app::stores::review_memory::ReviewMemory;
use iris_studio_agent::EventSink;
use iris_studio_agent::IrisAgent;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::protocol::AgentEvent;
use iris_studio_tui::action::Action;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::{Failure, Outcome};

/// Builds Iris from the configuration as it is now (after setup wrote it).
pub type IrisLoader = crate::app::iris::Loader;

/// Carries out the studio's effects and sends their results back to the loop as actions.
pub struct Runner {
    pub(super) tx: UnboundedSender<Action>,
    pub(super) jobs: Jobs,
    pub(super) root: std::path::PathBuf,
    pub(super) drafts: DraftStore,
    /// The findings dismissed and the last review's: what a review leaves out, what `d`
    /// dismisses by id.
    pub(super) review_memory: ReviewMemory,
    /// Draft writes, carried out one after another so a later text never loses to an earlier
    /// one.
    pub(super) draft_writes: UnboundedSender<super::editor::DraftWrite>,
    /// The task writing them, awaited on the way out.
    pub(super) draft_writer: JoinHandle<()>,
    pub(super) iris: Option<Arc<IrisAgent>>,
    /// How Iris is built again once setup has written the configuration.
    pub(super) loader: Option<IrisLoader>,
    /// Iris as setup started her, taken up before the next effect runs.
    pub(super) set_up: Arc<std::sync::Mutex<Option<IrisAgent>>>,
    pub(super) tasks: HashMap<u64, JoinHandle<()>>,
    /// The `iris` program jj runs as a split's diff editor, when not this one.
    pub(super) iris_program: Option<std::path::PathBuf>,
    /// Lines drawn plain after the syntax patterns were released are being compiled.
    pub(super) warming: Arc<AtomicBool>,
    /// What the user asked their coding agent, and whether they said it may be sent.
    pub(super) sessions: super::sessions::Sessions,
}

/// How long highlighting rests before syntect's compiled patterns are given back.
const HIGHLIGHT_IDLE: Duration = Duration::from_secs(5);

impl Runner {
    /// A runner for the workspace `ws`, with Iris when she is configured; results go to `tx`.
    pub fn new(tx: UnboundedSender<Action>, ws: &Workspace, iris: Option<IrisAgent>) -> Self {
        let root = ws.root.clone();
        let drafts = DraftStore::new(&ws.stores);
        let (draft_writes, draft_writer) = super::editor::draft_writer(drafts.clone(), tx.clone());
        let scanner = iris.as_ref().and_then(|iris| iris.secret_scanner());
        Self {
            jobs: Jobs::new(tx.clone(), root.clone(), ws.vcs.clone(), scanner),
            tx,
            root,
            drafts,
            review_memory: ws.review_memory(),
            draft_writes,
            draft_writer,
            iris: iris.map(Arc::new),
            loader: None,
            set_up: Arc::default(),
            tasks: HashMap::new(),
            iris_program: None,
            warming: Arc::default(),
            sessions: super::sessions::Sessions::of(ws),
        }
    }

    /// How setup starts Iris once it has written the configuration.
    pub fn with_loader(mut self, loader: IrisLoader) -> Self {
        self.loader = Some(loader);
        self
    }

    /// The `iris` program jj runs as the diff editor of a split (by default this one; a test
    /// driving the runner from its own binary names the real one).
    pub fn with_iris_program(mut self, iris: std::path::PathBuf) -> Self {
        self.iris_program = Some(iris);
        self
    }

    /// Carries out `effect` without blocking: what takes time runs in the background, and its
    /// result comes back as an action.
    pub fn run(&mut self, effect: Effect) {
        self.tasks.retain(|_, handle| !handle.is_finished());
        // Setup's Iris is in place before the effects its result leads to.
        let started = self.set_up.lock().ok().and_then(|mut slot| slot.take());
        if let Some(iris) = started {
            self.jobs.set_scanner(iris.secret_scanner());
            self.iris = Some(Arc::new(iris));
        }
        match effect {
            Effect::Changes(fx) => self.changes(fx),
            Effect::Diff(fx) => self.diff(fx),
            Effect::Explore(fx) => self.explore(fx),
            Effect::Why(fx) => self.why(fx),
            Effect::Intent(fx) => self.intent(fx),
            Effect::Range(fx) => self.range(fx),
            Effect::Generate(fx) => self.generate(fx),
            Effect::Chat(fx) => self.chat(fx),
            Effect::Editor(fx) => self.editor(fx),
            Effect::Split(fx) => self.split(fx),
            Effect::Reword(fx) => self.reword(fx),
            Effect::Stack(fx) => self.stack(fx),
            Effect::Publish(fx) => self.publish(fx),
            Effect::Sessions(fx) => self.sessions(fx),
            Effect::Findings(fx) => self.findings(fx),
            Effect::Setup(fx) => self.setup(fx),
            Effect::Cancel { task } => {
                if let Some(handle) = self.tasks.remove(&task) {
                    handle.abort();
                }
            }
            Effect::Answer { reply, decision } => reply.send(decision),
            // The loop carries this out: it needs the terminal.
            Effect::External(_) => {
                tracing::debug!("a terminal effect was asked of the runner; the loop runs it")
            }
        }
    }

    /// Compiles, off the UI thread, the patterns of the lines last drawn plain because they
    /// had been released; then the lines are drawn again, in colour.
    pub fn warm_pending_highlights(&self) {
        if self.warming.swap(true, Ordering::AcqRel) {
            return;
        }
        let (tx, warming) = (self.tx.clone(), self.warming.clone());
        tokio::task::spawn_blocking(move || {
            let warmed = super::app::syntaxes().warm_pending();
            warming.store(false, Ordering::Release);
            if warmed {
                let _ = tx.send(Action::SyntaxCompiled);
            }
        });
    }

    /// Gives syntect's compiled patterns back once highlighting has rested for
    /// [`HIGHLIGHT_IDLE`]: they are most of the studio's memory, and a diff already on screen
    /// keeps its colours. The look is a lock and a clock; a blocking thread is taken only to
    /// hand the memory back.
    fn release_idle_highlighting() {
        tokio::spawn(async {
            let mut every = tokio::time::interval(HIGHLIGHT_IDLE / 5);
            loop {
                every.tick().await;
                if super::app::syntaxes().release_if_idle(HIGHLIGHT_IDLE) {
                    tokio::task::spawn_blocking(super::memory::give_back);
                }
            }
        });
    }

    /// The first loads: the drafts an earlier session left, then the status, in that order.
    /// A restored draft has to be in place before the status arrives, or entering commit mode
    /// would have Iris write a message over the one the user already has.
    pub fn start(&self) {
        Self::release_idle_highlighting();
        let drafts = self.drafts.clone();
        let root = self.root.clone();
        let tx = self.tx.clone();
        let read_status = self.jobs.status_reader();
        tokio::task::spawn_blocking(move || {
            let found = drafts.load_all();
            let commit_draft = found.iter().any(|(kind, _)| *kind == ArtifactKind::Commit);
            // Nothing found changes nothing on screen: no action, no frame to wait for.
            if !found.is_empty() {
                let _ = tx.send(Action::Editor(EditorMsg::DraftsLoaded(found)));
            }
            if !commit_draft && let Some(prepared) = prepared_message(&root) {
                let _ = tx.send(prepared);
            }
            // The syntax definitions load while the status is read, so the first highlighted
            // diff does not hold up the UI thread.
            tokio::task::spawn_blocking(|| super::app::syntaxes().preload());
            let _ = tx.send(read_status(&tx, root.clone()));
            // The commit rules, for the message's marker, after the status the studio waits
            // for (none in most repositories: no action then).
            let rules = iris_studio_config::project::commit_rules(&root)
                .map(|found| found.map(Box::new))
                .map_err(|e| Failure::other(e.to_string()));
            if !matches!(rules, Ok(None)) {
                let _ = tx.send(Action::Editor(EditorMsg::RulesLoaded(rules)));
            }
            super::memory::give_back();
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

    /// Forwards a task's events to the studio as actions.
    pub(super) fn sink(&self, task: u64) -> EventSink {
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

    /// Iris for one job: her configuration, with a run context of the job's own (its
    /// `max_cost_per_run` ledger), so jobs one after another or side by side never spend
    /// from each other's.
    pub(super) fn iris_for_a_job(&self) -> Option<Arc<IrisAgent>> {
        self.iris.as_ref().map(|iris| Arc::new(iris.for_command()))
    }

    /// Iris' task `task` in the background, kept so Esc can abort it: `work` with her and
    /// the task's events, its result sent back as the action `done` makes of it.
    pub(super) fn spawn_iris<T, F>(
        &mut self,
        task: u64,
        work: impl FnOnce(Arc<IrisAgent>, EventSink) -> F,
        done: impl FnOnce(Outcome<T>) -> Action + Send + 'static,
    ) where
        F: std::future::Future<Output = anyhow::Result<T>> + Send + 'static,
    {
        let Some(iris) = self.iris_for_a_job() else {
            return;
        };
        let tx = self.tx.clone();
        let running = work(iris, self.sink(task));
        let handle = tokio::spawn(async move {
            let result = fail::typed(running.await);
            let _ = tx.send(done(result));
        });
        self.tasks.insert(task, handle);
    }
}

/// git's prepared message when a merge, cherry-pick, revert or rebase is in progress.
fn prepared_message(root: &std::path::Path) -> Option<Action> {
    let (operation, message) = iris_studio_git::GitRepo::discover(root)
        .ok()?
        .prepared_message()?;
    (!message.is_empty()).then_some(Action::Editor(EditorMsg::GitPrepared {
        operation,
        message,
    }))
}
