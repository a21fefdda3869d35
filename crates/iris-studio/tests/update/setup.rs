//! `update::setup`: the setup overlay, from the servers found to Iris started (and ctrl-c out
//! of it).

use crossterm::event::{KeyCode, KeyModifiers};
use iris_studio_config::ProviderKind;
use iris_studio_config::setup::{Choice, LocalServer};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::Failure;
use iris_studio_tui::features::msgs::{ChangesFx, GenerateFx, SetupFx, SetupMsg};
use iris_studio_tui::layout::PaneRects;
use iris_studio_tui::state::{Level, Mode, Pane, SetupOption, SetupStep, State};
use iris_studio_tui::update::update;

use super::support::{click, command, key, loaded, notice, press_with, staged};

fn ollama(models: &[&str]) -> LocalServer {
    LocalServer {
        label: "Ollama",
        provider: ProviderKind::Ollama,
        base_url: "http://127.0.0.1:11434".into(),
        models: models.iter().map(|m| m.to_string()).collect(),
    }
}

/// A first run: no provider, one file staged, setup open and its servers found.
fn first_run(servers: Vec<LocalServer>) -> State {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    state.iris.auto_generate = true;
    state.iris.unavailable = Some("Iris is not configured".into());
    state.start.setup_facts.file = Some("~/.config/iris/config.toml".into());
    assert_eq!(
        command(&mut state, Command::Setup),
        vec![Effect::Setup(SetupFx::Probe)]
    );
    update(&mut state, Action::Setup(SetupMsg::ServersFound(servers)));
    state
}

#[test]
fn setup_picks_a_local_model_writes_it_after_yes_and_iris_starts_on_the_artifact() {
    let mut state = first_run(vec![ollama(&["llama3.1:8b", "qwen2.5-coder"])]);
    let setup = state.overlay.setup.as_ref().unwrap();
    // Two local models, then OpenAI, Anthropic, Gemini and the hosted named services but
    // Azure (its endpoint is asked by `iris config init`).
    let hosted: Vec<String> = setup
        .options()
        .into_iter()
        .skip(2)
        .map(|option| match option {
            SetupOption::Hosted(kind) => kind.name().to_string(),
            SetupOption::Server => "a server by its address".to_string(),
            local => panic!("{local:?} after the local models"),
        })
        .collect();
    assert_eq!(
        hosted,
        [
            "openai",
            "anthropic",
            "gemini",
            "openrouter",
            "groq",
            "deepseek",
            "mistral",
            "together",
            "fireworks",
            "xai",
            "cerebras",
            "a server by its address"
        ]
    );
    // Commands are the overlay's keys now: 2 does not switch modes.
    command(&mut state, Command::ModeExplore);
    assert_eq!(state.mode, Mode::COMMIT);
    key(&mut state, KeyCode::Char('j'));
    assert!(key(&mut state, KeyCode::Enter).is_empty());
    let choice = Choice {
        provider: ProviderKind::Ollama,
        model: "qwen2.5-coder".into(),
        base_url: Some("http://127.0.0.1:11434".into()),
        api_key: None,
    };
    assert_eq!(
        state.overlay.setup.as_ref().unwrap().step,
        SetupStep::Confirm(choice.clone())
    );
    // n goes back, nothing written; enter and y write.
    assert!(key(&mut state, KeyCode::Char('n')).is_empty());
    assert_eq!(notice(&state).1, "nothing written");
    key(&mut state, KeyCode::Enter);
    assert_eq!(
        key(&mut state, KeyCode::Char('y')),
        vec![Effect::Setup(SetupFx::Write {
            choice: choice.clone()
        })]
    );
    // A failed write keeps the choice on screen.
    update(
        &mut state,
        Action::Setup(SetupMsg::Written(Err(Failure::other("disk full")))),
    );
    assert_eq!(
        state.overlay.setup.as_ref().unwrap().step,
        SetupStep::Confirm(choice)
    );
    assert_eq!(notice(&state), (Level::Error, "setup failed: disk full"));
    key(&mut state, KeyCode::Char('y'));
    let effects = update(
        &mut state,
        Action::Setup(SetupMsg::Written(Ok(
            "Iris is set up: ollama · qwen2.5-coder".into(),
        ))),
    );
    assert!(state.overlay.setup.is_none() && state.iris.unavailable.is_none());
    assert_eq!(notice(&state).0, Level::Success);
    assert!(matches!(
        effects.as_slice(),
        [
            Effect::Changes(ChangesFx::LoadStatus),
            Effect::Generate(GenerateFx::Generate {
                kind: ArtifactKind::Commit,
                ..
            })
        ]
    ));
}

#[test]
fn setup_takes_a_hosted_key_masked_or_keeps_one_in_the_environment() {
    let mut state = first_run(vec![]);
    // Nothing local: the hosted providers are the options.
    key(&mut state, KeyCode::Char('j'));
    key(&mut state, KeyCode::Enter);
    assert_eq!(
        state.overlay.setup.as_ref().unwrap().step,
        SetupStep::Key {
            provider: ProviderKind::Anthropic,
            typed: String::new()
        }
    );
    // Enter with nothing typed and no key in the environment asks for one.
    key(&mut state, KeyCode::Enter);
    assert!(notice(&state).1.starts_with("type the key"));
    for c in "sk-ant-x1".chars() {
        key(&mut state, KeyCode::Char(c));
    }
    key(&mut state, KeyCode::Backspace);
    key(&mut state, KeyCode::Char('2'));
    key(&mut state, KeyCode::Enter);
    let SetupStep::Confirm(choice) = state.overlay.setup.as_ref().unwrap().step.clone() else {
        panic!("not confirming: {:?}", state.overlay.setup);
    };
    assert_eq!(choice.api_key.as_deref(), Some("sk-ant-x2"));
    assert_eq!(choice.model, ProviderKind::Anthropic.default_model());
    assert!(choice.lines().iter().all(|l| !l.contains("sk-ant")));
    // esc from the confirmation goes back to the list; a key in the environment stays there.
    key(&mut state, KeyCode::Esc);
    state.start.setup_facts.env_keys = vec![(ProviderKind::OpenAi, "OPENAI_API_KEY")];
    key(&mut state, KeyCode::Char('k'));
    key(&mut state, KeyCode::Enter);
    key(&mut state, KeyCode::Enter);
    let SetupStep::Confirm(choice) = state.overlay.setup.as_ref().unwrap().step.clone() else {
        panic!("not confirming: {:?}", state.overlay.setup);
    };
    assert_eq!(
        (choice.provider, choice.api_key),
        (ProviderKind::OpenAi, None)
    );
    // esc twice: back to the list, then setup closes and says how to open it again.
    key(&mut state, KeyCode::Esc);
    key(&mut state, KeyCode::Esc);
    assert!(state.overlay.setup.is_none());
    assert!(notice(&state).1.contains("I opens setup again"));
    assert!(state.iris.unavailable.is_some());
}

#[test]
fn ctrl_c_quits_from_setup_and_the_mouse_does_nothing_under_it() {
    let mut state = first_run(vec![ollama(&["llama3.1"])]);
    let before = state.focus;
    // A click on the editor, which has no focus, changes nothing under setup.
    let rects = PaneRects::compute(state.screen.size, &state);
    let editor = rects.editor.expect("the editor is on screen");
    assert_ne!(before, Pane::Editor);
    update(&mut state, click(editor.x + 2, editor.y + 2));
    assert_eq!(state.focus, before);
    update(
        &mut state,
        press_with(KeyCode::Char('c'), KeyModifiers::CONTROL),
    );
    assert!(state.quit);
}

#[test]
fn a_command_line_agent_on_path_is_offered_after_the_servers_and_needs_no_key() {
    let claude = ProviderKind::parse("claude-code").unwrap();
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    state.start.setup_facts.clis = vec![claude];
    command(&mut state, Command::Setup);
    update(
        &mut state,
        Action::Setup(SetupMsg::ServersFound(vec![ollama(&["llama3.1:8b"])])),
    );
    let options = state.overlay.setup.as_ref().unwrap().options();
    assert_eq!(options[1], SetupOption::Cli(claude));
    assert!(matches!(
        options[2],
        SetupOption::Hosted(ProviderKind::OpenAi)
    ));
    state.overlay.setup.as_mut().unwrap().selected = 1;
    key(&mut state, KeyCode::Enter);
    assert_eq!(
        state.overlay.setup.as_ref().unwrap().step,
        SetupStep::Confirm(Choice {
            provider: claude,
            model: "default".into(),
            base_url: None,
            api_key: None,
        })
    );
}

#[test]
fn setup_takes_an_openai_compatible_servers_address_and_model() {
    let mut state = first_run(vec![]);
    let last = state.overlay.setup.as_ref().unwrap().options().len();
    for _ in 1..last {
        key(&mut state, KeyCode::Char('j'));
    }
    key(&mut state, KeyCode::Enter);
    let step = |state: &State| state.overlay.setup.as_ref().unwrap().step.clone();
    assert_eq!(
        step(&state),
        SetupStep::Url {
            typed: String::new()
        }
    );
    // An address without its scheme is refused, and stays to be mended.
    for c in "10.0.0.5:8000/v1".chars() {
        key(&mut state, KeyCode::Char(c));
    }
    key(&mut state, KeyCode::Enter);
    assert_eq!(notice(&state).0, Level::Warning);
    assert!(
        notice(&state).1.contains("http://host:port/v1"),
        "{:?}",
        notice(&state)
    );
    for _ in 0.."10.0.0.5:8000/v1".len() {
        key(&mut state, KeyCode::Backspace);
    }
    for c in "http://10.0.0.5:8000/v1/".chars() {
        key(&mut state, KeyCode::Char(c));
    }
    key(&mut state, KeyCode::Enter);
    assert_eq!(
        step(&state),
        SetupStep::Model {
            base_url: "http://10.0.0.5:8000/v1".into(),
            typed: String::new()
        }
    );
    key(&mut state, KeyCode::Enter);
    assert!(notice(&state).1.contains("model's name"));
    for c in "qwen3-coder".chars() {
        key(&mut state, KeyCode::Char(c));
    }
    key(&mut state, KeyCode::Enter);
    let choice = Choice {
        provider: ProviderKind::OpenAiCompatible,
        model: "qwen3-coder".into(),
        base_url: Some("http://10.0.0.5:8000/v1".into()),
        api_key: None,
    };
    assert_eq!(step(&state), SetupStep::Confirm(choice.clone()));
    assert_eq!(
        key(&mut state, KeyCode::Char('y')),
        vec![Effect::Setup(SetupFx::Write { choice })]
    );
}
