//! Iris Studio, the full-screen terminal studio.

pub mod command;
pub mod keymap;
pub mod theme;
