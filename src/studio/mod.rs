//! Iris Studio, the full-screen terminal studio.
//!
//! Terminal events, agent events and git results become one [`action::Action`]; the pure
//! [`update::update`] changes the [`state::State`] and returns [`effect::Effect`]s that the
//! runner carries out off the UI thread; the panes in `ui` only read the state.

pub mod action;
pub mod answer;
pub mod app;
pub mod blocks;
pub mod command;
pub mod conversation;
pub mod drafts;
pub mod effect;
pub mod external;
pub mod findings;
pub mod highlight;
pub mod jobs;
pub mod keymap;
pub mod layout;
pub mod memo;
pub mod runner;
pub mod split;
pub mod state;
pub mod text;
pub mod theme;
pub mod ui;
pub mod update;
