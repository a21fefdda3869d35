//! `iris-studio`: the studio's pure part, the full-screen terminal studio without its I/O.
//!
//! Terminal events, agent events and git results become one [`action::Action`]; the pure
//! [`update::update`] changes the [`state::State`] and returns [`effect::Effect`]s that the
//! binary's shell (`iris_app::studio`: the loop, the runner, the jobs, the draft store) carries
//! out off the UI thread; the panes in [`ui`] only read the state.
//!
//! It may import `iris-core`, `iris-config` (key and theme files, the setup choice) and the
//! terminal crates (ratatui, crossterm, syntect, the text area); never git2, rig, tokio or the
//! agent, which `cargo metadata` shows and the compiler holds.

// A failure is a message the user can act on, never a panic (tests may unwrap).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod action;
pub mod answer;
pub mod blocks;
pub mod command;
pub mod conversation;
pub mod effect;
pub mod findings;
pub mod highlight;
pub mod keymap;
pub mod layout;
pub mod memo;
pub mod split;
pub mod state;
pub mod text;
pub mod theme;
pub mod ui;
pub mod update;
