//! Child processes that may start their own (linters, gh, glab): started in a group of their
//! own, so that a deadline stops everything they started, not only them.

use std::process::Child;

/// Kills `child` and the process group it leads (it was spawned with `process_group(0)`).
#[cfg(unix)]
pub fn kill_group(child: &mut Child) {
    use rustix::process::{Pid, Signal, kill_process_group};
    // The group's id is the child's pid; an empty group is no error here.
    let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
    let _ = child.kill();
}

#[cfg(not(unix))]
pub fn kill_group(child: &mut Child) {
    let _ = child.kill();
}
