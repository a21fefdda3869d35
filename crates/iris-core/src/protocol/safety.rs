//! What the model may do without asking: every tool declares a [`Risk`], the user's
//! [`SafetyMode`] says which risks need an approval, and an [`ApprovalRequest`] carries the
//! question to whoever watches the run, with the [`Reply`] its [`Decision`] goes back on.

use std::fmt;
use std::sync::{Arc, Mutex};

/// What a tool can do to the user's machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Risk {
    /// Reads the repository and nothing else.
    ReadOnly,
    /// Changes something of the user's (the `update_*` tools replace the editor's text).
    Write,
    /// Runs programs of the repository (linters run its build scripts).
    Execute,
}

impl Risk {
    /// The risk's name, as a tool list and the approval question show it (`read-only`).
    pub fn name(self) -> &'static str {
        match self {
            Risk::ReadOnly => "read-only",
            Risk::Write => "write",
            Risk::Execute => "execute",
        }
    }

    /// What a call of this risk does, in the words of a question to the user.
    pub fn what_it_does(self) -> &'static str {
        match self {
            Risk::ReadOnly => "reads the repository",
            Risk::Write => "changes your text",
            Risk::Execute => "runs programs of this repository",
        }
    }
}

impl fmt::Display for Risk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which risks need the user's approval (`safety_mode`, `--safety`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SafetyMode {
    /// Execute asks every time.
    Safe,
    /// Execute asks once per session per tool.
    #[default]
    Cautious,
    /// Everything but reading asks, every time.
    Paranoid,
    /// Nothing asks.
    Yolo,
}

impl SafetyMode {
    /// The modes' names, for an error message that lists them.
    pub const NAMES: &'static str = "safe, cautious, paranoid or yolo";

    /// The mode a configuration or `--safety` names (in any case), or `None`.
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "safe" => Some(Self::Safe),
            "cautious" => Some(Self::Cautious),
            "paranoid" => Some(Self::Paranoid),
            "yolo" => Some(Self::Yolo),
            _ => None,
        }
    }

    /// The name configurations and `--safety` use.
    pub fn name(self) -> &'static str {
        match self {
            Self::Safe => "safe",
            Self::Cautious => "cautious",
            Self::Paranoid => "paranoid",
            Self::Yolo => "yolo",
        }
    }

    /// How often a tool of `risk` needs the user's approval in this mode.
    pub fn asks(self, risk: Risk) -> Ask {
        match (self, risk) {
            (Self::Yolo, _) | (_, Risk::ReadOnly) => Ask::Never,
            (Self::Cautious, Risk::Execute) => Ask::OncePerSession,
            (Self::Safe | Self::Paranoid, Risk::Execute) | (Self::Paranoid, Risk::Write) => {
                Ask::EveryTime
            }
            (Self::Safe | Self::Cautious, Risk::Write) => Ask::Never,
        }
    }
}

/// How often a call needs approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// No approval needed.
    Never,
    /// The first call of the session; any approval then holds for the session.
    OncePerSession,
    /// Every call, unless the user allowed the tool for the session.
    EveryTime,
}

/// The user's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Run this call.
    AllowOnce,
    /// Run this call and every later call of the tool in this session.
    AllowForSession,
    /// Do not run it; the model is told it was refused.
    Deny,
}

/// A call waiting for the user: the tool, its arguments as the model gave them, its risk, and
/// where the answer goes. Answering is optional: a request dropped unanswered is a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalRequest {
    /// The tool's name.
    pub tool: String,
    /// Its arguments, the JSON the model gave.
    pub args: String,
    /// The tool's risk, which made the mode ask.
    pub risk: Risk,
    /// Where the user's decision goes.
    pub reply: Reply,
}

impl ApprovalRequest {
    /// Arguments longer than this are cut where the question shows them.
    const MAX_ARGS_CHARS: usize = 400;

    /// What is asked, for the terminal and the studio alike.
    pub fn question(&self) -> String {
        format!(
            "Iris wants to run {} ({}: {})",
            self.tool,
            self.risk,
            self.risk.what_it_does()
        )
    }

    /// The arguments as the question shows them: cut, with `…`, when long.
    pub fn args_shown(&self) -> String {
        let mut args: String = self.args.chars().take(Self::MAX_ARGS_CHARS).collect();
        if args.len() < self.args.len() {
            args.push_str(" …");
        }
        args
    }
}

/// Where the answer goes, shared by the clones of a request (events are cloned on their way
/// to the screen); the first answer counts. The runtime decides what answering does (it sends
/// on a channel it awaits); a reply dropped unanswered drops that action, which is a refusal.
#[derive(Clone, Default)]
pub struct Reply(Arc<Mutex<Option<Answer>>>);

type Answer = Box<dyn FnOnce(Decision) + Send>;

impl Reply {
    /// A reply that calls `answer` with the first decision sent.
    pub fn new(answer: impl FnOnce(Decision) + Send + 'static) -> Self {
        Self(Arc::new(Mutex::new(Some(Box::new(answer)))))
    }

    /// Sends `decision`, if no decision was sent before (the first one counts).
    pub fn send(&self, decision: Decision) {
        if let Some(answer) = self.0.lock().ok().and_then(|mut slot| slot.take()) {
            answer(decision);
        }
    }
}

impl fmt::Debug for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Reply")
    }
}

impl PartialEq for Reply {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Reply {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mode_asks_for_the_risks_it_names() {
        use Ask::*;
        use Risk::*;
        let table = [
            (SafetyMode::Safe, [Never, Never, EveryTime]),
            (SafetyMode::Cautious, [Never, Never, OncePerSession]),
            (SafetyMode::Paranoid, [Never, EveryTime, EveryTime]),
            (SafetyMode::Yolo, [Never, Never, Never]),
        ];
        for (mode, expected) in table {
            let got = [ReadOnly, Write, Execute].map(|risk| mode.asks(risk));
            assert_eq!(got, expected, "{mode:?}");
            assert_eq!(SafetyMode::parse(mode.name()), Some(mode));
        }
        assert_eq!(SafetyMode::parse(" Paranoid "), Some(SafetyMode::Paranoid));
        assert_eq!(SafetyMode::parse("careful"), None);
    }

    #[test]
    fn the_first_answer_counts_and_an_unanswered_reply_is_dropped() {
        let (tx, rx) = std::sync::mpsc::channel();
        let reply = Reply::new(move |d| tx.send(d).expect("send"));
        let clone = reply.clone();
        clone.send(Decision::AllowOnce);
        reply.send(Decision::Deny);
        assert_eq!(rx.recv(), Ok(Decision::AllowOnce));
        assert!(rx.recv().is_err(), "the answer was dropped after its use");
        assert_eq!(reply, clone);
    }
}
