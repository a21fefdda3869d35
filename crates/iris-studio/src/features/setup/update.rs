//! The setup overlay: opening it (the servers probed), choosing, the key (or a server's
//! address and model), the confirmation, and Iris started once the choice is written.

use crate::failure::{Done, Outcome};
use crate::features::msgs::{ChangesFx, SetupFx};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::effect::Effect;
use crate::state::{Level, Setup, SetupFacts, SetupOption, SetupStep};
use crate::update::cx::{Cx, Then};
use iris_studio_config::setup::{Choice, LocalServer, server_choice, server_url};

/// Opens setup and looks for model servers on this machine.
pub(crate) fn open(open: &mut Option<Setup>, facts: &SetupFacts) -> Vec<Effect> {
    *open = Some(Setup::new(facts));
    vec![Effect::Setup(SetupFx::Probe)]
}

pub(crate) fn servers_found(open: &mut Option<Setup>, servers: Vec<LocalServer>) -> Vec<Effect> {
    if let Some(setup) = open.as_mut().filter(|s| s.servers.is_none()) {
        setup.servers = Some(servers);
        setup.selected = 0;
    }
    Vec::new()
}

/// Every key goes to the overlay while it is open.
pub(crate) fn key(
    open: &mut Option<Setup>,
    facts: &SetupFacts,
    cx: &mut Cx,
    key: KeyEvent,
) -> Vec<Effect> {
    let Some(setup) = open.as_mut() else {
        return Vec::new();
    };
    match setup.step.clone() {
        SetupStep::Choose => choose_key(open, cx, key),
        SetupStep::Key {
            provider,
            mut typed,
        } => {
            match typing(key, &mut typed) {
                Typed::Back => setup.step = SetupStep::Choose,
                Typed::Edited => setup.step = SetupStep::Key { provider, typed },
                Typed::Done => {
                    let typed = typed.trim().to_string();
                    if typed.is_empty() && facts.env_key(provider).is_none() {
                        cx.say(Level::Info, "type the key (it shows as dots)");
                    } else {
                        setup.step = SetupStep::Confirm(Choice {
                            provider,
                            model: provider.default_model().to_string(),
                            base_url: None,
                            api_key: (!typed.is_empty()).then_some(typed),
                        });
                    }
                }
                Typed::Ignored => {}
            }
            Vec::new()
        }
        SetupStep::Url { mut typed } => {
            match typing(key, &mut typed) {
                Typed::Back => setup.step = SetupStep::Choose,
                Typed::Edited => setup.step = SetupStep::Url { typed },
                Typed::Done => match server_url(&typed) {
                    Ok(base_url) => {
                        setup.step = SetupStep::Model {
                            base_url,
                            typed: String::new(),
                        }
                    }
                    Err(why) => cx.say(Level::Warning, why),
                },
                Typed::Ignored => {}
            }
            Vec::new()
        }
        SetupStep::Model {
            base_url,
            mut typed,
        } => {
            match typing(key, &mut typed) {
                Typed::Back => setup.step = SetupStep::Url { typed: base_url },
                Typed::Edited => setup.step = SetupStep::Model { base_url, typed },
                Typed::Done if typed.trim().is_empty() => {
                    cx.say(Level::Info, "type the model's name as the server lists it")
                }
                Typed::Done => setup.step = SetupStep::Confirm(server_choice(&base_url, &typed)),
                Typed::Ignored => {}
            }
            Vec::new()
        }
        SetupStep::Confirm(choice) => match key.code {
            KeyCode::Char('y' | 'Y') | KeyCode::Enter => {
                if facts.file.is_none() {
                    cx.say(
                        Level::Error,
                        "no home directory for a config file: set HOME or XDG_CONFIG_HOME",
                    );
                    return Vec::new();
                }
                setup.step = SetupStep::Writing(choice.clone());
                vec![Effect::Setup(SetupFx::Write { choice })]
            }
            KeyCode::Char('n' | 'N') | KeyCode::Esc => {
                setup.step = SetupStep::Choose;
                cx.say(Level::Info, "nothing written");
                Vec::new()
            }
            _ => Vec::new(),
        },
        SetupStep::Writing(_) => Vec::new(),
    }
}

fn choose_key(open: &mut Option<Setup>, cx: &mut Cx, key: KeyEvent) -> Vec<Effect> {
    let Some(setup) = open.as_mut() else {
        return Vec::new();
    };
    let options = setup.options();
    let last = options.len().saturating_sub(1);
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => setup.selected = setup.selected.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => setup.selected = (setup.selected + 1).min(last),
        KeyCode::Esc | KeyCode::Char('q') => {
            *open = None;
            cx.say(
                Level::Info,
                "Iris is not set up: I opens setup again, or run `iris config init`",
            );
        }
        KeyCode::Enter => match options.get(setup.selected) {
            Some(SetupOption::Server) => {
                setup.step = SetupStep::Url {
                    typed: String::new(),
                };
            }
            Some(SetupOption::Hosted(provider)) => {
                setup.step = SetupStep::Key {
                    provider: *provider,
                    typed: String::new(),
                };
            }
            Some(option) => {
                if let Some(choice) = setup.choice(option) {
                    setup.step = SetupStep::Confirm(choice);
                }
            }
            None => {}
        },
        _ => {}
    }
    Vec::new()
}

/// What a key does to a line being typed in setup.
enum Typed {
    /// The text changed.
    Edited,
    /// Enter: the text is done.
    Done,
    /// Esc: back a step.
    Back,
    /// A key that does nothing here.
    Ignored,
}

/// `key` applied to the line being typed, `text`.
fn typing(key: KeyEvent, text: &mut String) -> Typed {
    match key.code {
        KeyCode::Esc => Typed::Back,
        KeyCode::Enter => Typed::Done,
        KeyCode::Backspace => {
            text.pop();
            Typed::Edited
        }
        KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
            text.push(c);
            Typed::Edited
        }
        _ => Typed::Ignored,
    }
}

/// The choice is written and Iris runs with it: the overlay closes and she may start on the
/// mode's artifact; a failed write leaves the choice on screen to try again.
pub(crate) fn written(open: &mut Option<Setup>, cx: &mut Cx, result: Outcome<Done>) -> Vec<Effect> {
    match result {
        Ok(done) => {
            *open = None;
            cx.iris().unavailable = None;
            cx.say(Level::Success, done.0);
            cx.then(Then::AutoGenerate);
            // The status again: the secret marks come from Iris' scanner, which now exists.
            vec![Effect::Changes(ChangesFx::LoadStatus)]
        }
        Err(err) => {
            if let Some(setup) = open.as_mut()
                && let SetupStep::Writing(choice) = setup.step.clone()
            {
                setup.step = SetupStep::Confirm(choice);
            }
            cx.then(Then::Failed(err.context("setup failed"), None));
            Vec::new()
        }
    }
}
