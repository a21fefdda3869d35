//! `iris-studio`: the full-screen terminal studio, without its shell.
//!
//! Terminal events, agent events and git results become one [`action::Action`]; the pure
//! [`update::update`] changes the [`state::State`] and returns [`effect::Effect`]s that the
//! binary's shell (`iris_studio::studio`: the loop, the runner, the jobs, the draft store) carries
//! out off the UI thread; the panes in [`ui`] only read the state. State, update and ui do no
//! I/O: no file, process, environment or clock (the time arrives with `Tick`). The only reads
//! here are the user's key and theme files and the terminal's colour variables ([`keymap`],
//! [`theme`]), which the shell asks for once, at start.
//!
//! It may import `iris-core`, `iris-config` and the terminal crates (ratatui, crossterm,
//! syntect, the text area); never git2, rig, tokio or the agent, which `tests/layers.rs`
//! checks with `cargo metadata` and the compiler holds.

// Every public item says what it is for (clippy's -D warnings makes this an error).
#![warn(missing_docs)]
// A failure is a message the user can act on, never a panic (tests may unwrap).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod action;
pub mod command;
pub mod effect;
pub mod failure;
pub mod features;
pub use features::chat::conversation;
pub use features::diff::side_by_side;
pub use features::findings;
pub use features::intent::blocks;
pub use features::why::answer;

pub mod highlight;
pub mod keymap;
pub mod layout;
pub mod state;
pub mod text;
pub mod theme;
pub mod ui;
pub mod update;
