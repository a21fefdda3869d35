//! `iris-core`: what Iris Studio knows without touching the world.
//!
//! Pure data and functions, the bottom layer of the workspace: no tokio, no rig, no git2, no
//! ratatui, crossterm or reqwest (`cargo metadata` shows it), and no reads of its own: the
//! crates above hand it text and get values back.
//!
//! - [`artifact`]: the artifacts Iris writes (commit message, review, PR, changelog, release
//!   notes), their schemas and markdown, and the one table that defines each.
//! - [`change`]: the change model: parsed diffs, relevance, size, semantic changes.
//! - [`languages`]: the programming languages table (names, extensions, comment syntax).
//! - [`secrets`]: the secret scanner every request passes on its way out.
//! - The project's conventions: [`commit_rules`] (commitlint and commitizen rules),
//!   [`pr_template`] (pull request templates), [`ticket`] (ticket ids in branch names).
//!   Finding their files is `iris-config`'s (`iris_studio_config::project`).
//! - [`sessions`]: what the user asked their coding agent (Claude Code, Codex, Gemini CLI,
//!   aider) while making a change, read from its session files, chosen and bounded.
//! - [`stack`]: a stack of pull requests, and the section each layer's description carries.
//! - [`history`]: which commits show how the repository's people write, and the sample of
//!   them a commit message is written after.
//! - [`packages`]: the packages a change moves, read from both versions of its lock files,
//!   and the GitHub Actions pins it moves.
//! - [`eval`]: scores of written commit messages against their authors' (`iris eval`).
//! - [`controls`]: control characters in untrusted text, escaped for a terminal or stripped;
//!   [`text`]: text measured, clipped and wrapped in terminal cells.
//! - [`paths`]: repository-relative path checks; [`suggest`]: the closest known name to a typo.
//! - [`protocol`]: the agent's vocabulary (events, progress, risk, safety modes, approvals).
//!
//! It may import nothing of the workspace.

// Every public item says what it is for (clippy's -D warnings makes this an error).
#![warn(missing_docs)]
// A failure is a message the user can act on, never a panic (tests may unwrap).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod artifact;
pub mod attribution;
pub mod change;
pub mod commit_rules;
pub mod controls;
pub mod eval;
pub mod history;
pub mod languages;
pub mod last_message;
pub mod linked_issue;
pub mod packages;
pub mod paths;
pub mod pr_template;
pub mod protocol;
pub mod scope;
pub mod secrets;
pub mod sessions;
pub mod split;
pub mod stack;
pub mod suggest;
pub mod text;
pub mod ticket;
