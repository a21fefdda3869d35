//! What a repository remembers about the coding agent's sessions: the user's answer to the
//! studio's question (whether the user's words to their coding agent go in the requests
//! here), and that the command line said once that a session exists. Never failing a
//! command: at worst the question is asked, or the line said, again.

use super::IrisDir;

/// The user's answer for this repository: `Some(true)` yes, `Some(false)` no, `None` never
/// asked.
pub fn answer(stores: &IrisDir) -> Option<bool> {
    match std::fs::read_to_string(stores.agent_sessions())
        .ok()?
        .trim()
    {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

/// Remembers the user's answer for this repository.
pub fn remember_answer(stores: &IrisDir, yes: bool) {
    write(&stores.agent_sessions(), if yes { "yes\n" } else { "no\n" });
}

/// Whether the command line already said here that a session exists.
pub fn hinted(stores: &IrisDir) -> bool {
    stores.agent_sessions_hinted().exists()
}

/// Remembers that the command line said so.
pub fn remember_hinted(stores: &IrisDir) {
    write(&stores.agent_sessions_hinted(), "");
}

fn write(path: &std::path::Path, text: &str) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(err) = std::fs::write(path, text) {
        tracing::debug!("cannot write {}: {err}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_and_the_hint_are_remembered_apart() {
        let dir = tempfile::tempdir().unwrap();
        let stores = IrisDir::of(dir.path());
        assert_eq!(answer(&stores), None);
        assert!(!hinted(&stores));
        remember_hinted(&stores);
        assert!(hinted(&stores));
        assert_eq!(answer(&stores), None, "a hint is no answer");
        remember_answer(&stores, false);
        assert_eq!(answer(&stores), Some(false));
        remember_answer(&stores, true);
        assert_eq!(answer(&stores), Some(true));
    }
}
