//! The whole studio driven headless, by actions: the reducer and the real effects runner on a
//! temporary repository, Iris talking to the fake provider on 127.0.0.1. No terminal.

use iris_studio_tui::features::msgs::{ChangesFx, EditorFx, ExploreFx, GenerateFx};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::TestRepo;
use crate::common::agent::Wire;
use crate::common::fake_provider::{Api, FakeProvider, Recorded, Step};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use iris_studio::app::Workspace;
use iris_studio::app::sessions::Env as AgentEnv;
use iris_studio::app::stores::{DraftStore, IrisDir};
use iris_studio::studio::runner::Runner;
use iris_studio_agent::IrisAgent;
use iris_studio_config::{Config, Overrides};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::state::Draft;
use iris_studio_tui::state::{ChatMessage, Mode, Pane, Speaker, State};
use iris_studio_tui::update::update;
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

/// The longest any single step of a test may take before it fails instead of hanging.
const STEP_TIMEOUT: Duration = Duration::from_secs(60);

const FIRST: &str = "Add two()\n\nAdds a second constant function next to one().";
/// What the model sends through update_commit: a body hard-wrapped at its own width...
const SHORTER: &str = "Shorter title\n\nThe check that warns about a path separator in the search \
                       pattern only looked at the\nprimary pattern.";
/// ...and what lands in the editor: the paragraph reflowed at 72 columns.
const SHORTER_TIDY: &str = "Shorter title\n\nThe check that warns about a path separator in the \
                            search pattern only\nlooked at the primary pattern.";

fn staged_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.commit_all("Initial commit");
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    repo.git(&["add", "-A"]);
    repo
}

/// The studio without a terminal: state, runner and the channel the runner answers on.
struct Headless {
    state: State,
    runner: Runner,
    rx: UnboundedReceiver<Action>,
    git_dir: PathBuf,
    /// Every action applied, by kind, in order (for asserting what happened when).
    seen: Vec<String>,
    /// Every effect `update` returned, in order.
    effects: Vec<Effect>,
    /// Every preview the running task showed (the artifact as it formed), in order.
    previews: Vec<String>,
}

impl Headless {
    /// Iris configured as `iris` would be from the environment, pointed at the fake provider.
    fn new(repo: &TestRepo, fake: &FakeProvider, mode: Mode) -> Self {
        Self::configured(repo, fake, mode, &Overrides::default())
    }

    /// The same, with the overrides a command line's flags would give.
    fn configured(repo: &TestRepo, fake: &FakeProvider, mode: Mode, overrides: &Overrides) -> Self {
        Self::tuned(repo, fake, mode, overrides, |iris| iris)
    }

    /// Iris on `wire`'s provider, pointed at the fake.
    fn on_wire(repo: &TestRepo, fake: &FakeProvider, mode: Mode, wire: Wire) -> Self {
        let env = wire.env(fake);
        let lookup = move |name: &str| {
            env.iter()
                .find(|(var, _)| *var == name)
                .map(|(_, value)| value.clone())
        };
        Self::built(repo, mode, &Overrides::default(), lookup, |iris| iris)
    }

    /// The same, with Iris adjusted by `tune` before the studio gets her.
    fn tuned(
        repo: &TestRepo,
        fake: &FakeProvider,
        mode: Mode,
        overrides: &Overrides,
        tune: impl FnOnce(IrisAgent) -> IrisAgent,
    ) -> Self {
        let env = crate::common::agent::openai_lookup(fake);
        Self::built(repo, mode, overrides, env, tune)
    }

    fn built(
        repo: &TestRepo,
        mode: Mode,
        overrides: &Overrides,
        env: impl Fn(&str) -> Option<String>,
        tune: impl FnOnce(IrisAgent) -> IrisAgent,
    ) -> Self {
        let ws = Workspace::open_with(&repo.path(), |root| {
            Ok(Config::load_from(None, Some(root), &env, overrides)?)
        })
        .expect("the test repository");
        let iris = IrisAgent::from_config(&ws.config, &ws.root, ws.stores.path(), true)
            .expect("Iris configured");
        // The developer's own capability overrides never reach a test.
        let iris = tune(iris.with_user_dir(None));
        let (tx, rx) = unbounded_channel();
        let git_dir = ws.repo.state_dir();
        // A split in a jj workspace has jj run the real binary as its diff editor.
        // The coding agents' sessions are the test HOME's, never the developer's.
        let runner = Runner::new(tx, &ws, Some(iris))
            .with_iris_program(PathBuf::from(crate::common::IRIS))
            .with_agent_sessions(&ws, AgentEnv::under(repo.home()));
        let mut state = State::new(mode);
        state.iris.auto_generate = ws.config.studio_auto_generate;
        Self {
            state,
            runner,
            rx,
            git_dir,
            seen: Vec::new(),
            effects: Vec::new(),
            previews: Vec::new(),
        }
    }

    /// Applies an action and runs the effects it asks for.
    fn apply(&mut self, action: Action) {
        self.seen.push(kind(&action));
        for effect in update(&mut self.state, action) {
            self.effects.push(effect.clone());
            self.runner.run(effect);
        }
        let preview = self
            .state
            .iris
            .task
            .as_ref()
            .and_then(|t| t.progress.preview.as_ref());
        if let Some((_, text)) = preview
            && self.previews.last() != Some(text)
        {
            self.previews.push(text.clone());
        }
    }

    fn command(&mut self, command: Command) {
        self.apply(Action::Command(command));
    }

    fn key(&mut self, code: KeyCode) {
        self.apply(Action::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }

    /// The status loaded, then commit mode, where Iris writes the message: its text.
    async fn write_the_message(&mut self) -> String {
        self.load_status().await;
        self.command(Command::ModeCommit);
        self.pump_until("the generated message", |s| {
            s.iris.task.is_none() && !s.artifacts[&ArtifactKind::Commit].is_empty()
        })
        .await;
        self.text()
    }

    /// The status loaded, then Iris asked for the review (the studio in review mode): waits
    /// until it is written.
    async fn write_the_review(&mut self) {
        self.load_status().await;
        self.command(Command::Generate);
        self.pump_until("the review", |s| {
            s.iris.task.is_none() && !s.artifacts[&ArtifactKind::Review].is_empty()
        })
        .await;
    }

    /// Loads the status and waits until the files and the selected diff are in.
    async fn load_status(&mut self) {
        self.runner.run(Effect::Changes(ChangesFx::LoadStatus));
        self.pump_until("the status", |s| !s.changes.loading && !s.diff.loading)
            .await;
    }

    /// `message` sent in the chat, and Iris' reply waited for.
    async fn say(&mut self, message: &str) {
        if self.state.focus != Pane::ChatInput {
            self.command(Command::OpenChat);
        }
        for c in message.chars() {
            self.key(KeyCode::Char(c));
        }
        let replies = self.state.chat.messages.len() + 2;
        self.key(KeyCode::Enter);
        self.pump_until("the chat reply", |s| {
            s.iris.task.is_none() && s.chat.messages.len() == replies
        })
        .await;
    }

    /// Applies what the runner sends back until `done` holds (or fails after a timeout).
    async fn pump_until(&mut self, what: &str, done: impl Fn(&State) -> bool) {
        let waited = tokio::time::timeout(STEP_TIMEOUT, async {
            while !done(&self.state) {
                let action = self.rx.recv().await.expect("the runner's channel is open");
                self.apply(action);
            }
        })
        .await;
        assert!(
            waited.is_ok(),
            "timed out waiting for {what}; actions so far: {:?}; notice: {:?}",
            self.seen,
            self.state.notice
        );
    }

    /// Opens `path` in explore's code view, as enter on the tree does, and waits for it.
    async fn open_file(&mut self, path: &str) {
        self.state.explore.open = Some(path.to_string());
        self.runner.run(Effect::Explore(ExploreFx::OpenFile {
            path: path.to_string(),
        }));
        self.pump_until("the file", |s| s.explore.lines.is_some())
            .await;
    }

    fn text(&self) -> String {
        self.state.artifact().expect("an artifact mode").text()
    }

    /// The text of the mode's draft on disk.
    fn draft(&self, mode: Mode) -> Option<String> {
        saved_draft(&self.git_dir, mode.artifact()?).map(|d| d.text)
    }
}

fn kind(action: &Action) -> String {
    match action {
        Action::Command(command) => format!("Command({command:?})"),
        Action::Agent { .. } => "Agent".to_string(),
        // A feature's message by its feature and its own name: `Chat::Replied`.
        other => format!("{other:?}")
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.is_empty())
            .take(2)
            .collect::<Vec<_>>()
            .join("::"),
    }
}

/// Polls for a condition that a background task makes true (a draft file written).
async fn eventually(what: &str, check: impl Fn() -> bool) {
    let waited = tokio::time::timeout(STEP_TIMEOUT, async {
        while !check() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(waited.is_ok(), "timed out waiting for {what}");
}

/// The assistant messages of a Responses API request's input, in order.
fn assistant_texts(request: &Recorded) -> Vec<String> {
    assert_eq!(request.api, Api::Responses);
    request
        .body
        .get("input")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|item| item.get("role").and_then(Value::as_str) == Some("assistant"))
        .map(|item| match item.get("content") {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generate_then_chat_edits_the_message_and_undo_brings_the_first_back() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::text(
            json!({
                "emoji": null,
                "title": "Add two()",
                "message": "Adds a second constant function next to one()."
            })
            .to_string(),
        ),
        Step::tool_call("update_commit", json!({ "content": SHORTER })),
        Step::text("Made it shorter."),
        Step::text("The title has 13 characters."),
    ]);
    let mut studio = Headless::new(&repo, &fake, Mode::Explore);

    // The status arrives; in explore mode nothing is written.
    studio.load_status().await;
    assert_eq!(studio.state.repo.branch, "main");
    assert_eq!(studio.state.changes.files.len(), 1);
    assert_eq!(studio.state.changes.files[0].path, "src/lib.rs");
    assert!(studio.state.changes.has_staged);
    assert_eq!(studio.state.diff.files[0].additions, 4);
    assert!(studio.state.iris.task.is_none());
    assert_eq!(fake.requests().len(), 0);

    // Entering commit mode with a staged change and no message: Iris writes it.
    studio.command(Command::ModeCommit);
    assert!(
        matches!(
            studio.effects.last(),
            Some(Effect::Generate(GenerateFx::Generate {
                kind: ArtifactKind::Commit,
                ..
            }))
        ),
        "{:?}",
        studio.effects
    );
    studio
        .pump_until("the generated message", |s| {
            s.iris.task.is_none() && !s.artifacts[&ArtifactKind::Commit].is_empty()
        })
        .await;
    assert_eq!(studio.text(), FIRST);
    assert!(
        studio.seen.contains(&"Agent".to_string()),
        "progress events reached the studio: {:?}",
        studio.seen
    );
    assert_eq!(
        studio.seen.last().map(String::as_str),
        Some("Generate::Written")
    );
    eventually("the draft of the first message", || {
        studio.draft(Mode::COMMIT).as_deref() == Some(FIRST)
    })
    .await;
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert!(
        requests[0]
            .user_texts()
            .iter()
            .any(|t| t.contains("commit message for the staged changes")),
        "{:?}",
        requests[0].user_texts()
    );

    // "make it shorter" in the chat.
    studio.command(Command::OpenChat);
    assert_eq!(studio.state.focus, Pane::ChatInput);
    for c in "make it shorter".chars() {
        studio.key(KeyCode::Char(c));
    }
    studio.key(KeyCode::Enter);
    studio
        .pump_until("the chat reply", |s| {
            s.iris.task.is_none() && s.chat.messages.len() == 2
        })
        .await;
    // The scripted update_commit call landed in the editor, before the reply finished.
    assert_eq!(studio.text(), SHORTER_TIDY);
    let updated = studio.seen.iter().position(|k| k == "Chat::Updated");
    let replied = studio.seen.iter().position(|k| k == "Chat::Replied");
    assert!(
        updated.is_some() && updated < replied,
        "the edit lands while Iris is still answering: {:?}",
        studio.seen
    );
    assert_eq!(
        studio.state.chat.messages,
        vec![
            ChatMessage {
                speaker: Speaker::User,
                text: "make it shorter".to_string()
            },
            ChatMessage {
                speaker: Speaker::Iris,
                text: "Made it shorter.".to_string()
            },
        ]
    );
    eventually("the draft of the shorter message", || {
        studio.draft(Mode::COMMIT).as_deref() == Some(SHORTER_TIDY)
    })
    .await;

    // What Iris was sent: the message as the user's turn, the artifact in the instructions, the
    // update tool offered; then the tool's result.
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    let chat = &requests[1];
    assert_eq!(chat.user_texts(), vec!["make it shorter".to_string()]);
    assert!(assistant_texts(chat).is_empty(), "no history yet");
    assert!(
        chat.system_text()
            .contains(&format!("<artifact>\n{FIRST}\n</artifact>")),
        "{}",
        chat.system_text()
    );
    assert!(chat.tool_names().iter().any(|t| t == "update_commit"));
    let results = requests[2].tool_results();
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0].1, "The commit message in the editor is updated.");

    // A second message carries the conversation as real chat history, and the edited
    // message as the artifact.
    for c in "how long is the title now?".chars() {
        studio.key(KeyCode::Char(c));
    }
    studio.key(KeyCode::Enter);
    studio
        .pump_until("the second reply", |s| {
            s.iris.task.is_none() && s.chat.messages.len() == 4
        })
        .await;
    let requests = fake.requests();
    assert_eq!(requests.len(), 4);
    let second = &requests[3];
    assert_eq!(
        second.user_texts(),
        vec![
            "make it shorter".to_string(),
            "how long is the title now?".to_string()
        ]
    );
    assert_eq!(
        assistant_texts(second),
        vec!["Made it shorter.".to_string()]
    );
    assert!(
        second
            .system_text()
            .contains(&format!("<artifact>\n{SHORTER_TIDY}\n</artifact>")),
        "{}",
        second.system_text()
    );
    assert_eq!(
        studio.text(),
        SHORTER_TIDY,
        "a reply without an edit changes nothing"
    );

    // Undo brings back the first message (and saves it as the draft); redo the shorter one.
    // Esc leaves the chat (closed) for the file list: the next key is a command again.
    studio.command(Command::Back);
    assert_eq!(studio.state.focus, Pane::Changes);
    assert!(!studio.state.chat.open);
    studio.command(Command::UndoVersion);
    assert_eq!(studio.text(), FIRST);
    assert_eq!(
        studio.effects.last(),
        Some(&Effect::Editor(EditorFx::SaveDraft {
            kind: ArtifactKind::Commit,
            // The draft keeps the newer text to redo to.
            draft: Draft {
                text: FIRST.to_string(),
                versions: vec![FIRST.to_string(), SHORTER_TIDY.to_string()],
                position: 0,
                // Iris' last text, through her update tool.
                by_iris: Some(SHORTER_TIDY.to_string()),
                // For the staged change as the studio read it.
                written_for: studio.state.changes.key.clone(),
                ..Draft::default()
            },
        }))
    );
    eventually("the draft after undo", || {
        studio.draft(Mode::COMMIT).as_deref() == Some(FIRST)
    })
    .await;
    studio.command(Command::RedoVersion);
    assert_eq!(studio.text(), SHORTER_TIDY);
    assert_eq!(fake.remaining(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commit_through_the_runner_lands_in_git_and_clears_the_draft() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    studio.state.iris.auto_generate = false;
    studio.runner.run(Effect::Changes(ChangesFx::LoadStatus));
    studio
        .pump_until("the status", |s| !s.changes.loading)
        .await;
    studio.command(Command::NextPane);
    studio.command(Command::NextPane);
    assert_eq!(studio.state.focus, Pane::Editor);
    for c in "Add two()".chars() {
        studio.key(KeyCode::Char(c));
    }
    eventually("the typed draft", || {
        studio.draft(Mode::COMMIT).as_deref() == Some("Add two()")
    })
    .await;
    studio.command(Command::Commit);
    studio.key(KeyCode::Char('y'));
    studio
        .pump_until("the commit and the status after it", |s| {
            s.artifacts[&ArtifactKind::Commit].is_empty()
                && !s.changes.has_staged
                && !s.changes.loading
        })
        .await;
    assert_eq!(repo.git(&["log", "-1", "--format=%B"]).trim(), "Add two()");
    assert!(
        studio.state.changes.files.is_empty(),
        "{:?}",
        studio.state.changes.files
    );
    eventually("the draft to be cleared", || {
        studio.draft(Mode::COMMIT).is_none()
    })
    .await;
    assert_eq!(fake.requests().len(), 0, "no AI was asked for");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_draft_is_restored_before_the_status_can_start_a_generation() {
    let repo = staged_repo();
    let drafts = repo.path().join(".git").join("iris").join("drafts");
    std::fs::create_dir_all(&drafts).unwrap();
    std::fs::write(drafts.join("commit.md"), "My own draft").unwrap();
    // Were Iris asked, she would overwrite the draft.
    let fake = FakeProvider::start(vec![Step::text(
        json!({"emoji": null, "title": "Iris' title", "message": "body"}).to_string(),
    )]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    assert!(studio.state.iris.auto_generate);
    // As the studio starts.
    studio.runner.start();
    studio
        .pump_until("the status and the drafts", |s| {
            !s.changes.loading && !s.artifacts[&ArtifactKind::Commit].is_empty()
        })
        .await;
    assert_eq!(studio.text(), "My own draft");
    assert!(
        !studio
            .effects
            .iter()
            .any(|e| matches!(e, Effect::Generate(GenerateFx::Generate { .. }))),
        "a generation started before the draft was restored: {:?}",
        studio.seen
    );
    assert!(studio.state.iris.task.is_none());
    assert_eq!(fake.requests().len(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_merge_in_progress_opens_with_gits_prepared_message() {
    let repo = TestRepo::new();
    assert!(!repo.conflicting_merge("shared.txt").status.success());
    repo.write("shared.txt", "both\n");
    repo.git(&["add", "shared.txt"]);
    let fake = FakeProvider::start(vec![Step::text(
        json!({"emoji": null, "title": "Iris' title", "message": "body"}).to_string(),
    )]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    studio.runner.start();
    studio
        .pump_until("the status and git's message", |s| {
            !s.changes.loading && !s.artifacts[&ArtifactKind::Commit].is_empty()
        })
        .await;
    assert_eq!(studio.text(), "Merge branch 'other'");
    let notice = studio.state.notice.as_ref().map(|n| n.text.clone());
    assert!(
        notice.is_some_and(|n| n.starts_with("a merge is in progress")),
        "{:?}",
        studio.state.notice
    );
    assert!(
        !studio
            .effects
            .iter()
            .any(|e| matches!(e, Effect::Generate(GenerateFx::Generate { .. }))),
        "Iris wrote over git's message: {:?}",
        studio.seen
    );
}

/// Drafts still queued when the studio stops are written before it is gone: on a single
/// thread nothing else would get to write them once the loop has ended.
#[tokio::test(flavor = "current_thread")]
async fn drafts_queued_at_the_end_are_written_before_the_runner_finishes() {
    let repo = staged_repo();
    let (tx, _rx) = unbounded_channel();
    let git_dir = repo.path().join(".git");
    let ws = Workspace::open_with(&repo.path(), |root| {
        Ok(Config::load_from(
            None,
            Some(root),
            &|_| None,
            &Overrides::default(),
        )?)
    })
    .expect("the test repository");
    let mut runner = Runner::new(tx, &ws, None);
    for text in ["K", "Ke", "Kept"] {
        runner.run(Effect::Editor(EditorFx::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: draft(text.to_string()),
        }));
    }
    runner.run(Effect::Editor(EditorFx::SaveDraft {
        kind: ArtifactKind::Pr,
        draft: draft("A PR body".to_string()),
    }));
    runner.run(Effect::Editor(EditorFx::ClearDraft {
        kind: ArtifactKind::Pr,
    }));
    runner.finish().await;
    assert_eq!(
        saved_draft(&git_dir, ArtifactKind::Commit).map(|d| d.text),
        Some("Kept".to_string())
    );
    assert!(
        saved_draft(&git_dir, ArtifactKind::Pr).is_none(),
        "the cleared draft is gone"
    );
}

/// Space on a hunk of the staged part takes it out of the index, space on a hunk of the
/// unstaged part puts it back: through the runner and git, the diff reloading in between.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn space_unstages_a_staged_hunk_and_stages_it_back() {
    let repo = TestRepo::new();
    repo.two_hunk_change("f.txt");
    repo.git(&["add", "f.txt"]);
    let fake = FakeProvider::start(vec![]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    studio.state.iris.auto_generate = false;
    studio.runner.run(Effect::Changes(ChangesFx::LoadStatus));
    studio
        .pump_until("the file's diff", |s| {
            !s.changes.loading && s.diff.staged.is_some() && !s.diff.loading
        })
        .await;
    assert_eq!(studio.state.diff.staged, Some(1));
    assert_eq!(studio.state.diff.files.len(), 1, "all of it staged");

    // At the top of the diff: the first staged hunk.
    studio.command(Command::StageHunk);
    studio
        .pump_until("the diff in two parts", |s| {
            s.diff.files.len() == 2 && !s.diff.loading
        })
        .await;
    let cached = repo.git(&["diff", "--cached"]);
    assert!(cached.contains("+line 28 changed") && !cached.contains("line 2 changed"));
    assert!(repo.git(&["diff"]).contains("+line 2 changed"));

    let diff = &studio.state.diff;
    let unstaged = diff
        .hunks()
        .into_iter()
        .find(|h| diff.is_staged(h.file) == Some(false))
        .expect("an unstaged hunk");
    studio.state.diff.scroll = unstaged.row;
    studio.command(Command::StageHunk);
    studio
        .pump_until("all of it staged again", |s| {
            s.diff.files.len() == 1 && !s.diff.loading
        })
        .await;
    assert_eq!(repo.git(&["diff"]), "");
    assert_eq!(studio.state.diff.staged, Some(1));
    assert_eq!(fake.requests().len(), 0);
}

/// A review as the model writes it, with no findings.
fn review_json(summary: &str) -> String {
    json!({"summary": summary, "findings": [], "strengths": []}).to_string()
}

/// The studio writes through the same path as the command line: the critic checks a review
/// by default, and never when `critic_enabled` is off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_studio_honours_critic_enabled() {
    for critic_enabled in [true, false] {
        let repo = staged_repo();
        let mut script = vec![Step::text(review_json("Adds two()."))];
        if critic_enabled {
            script.push(Step::text(crate::common::agent::approval()));
        }
        let fake = FakeProvider::start(script);
        let overrides = Overrides {
            critic_enabled: Some(critic_enabled),
            ..Overrides::default()
        };
        let mut studio = Headless::configured(&repo, &fake, Mode::REVIEW, &overrides);
        studio.state.iris.auto_generate = false;
        studio.runner.run(Effect::Changes(ChangesFx::LoadStatus));
        studio
            .pump_until("the status", |s| !s.changes.loading)
            .await;
        studio.command(Command::Generate);
        studio
            .pump_until("the review", |s| s.iris.task.is_none())
            .await;
        assert!(studio.text().contains("Adds two()."), "{}", studio.text());
        let expected = if critic_enabled { 2 } else { 1 };
        assert_eq!(
            fake.requests().len(),
            expected,
            "critic_enabled={critic_enabled}"
        );
        assert_eq!(fake.remaining(), 0);
    }
}

/// Types `message` into the commit editor of a studio whose status is loaded, and asks to
/// commit with it.
async fn commit_with(studio: &mut Headless, message: &str) {
    studio.state.iris.auto_generate = false;
    studio.load_status().await;
    studio.command(Command::NextPane);
    studio.command(Command::NextPane);
    for c in message.chars() {
        studio.key(KeyCode::Char(c));
    }
    studio.command(Command::Commit);
    studio.key(KeyCode::Char('y'));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusing_hook_shows_its_output_and_a_locked_index_is_tried_again() {
    let repo = staged_repo();
    repo.write_hook(
        "commit-msg",
        "echo 'every message needs a ticket' >&2\necho 'see CONTRIBUTING' >&2\nexit 1",
    );
    let fake = FakeProvider::start(vec![]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    commit_with(&mut studio, "Add two()").await;
    studio
        .pump_until("the hook's refusal", |s| s.overlay.report.is_some())
        .await;
    let report = studio.state.overlay.report.clone().unwrap();
    assert!(report.title.contains("hook"), "{report:?}");
    assert!(
        report.text.contains("every message needs a ticket"),
        "{report:?}"
    );
    assert!(report.text.contains("see CONTRIBUTING"), "{report:?}");
    assert_eq!(studio.text(), "Add two()", "the message stays");
    studio.command(Command::Back);

    // Another git holds the index: the studio offers the same commit again.
    std::fs::remove_file(repo.path().join(".git/hooks/commit-msg")).unwrap();
    std::fs::write(repo.path().join(".git/index.lock"), "").unwrap();
    studio.command(Command::Commit);
    studio.key(KeyCode::Char('y'));
    studio
        .pump_until("the offer to try again", |s| {
            matches!(
                s.overlay.confirm,
                Some(iris_studio_tui::state::Confirm::TryAgain(_))
            )
        })
        .await;
    assert_eq!(studio.text(), "Add two()");
    std::fs::remove_file(repo.path().join(".git/index.lock")).unwrap();
    studio.key(KeyCode::Char('y'));
    studio
        .pump_until("the commit", |s| {
            s.artifacts[&ArtifactKind::Commit].is_empty() && !s.changes.has_staged
        })
        .await;
    assert_eq!(repo.git(&["log", "-1", "--format=%B"]).trim(), "Add two()");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_key_opens_the_setup_and_the_message_stays() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::error(401)]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    studio.state.iris.auto_generate = false;
    studio.load_status().await;
    studio.command(Command::Generate);
    studio
        .pump_until("the setup", |s| s.overlay.setup.is_some())
        .await;
    assert!(studio.state.iris.task.is_none());
    let notice = studio.state.notice.clone().expect("a notice");
    assert!(notice.text.contains("401"), "{notice:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_past_its_deadline_ends_in_a_clear_error_and_the_text_before_stays() {
    let repo = staged_repo();
    let first = json!({"emoji": null, "title": "Add two()",
                       "message": "Adds a second constant function next to one()."});
    let fake = FakeProvider::start(vec![
        Step::text(first.to_string()),
        Step::slow(30_000, Step::text(first.to_string())),
    ]);
    let mut studio = Headless::tuned(&repo, &fake, Mode::COMMIT, &Overrides::default(), |iris| {
        iris.with_run_timeout(Duration::from_millis(700))
    });
    studio.state.iris.auto_generate = false;
    studio.runner.run(Effect::Changes(ChangesFx::LoadStatus));
    studio
        .pump_until("the status", |s| !s.changes.loading)
        .await;
    studio.command(Command::Generate);
    studio
        .pump_until("the message", |s| s.iris.task.is_none())
        .await;
    assert_eq!(studio.text(), FIRST);
    studio.command(Command::Generate);
    studio
        .pump_until("the deadline", |s| s.iris.task.is_none())
        .await;
    let notice = studio.state.notice.clone().expect("a notice");
    assert!(notice.text.contains("stopped after"), "{notice:?}");
    assert!(notice.text.contains("run_timeout_secs"), "{notice:?}");
    assert_eq!(studio.text(), FIRST, "the text from before stays");
}

/// A draft of `text` with no earlier versions.
fn draft(text: impl Into<String>) -> Draft {
    Draft {
        text: text.into(),
        ..Draft::default()
    }
}

/// The draft of `kind` as the studio saved it.
fn saved_draft(git_dir: &std::path::Path, kind: ArtifactKind) -> Option<Draft> {
    DraftStore::new(&IrisDir::of(git_dir))
        .load_all()
        .into_iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, d)| d)
}

/// A studio in commit mode on a trusted repository in safety mode `safety`, the status loaded.
async fn guarded_studio(repo: &TestRepo, fake: &FakeProvider, safety: &str) -> Headless {
    let overrides = Overrides {
        safety: Some(safety.to_string()),
        trust_repo: Some(true),
        ..Overrides::default()
    };
    // The model runs the linters while writing a commit message.
    repo.offer_every_tool("commit");
    let user_dir = repo.user_config_path().parent().map(Path::to_path_buf);
    let mut studio = Headless::tuned(repo, fake, Mode::COMMIT, &overrides, |iris| {
        iris.with_user_dir(user_dir)
    });
    studio.state.iris.auto_generate = false;
    studio.runner.run(Effect::Changes(ChangesFx::LoadStatus));
    studio
        .pump_until("the status", |s| !s.changes.loading)
        .await;
    studio
}

/// Pumps until the first approval question is up, checks it names `tool`, answers with `key`.
async fn answer(studio: &mut Headless, tool: &str, key: char) {
    studio
        .pump_until("an approval question", |s| {
            !s.iris.approvals.is_empty() || s.iris.task.is_none()
        })
        .await;
    let asked = studio.state.iris.approvals.front().map(|r| r.tool.clone());
    assert_eq!(asked.as_deref(), Some(tool), "{:?}", studio.state.notice);
    studio.key(KeyCode::Char(key));
}

/// The tool results of the fake's requests, in order, for `tool`'s calls.
fn results_of(fake: &FakeProvider) -> Vec<String> {
    let requests = fake.requests();
    requests
        .last()
        .map(|r| r.tool_results().into_iter().map(|(_, text)| text).collect())
        .unwrap_or_default()
}

const REFUSED: &str = "the user did not allow";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cautious_asks_once_for_a_program_run_and_the_session_remembers() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("static_analysis", json!({})),
        Step::tool_call("static_analysis", json!({})),
        Step::text(commit_json_text()),
        Step::tool_call("static_analysis", json!({})),
        Step::text(commit_json_text()),
    ]);
    let mut studio = guarded_studio(&repo, &fake, "cautious").await;
    studio.command(Command::Generate);
    answer(&mut studio, "static_analysis", 'y').await;
    studio
        .pump_until("the message", |s| s.iris.task.is_none())
        .await;
    assert!(studio.state.iris.approvals.is_empty());
    let results = results_of(&fake);
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(results.iter().all(|r| !r.contains(REFUSED)), "{results:?}");
    // A second run of the same session: no question.
    studio.command(Command::Generate);
    studio
        .pump_until("the second message", |s| {
            s.iris.task.is_none() || !s.iris.approvals.is_empty()
        })
        .await;
    studio
        .pump_until("the second message", |s| s.iris.task.is_none())
        .await;
    assert_eq!(fake.remaining(), 0);
    let asked = studio.seen.iter().filter(|k| k.starts_with("Key")).count();
    assert_eq!(asked, 1, "one question in the session: {:?}", studio.seen);
    assert_eq!(studio.text(), FIRST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn safe_asks_every_time_and_a_refusal_reaches_the_model_as_a_tool_error() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("static_analysis", json!({})),
        Step::tool_call("static_analysis", json!({})),
        Step::text(commit_json_text()),
    ]);
    let mut studio = guarded_studio(&repo, &fake, "safe").await;
    studio.command(Command::Generate);
    answer(&mut studio, "static_analysis", 'y').await;
    // The question is drawn over the panes while it waits.
    answer(&mut studio, "static_analysis", 'n').await;
    studio
        .pump_until("the message", |s| s.iris.task.is_none())
        .await;
    let results = results_of(&fake);
    assert!(!results[0].contains(REFUSED), "{results:?}");
    assert!(results[1].contains(REFUSED), "{results:?}");
    assert!(results[1].contains("safety_mode safe"), "{results:?}");
    assert_eq!(studio.text(), FIRST, "the run went on after the refusal");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paranoid_asks_before_iris_edits_the_message_and_yolo_asks_nothing() {
    for (safety, asks) in [("paranoid", true), ("yolo", false)] {
        let repo = staged_repo();
        let fake = FakeProvider::start(vec![
            Step::text(commit_json_text()),
            Step::tool_call("update_commit", json!({ "content": SHORTER })),
            Step::tool_call("static_analysis", json!({})),
            Step::text("Done."),
        ]);
        let mut studio = guarded_studio(&repo, &fake, safety).await;
        studio.command(Command::Generate);
        studio
            .pump_until("the message", |s| s.iris.task.is_none())
            .await;
        studio.command(Command::OpenChat);
        for c in "make it shorter".chars() {
            studio.key(KeyCode::Char(c));
        }
        studio.key(KeyCode::Enter);
        if asks {
            answer(&mut studio, "update_commit", 'n').await;
            answer(&mut studio, "static_analysis", 'y').await;
        }
        studio
            .pump_until("the reply", |s| s.iris.task.is_none())
            .await;
        let results = results_of(&fake);
        assert_eq!(results.len(), 2, "{safety}: {results:?}");
        assert_eq!(results[0].contains(REFUSED), asks, "{safety}: {results:?}");
        assert!(!results[1].contains(REFUSED), "{safety}: {results:?}");
        let expected = if asks { FIRST } else { SHORTER_TIDY };
        assert_eq!(studio.text(), expected, "{safety}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn esc_on_a_question_refuses_and_cancelling_the_run_clears_it() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("static_analysis", json!({})),
        Step::text(commit_json_text()),
        Step::tool_call("static_analysis", json!({})),
        Step::text(commit_json_text()),
    ]);
    let mut studio = guarded_studio(&repo, &fake, "safe").await;
    studio.command(Command::Generate);
    studio
        .pump_until("the question", |s| !s.iris.approvals.is_empty())
        .await;
    // Keys other than the answers leave the question up.
    studio.key(KeyCode::Char('x'));
    assert_eq!(studio.state.iris.approvals.len(), 1);
    studio.key(KeyCode::Esc);
    assert!(studio.state.iris.approvals.is_empty());
    studio
        .pump_until("the message", |s| s.iris.task.is_none())
        .await;
    assert!(results_of(&fake)[0].contains(REFUSED));
    // A run cancelled while it asks takes its question with it.
    studio.command(Command::Generate);
    studio
        .pump_until("the question", |s| !s.iris.approvals.is_empty())
        .await;
    studio.command(Command::Back);
    assert!(studio.state.iris.approvals.is_empty() && studio.state.iris.task.is_none());
}

fn commit_json_text() -> String {
    json!({"emoji": null, "title": "Add two()",
           "message": "Adds a second constant function next to one()."})
    .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_studio_marks_a_staged_secret_and_never_sends_one() {
    let repo = staged_repo();
    // Built at run time: no token-shaped literal in the source.
    let token = format!("{}{}", "ghp_", "Zq7Lm2Xc9Vb4Nn8Kd3Hs6Jt1Pw5Rf0Ya2Ue4");
    repo.write(".env", format!("GITHUB_TOKEN={token}\n"));
    repo.git(&["add", "-A"]);
    let fake = FakeProvider::start(vec![Step::text("It is a GitHub token.")]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    studio.state.iris.auto_generate = false;
    studio.runner.run(Effect::Changes(ChangesFx::LoadStatus));
    studio
        .pump_until("the ranking with its secrets", |s| {
            !s.changes.loading && s.changes.ranking_complete
        })
        .await;
    let env = studio.state.changes.files.iter().find(|f| f.path == ".env");
    assert_eq!(env.and_then(|f| f.secret.as_deref()), Some("github-token"));
    let lib = studio
        .state
        .changes
        .files
        .iter()
        .find(|f| f.path == "src/lib.rs");
    assert_eq!(lib.and_then(|f| f.secret.clone()), None);

    // The token typed into the message and pasted into the chat.
    studio
        .state
        .artifact_mut()
        .expect("commit mode")
        .editor
        .insert_str(format!("Add a token\n\nUses {token} for the API."));
    studio.command(Command::OpenChat);
    for c in format!("what is {token}?").chars() {
        studio.key(KeyCode::Char(c));
    }
    studio.key(KeyCode::Enter);
    studio
        .pump_until("the reply", |s| s.iris.task.is_none())
        .await;
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let body = requests[0].body.to_string();
    assert!(!body.contains(&token), "{body}");
    assert!(body.contains("[secret: github-token]"), "{body}");
    // The status line says so, naming the kind (a chat message has no file and line); the
    // event may come after the reply, since it travels through the task's event forwarder.
    studio
        .pump_until("the notice", |s| {
            s.notice
                .as_ref()
                .is_some_and(|n| n.text.contains("withheld"))
        })
        .await;
    let notice = studio.state.notice.clone().expect("a notice");
    assert!(
        notice
            .text
            .contains("a secret was withheld from Iris: github-token"),
        "{notice:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_a_file_brings_its_heat_margin_from_one_blame() {
    use iris_studio_tui::state::Heat;
    let repo = staged_repo();
    repo.commit_all("Add two()");
    repo.write(
        "src/lib.rs",
        "// new first line\npub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    let fake = FakeProvider::start(vec![]);
    let mut studio = Headless::new(&repo, &fake, Mode::Explore);
    studio.open_file("src/lib.rs").await;
    studio
        .pump_until("the heat margin", |s| s.explore.heat.is_some())
        .await;
    let heat = studio.state.explore.heat.clone().expect("heat");
    assert_eq!(heat.len(), 8);
    assert_eq!(heat[0], Heat::Uncommitted);
    assert_eq!(heat[1], Heat::Cold, "from the first commit");
    assert_eq!(heat[6], Heat::Hot, "from the second commit");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn w_explains_the_selected_lines_from_their_history_and_asking_again_is_instant() {
    let repo = staged_repo();
    let added = repo.commit_all("Add two() for the second reading");
    let short = &added[..7];
    // An uncommitted first line shifts the file: the lines asked are the ones on screen.
    repo.write(
        "src/lib.rs",
        "// new first line\npub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    let answer = format!("two() came with {short}, which added a second reading.");
    let fake = FakeProvider::start(vec![Step::Text(answer.clone())]);
    let mut studio = Headless::new(&repo, &fake, Mode::Explore);
    studio.runner.run(Effect::Changes(ChangesFx::LoadStatus));
    studio
        .pump_until("the status", |s| s.repo.head.is_some())
        .await;
    studio.open_file("src/lib.rs").await;
    studio.state.focus = Pane::Code;
    for _ in 0..5 {
        studio.command(Command::Down);
    }
    studio.command(Command::SelectLines);
    studio.command(Command::Down);
    studio.command(Command::Down);
    studio.command(Command::AskWhy);
    studio
        .pump_until("the answer", |s| {
            s.explore.why.as_ref().is_some_and(|w| w.answer.is_some())
        })
        .await;
    let why = studio.state.explore.why.clone().unwrap();
    let explained = why.answer.unwrap();
    assert_eq!((explained.start_line, explained.end_line), (6, 8));
    assert_eq!(explained.explanation, answer);
    assert_eq!(explained.cited, vec![short.to_string()]);
    assert_eq!(explained.commits.len(), 1, "{:?}", explained.commits);
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let sent = requests[0].body.to_string();
    assert!(
        sent.contains(&format!("6 {short} | pub fn two() -> u32 {{")),
        "the working copy's line 6 with its commit: {sent}"
    );
    assert!(sent.contains("Add two() for the second reading"), "{sent}");

    // The same lines again: the answer is there at once, and nothing is sent.
    studio.command(Command::Back);
    studio.state.focus = Pane::Code;
    studio.command(Command::Up);
    studio.command(Command::Up);
    studio.command(Command::SelectLines);
    studio.command(Command::Down);
    studio.command(Command::Down);
    studio.command(Command::AskWhy);
    assert!(studio.state.iris.task.is_none());
    let again = studio
        .state
        .explore
        .why
        .as_ref()
        .and_then(|w| w.answer.clone());
    assert_eq!(again.map(|a| a.explanation), Some(answer));
    assert_eq!(fake.requests().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn i_reads_the_open_file_and_lists_its_blocks_and_asking_again_is_instant() {
    let repo = staged_repo();
    let answer = json!({
        "intent": "Constant functions the examples call.",
        "blocks": [
            {"id": "one", "label": "The first constant", "description": "Returns 1.",
             "elements": {"functions": ["one"]}, "ranges": [[1, 3]]},
            {"id": "two", "label": "The second constant", "description": "Returns 2.",
             "elements": {"functions": ["two"]}, "ranges": [[5, 7]]},
            {"id": "layout", "label": "Blank separator line", "description": "Spacing.",
             "elements": {}, "ranges": [[4, 4]]}
        ]
    });
    let fake = FakeProvider::start(vec![Step::Text(answer.to_string())]);
    let mut studio = Headless::new(&repo, &fake, Mode::Explore);
    studio.open_file("src/lib.rs").await;
    studio.state.focus = Pane::Code;
    studio.command(Command::FileIntent);
    studio
        .pump_until("the blocks", |s| {
            s.explore
                .intent
                .as_ref()
                .is_some_and(|v| v.intent.is_some())
        })
        .await;
    let intent = studio.state.explore.intent.clone().unwrap().intent.unwrap();
    assert_eq!(intent.blocks.len(), 3);
    assert_eq!(intent.intent, "Constant functions the examples call.");
    let requests = fake.requests();
    assert_eq!(requests.len(), 1, "a short file goes whole, in one request");
    let sent = requests[0].body.to_string();
    assert!(sent.contains("pub fn two() -> u32"), "{sent}");
    // The second block lights lines 5-7 and puts the cursor on line 5.
    studio.command(Command::Down);
    assert_eq!(studio.state.explore.block_ranges(), vec![(4, 6)]);
    assert_eq!(studio.state.explore.cursor, 4);
    // Asked again after closing: at once, nothing sent.
    studio.command(Command::Back);
    studio.command(Command::FileIntent);
    assert!(studio.state.iris.task.is_none());
    assert!(
        studio
            .state
            .explore
            .intent
            .as_ref()
            .unwrap()
            .intent
            .is_some()
    );
    assert_eq!(fake.requests().len(), 1);
}

/// The studio reads the repository's commit rules as it starts, off the UI thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_repositorys_commit_rules_are_read_at_start() {
    let repo = staged_repo();
    repo.write(
        ".commitlintrc.json",
        r#"{"extends": ["@commitlint/config-conventional"], "rules": {"header-max-length": [2, "always", 60]}}"#,
    );
    let fake = FakeProvider::start(vec![]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    studio.state.iris.auto_generate = false;
    studio.runner.start();
    studio
        .pump_until("the rules and the status", |s| {
            s.repo.commit_rules.is_some() && !s.changes.loading
        })
        .await;
    let rules = studio.state.repo.commit_rules.as_ref().unwrap();
    assert_eq!(rules.source, ".commitlintrc.json");
    let broken: Vec<String> = rules
        .check("Add two()")
        .into_iter()
        .map(|v| v.rule)
        .collect();
    assert!(broken.contains(&"type-empty".to_string()), "{broken:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_language_the_message_and_the_chat_are_asked_for_in_it() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::text(json!({"emoji": null, "title": "two() hinzufügen", "message": ""}).to_string()),
        Step::text("Der Titel hat 16 Zeichen."),
    ]);
    let overrides = Overrides {
        language: Some("de".into()),
        ..Overrides::default()
    };
    let mut studio = Headless::configured(&repo, &fake, Mode::Explore, &overrides);
    assert_eq!(studio.write_the_message().await, "two() hinzufügen");
    studio.say("wie lang ist der Titel?").await;
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        assert!(
            request
                .system_text()
                .contains("## Language\nWrite every text you produce in German (de)"),
            "{}",
            request.system_text()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_asks_for_three_alternatives_at_once_and_the_picked_one_is_the_message() {
    let repo = staged_repo();
    let reply =
        |title: &str| Step::text(json!({"emoji": null, "title": title, "message": ""}).to_string());
    let fake = FakeProvider::start(vec![
        reply("Add two()"),
        reply("Add a second constant function"),
        reply("Offer two() beside one()"),
        reply("Add two()"),
    ]);
    let mut studio = Headless::new(&repo, &fake, Mode::Explore);
    let first = studio.write_the_message().await;
    studio.command(Command::Alternatives);
    studio
        .pump_until("the alternatives", |s| s.overlay.alternatives.is_some())
        .await;
    let requests = fake.requests();
    assert_eq!(requests.len(), 4, "one generation, then three alternatives");
    let angles = requests[1..]
        .iter()
        .filter(|r| r.user_texts().join("\n").contains("## Alternative "))
        .count();
    assert_eq!(
        angles, 2,
        "every alternative but one asks for another angle"
    );
    // The message in the editor first, then the three minus the one equal to it.
    let shown = studio.state.overlay.alternatives.clone().expect("shown");
    assert_eq!(shown.versions.len(), 3, "{shown:?}");
    assert!(shown.versions[0].current && shown.versions[0].text == first);
    let third = shown.versions[2].text.clone();
    assert_ne!(third, first);
    studio.key(KeyCode::Char('3'));
    assert_eq!(studio.text(), third);
    eventually("the draft of the picked message", || {
        studio.draft(Mode::COMMIT).as_deref() == Some(third.as_str())
    })
    .await;
}

/// PR mode writes through the same path as `iris pr`: the repository's pull request template
/// goes to the model and lands in the editor filled in (here from the fields, the model
/// having left it out).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pr_mode_shows_the_repositorys_template_filled_in() {
    let repo = TestRepo::feature_branch();
    repo.write(
        ".github/pull_request_template.md",
        "## What?\n<!-- What changes. -->\n\n## Checklist\n- [ ] Tests added\n",
    );
    let pr = json!({
        "title": "Add two()", "summary": "Adds two().", "description": "",
        "changes": [], "testing": [], "breaking_changes": [], "reviewer_notes": [],
        "related_issues": [], "filled_template": null,
    });
    let fake = FakeProvider::start(vec![
        Step::text(pr.to_string()),
        Step::text(crate::common::agent::approval()),
    ]);
    let mut studio = Headless::new(&repo, &fake, Mode::PR);
    studio.state.iris.auto_generate = false;
    studio.state.range.resolved_from = Some("main".into());
    studio.command(Command::Generate);
    studio
        .pump_until("the description", |s| s.iris.task.is_none())
        .await;
    assert_eq!(
        studio.text(),
        "# Add two()\n\n## What?\n\nAdds two().\n\n## Checklist\n\n- [ ] Tests added"
    );
    assert!(
        fake.requests()[0]
            .user_texts()
            .join("\n")
            .contains("<!-- What changes. -->")
    );
}

/// The studio's commit request carries the history sample too: the people's commits, the one
/// to the same file first, no bot's, no merge, no address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_studio_writes_a_small_commit_after_the_peoples_messages() {
    let repo = crate::history_sample::mixed_history();
    let fake = FakeProvider::start(vec![Step::text(
        json!({"emoji": null, "title": "Add two()", "message": ""}).to_string(),
    )]);
    let mut studio = Headless::new(&repo, &fake, Mode::Explore);
    studio.load_status().await;
    studio.command(Command::ModeCommit);
    studio
        .pump_until("the generated message", |s| {
            s.iris.task.is_none() && !s.artifacts[&ArtifactKind::Commit].is_empty()
        })
        .await;
    let body = fake.requests()[0].raw_body.clone();
    let sample = crate::history_sample::sample_in(&body);
    assert!(
        sample.contains("\\n- Tune the numbers in lib\\n"),
        "{sample}"
    );
    for absent in [
        "bump serde",
        "update rust",
        "Merge branch",
        "@people.example",
    ] {
        assert!(!sample.contains(absent), "{absent} in {sample}");
    }
}

// The artifact as it forms -----------------------------------------------------------------

const FORMING_TITLE: &str = "Add two() beside one()";
const FORMING_BODY: &str =
    "Adds a second constant function, next to one(), for callers that need two.";

/// The reply in the schema's order, as models write it (`json!` would sort the keys).
fn forming_commit() -> String {
    format!(r#"{{"emoji": null, "title": "{FORMING_TITLE}", "message": "{FORMING_BODY}"}}"#)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_commit_message_forms_as_it_streams_and_the_finished_one_replaces_it() {
    let repo = staged_repo();
    // The reply in 8-character pieces, 20 ms apart.
    let fake = FakeProvider::start(vec![Step::paced(20, Step::text(forming_commit()))]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    let text = studio.write_the_message().await;
    // The finished message is the normalised one: its body wrapped at 72 columns.
    assert_eq!(
        text,
        format!(
            "{FORMING_TITLE}\n\n{}",
            FORMING_BODY.replace("need two.", "need\ntwo.")
        )
    );
    let previews = &studio.previews;
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    // The title formed first, then the body, and each step only added to the last.
    let title_forming = previews
        .iter()
        .position(|p| p.len() < FORMING_TITLE.len() && FORMING_TITLE.starts_with(p.as_str()))
        .unwrap_or_else(|| panic!("no partial title among {previews:#?}"));
    let body_forming = previews
        .iter()
        .position(|p| {
            p.starts_with(&format!("{FORMING_TITLE}\n\n")) && words(p).len() < words(&text).len()
        })
        .unwrap_or_else(|| panic!("no partial body among {previews:#?}"));
    assert!(title_forming < body_forming);
    for pair in previews.windows(2) {
        assert!(pair[1].starts_with(pair[0].trim_end()), "{pair:#?}");
    }
    assert!(previews.iter().all(|p| words(&text).starts_with(&words(p))));
    assert!(
        !previews
            .iter()
            .any(|p| p.contains('{') || p.contains("\"title\""))
    );
    // The last preview was the reply as written; the normalised message replaced it in one
    // step, and no version was made of a preview.
    assert_ne!(previews.last(), Some(&text));
    assert!(
        studio.state.artifacts[&ArtifactKind::Commit]
            .versions
            .is_empty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_while_it_forms_keeps_the_text_there_was() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::text(commit_json_text()),
        Step::paced(200, Step::text(forming_commit())),
    ]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    let before = studio.write_the_message().await;
    let versions = studio.state.artifacts[&ArtifactKind::Commit].versions.len();
    studio.command(Command::Generate);
    studio
        .pump_until("the new title forming", |s| {
            s.iris
                .task
                .as_ref()
                .and_then(|t| t.progress.preview.as_ref())
                .is_some_and(|(_, text)| text.starts_with("Add"))
        })
        .await;
    studio.command(Command::Back);
    assert!(studio.state.iris.task.is_none());
    assert_eq!(studio.text(), before);
    assert_eq!(
        studio.state.artifacts[&ArtifactKind::Commit].versions.len(),
        versions
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviews_findings_appear_one_by_one() {
    let repo = staged_repo();
    let finding = |n: u32, title: &str| {
        json!({"severity": "medium", "category": "correctness", "file": "src/lib.rs",
               "line": n, "title": title, "description": "Why it matters.",
               "suggestion": "What to do.", "confidence": 90})
    };
    let titles = [
        "First finding here",
        "Second finding here",
        "Third finding here",
    ];
    let review = json!({"summary": "Three things to look at.", "findings": [
        finding(5, titles[0]), finding(6, titles[1]), finding(7, titles[2])
    ]});
    // A piece every 20 ms: each finding takes some 250 ms to stream, several times the
    // preview's 40 ms interval, so a render between two findings never races it.
    let fake = FakeProvider::start(vec![Step::paced(20, Step::text(review.to_string()))]);
    let mut studio = Headless::new(&repo, &fake, Mode::REVIEW);
    studio.state.iris.auto_generate = false;
    studio.write_the_review().await;
    let shown = |p: &String| titles.iter().filter(|t| p.contains(*t)).count();
    let counts: Vec<usize> = studio.previews.iter().map(shown).collect();
    // The summary shows before any finding; then the findings come one at a time, never a
    // finding cut short (a title shows whole or not at all).
    assert_eq!(counts.first(), Some(&0), "{:#?}", studio.previews);
    for n in 1..=3 {
        assert!(counts.contains(&n), "{counts:?}");
    }
    assert!(
        counts.windows(2).all(|w| w[1] >= w[0] && w[1] - w[0] <= 1),
        "{counts:?}"
    );
    for preview in &studio.previews {
        for title in titles {
            let cut = &title[..title.len() - 3];
            assert!(
                !preview.contains(cut) || preview.contains(title),
                "{preview}"
            );
        }
    }
    assert!(studio.text().contains(titles[2]));
}

/// The review the model writes on [`staged_repo`]'s `two()`: a high finding on its signature
/// and a medium one on its body, both quoting the staged code.
fn two_findings() -> String {
    let finding = |severity: &str, line: u32, quote: &str, title: &str| {
        json!({"severity": severity, "file": "src/lib.rs", "line": line, "title": title,
               "body": "Why it matters.", "confidence": 90, "category": "correctness",
               "quote": quote})
    };
    json!({"summary": "Adds two().", "strengths": [], "findings": [
        finding("high", 5, "pub fn two() -> u32 {", "Two is undocumented"),
        finding("medium", 6, "2", "A magic number"),
    ]})
    .to_string()
}

/// `d` in review mode dismisses the finding under the cursor with the user's words, kept
/// where `iris review --dismissed` lists it; the next review the studio writes leaves it out
/// and tells the reviewer why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d_dismisses_a_finding_with_a_reason_and_the_next_review_leaves_it_out() {
    const REASON: &str = "documented in the guide";
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(two_findings()), Step::text(two_findings())]);
    let overrides = Overrides {
        critic_enabled: Some(false),
        ..Overrides::default()
    };
    let mut studio = Headless::configured(&repo, &fake, Mode::REVIEW, &overrides);
    studio.state.iris.auto_generate = false;
    studio.write_the_review().await;
    let findings = studio.state.artifacts[&ArtifactKind::Review]
        .facts()
        .findings
        .clone();
    let titles: Vec<&str> = findings.iter().map(|f| f.title.as_str()).collect();
    assert_eq!(
        titles,
        ["Two is undocumented", "A magic number"],
        "{}",
        studio.text()
    );
    let id = findings[0].id.clone().expect("the finding's id");

    // The first finding is under the cursor: d, the user's words, enter.
    studio.state.focus = Pane::Findings;
    studio.command(Command::DismissFinding);
    for c in REASON.chars() {
        studio.key(KeyCode::Char(c));
    }
    studio.key(KeyCode::Enter);
    studio
        .pump_until("the dismissal", |s| {
            !s.artifacts[&ArtifactKind::Review]
                .text()
                .contains("Two is undocumented")
        })
        .await;
    assert!(
        studio.text().contains("### A magic number"),
        "{}",
        studio.text()
    );
    let said = studio.state.notice.clone().expect("a notice");
    assert_eq!(
        said.text,
        format!(
            "dismissed {id} \"Two is undocumented\" in src/lib.rs: kept in yours \
             (.git/iris/review-memory.toml)"
        )
    );

    // The command line lists it, with the reason.
    let listed = crate::common::agent::run(&repo, &["review", "--dismissed"], &[]);
    let listed = crate::common::agent::success(&listed);
    assert!(listed.contains(&id) && listed.contains(REASON), "{listed}");

    // The next review the studio writes leaves it out, and its request says why.
    studio.command(Command::Generate);
    studio
        .pump_until("the second review", |s| {
            s.iris.task.is_none() && fake.requests().len() == 2
        })
        .await;
    let text = studio.text();
    assert!(
        !text.contains("Two is undocumented") && text.contains("### A magic number"),
        "{text}"
    );
    assert!(
        text.trim_end().ends_with(
            "_1 finding dismissed earlier left out: `iris review --dismissed` lists them._"
        ),
        "{text}"
    );
    let asked = fake.requests()[1].user_texts().join("\n");
    assert!(
        asked.contains("## Dismissed before") && asked.contains(REASON),
        "{asked}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_edit_shows_its_new_text_as_it_forms() {
    let repo = staged_repo();
    let edited = "Add two()\n\nAdds two(), the second constant, for callers that count to two.";
    // Chat Completions streams a call's arguments in pieces (rig reads them there).
    let fake = FakeProvider::start(vec![
        Step::text(commit_json_text()),
        Step::paced(
            20,
            Step::tool_call("update_commit", json!({"content": edited})),
        ),
        Step::text("I made the body say who needs it."),
    ]);
    let mut studio = Headless::on_wire(&repo, &fake, Mode::COMMIT, Wire::Chat);
    studio.write_the_message().await;
    studio.previews.clear();
    studio.say("say who needs it").await;
    assert_eq!(studio.text(), edited);
    let partial = studio
        .previews
        .iter()
        .find(|p| p.len() < edited.len() && edited.starts_with(p.as_str()));
    assert!(partial.is_some(), "{:#?}", studio.previews);
    assert!(
        studio
            .previews
            .iter()
            .all(|p| edited.starts_with(p.as_str()))
    );
}

/// `$` shows the request a generation would send, in the report overlay, and sends nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dollar_shows_the_request_iris_would_send_and_sends_nothing() {
    let repo = staged_repo();
    let fake = FakeProvider::start(Vec::new());
    let mut studio = Headless::configured(&repo, &fake, Mode::COMMIT, &Overrides::default());
    studio.state.iris.auto_generate = false;
    studio.runner.run(Effect::Changes(ChangesFx::LoadStatus));
    studio
        .pump_until("the status", |s| !s.changes.loading)
        .await;
    studio.command(Command::ShowRequest);
    studio
        .pump_until("the preview", |s| s.overlay.report.is_some())
        .await;
    let preview = studio
        .state
        .overlay
        .report
        .clone()
        .map(|r| r.text)
        .unwrap_or_default();
    assert!(
        preview.starts_with(
            "The first request to openai gpt-5, as it would go out; nothing was sent."
        ),
        "{preview}"
    );
    assert!(
        preview.contains("tool definitions") && preview.contains("estimated cost: $"),
        "{preview}"
    );
    assert!(fake.requests().is_empty(), "nothing was sent");
    assert!(studio.state.iris.task.is_none());
}

/// The split view end to end: Iris plans, the chat puts the docs first, a hunk moves to a
/// new commit whose message is edited in place, enter applies after asking, u undoes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_split_view_plans_chats_moves_edits_applies_and_undoes() {
    let repo = TestRepo::tangled();
    let before = repo.git(&["status", "--porcelain"]);
    let docs_first = json!({"groups": [
        {"message": "docs: add a guide", "hunks": ["h4", "h5"], "reason": "Docs."},
        {"message": "feat: log the values", "hunks": ["h1", "h3"], "reason": "Logging."},
        {"message": "fix: omega returns 3", "hunks": ["h2"], "reason": "The fix."}
    ]});
    let fake = FakeProvider::start(vec![
        Step::text(crate::split::three_groups()),
        Step::tool_call("update_split", docs_first),
        Step::text("The docs come first now."),
    ]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    studio.load_status().await;
    studio.command(Command::Split);
    studio
        .pump_until("the plan", |s| s.overlay.split_plan.is_some())
        .await;

    studio.key(KeyCode::Char('/'));
    for c in "docs first".chars() {
        studio.key(KeyCode::Char(c));
    }
    studio.key(KeyCode::Enter);
    studio
        .pump_until("the chat reply", |s| {
            s.iris.task.is_none()
                && s.overlay
                    .split_plan
                    .as_ref()
                    .is_some_and(|v| v.chat.len() == 2)
        })
        .await;
    let view = studio.state.overlay.split_plan.as_ref().expect("the view");
    assert_eq!(view.plan.groups[0].title(), "docs: add a guide");
    assert_eq!(view.chat[1].text, "The docs come first now.");
    let chat_request = &fake.requests()[1];
    assert!(
        chat_request
            .system_text()
            .contains("### h5 docs/guide.md (new file)")
    );
    assert!(
        chat_request
            .tool_names()
            .contains(&"update_split".to_string())
    );

    // The guide (h5, second in the first commit) moves to a commit of its own.
    studio.key(KeyCode::Char('n'));
    studio.key(KeyCode::Char('m'));
    studio.key(KeyCode::Char('n'));
    studio.key(KeyCode::Char('e'));
    for _ in 0.."Split off h5".len() {
        studio.key(KeyCode::Backspace);
    }
    for c in "docs: add the guide file".chars() {
        studio.key(KeyCode::Char(c));
    }
    studio.key(KeyCode::Esc);
    studio.key(KeyCode::Enter);
    studio.key(KeyCode::Char('y'));
    studio
        .pump_until("the commits", |s| {
            s.overlay
                .split_plan
                .as_ref()
                .is_some_and(|v| matches!(v.phase, iris_studio_tui::state::SplitPhase::Applied(_)))
        })
        .await;
    assert_eq!(
        repo.git(&["log", "--format=%s"]),
        "docs: add the guide file\nfix: omega returns 3\nfeat: log the values\ndocs: add a \
         guide\nbase\n"
    );
    assert_eq!(
        repo.git(&["show", "--format=", "--name-only", "HEAD~3"]),
        "b.txt\n"
    );
    assert_eq!(repo.git(&["status", "--porcelain"]), "");

    studio.key(KeyCode::Char('u'));
    studio
        .pump_until("the undo", |s| {
            s.notice
                .as_ref()
                .is_some_and(|n| n.text.starts_with("Undid the split: 4 commits removed"))
        })
        .await;
    assert_eq!(repo.git(&["log", "--format=%s"]), "base\n");
    assert_eq!(repo.git(&["status", "--porcelain"]), before);
}

/// PR mode's `r`: Iris writes the selected commit's message from its change, the question
/// shows old and new, `y` rewords it with nothing else changed, and the commits are read again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r_in_pr_mode_rewords_the_selected_commit_after_asking() {
    let repo = TestRepo::feature_branch();
    let base = repo.git(&["rev-parse", "HEAD~1"]);
    let tree = repo.git(&["rev-parse", "HEAD^{tree}"]);
    let fake = FakeProvider::start(vec![Step::text(crate::common::agent::commit_json(
        "Add two(), the second constant",
        "",
    ))]);
    let mut studio = Headless::new(&repo, &fake, Mode::PR);
    studio.state.iris.auto_generate = false;
    studio.command(Command::Refresh);
    studio
        .pump_until("the commits", |s| {
            !s.range.loading && s.range.commits.len() == 1
        })
        .await;
    studio.command(Command::Reword);
    studio
        .pump_until("the question", |s| {
            s.overlay.confirm == Some(iris_studio_tui::state::Confirm::Reword)
        })
        .await;
    let asked = fake.requests()[0].user_texts().join("\n");
    assert!(asked.contains("+pub fn two() -> u32 {"), "{asked}");
    studio.key(KeyCode::Char('y'));
    studio
        .pump_until("the commits read again", |s| {
            !s.range.loading
                && s.range
                    .commits
                    .first()
                    .is_some_and(|c| c.summary == "Add two(), the second constant")
        })
        .await;
    assert_eq!(repo.git(&["rev-parse", "HEAD~1"]), base);
    assert_eq!(repo.git(&["rev-parse", "HEAD^{tree}"]), tree);
    let said = studio
        .state
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default();
    assert!(said.contains("iris reword --undo"), "{said}");
}

/// In a jj workspace the studio's change is `@`: its files (all "in @"), Iris writing from
/// `@`'s commit, the stage keys refused with why, and a commit through `jj commit` after
/// which `@` is a new empty change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_jj_workspace_the_change_is_at_and_a_commit_is_jj_commit() {
    let repo = TestRepo::jj_adding_two(true);
    repo.write("notes.txt", "two\n");
    let at = repo.jj_field("@", "commit_id");
    let fake = FakeProvider::start(vec![Step::text(commit_json_text())]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    let message = studio.write_the_message().await;
    assert_eq!(message, FIRST);
    let state = &studio.state;
    assert!(state.repo.jj_change.is_some());
    let files: Vec<(&str, bool, bool)> = state
        .changes
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.staged.is_some(), f.unstaged.is_some()))
        .collect();
    assert_eq!(
        files,
        [("src/lib.rs", true, false), ("notes.txt", true, false)]
    );
    let asked = fake.requests()[0].user_texts().join("\n");
    assert!(
        asked.contains(&format!("Write the commit message for commit {at}")),
        "{asked}"
    );

    // Staging does nothing and says why.
    studio.effects.clear();
    studio.command(Command::StageFile);
    studio.command(Command::StageAll);
    assert!(studio.effects.is_empty(), "{:?}", studio.effects);
    let notice = studio.state.notice.as_ref().map(|n| n.text.clone());
    assert!(
        notice
            .as_deref()
            .is_some_and(|n| n.contains("jj has no staging area")),
        "{notice:?}"
    );

    studio.command(Command::Commit);
    studio.key(KeyCode::Char('y'));
    studio
        .pump_until("the commit and the status after it", |s| {
            s.artifacts[&ArtifactKind::Commit].is_empty()
                && !s.changes.loading
                && s.changes.files.is_empty()
        })
        .await;
    assert_eq!(repo.jj_description("@-"), format!("{FIRST}\n"));
    assert_eq!(repo.jj_field("@", "empty"), "true");
}

/// In a jj workspace the split view plans `@` and applies the plan with jj: one change a
/// group, one file's hunks in different changes, and the jj operation to undo it named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_jj_workspace_the_split_view_applies_with_jj() {
    let repo = TestRepo::jj_tangled(false);
    let plan = json!({"groups": [
        {"message": "Name the second line", "hunks": ["h1", "h3"], "reason": "One."},
        {"message": "Name the eighteenth line", "hunks": ["h2"], "reason": "Two."}
    ]});
    let fake = FakeProvider::start(vec![Step::text(plan.to_string())]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    studio.state.iris.auto_generate = false;
    studio.load_status().await;
    studio.command(Command::Split);
    studio
        .pump_until("the plan", |s| s.overlay.split_plan.is_some())
        .await;
    studio.key(KeyCode::Enter);
    studio.key(KeyCode::Char('y'));
    studio
        .pump_until("the changes", |s| {
            s.overlay
                .split_plan
                .as_ref()
                .is_some_and(|v| matches!(v.phase, iris_studio_tui::state::SplitPhase::Applied(_)))
        })
        .await;
    let log = repo.jj(&[
        "log",
        "--no-graph",
        "-r",
        "::@ ~ root()",
        "-T",
        "description.first_line() ++ \"\\n\"",
    ]);
    assert_eq!(
        log,
        "Name the eighteenth line\nName the second line\nCount to twenty\n"
    );
    let first = repo.jj(&["file", "show", "-r", "@-", "f.txt"]);
    assert!(
        first.contains("two\n") && first.contains("\n18\n"),
        "{first}"
    );
    let notice = studio.state.notice.as_ref().map(|n| n.text.clone());
    assert!(
        notice
            .as_deref()
            .is_some_and(|n| n.contains("jj op restore")),
        "{notice:?}"
    );
    // u undoes it: jj is back at the operation before.
    studio.key(KeyCode::Char('u'));
    studio
        .pump_until("the undo", |s| {
            s.notice
                .as_ref()
                .is_some_and(|n| n.text.contains("Undid the split"))
        })
        .await;
    assert_eq!(repo.jj_description("@"), "");
    assert_eq!(repo.jj_description("@-"), "Count to twenty\n");
}

/// A conflicted `@` (here a merge of two sides that change one line) is listed as jj shows
/// its own diff, never jj's conflict files, and Iris says why she does not write from it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_jj_workspace_a_conflicted_change_is_listed_as_jj_shows_it() {
    let repo = TestRepo::jj_workspace(false);
    repo.jj_conflict();
    repo.write("b.txt", "more\n");
    let fake = FakeProvider::start(vec![]);
    let mut studio = Headless::new(&repo, &fake, Mode::COMMIT);
    studio.state.iris.auto_generate = false;
    studio.load_status().await;
    let paths: Vec<&str> = studio
        .state
        .changes
        .files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(paths, ["b.txt"]);
    assert_eq!(
        studio.state.diff.files.len(),
        1,
        "{:?}",
        studio.state.diff.files
    );
    studio.command(Command::Generate);
    studio
        .pump_until("the refusal", |s| {
            s.iris.task.is_none()
                && s.notice
                    .as_ref()
                    .is_some_and(|n| n.text.contains("unresolved conflicts"))
        })
        .await;
    assert!(fake.requests().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_studio_asks_once_whether_the_coding_agents_session_goes_in_the_requests() {
    use crate::agent_sessions::{WHY, claude_session, now};
    use iris_studio_tui::state::Confirm;
    let repo = staged_repo();
    claude_session(
        repo.home(),
        &repo.path(),
        "s",
        &repo.path(),
        now() - 60,
        WHY,
    );
    let reply = || {
        Step::text(crate::common::agent::commit_json(
            "Add two()",
            "Adds two().",
        ))
    };
    let fake = FakeProvider::start(vec![reply(), reply(), reply()]);
    let overrides = Overrides {
        critic_enabled: Some(false),
        ..Overrides::default()
    };
    let sent = |i: usize| fake.requests()[i].user_texts().join("\n");
    let mut studio = Headless::configured(&repo, &fake, Mode::COMMIT, &overrides);
    studio.state.iris.auto_generate = false;
    studio.load_status().await;
    studio.command(Command::Generate);
    studio
        .pump_until("the message", |s| s.iris.task.is_none())
        .await;
    assert_eq!(
        studio.state.overlay.confirm,
        Some(Confirm::Sessions("Claude Code".into()))
    );
    assert!(
        !sent(0).contains(WHY),
        "sent before the user said yes: {}",
        sent(0)
    );
    studio.key(KeyCode::Char('y'));
    // The answer is written off the UI thread: it lands within moments.
    let answer = studio.git_dir.join("iris").join("agent-sessions");
    let read = || std::fs::read_to_string(&answer).unwrap_or_default();
    for _ in 0..250 {
        if !read().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(read().trim(), "yes");

    studio.command(Command::Generate);
    studio
        .pump_until("the second message", |s| s.iris.task.is_none())
        .await;
    assert_eq!(studio.state.overlay.confirm, None, "asked once");
    assert!(sent(1).contains(WHY), "{}", sent(1));

    // Another studio on the repository remembers the answer: it sends, and asks nothing.
    let mut again = Headless::configured(&repo, &fake, Mode::COMMIT, &overrides);
    again.state.iris.auto_generate = false;
    again.load_status().await;
    again.command(Command::Generate);
    again
        .pump_until("the third message", |s| s.iris.task.is_none())
        .await;
    assert_eq!(again.state.overlay.confirm, None);
    assert!(
        !again.seen.iter().any(|a| a.starts_with("Sessions")),
        "{:?}",
        again.seen
    );
    assert!(sent(2).contains(WHY), "{}", sent(2));
}
