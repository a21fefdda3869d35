//! The studio's reducer, family by family: each action on a plain `State`, asserting the state
//! it leaves and the effects it asks for. No terminal, git or network.
//!
//! Each test is in the file of the `update/` module whose behaviour it is about, with what they
//! share in `support`. `panes` only closes explore's side panes for the other modules, so it is
//! tested through theirs; the few actions `update/mod.rs` handles itself are with `input` (resize,
//! tick) and `artifact` (the commit rules). All in this one test binary: each binary links the
//! whole crate.

mod support;

mod alternatives;
mod artifact;
mod changes;
mod commands;
mod diff;
mod explore;
mod external;
mod failed;
mod findings;
mod input;
mod intent;
mod range;
mod reword;
mod setup;
mod split_plan;
mod stack;
mod task;
mod why;
