//! The application layer: what every face works on, opened once. [`Workspace::open`] holds
//! the repository, its configuration, Iris' stores in it and the one handle on the version
//! control in use ([`vcs`]: git or jj); [`iris`] builds Iris as configured; [`dismissed`]
//! leaves out of a review what was dismissed before; [`sessions`] finds what the user asked
//! their coding agent while making the change. The faces (the command line, `iris
//! mcp`, `iris eval`, the studio's shell) are adapters over it.

pub mod dismissed;
pub mod iris;
pub mod linked_issues;
pub mod replayed;
pub mod sessions;
pub mod stores;
pub mod vcs;
mod workspace;

pub use workspace::Workspace;
