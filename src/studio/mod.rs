//! The studio's shell: the terminal loop ([`app`]), the [`runner`] that carries out the pure
//! reducer's effects (agent runs, git jobs, publishing) off the UI thread, the split view's git
//! work ([`split`]) and PR mode's reword ([`reword`]), the background
//! [`jobs`] (which give their freed [`memory`] back) and the user's [`external`] editor. The state, the reducer
//! and the panes are the `iris-studio` crate's.

pub mod app;
mod changes;
mod chat;
mod editor;
mod explain;
pub mod external;
pub mod fail;
mod findings;
mod generate;
pub mod jobs;
pub mod memory;
mod publish;
pub mod reword;
pub mod runner;
mod sessions;
mod setup;
pub mod split;
mod stack;
mod views;
pub mod watch;
