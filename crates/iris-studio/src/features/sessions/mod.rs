//! The coding agent's sessions: the one question, per repository, whether what the user asked
//! their coding agent while making a change goes in Iris' requests. The shell says when it
//! found a session of the change in front of the user and nobody had said ([`Msg::Found`]);
//! the studio asks once, and the answer is remembered ([`Fx::Remember`]).

use crate::effect::Effect;
use crate::state::{Confirm, Level, State};
use crate::update::notice;

/// What comes back to the sessions feature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    /// A session of the change was found and nobody said whether to send it: the agents'
    /// names (`Claude Code, Codex`).
    Found(String),
}

/// The work the sessions feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Remembers the user's answer for this repository: from now on the requests carry what
    /// they asked their coding agent (yes), or never (no).
    Remember {
        /// The answer.
        yes: bool,
    },
}

/// Asks, once in a studio, and only while nothing else waits for an answer (the shell says
/// again at the next write while nobody has said).
pub(crate) fn update(state: &mut State, msg: Msg) -> Vec<Effect> {
    let Msg::Found(agents) = msg;
    if !state.iris.sessions_asked && !state.takes_every_key() {
        state.iris.sessions_asked = true;
        state.overlay.confirm = Some(Confirm::Sessions(agents));
    }
    Vec::new()
}

/// The answer: remembered, and said.
pub(crate) fn answered(state: &mut State, yes: bool) -> Vec<Effect> {
    let said = if yes {
        "Iris sends what you asked your coding agent from her next request in this repository: \
         ctrl-g writes again with it"
    } else {
        "Iris sends nothing of your coding agent's sessions in this repository \
         (agent_sessions = true in your config says otherwise)"
    };
    notice(state, Level::Info, said);
    vec![Effect::Sessions(Fx::Remember { yes })]
}

/// The question's words.
pub(crate) fn question(agents: &str) -> String {
    format!(
        "Your coding agent's session of this change ({agents}) is on this machine. Send what \
         you asked it to the model with Iris' requests in this repository, so she can say why? \
         y: yes · n: no (asked once)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crate::state::Mode;
    use crate::update::update;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn key(c: char) -> Action {
        Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
    }

    #[test]
    fn the_question_is_asked_once_and_the_answer_goes_to_the_shell() {
        let mut state = State::new(Mode::COMMIT);
        let found = || Action::Sessions(Msg::Found("Claude Code".into()));
        assert!(update(&mut state, found()).is_empty());
        assert_eq!(
            state.overlay.confirm,
            Some(Confirm::Sessions("Claude Code".into()))
        );
        assert_eq!(
            update(&mut state, key('y')),
            vec![Effect::Sessions(Fx::Remember { yes: true })]
        );
        assert_eq!(state.overlay.confirm, None);
        update(&mut state, found());
        assert_eq!(state.overlay.confirm, None, "asked once");
    }

    #[test]
    fn another_question_open_puts_it_off_and_any_other_key_says_no() {
        let mut state = State::new(Mode::COMMIT);
        state.overlay.confirm = Some(Confirm::Quit);
        update(&mut state, Action::Sessions(Msg::Found("Codex".into())));
        assert_eq!(state.overlay.confirm, Some(Confirm::Quit));
        state.overlay.confirm = None;
        update(&mut state, Action::Sessions(Msg::Found("Codex".into())));
        assert_eq!(
            update(&mut state, key('n')),
            vec![Effect::Sessions(Fx::Remember { yes: false })]
        );
    }
}
