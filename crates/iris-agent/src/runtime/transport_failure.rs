//! Why a run's transport failed, kept for the run's error: a failure after the reply began
//! reaches rig as a broken body, whose cause it does not pass on (a command-line agent's own
//! words, a server gone silent mid-reply).

use std::sync::{Arc, Mutex};

/// The slot a conversation's transport writes its failure in: each conversation has its own
/// (see [`Conversation`](crate::runtime::provider::Conversation)).
#[derive(Debug, Clone, Default)]
pub struct TransportFailure(Arc<Mutex<Option<String>>>);

impl TransportFailure {
    pub(crate) fn set(&self, why: &str) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some(why.to_string());
        }
    }

    /// The failure, if the transport said one.
    pub fn take(&self) -> Option<String> {
        self.0.lock().ok().and_then(|mut slot| slot.take())
    }
}
