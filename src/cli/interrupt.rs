//! Ctrl-c as a flag: a command that rewrites commits checks it between steps and stops
//! cleanly (git and any check get the signal too) instead of dying halfway.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once ctrl-c is pressed, until dropped.
pub struct Interrupt {
    flag: Arc<AtomicBool>,
    listener: tokio::task::JoinHandle<()>,
}

impl Interrupt {
    /// Starts listening for ctrl-c.
    pub fn listen() -> Self {
        let flag = Arc::new(AtomicBool::new(false));
        let listener = {
            let flag = flag.clone();
            tokio::spawn(async move {
                if tokio::signal::ctrl_c().await.is_ok() {
                    flag.store(true, Ordering::SeqCst);
                }
            })
        };
        Self { flag, listener }
    }

    /// The flag to check between steps.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }
}

impl Drop for Interrupt {
    fn drop(&mut self) {
        self.listener.abort();
    }
}
