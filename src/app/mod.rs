//! The application layer: what every face works on, opened once. [`vcs`] is the one handle
//! on the version control in use (git or jj).

pub mod vcs;
