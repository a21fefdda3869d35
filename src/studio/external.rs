//! The user's own editor, for the studio to step aside to: which one, how it opens a file at
//! a line, and running it on an artifact's text or a file of the repository.

use iris_studio_tui::failure::{Failure, Outcome};
use std::path::{Path, PathBuf};

use iris_studio_core::artifact::ArtifactKind;

/// The editor's command line: `$VISUAL`, else `$EDITOR`, else what git would run
/// (`git var GIT_EDITOR`: `core.editor`, else its own default).
pub fn editor_command(repo_root: &Path) -> String {
    let var = |name| std::env::var(name).ok();
    pick_editor(var("VISUAL"), var("EDITOR"), || {
        iris_studio_git::editor(repo_root)
    })
}

/// The first editor set (blank counts as unset); `vi` when nothing is.
pub fn pick_editor(
    visual: Option<String>,
    editor: Option<String>,
    git: impl FnOnce() -> Option<String>,
) -> String {
    let set = |value: Option<String>| value.filter(|v| !v.trim().is_empty());
    set(visual)
        .or_else(|| set(editor))
        .or_else(|| set(git()))
        .unwrap_or_else(|| "vi".to_string())
}

/// The arguments that open `path` at `line` in `editor`, for the editors that can be told
/// a line; others get the path alone.
pub fn open_args(editor: &str, path: &str, line: u32) -> Vec<String> {
    let program = editor
        .split_whitespace()
        .next()
        .map(|p| p.rsplit('/').next().unwrap_or(p))
        .unwrap_or_default();
    match program {
        "vi" | "vim" | "nvim" | "gvim" | "mvim" | "nano" | "pico" | "emacs" | "emacsclient"
        | "kak" | "micro" | "joe" | "jed" | "mg" | "ne" | "ed" => {
            vec![format!("+{line}"), path.to_string()]
        }
        "hx" | "helix" | "subl" | "zed" | "mate" => vec![format!("{path}:{line}")],
        "code" | "code-insiders" | "codium" | "cursor" => {
            vec!["--goto".to_string(), format!("{path}:{line}")]
        }
        _ => vec![path.to_string()],
    }
}

/// Runs the editor on `args` in `dir` and waits for it. The command line goes through the
/// shell, as git runs it, so `code --wait` or `vim -u NONE` work.
pub fn run(editor: &str, args: &[String], dir: &Path) -> Outcome<()> {
    #[allow(clippy::disallowed_methods)]
    // the user's editor, on the terminal, for as long as it takes
    let status = std::process::Command::new(iris_studio_process::shell())
        .arg("-c")
        .arg(format!("{editor} \"$@\""))
        .arg(editor)
        .args(args)
        .current_dir(dir)
        .status()
        .map_err(|e| Failure::io(format!("cannot run `{editor}`: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(Failure::io(format!(
            "`{editor}` exited with {status}; the text is kept as it was"
        )))
    }
}

/// Where an artifact's text waits for the editor (a commit message under git's own name for
/// it, so editors colour it as one).
pub fn artifact_file(stores: &crate::app::stores::IrisDir, kind: ArtifactKind) -> PathBuf {
    let name = match kind {
        ArtifactKind::Commit => "COMMIT_EDITMSG".to_string(),
        kind => format!("{}.md", kind.name().to_uppercase().replace('-', "_")),
    };
    stores.edit_file(&name)
}

/// An artifact's text through the editor: written to its file, edited, read back.
pub fn edit_text(editor: &str, file: &Path, text: &str, repo_root: &Path) -> Outcome<String> {
    let shown = file.display();
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::io(format!("cannot create {}: {e}", dir.display())))?;
    }
    std::fs::write(file, format!("{text}\n"))
        .map_err(|e| Failure::io(format!("cannot write {shown}: {e}")))?;
    let args = [file.to_string_lossy().into_owned()];
    run(editor, &args, repo_root)?;
    let edited = std::fs::read_to_string(file)
        .map_err(|e| Failure::io(format!("cannot read {shown}: {e}")))?;
    let _ = std::fs::remove_file(file);
    Ok(edited)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visual_wins_then_editor_then_git_then_vi() {
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            pick_editor(some("code -w"), some("nano"), || some("vim")),
            "code -w"
        );
        assert_eq!(pick_editor(some(" "), some("nano"), || some("vim")), "nano");
        assert_eq!(pick_editor(None, None, || some("emacs")), "emacs");
        assert_eq!(pick_editor(None, Some(String::new()), || None), "vi");
    }

    #[test]
    fn editors_that_take_a_line_are_told_it() {
        assert_eq!(open_args("vim", "src/a.rs", 12), ["+12", "src/a.rs"]);
        assert_eq!(open_args("/usr/bin/nvim -u NONE", "a", 3), ["+3", "a"]);
        assert_eq!(open_args("hx", "a.rs", 7), ["a.rs:7"]);
        assert_eq!(open_args("code --wait", "a.rs", 7), ["--goto", "a.rs:7"]);
        assert_eq!(open_args("my-editor", "a.rs", 7), ["a.rs"]);
    }

    #[test]
    fn the_edited_text_comes_back_and_a_failing_editor_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let stores = crate::app::stores::IrisDir::of(dir.path());
        let file = artifact_file(&stores, ArtifactKind::Commit);
        assert!(file.ends_with("iris/edit/COMMIT_EDITMSG"));
        let edited = edit_text("sed -i s/old/new/", &file, "old text", dir.path()).unwrap();
        assert_eq!(edited, "new text\n");
        assert!(!file.exists(), "the file is removed once read");
        let err = edit_text("false", &file, "kept", dir.path()).unwrap_err();
        assert!(err.words.contains("`false` exited with"), "{err}");
    }
}
