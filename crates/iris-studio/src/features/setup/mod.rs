//! The setup feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::failure::{Done, Outcome};
use crate::update::cx::Cx;
use iris_studio_config::setup::Choice;

/// What comes back to the setup feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The model servers that answered on this machine (setup).
    ServersFound(Vec<iris_studio_config::setup::LocalServer>),
    /// Setup's choice was written and Iris started with it (what to tell the user), or why not.
    Written(Outcome<Done>),
}

/// The work the setup feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Looks for model servers on this machine (setup).
    Probe,
    /// Writes setup's choice into the user's config file and starts Iris with it.
    Write {
        /// The provider and model the user chose, with its address and key if given.
        choice: Choice,
    },
}

pub(crate) mod update;

/// Applies what came back to the setup feature; returns the work it asks for next.
pub(crate) fn update(state: &mut crate::state::State, msg: Msg) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let open = &mut state.overlay.setup;
    let effects = match msg {
        Msg::ServersFound(servers) => update::servers_found(open, servers),
        Msg::Written(result) => update::written(open, &mut cx, result),
    };
    cx.asked().settle(state, effects)
}

/// Opens setup over the panes.
pub(crate) fn open(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    update::open(&mut state.overlay.setup, &state.start.setup_facts)
}

/// A key while setup is open: every key goes to it.
pub(crate) fn key(
    state: &mut crate::state::State,
    key: crossterm::event::KeyEvent,
) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let facts = &state.start.setup_facts;
    let effects = update::key(&mut state.overlay.setup, facts, &mut cx, key);
    cx.asked().settle(state, effects)
}

pub(crate) mod draw;
pub mod state;
