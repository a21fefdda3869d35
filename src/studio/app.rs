//! The event loop: terminal events, agent events and git results in; frames out, redrawn only
//! when something changed, at most ~60 a second, each inside a synchronized update.

use iris_studio_tui::features::msgs::{
    ExternalFx, ExternalMsg, PublishFx, PublishMsg, SetupFx, SplitMsg,
};
use std::io::{Stdout, Write};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crossterm::event::{
    DisableFocusChange, DisableMouseCapture, EnableFocusChange, EnableMouseCapture, Event,
    EventStream, KeyEventKind,
};
use crossterm::terminal::{
    BeginSynchronizedUpdate, EndSynchronizedUpdate, EnterAlternateScreen, LeaveAlternateScreen,
    disable_raw_mode, enable_raw_mode,
};
use futures::StreamExt;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use super::external;
use super::runner::{IrisLoader, Runner};
use crate::app::Workspace;
use iris_studio_agent::IrisAgent;
use iris_studio_config::Overrides;
use iris_studio_core::protocol::AgentEvent;
use iris_studio_tui::action::Action;
use iris_studio_tui::effect::{EditTarget, Effect};
use iris_studio_tui::failure::{Done, Failure, Outcome};
use iris_studio_tui::highlight::{Highlights, Syntaxes};
use iris_studio_tui::keymap::{KeyContext, Keymap};
use iris_studio_tui::state::{Mode, Setup, SetupFacts, State};
use iris_studio_tui::theme::{ColorSupport, Theme};
use iris_studio_tui::ui::{self, Looks};
use iris_studio_tui::update::update;

/// The studio's syntax definitions: drawing highlights with them (through the studio's
/// [`Highlights`]) and the background threads load them and compile their patterns ahead.
pub fn syntaxes() -> &'static Arc<Syntaxes> {
    static SYNTAXES: OnceLock<Arc<Syntaxes>> = OnceLock::new();
    SYNTAXES.get_or_init(|| Arc::new(Syntaxes::new()))
}

/// Shortest time between two frames (about 60 a second).
const FRAME: Duration = Duration::from_millis(16);
/// How often the spinner turns while Iris works.
const TICK: Duration = Duration::from_millis(100);

/// How the studio starts.
#[derive(Debug, Clone, Default)]
pub struct StudioOptions {
    /// The mode to open in (`--mode`); `None` lets the user choose on the start screen.
    pub mode: Option<Mode>,
    /// The theme's name (`--theme`), over the configuration's `theme`.
    pub theme: Option<String>,
    /// The start of the range the PR, changelog and release notes cover (`--from`).
    pub from: Option<String>,
    /// The end of that range (`--to`).
    pub to: Option<String>,
    /// The configuration flags given on the command line.
    pub overrides: Overrides,
}

/// Everything the loop needs, prepared before the terminal is touched (so a broken config or
/// a missing repository is an ordinary one-line error).
pub struct Studio {
    /// Everything on screen, which `update` changes and the UI draws.
    pub state: State,
    /// The key bindings: the defaults with the user's keymap file over them.
    pub keymap: Keymap,
    /// The colours, adapted to what the terminal can show.
    pub theme: Theme,
    /// The syntax definitions and the lines already highlighted, which drawing is handed.
    highlights: Highlights,
    ws: Workspace,
    iris: Option<IrisAgent>,
    /// The flags the studio was started with, for Iris built again after setup.
    overrides: Overrides,
}

impl Studio {
    /// The studio over `ws`: loads the theme and keymap and builds Iris (or notes why not,
    /// opening setup on a first run); touches no terminal.
    pub fn prepare(ws: Workspace, options: StudioOptions) -> Result<Self> {
        // A jj workspace needs jj: said before the terminal is taken.
        ws.vcs.ready()?;
        let config = &ws.config;
        let (iris, ai_unavailable, first_run) = match ws.iris(true) {
            Ok(iris) => (Some(iris), None, false),
            Err(err) => (
                None,
                Some(format!("Iris is not configured: {err:#}")),
                err.kind() == iris_studio_agent::error::Kind::NotSetUp,
            ),
        };
        let user_dir = iris_studio_config::user_config_dir();
        // The --theme flag wins over the configuration's `theme`.
        let theme_name = options.theme.as_deref().unwrap_or(&config.theme);
        // The studio reads no files: its themes and keymap are read here and handed to it.
        let themes = iris_studio_config::studio_files::themes(user_dir.as_deref());
        let theme = Theme::load_from(theme_name, &themes)?.adapt(ColorSupport::detect());
        let keymap_file = iris_studio_config::studio_files::keymap(user_dir.as_deref())
            .map_err(iris_studio_tui::keymap::KeymapError)?;
        let (keymap, warnings) = Keymap::from_file(keymap_file.as_ref())?;
        let mut state = State::new(options.mode.unwrap_or(Mode::COMMIT));
        state.start.choose_mode = options.mode.is_none();
        state.range.from = options.from;
        state.range.to = options.to;
        state.iris.unavailable = ai_unavailable;
        state.iris.auto_generate = config.studio_auto_generate;
        state.findings.min_confidence = config.review_min_confidence;
        state.iris.price = config.model_price().map(|(price, _)| price);
        state.start.setup_facts = SetupFacts {
            file: iris_studio_config::user_config_path()
                .map(|p| iris_studio_config::display_path(&p)),
            env_keys: iris_studio_config::setup::hosted()
                .into_iter()
                .filter_map(|kind| Some((kind, iris_studio_config::setup::api_key_in_env(kind)?)))
                .collect(),
            clis: crate::probe::cli_agents_on_path(),
        };
        // A first run, with nothing configured: setup opens (and probes once the loop runs).
        if first_run {
            state.overlay.setup = Some(Setup::new(&state.start.setup_facts));
        }
        if let Some(warning) = warnings.into_iter().next() {
            state.notice = Some(iris_studio_tui::state::Notice {
                level: iris_studio_tui::state::Level::Warning,
                text: warning,
            });
        }
        Ok(Self {
            state,
            keymap,
            theme,
            highlights: Highlights::new(syntaxes().clone()),
            ws,
            iris,
            overrides: options.overrides,
        })
    }

    /// How Iris is built from the configuration as it is then (after setup wrote it).
    fn loader(&self) -> IrisLoader {
        self.ws.iris_loader(self.overrides.clone())
    }

    /// Whether a spinner turns (Iris works or git is still being read), so time must tick.
    fn spinning(&self) -> bool {
        self.state.iris.task.is_some() || self.state.loading().is_some()
    }

    /// Turns a terminal event into an action, through the keymap.
    pub fn action_for(&self, event: Event) -> Option<Action> {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => {
                // A question on screen takes every key.
                if self.state.takes_every_key() {
                    return Some(Action::Key(key));
                }
                let context = if self.state.focus.takes_text() {
                    KeyContext::Editing
                } else {
                    KeyContext::Global
                };
                Some(match self.keymap.lookup(context, key) {
                    Some(command) => Action::Command(command),
                    None => Action::Key(key),
                })
            }
            Event::Mouse(mouse) => Some(Action::Mouse(mouse)),
            Event::Resize(width, height) => Some(Action::ResizeTo(width, height)),
            // Back from another window: whatever was done there is read in.
            Event::FocusGained => Some(Action::ChangedOutside),
            _ => None,
        }
    }

    /// Runs the studio until the user quits, restoring the terminal on every way out.
    pub async fn run(mut self) -> Result<()> {
        let mut terminal = TerminalGuard::enter()?;
        let size = terminal.terminal.size()?;
        self.state.screen.size = (size.width, size.height);
        let (tx, rx) = unbounded_channel::<Action>();
        let watch =
            super::watch::wanted().then(|| super::watch::start(self.ws.root.clone(), tx.clone()));
        let mut runner = Runner::new(tx, &self.ws, self.iris.take()).with_loader(self.loader());
        runner.start();
        if self.state.overlay.setup.is_some() {
            runner.run(Effect::Setup(SetupFx::Probe));
        }
        let result = self.event_loop(&mut terminal, &mut runner, rx, watch).await;
        drop(terminal);
        // Whichever way the loop ended, the queued drafts are written.
        runner.finish().await;
        result
    }

    async fn event_loop(
        &mut self,
        terminal: &mut TerminalGuard,
        runner: &mut Runner,
        mut rx: UnboundedReceiver<Action>,
        mut watch: Option<super::watch::Begin>,
    ) -> Result<()> {
        let mut events = TerminalEvents::start();
        // The first tick after one period (an interval's first tick is at once).
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + TICK, TICK);
        let mut terminate = terminate_signal()?;
        let mut dirty = true;
        let mut last_frame = Instant::now() - FRAME;
        // Streamed progress waits here for the next frame, folded to its latest.
        let mut progressing = Progressing::default();
        loop {
            if dirty && last_frame.elapsed() >= FRAME {
                let started = Instant::now();
                terminal.draw(self)?;
                tracing::debug!("frame drawn in {:?}", started.elapsed());
                if syntaxes().pending() {
                    runner.warm_pending_highlights();
                }
                last_frame = Instant::now();
                dirty = false;
            }
            let redraw_in = FRAME.saturating_sub(last_frame.elapsed());
            let action = tokio::select! {
                event = events.rx.recv() => match event {
                    Some(Ok(event)) => self.action_for(event),
                    Some(Err(err)) => return Err(err).context("reading the terminal failed"),
                    None => return Ok(()),
                },
                // While progress waits for the frame, what else the jobs send waits with it
                // (taken in order when the frame comes): a stream wakes the loop once a frame,
                // not once a piece.
                Some(action) = rx.recv(), if progressing.is_empty() => Some(action),
                _ = tick.tick(), if self.spinning() => Some(Action::Tick(Instant::now())),
                _ = tokio::time::sleep(redraw_in), if dirty => None,
                _ = terminate.recv() => {
                    self.drain_keys(&mut events, runner).await;
                    return Ok(());
                }
            };
            // Streamed text and previews are held for the frame (gitui pulls the latest
            // progress rather than queueing it); anything else goes in at once, after the
            // progress held before it.
            let mut batch: Vec<Action> = Vec::new();
            match action {
                Some(action) if Progressing::holds(&action) => {
                    progressing.push(action);
                    dirty = true;
                }
                Some(action) => {
                    batch.extend(progressing.take());
                    batch.push(action);
                }
                None => {}
            }
            if last_frame.elapsed() >= FRAME {
                while let Ok(action) = rx.try_recv() {
                    if Progressing::holds(&action) {
                        progressing.push(action);
                    } else {
                        batch.extend(progressing.take());
                        batch.push(action);
                    }
                }
                batch.extend(progressing.take());
            }
            for action in batch {
                // An action, and those the loop's own effects lead to.
                let mut actions = vec![action];
                while let Some(action) = actions.pop() {
                    trace_action(&action);
                    // The reducer and drawing never read the clock: time comes with the actions.
                    self.state.now = Instant::now();
                    for effect in update(&mut self.state, action) {
                        match effect {
                            Effect::External(ExternalFx::Edit(target)) => {
                                events.stop().await;
                                actions.push(self.hand_over(terminal, target).await?);
                                events = TerminalEvents::start();
                            }
                            Effect::Publish(PublishFx::Copy { text, what }) => {
                                actions.push(Action::Publish(PublishMsg::Copied(
                                    terminal.copy(&text, &what),
                                )));
                            }
                            effect => runner.run(effect),
                        }
                    }
                    dirty = true;
                }
            }
            if self.state.quit {
                return Ok(());
            }
            // The watcher starts once the files are read and ranked (see `watch::start`).
            let changes = &self.state.changes;
            if !changes.loading
                && changes.ranking_complete
                && let Some(begin) = watch.take()
            {
                begin.now();
            }
        }
    }

    /// Told to stop: the keys typed just before the signal may still wait in the terminal.
    /// They are read and applied (for at most a moment, and without opening anything), so
    /// the draft saved on the way out holds every key the user typed.
    async fn drain_keys(&mut self, events: &mut TerminalEvents, runner: &mut Runner) {
        const MOMENT: Duration = Duration::from_millis(100);
        const MAX_EVENTS: usize = 4096;
        let until = tokio::time::Instant::now() + MOMENT;
        for _ in 0..MAX_EVENTS {
            let Ok(Some(Ok(event))) = tokio::time::timeout_at(until, events.rx.recv()).await else {
                break;
            };
            let Some(action) = self.action_for(event) else {
                continue;
            };
            self.state.now = Instant::now();
            for effect in update(&mut self.state, action) {
                match effect {
                    Effect::External(ExternalFx::Edit(_))
                    | Effect::Publish(PublishFx::Copy { .. }) => {}
                    effect => runner.run(effect),
                }
            }
        }
    }

    /// Steps aside for the user's editor: the terminal back to normal, the editor run to
    /// its end, the studio back on the screen. The terminal's events are not read meanwhile
    /// (the caller drops its event stream), so every key goes to the editor.
    async fn hand_over(&self, terminal: &mut TerminalGuard, target: EditTarget) -> Result<Action> {
        terminal.suspend()?;
        let (root, stores) = (self.ws.root.clone(), self.ws.stores.clone());
        let edited = tokio::task::spawn_blocking(move || {
            // Which editor may ask git (`git var`): off the loop's thread too.
            let editor = external::editor_command(&root);
            match target {
                EditTarget::Artifact { kind, text } => {
                    let file = external::artifact_file(&stores, kind);
                    let result = external::edit_text(&editor, &file, &text, &root);
                    Action::External(ExternalMsg::ArtifactEdited { kind, result })
                }
                EditTarget::File { path, line } => {
                    let args = external::open_args(&editor, &path, line);
                    let result = external::run(&editor, &args, &root);
                    Action::External(ExternalMsg::FileEdited { path, result })
                }
                EditTarget::SplitMessage { group, text } => {
                    let file = stores.edit_file("SPLIT_MSG");
                    let result = external::edit_text(&editor, &file, &text, &root);
                    Action::Split(SplitMsg::MessageEdited { group, result })
                }
            }
        })
        .await
        .context("the editor's task failed");
        terminal.resume()?;
        edited
    }
}

/// Iris' streamed progress between two frames, folded so that a frame applies at most one
/// piece of text and one preview per run of them: each streamed piece no longer costs its own
/// update, and each preview (the whole artifact so far) is applied once, the latest.
/// Only what commutes is folded: text pieces join, a preview replaces the one before it, and
/// thinking joins thinking; every other event keeps its place.
#[derive(Debug, Default)]
pub struct Progressing {
    held: Vec<Action>,
}

impl Progressing {
    /// Whether `action` is streamed progress this folds.
    pub fn holds(action: &Action) -> bool {
        matches!(
            action,
            Action::Agent {
                event: AgentEvent::TextDelta(_)
                    | AgentEvent::Preview { .. }
                    | AgentEvent::Thinking(_),
                ..
            }
        )
    }

    /// Takes in one piece of progress (see [`Progressing::holds`]), folded into what is held.
    pub fn push(&mut self, action: Action) {
        let Action::Agent { task, event } = action else {
            self.held.push(action);
            return;
        };
        // Text and previews of one task commute (both only say she is writing): a piece
        // joins the last piece past any previews, a preview replaces the last preview past
        // any pieces.
        let same_run = |held: &Action, preview: bool| match held {
            Action::Agent { task: t, event } if *t == task => match event {
                AgentEvent::TextDelta(_) => preview,
                AgentEvent::Preview { .. } => !preview,
                _ => false,
            },
            _ => false,
        };
        match event {
            AgentEvent::TextDelta(text) => {
                for held in self.held.iter_mut().rev() {
                    match held {
                        Action::Agent {
                            task: t,
                            event: AgentEvent::TextDelta(before),
                        } if *t == task => {
                            before.push_str(&text);
                            return;
                        }
                        other if same_run(other, false) => continue,
                        _ => break,
                    }
                }
                self.held.push(Action::Agent {
                    task,
                    event: AgentEvent::TextDelta(text),
                });
            }
            AgentEvent::Preview { kind, text } => {
                for held in self.held.iter_mut().rev() {
                    match held {
                        Action::Agent {
                            task: t,
                            event:
                                AgentEvent::Preview {
                                    kind: k,
                                    text: before,
                                },
                        } if *t == task && *k == kind => {
                            *before = text;
                            return;
                        }
                        other if same_run(other, true) => continue,
                        _ => break,
                    }
                }
                self.held.push(Action::Agent {
                    task,
                    event: AgentEvent::Preview { kind, text },
                });
            }
            AgentEvent::Thinking(text) => {
                if let Some(Action::Agent {
                    task: t,
                    event: AgentEvent::Thinking(before),
                }) = self.held.last_mut()
                    && *t == task
                {
                    before.push_str(&text);
                    return;
                }
                self.held.push(Action::Agent {
                    task,
                    event: AgentEvent::Thinking(text),
                });
            }
            event => self.held.push(Action::Agent { task, event }),
        }
    }

    /// Nothing is held.
    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// What is held, in order, to apply now.
    pub fn take(&mut self) -> Vec<Action> {
        std::mem::take(&mut self.held)
    }
}

/// The terminal's events, read by a task of their own into a channel, so that the loop waits
/// on channels only: polling crossterm's event stream afresh each time an agent event wakes
/// the loop costs a contended lock (spun on with `sched_yield`) and a poll of the terminal.
struct TerminalEvents {
    rx: UnboundedReceiver<std::io::Result<Event>>,
    task: tokio::task::JoinHandle<()>,
}

impl TerminalEvents {
    fn start() -> Self {
        let (tx, rx) = unbounded_channel();
        let task = tokio::spawn(async move {
            let mut events = EventStream::new();
            while let Some(event) = events.next().await {
                if tx.send(event).is_err() {
                    break;
                }
            }
        });
        Self { rx, task }
    }

    /// Stops reading (the stream dropped before this returns), so that every key goes to
    /// whoever has the terminal next.
    async fn stop(mut self) {
        self.task.abort();
        let _ = (&mut self.task).await;
    }
}

impl Drop for TerminalEvents {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// With `--debug`, the start of each action in the log (results can be large).
fn trace_action(action: &Action) {
    if tracing::enabled!(tracing::Level::DEBUG) {
        let text = format!("{action:?}");
        let end = text.char_indices().nth(100).map_or(text.len(), |(i, _)| i);
        tracing::debug!("action {}", &text[..end]);
    }
}

/// The terminal in raw mode on the alternate screen; dropping it restores the terminal, and a
/// panic restores it too before the message is printed.
struct TerminalGuard {
    terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl TerminalGuard {
    fn enter() -> Result<Self> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        enable_raw_mode().context("cannot switch the terminal to raw mode")?;
        let mut stdout = std::io::stdout();
        crossterm::execute!(
            stdout,
            EnterAlternateScreen,
            EnableMouseCapture,
            EnableFocusChange
        )?;
        let terminal = Terminal::new(CrosstermBackend::new(stdout))?;
        Ok(Self { terminal })
    }

    /// Puts `text` on the clipboard by asking the terminal (OSC 52), which works over SSH
    /// and in tmux (with `set-clipboard on`); what the notice says, or why it cannot.
    fn copy(&mut self, text: &str, what: &str) -> Outcome<Done> {
        let sequence = crate::clipboard::osc52(text).map_err(|e| Failure::usage(e.to_string()))?;
        let backend = self.terminal.backend_mut();
        backend
            .write_all(sequence.as_bytes())
            .and_then(|()| backend.flush())
            .map_err(|e| Failure::io(format!("the terminal did not take the text: {e}")))?;
        Ok(Done(format!(
            "copied the {what} ({} characters) through the terminal",
            text.chars().count()
        )))
    }

    /// The terminal as it was before the studio, for another program to use.
    fn suspend(&mut self) -> Result<()> {
        restore();
        self.terminal.show_cursor()?;
        Ok(())
    }

    /// The studio's screen again, cleared and drawn whole on the next frame, at the size
    /// the terminal has now (it may have changed meanwhile). Not `Terminal::clear`: it asks
    /// the terminal where the cursor is, which not every terminal answers.
    fn resume(&mut self) -> Result<()> {
        enable_raw_mode().context("cannot switch the terminal to raw mode")?;
        crossterm::execute!(
            std::io::stdout(),
            EnterAlternateScreen,
            EnableMouseCapture,
            EnableFocusChange
        )?;
        let size = self.terminal.size()?;
        self.terminal
            .resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))?;
        Ok(())
    }

    fn draw(&mut self, studio: &Studio) -> Result<()> {
        let looks = Looks {
            theme: &studio.theme,
            keymap: &studio.keymap,
            highlights: &studio.highlights,
        };
        crossterm::queue!(self.terminal.backend_mut(), BeginSynchronizedUpdate)?;
        self.terminal
            .draw(|frame| ui::draw(frame, &studio.state, &looks))?;
        crossterm::queue!(self.terminal.backend_mut(), EndSynchronizedUpdate)?;
        self.terminal.backend_mut().flush()?;
        Ok(())
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
        let _ = self.terminal.show_cursor();
    }
}

fn restore() {
    let _ = disable_raw_mode();
    let _ = crossterm::execute!(
        std::io::stdout(),
        LeaveAlternateScreen,
        DisableMouseCapture,
        DisableFocusChange
    );
}

#[cfg(unix)]
fn terminate_signal() -> Result<tokio::signal::unix::Signal> {
    use tokio::signal::unix::{SignalKind, signal};
    signal(SignalKind::terminate()).context("cannot listen for SIGTERM")
}

/// Windows has no SIGTERM: its nearest is the console window being closed.
#[cfg(windows)]
fn terminate_signal() -> Result<tokio::signal::windows::CtrlClose> {
    tokio::signal::windows::ctrl_close().context("cannot listen for the console closing")
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_core::artifact::ArtifactKind;
    use iris_studio_core::protocol::progress::Progress;
    use iris_studio_tui::state::{Task, TaskKind};

    fn studio() -> State {
        let mut state = State::new(Mode::COMMIT);
        state.iris.task = Some(Task {
            id: 1,
            mode: Mode::COMMIT,
            kind: TaskKind::Generate,
            started: state.now,
            progress: Progress::default(),
        });
        state
    }

    fn agent(task: u64, event: AgentEvent) -> Action {
        Action::Agent { task, event }
    }

    /// A stream as the agent sends it: pieces, previews now and then, thinking, a tool
    /// call, usage, and a late event of an old task.
    fn stream() -> Vec<Action> {
        let mut actions = Vec::new();
        for i in 0..200 {
            let piece = format!("piece {i} ");
            actions.push(agent(1, AgentEvent::TextDelta(piece)));
            if i % 7 == 0 {
                let text = format!("preview {i}");
                actions.push(agent(
                    1,
                    AgentEvent::Preview {
                        kind: ArtifactKind::Commit,
                        text,
                    },
                ));
            }
            if i % 50 == 10 {
                actions.push(agent(1, AgentEvent::Thinking("hm".into())));
                actions.push(agent(1, AgentEvent::Thinking("mm".into())));
            }
            if i == 120 {
                actions.push(agent(
                    1,
                    AgentEvent::ToolStarted {
                        name: "file_read".into(),
                        summary: "reading src/lib.rs".into(),
                    },
                ));
            }
            if i % 60 == 30 {
                actions.push(agent(
                    1,
                    AgentEvent::Usage {
                        input: 3,
                        output: 5,
                        cached: 1,
                    },
                ));
                actions.push(agent(2, AgentEvent::TextDelta("late".into())));
            }
        }
        actions
    }

    #[test]
    fn folded_progress_leaves_the_studio_as_every_event_did() {
        let mut one_by_one = studio();
        for action in stream() {
            update(&mut one_by_one, action);
        }
        // Frames of every size: what is held is applied when the frame comes.
        for frame in [1, 3, 16, 1000] {
            let mut folded = studio();
            let mut progressing = Progressing::default();
            let mut applied = 0;
            for (i, action) in stream().into_iter().enumerate() {
                let mut batch = Vec::new();
                if Progressing::holds(&action) {
                    progressing.push(action);
                } else {
                    batch.extend(progressing.take());
                    batch.push(action);
                }
                if i % frame == 0 {
                    batch.extend(progressing.take());
                }
                applied += batch.len();
                for action in batch {
                    update(&mut folded, action);
                }
            }
            for action in progressing.take() {
                applied += 1;
                update(&mut folded, action);
            }
            let progress = |s: &State| s.iris.task.as_ref().map(|t| t.progress.clone());
            assert_eq!(
                progress(&folded),
                progress(&one_by_one),
                "frames of {frame}"
            );
            if frame >= 16 {
                assert!(
                    applied < stream().len() / 2,
                    "{applied} of {}",
                    stream().len()
                );
            }
        }
    }
}
