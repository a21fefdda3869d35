//! The effects runner: carries out what `update` asks for, off the UI thread. Git and file
//! work goes to [`Jobs`]; Iris runs in tokio tasks kept by id so Esc can abort them; drafts
//! are written in order by one task. Results come back as actions.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;

use super::jobs::Jobs;
use crate::app::Workspace;
use crate::app::stores::DraftStore;
use iris_agent::EventSink;
use iris_agent::IrisAgent;
use iris_agent::capability::chat::{ChatTarget, Turn};
use iris_agent::capability::requests::Scope;
use iris_agent::capability::split::SplitTarget;
use iris_core::artifact::ArtifactKind;
use iris_core::protocol::AgentEvent;
use iris_core::stack::InStack;
use iris_studio::action::{Action, ChatOutcome};
use iris_studio::effect::Effect;
use iris_studio::state::Draft;
use iris_studio::state::{ChatMessage, PlannedChange, Rewording, Speaker};

/// A draft to write, or `None` to remove it.
type DraftWrite = (ArtifactKind, Option<Draft>);

/// Builds Iris from the configuration as it is now (after setup wrote it).
pub type IrisLoader = crate::app::iris::Loader;

/// Carries out the studio's effects and sends their results back to the loop as actions.
pub struct Runner {
    tx: UnboundedSender<Action>,
    jobs: Jobs,
    root: std::path::PathBuf,
    drafts: DraftStore,
    /// Draft writes, carried out one after another so a later text never loses to an earlier
    /// one.
    draft_writes: UnboundedSender<DraftWrite>,
    /// The task writing them, awaited on the way out.
    draft_writer: JoinHandle<()>,
    iris: Option<Arc<IrisAgent>>,
    /// How Iris is built again once setup has written the configuration.
    loader: Option<IrisLoader>,
    /// Iris as setup started her, taken up before the next effect runs.
    set_up: Arc<std::sync::Mutex<Option<IrisAgent>>>,
    tasks: HashMap<u64, JoinHandle<()>>,
    /// The `iris` program jj runs as a split's diff editor, when not this one.
    iris_program: Option<std::path::PathBuf>,
    /// Lines drawn plain after the syntax patterns were released are being compiled.
    warming: Arc<AtomicBool>,
}

/// How long highlighting rests before syntect's compiled patterns are given back.
const HIGHLIGHT_IDLE: Duration = Duration::from_secs(5);

impl Runner {
    /// A runner for the workspace `ws`, with Iris when she is configured; results go to `tx`.
    pub fn new(tx: UnboundedSender<Action>, ws: &Workspace, iris: Option<IrisAgent>) -> Self {
        let root = ws.root.clone();
        let drafts = DraftStore::new(&ws.stores);
        let (draft_writes, draft_writer) = draft_writer(drafts.clone(), tx.clone());
        let scanner = iris.as_ref().and_then(|iris| iris.secret_scanner());
        Self {
            jobs: Jobs::new(tx.clone(), root.clone(), ws.vcs.clone(), scanner),
            tx,
            root,
            drafts,
            draft_writes,
            draft_writer,
            iris: iris.map(Arc::new),
            loader: None,
            set_up: Arc::default(),
            tasks: HashMap::new(),
            iris_program: None,
            warming: Arc::default(),
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
        let jobs = &self.jobs;
        match effect {
            Effect::LoadStatus => jobs.load_status(),
            Effect::LoadDiff { path } => jobs.load_diff(path),
            Effect::LoadTree => jobs.load_tree(),
            Effect::OpenFile { path } => jobs.open_file(path),
            Effect::LoadCommits { mode, from, to } => jobs.load_commits(mode, from, to),
            Effect::LoadCommitDiff { id } => jobs.load_commit_diff(id),
            Effect::ShowCommit { id } => jobs.show_commit(id),
            Effect::ExplainLines { task, asked } => self.spawn_iris(
                task,
                |iris, sink| async move { Ok(iris.explain_lines(&asked, &sink).await?) },
                move |result| Action::LinesExplained { task, result },
            ),
            Effect::ExplainFile { task, path } => self.spawn_iris(
                task,
                |iris, sink| async move { Ok(iris.explain_file(&path, &sink).await?) },
                move |result| Action::FileExplained { task, result },
            ),
            Effect::Stage { path } => jobs.git(false, move |repo| {
                repo.stage(&path)?;
                Ok(format!("staged {path}"))
            }),
            Effect::Unstage { path } => jobs.git(false, move |repo| {
                repo.unstage(&path)?;
                Ok(format!("unstaged {path}"))
            }),
            Effect::StageAll => jobs.git(false, |repo| {
                repo.stage_all()?;
                Ok("staged everything".to_string())
            }),
            Effect::UnstageAll => jobs.git(false, |repo| {
                repo.unstage_all()?;
                Ok("unstaged everything".to_string())
            }),
            Effect::StageHunk { path, hunk } => jobs.git(false, move |repo| {
                repo.stage_hunk(&path, hunk)?;
                Ok(format!("staged hunk {} of {path}", hunk + 1))
            }),
            Effect::UnstageHunk { path, hunk } => jobs.git(false, move |repo| {
                repo.unstage_hunk(&path, hunk)?;
                Ok(format!("unstaged hunk {} of {path}", hunk + 1))
            }),
            Effect::Commit {
                message,
                written,
                flags,
            } => jobs.commit(message, written, flags.amend, flags.no_verify),
            Effect::Generate {
                task,
                kind,
                range,
                stack,
            } => self.generate(task, kind, range, stack),
            Effect::ShowRequest { kind, range, stack } => self.show_request(kind, range, stack),
            Effect::LoadStack { base } => {
                let (tx, root) = (self.tx.clone(), self.root.clone());
                tokio::task::spawn_blocking(move || {
                    let _ = tx.send(Action::StackLoaded(super::stack::read(&root, &base)));
                });
            }
            Effect::PublishStack {
                task: None,
                stack,
                texts,
            } => {
                let (tx, at) = (self.tx.clone(), (self.root.clone(), self.jobs.vcs()));
                tokio::spawn(async move {
                    let published =
                        super::stack::write_and_publish(None, |_, _| {}, at, stack, texts);
                    let result = published.await.map_err(|e| format!("{e:#}"));
                    let _ = tx.send(Action::StackPublished { task: None, result });
                });
            }
            Effect::PublishStack {
                task: Some(task),
                stack,
                texts,
            } => {
                let (tx, at) = (self.tx.clone(), (self.root.clone(), self.jobs.vcs()));
                self.spawn_iris(
                    task,
                    move |iris, sink| {
                        let written = move |index, text| {
                            let _ = tx.send(Action::StackLayerWritten { task, index, text });
                        };
                        let writer = Some((iris, sink));
                        super::stack::write_and_publish(writer, written, at, stack, texts)
                    },
                    move |result| Action::StackPublished {
                        task: Some(task),
                        result,
                    },
                );
            }
            Effect::Alternatives { task, kind, count } => self.alternatives(task, kind, count),
            Effect::Chat {
                task,
                kind,
                history,
                message,
                artifact,
            } => self.chat(task, kind, history, message, artifact),
            Effect::Cancel { task } => {
                if let Some(handle) = self.tasks.remove(&task) {
                    handle.abort();
                }
            }
            Effect::SaveDraft { kind, draft } => {
                let _ = self.draft_writes.send((kind, Some(draft)));
            }
            Effect::ClearDraft { kind } => {
                let _ = self.draft_writes.send((kind, None));
            }
            Effect::Answer { reply, decision } => reply.send(decision),
            Effect::PlanSplit { task } => self.plan_split(task),
            Effect::SplitChat {
                task,
                units,
                files,
                plan,
                history,
                message,
            } => {
                let target = SplitTarget { units, files, plan };
                self.split_chat(task, target, history, message);
            }
            Effect::ApplySplit { units, plan } => {
                let iris = self
                    .iris_program
                    .clone()
                    .or_else(|| std::env::current_exe().ok());
                super::split::apply(
                    &self.tx,
                    (&self.root, jobs.vcs()),
                    (units, plan),
                    iris.unwrap_or_default(),
                )
            }
            Effect::UndoSplit => super::split::undo(&self.tx, &self.root, jobs.vcs()),
            Effect::WriteReword { task, commit } => self.write_reword(task, commit),
            Effect::ApplyReword { commit, message } => {
                super::reword::apply(&self.tx, (&self.root, jobs.vcs()), commit, message)
            }
            Effect::ProbeServers => {
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    let found = crate::probe::probe_local_servers().await;
                    let _ = tx.send(Action::ServersFound(found));
                });
            }
            Effect::WriteSetup { choice } => self.write_setup(choice),
            Effect::Publish {
                kind,
                text,
                base,
                to,
            } => {
                let (tx, root, vcs) = (self.tx.clone(), self.root.clone(), jobs.vcs());
                tokio::task::spawn_blocking(move || {
                    let published = match kind {
                        ArtifactKind::Review => {
                            let how = crate::publish::ReviewPost::Inline;
                            crate::publish::post_review(&root, &text, how)
                        }
                        _ => crate::publish::split_pr(&text).and_then(|pr| {
                            let action = crate::publish::PrAction::CreateOrUpdate;
                            // The branches, when not the one checked out (jj's bookmarks).
                            let branches = iris_git::GitRepo::discover(&root)
                                .map_err(anyhow::Error::from)
                                .and_then(|repo| {
                                    vcs.pr_branches(&repo, base.as_deref(), to.as_deref())
                                });
                            match branches {
                                Ok(Some(branches)) => crate::publish::publish_pr_from(
                                    &root,
                                    &pr,
                                    action,
                                    (&branches.0, &branches.1),
                                ),
                                Ok(None) => {
                                    crate::publish::publish_pr(&root, &pr, action, base.as_deref())
                                }
                                Err(err) => Err(crate::publish::PublishError(format!("{err:#}"))),
                            }
                        }),
                    };
                    let result = published.map(|p| p.summary).map_err(|e| e.to_string());
                    let _ = tx.send(Action::Published(result));
                });
            }
            // The loop carries these out: they need the terminal.
            Effect::EditExternally(_) | Effect::CopyToClipboard { .. } => {
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
                let _ = tx.send(Action::DraftsLoaded(found));
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
            let rules = iris_config::project::commit_rules(&root)
                .map(|found| found.map(Box::new))
                .map_err(|e| e.to_string());
            if !matches!(rules, Ok(None)) {
                let _ = tx.send(Action::RulesLoaded(rules));
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

    /// Writes setup's choice into the user file, then builds Iris from the configuration
    /// (flags and environment still apply) and leaves her for the next effect to take up.
    fn write_setup(&self, choice: iris_config::setup::Choice) {
        let (tx, loader, slot) = (self.tx.clone(), self.loader.clone(), self.set_up.clone());
        tokio::task::spawn_blocking(move || {
            let result = (|| -> anyhow::Result<String> {
                let path = iris_config::user_config_path()
                    .ok_or_else(|| anyhow::anyhow!("no home directory for a config file"))?;
                iris_config::setup::write_choice(&path, &choice)?;
                let file = iris_config::display_path(&path);
                let loader = loader.ok_or_else(|| anyhow::anyhow!("Iris cannot be restarted"))?;
                let iris = loader().map_err(|e| {
                    anyhow::anyhow!("{file} was written, but Iris cannot start with it: {e:#}")
                })?;
                if let Ok(mut slot) = slot.lock() {
                    *slot = Some(iris);
                }
                Ok(format!(
                    "Iris is set up: {} · {} (written to {file})",
                    choice.provider, choice.model
                ))
            })();
            let _ = tx.send(Action::SetupWritten(result.map_err(|e| format!("{e:#}"))));
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

    /// Iris writes `kind`; `stack` is the request's section on a stack layer's place.
    fn generate(
        &mut self,
        task: u64,
        kind: ArtifactKind,
        range: Option<(String, String)>,
        stack: Option<InStack>,
    ) {
        let scope = self.jobs.scope(kind, range);
        self.spawn_iris(
            task,
            |iris, sink| async move {
                let scope = scope_now(scope).await?;
                let written = match &stack {
                    Some(layer) => iris.write_layer(&scope, layer, false, &sink).await?,
                    None => iris.write(kind, &scope, false, &sink).await?,
                };
                Ok(written.text)
            },
            move |result| Action::Generated { task, kind, result },
        );
    }

    /// The first request a generation of `kind` would send, kept and not sent (`--dry-run`
    /// as the studio's `$`), its preview sent back.
    fn show_request(
        &mut self,
        kind: ArtifactKind,
        range: Option<(String, String)>,
        stack: Option<InStack>,
    ) {
        let Some(iris) = self.iris_for_a_job() else {
            let _ = self.tx.send(Action::RequestShown(Err(
                "Iris is not set up yet: I sets her up".to_string(),
            )));
            return;
        };
        let tx = self.tx.clone();
        let scope = self.jobs.scope(kind, range);
        tokio::spawn(async move {
            let scope = match scope_now(scope).await {
                Ok(scope) => scope,
                Err(err) => {
                    let _ = tx.send(Action::RequestShown(Err(format!("{err:#}"))));
                    return;
                }
            };
            let (dry, kept) = crate::app::iris::with_dry_run((*iris).clone(), true);
            let quiet = EventSink::none();
            let ran = match &stack {
                Some(layer) => dry.write_layer(&scope, layer, false, &quiet).await,
                None => dry.write(kind, &scope, false, &quiet).await,
            };
            let (provider, model, price) = iris.pricing();
            let shown = match kept.and_then(|kept| kept.captured()) {
                Some(captured) => {
                    crate::output::preview::preview(&captured, provider, model, price, false)
                        .map_err(|e| format!("{e:#}"))
                }
                None => Err(match ran {
                    Err(err) => format!("no request was built: {err:#}"),
                    Ok(_) => "no request was built".to_string(),
                }),
            };
            let _ = tx.send(Action::RequestShown(shown));
        });
    }

    /// `count` alternatives to the artifact, from the same staged change as a generation.
    fn alternatives(&mut self, task: u64, kind: ArtifactKind, count: usize) {
        let scope = self.jobs.scope(kind, None);
        self.spawn_iris(
            task,
            |iris, sink| async move {
                let scope = scope_now(scope).await?;
                let written = iris
                    .write_candidates(kind, &scope, count, &[], false, &sink)
                    .await?;
                Ok(written.into_iter().map(|c| c.written.text).collect())
            },
            move |result| Action::AlternativesWritten { task, kind, result },
        );
    }

    /// Iris for one job: her configuration, with a run context of the job's own (its
    /// `max_cost_per_run` ledger), so jobs one after another or side by side never spend
    /// from each other's.
    fn iris_for_a_job(&self) -> Option<Arc<IrisAgent>> {
        self.iris.as_ref().map(|iris| Arc::new(iris.for_command()))
    }

    /// Iris' task `task` in the background, kept so Esc can abort it: `work` with her and
    /// the task's events, its result sent back as the action `done` makes of it.
    fn spawn_iris<T, F>(
        &mut self,
        task: u64,
        work: impl FnOnce(Arc<IrisAgent>, EventSink) -> F,
        done: impl FnOnce(Result<T, String>) -> Action + Send + 'static,
    ) where
        F: std::future::Future<Output = anyhow::Result<T>> + Send + 'static,
    {
        let Some(iris) = self.iris_for_a_job() else {
            return;
        };
        let tx = self.tx.clone();
        let running = work(iris, self.sink(task));
        let handle = tokio::spawn(async move {
            let result = running.await.map_err(|e| format!("{e:#}"));
            let _ = tx.send(done(result));
        });
        self.tasks.insert(task, handle);
    }

    /// Reads the change and has Iris plan its split.
    fn plan_split(&mut self, task: u64) {
        let (root, vcs) = (self.root.clone(), self.jobs.vcs());
        self.spawn_iris(
            task,
            |iris, sink| async move {
                let (units, files) = super::split::read_change(root, vcs).await?;
                let planned = iris.plan_split(&units, &files, false, &sink).await?;
                Ok(Box::new(PlannedChange {
                    units,
                    files,
                    plan: planned.plan,
                    first_problems: planned.first_problems,
                }))
            },
            move |result| Action::SplitPlanned { task, result },
        );
    }

    /// Iris writes `commit`'s message anew from its own change, in a replay of the history
    /// before it.
    fn write_reword(&mut self, task: u64, commit: String) {
        let (root, vcs) = (self.root.clone(), self.jobs.vcs());
        self.spawn_iris(
            task,
            |iris, sink| async move {
                // Reading the commit and setting up the replay is git work: off the async threads.
                let asked = commit.clone();
                let (replay, there, found) = tokio::task::spawn_blocking(move || {
                    super::reword::prepare(&iris, (&root, vcs.as_ref()), &asked)
                })
                .await??;
                let written = there
                    .write(ArtifactKind::Commit, &Scope::Staged, false, &sink)
                    .await?;
                drop(replay);
                Ok(Rewording {
                    id: commit,
                    short_id: found.short_id,
                    old: found.message.trim_end().to_string(),
                    new: iris_core::commit_rules::carry_trailers(&found.message, &written.text),
                })
            },
            move |result| Action::RewordWritten { task, result },
        );
    }

    /// A chat turn about the split plan; the plans Iris writes land at once.
    fn split_chat(
        &mut self,
        task: u64,
        target: SplitTarget,
        history: Vec<ChatMessage>,
        message: String,
    ) {
        let updates = self.tx.clone();
        let on_update = Arc::new(move |plan| {
            let _ = updates.send(Action::SplitUpdated { task, plan });
        });
        let turns = turns(history);
        self.spawn_iris(
            task,
            |iris, sink| async move {
                Ok(iris
                    .chat_split(&target, &turns, &message, on_update, &sink)
                    .await?)
            },
            move |result| Action::SplitChatReplied { task, result },
        );
    }

    fn chat(
        &mut self,
        task: u64,
        kind: ArtifactKind,
        history: Vec<ChatMessage>,
        message: String,
        artifact: String,
    ) {
        let updates = self.tx.clone();
        let on_update = Arc::new(move |text: String| {
            let _ = updates.send(Action::ArtifactUpdated { task, kind, text });
        });
        let target = ChatTarget { kind, artifact };
        let turns = turns(history);
        self.spawn_iris(
            task,
            |iris, sink| async move {
                let reply = iris
                    .chat(&target, &turns, &message, on_update, &sink)
                    .await?;
                Ok(ChatOutcome { reply })
            },
            move |result| Action::ChatReplied { task, result },
        );
    }
}

/// The studio's conversation as the agent's turns.
fn turns(history: Vec<ChatMessage>) -> Vec<Turn> {
    history
        .into_iter()
        .map(|m| Turn {
            from_user: m.speaker == Speaker::User,
            text: m.text,
        })
        .collect()
}

/// The task that writes drafts in order, off the UI thread; a failed write is reported.
fn draft_writer(
    store: DraftStore,
    tx: UnboundedSender<Action>,
) -> (UnboundedSender<DraftWrite>, JoinHandle<()>) {
    let (writes, mut rx) = unbounded_channel::<DraftWrite>();
    let writer = tokio::spawn(async move {
        while let Some((kind, draft)) = rx.recv().await {
            let store = store.clone();
            let written = tokio::task::spawn_blocking(move || match draft {
                Some(draft) => store.save(kind, &draft),
                None => store.clear(kind),
            })
            .await;
            let failed = match written {
                Ok(Ok(())) => None,
                Ok(Err(err)) => Some(err.to_string()),
                Err(err) => Some(err.to_string()),
            };
            if let Some(err) = failed {
                let _ = tx.send(Action::DraftFailed(format!("{}: {err}", kind.name())));
            }
        }
    });
    (writes, writer)
}

/// A generation's scope, found off the async threads (in a jj workspace it asks jj).
async fn scope_now(
    find: impl FnOnce() -> Result<Scope, String> + Send + 'static,
) -> anyhow::Result<Scope> {
    tokio::task::spawn_blocking(find)
        .await?
        .map_err(anyhow::Error::msg)
}

/// git's prepared message when a merge, cherry-pick, revert or rebase is in progress.
fn prepared_message(root: &std::path::Path) -> Option<Action> {
    let (operation, message) = iris_git::GitRepo::discover(root).ok()?.prepared_message()?;
    (!message.is_empty()).then_some(Action::GitPrepared { operation, message })
}
