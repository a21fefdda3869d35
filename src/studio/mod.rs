//! The studio's shell: the terminal loop ([`app`]), the [`runner`] that carries out the pure
//! reducer's effects (agent runs, git jobs, publishing) off the UI thread, the split view's git
//! work ([`split`]) and PR mode's reword ([`reword`]), the background
//! [`jobs`] (which give their freed [`memory`] back) and the user's [`external`] editor. The state, the reducer
//! and the panes are the `iris-studio` crate's.

pub mod app;
pub mod external;
pub mod fail;
pub mod jobs;
pub mod memory;
pub mod reword;
pub mod runner;
pub mod split;
mod stack;
pub mod watch;
