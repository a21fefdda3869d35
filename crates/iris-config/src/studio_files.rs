//! The studio's own files in the user's config directory, read here and handed to the studio
//! (which reads no files): `keymap.toml` and the themes in `themes/*.toml`.

use std::path::Path;

use crate::display_path;

/// A file as read: its text and its path as messages name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserFile {
    /// The path, as messages show it (`~/.config/iris/keymap.toml`).
    pub shown: String,
    /// Its text.
    pub text: String,
}

/// `<user_dir>/keymap.toml`; `None` without a directory or the file.
pub fn keymap(user_dir: Option<&Path>) -> Result<Option<UserFile>, String> {
    let Some(path) = user_dir.map(|dir| dir.join("keymap.toml")) else {
        return Ok(None);
    };
    let shown = display_path(&path);
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some(UserFile { shown, text })),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {shown}: {e}")),
    }
}

/// A user's theme file by name: its text, or why it cannot be read. The why is kept as words
/// (not an error value): a file that cannot be read is only reported, in those words, when a
/// theme names it.
pub type UserTheme = (String, Result<UserFile, String>);

/// The user's themes (`<user_dir>/themes/*.toml`), by name: each file's text, or why it
/// cannot be read.
pub fn themes(user_dir: Option<&Path>) -> Vec<UserTheme> {
    let Some(Ok(entries)) = user_dir.map(|dir| std::fs::read_dir(dir.join("themes"))) else {
        return Vec::new();
    };
    let mut found: Vec<UserTheme> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml") && path.is_file())
        .filter_map(|path| {
            let name = path.file_stem()?.to_str()?.to_owned();
            let shown = display_path(&path);
            let text = std::fs::read_to_string(&path)
                .map(|text| UserFile {
                    shown: shown.clone(),
                    text,
                })
                .map_err(|e| format!("cannot read {shown}: {e}"));
            Some((name, text))
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}
