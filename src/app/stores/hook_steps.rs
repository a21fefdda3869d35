//! The commit-msg hooks already told to have lost Iris' step: a hook rewritten by another tool
//! is said once, not at every commit; installing the step again forgets it, so a later loss is
//! said again.

use std::path::Path;

use super::IrisDir;

/// Whether the loss of the step in the hook at `hook` was said before.
pub fn said(stores: &IrisDir, hook: &Path) -> bool {
    std::fs::read_to_string(stores.hook_steps_lost())
        .is_ok_and(|text| text.lines().any(|line| Path::new(line) == hook))
}

/// Records that the loss of the step in the hook at `hook` was said. Never fails: at worst it
/// is said again.
pub fn remember_said(stores: &IrisDir, hook: &Path) {
    use std::io::Write;
    let file = stores.hook_steps_lost();
    let _ = std::fs::create_dir_all(stores.path());
    if let Ok(mut out) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
    {
        let _ = writeln!(out, "{}", hook.display());
    }
}

/// Forgets every loss said: the step was installed again.
pub fn forget(stores: &IrisDir) {
    let _ = std::fs::remove_file(stores.hook_steps_lost());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loss_is_said_once_until_the_step_is_installed_again() {
        let dir = tempfile::tempdir().unwrap();
        let stores = IrisDir::of(dir.path());
        let hook = Path::new("/r/.husky/commit-msg");
        assert!(!said(&stores, hook));
        remember_said(&stores, hook);
        assert!(said(&stores, hook));
        assert!(!said(&stores, Path::new("/r/.git/hooks/commit-msg")));
        forget(&stores);
        assert!(!said(&stores, hook));
    }
}
