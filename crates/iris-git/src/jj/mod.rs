//! Jujutsu (jj) workspaces. A `.jj` folder is looked for before `.git`, walking up as jj does.
//! Iris reads a jj change's commits from the git store jj keeps beside it (read only: jj's
//! commits are git commits there), and asks and changes everything else through jj's command
//! line and its templates, jj's stable interface: [`Jj`]. It never writes jj's store.

mod cli;
mod layout;
mod split;

pub use cli::{INSTALL, Jj, JjChange, JjFound, MIN_VERSION, jj_on_path};
pub use layout::JjWorkspace;
pub(crate) use layout::find;

/// The jj workspace holding `start`, when a `.jj` folder is met walking up before a `.git`
/// (only files are looked at: no repository is opened, no program run).
pub fn workspace_of(start: &std::path::Path) -> crate::Result<Option<JjWorkspace>> {
    Ok(find(start)?.map(|(workspace, _)| workspace))
}
pub use split::write_right;
