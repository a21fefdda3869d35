//! Iris, the agent. For now: the tools she gathers evidence with.

pub mod capability;
pub mod output;
pub mod style;
pub mod tools;
