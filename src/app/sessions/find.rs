//! The coding agents' session files of a working tree, found and read within bounds: the
//! folders each agent keeps them in (under the home directory, or where its own variable
//! says), the files changed since the change's time began, the newest first, at most
//! [`MAX_FILES`] an agent, the last [`MAX_FILE_BYTES`] of each, [`MAX_TOTAL_BYTES`] in all.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use iris_studio_core::sessions::choose::Found;
use iris_studio_core::sessions::{Agent, Window, aider, claude_code, codex, gemini_cli};

use super::Env;

/// Session files read at most, per agent.
const MAX_FILES: usize = 16;
/// The bytes read of one file at most: its end, where the newest turns are.
const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;
/// The bytes read of all files at most.
const MAX_TOTAL_BYTES: u64 = 24 * 1024 * 1024;
/// The entries of one folder looked at at most.
const MAX_ENTRIES: usize = 4096;
/// The bytes of Gemini CLI's project registry read at most.
const MAX_REGISTRY_BYTES: u64 = 1024 * 1024;

/// The sessions of the working tree at `root` with turns that may fall within `window`.
pub fn found(env: &Env, root: &Path, window: Window) -> Vec<Found> {
    let tree = Tree::new(root);
    let here = |path: &str| tree.holds(path);
    let mut budget = MAX_TOTAL_BYTES;
    let mut found = Vec::new();
    let mut add = |agent: Agent, turns: Vec<iris_studio_core::sessions::Turn>| {
        if !turns.is_empty() {
            found.push(Found { agent, turns });
        }
    };
    if let Some(dir) = &env.claude {
        for file in newest(claude_files(dir, root), window) {
            if let Some(text) = read_tail(&file.path, &mut budget) {
                add(Agent::ClaudeCode, claude_code::turns(&text, &here));
            }
        }
    }
    if let Some(dir) = &env.codex {
        for file in newest(codex_files(dir, window), window) {
            if let Some(text) = read_tail(&file.path, &mut budget) {
                add(Agent::Codex, codex::turns(&text, &here));
            }
        }
    }
    if let Some(dir) = &env.gemini {
        for file in newest(gemini_files(dir, root, &here), window) {
            // A JSON file is read whole or not at all; a JSONL one from its end.
            let text = match file.path.extension().and_then(|e| e.to_str()) {
                Some("jsonl") => read_tail(&file.path, &mut budget),
                _ => read_whole(&file.path, &mut budget),
            };
            if let Some(text) = text {
                add(Agent::GeminiCli, gemini_cli::turns(&text));
            }
        }
    }
    let history = root.join(".aider.chat.history.md");
    for file in newest(listed([history]), window) {
        if let Some(text) = read_tail(&file.path, &mut budget) {
            add(
                Agent::Aider,
                aider::turns(&text, file.modified, local_offset()),
            );
        }
    }
    found
}

/// A session file and when it last changed (seconds since the epoch).
struct File {
    path: PathBuf,
    modified: i64,
}

/// The files of `paths` that exist, with when they last changed.
fn listed(paths: impl IntoIterator<Item = PathBuf>) -> Vec<File> {
    paths
        .into_iter()
        .filter_map(|path| {
            let meta = std::fs::metadata(&path).ok().filter(|m| m.is_file())?;
            let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
            Some(File {
                path,
                modified: modified.as_secs() as i64,
            })
        })
        .collect()
}

/// The files changed since `window` began (a file last changed before holds no later turn),
/// the newest first, [`MAX_FILES`] at most.
fn newest(mut files: Vec<File>, window: Window) -> Vec<File> {
    files.retain(|f| f.modified >= window.from);
    files.sort_by_key(|f| std::cmp::Reverse(f.modified));
    files.truncate(MAX_FILES);
    files
}

/// The entries of `dir` (at most [`MAX_ENTRIES`]) whose name `keep` takes.
fn entries(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    read.filter_map(Result::ok)
        .take(MAX_ENTRIES)
        .filter(|e| e.file_name().to_str().is_some_and(&keep))
        .map(|e| e.path())
        .collect()
}

/// Claude Code's session files of the folders named for `root` and the directories under it
/// (`<folder name of root>` and `<folder name of root>-...`: a sibling with a longer name
/// shares the start, which the records' `cwd` tells apart).
fn claude_files(claude: &Path, root: &Path) -> Vec<File> {
    let prefix = claude_code::folder_name(&root.to_string_lossy());
    let sub = format!("{prefix}-");
    let folders = entries(&claude.join("projects"), |name| {
        name == prefix || name.starts_with(&sub)
    });
    listed(
        folders
            .iter()
            .flat_map(|folder| entries(folder, |name| name.ends_with(".jsonl"))),
    )
}

/// Codex's rollouts of the days around `window` (`sessions/YYYY/MM/DD/rollout-*.jsonl`).
fn codex_files(codex: &Path, window: Window) -> Vec<File> {
    const DAY: i64 = 86_400;
    let (first, last) = ((window.from - DAY) / DAY, (window.to + DAY) / DAY);
    let days = (first..=last).rev().take(super::MAX_SPAN_DAYS as usize + 3);
    let paths = days.flat_map(|day| {
        let date = iris_studio_git::utc_date(day * DAY);
        let folder = codex.join("sessions").join(date.replace('-', "/"));
        entries(&folder, |name| {
            name.starts_with("rollout-") && name.ends_with(".jsonl")
        })
    });
    listed(paths)
}

/// Gemini CLI's files of the projects at `root` and under it: `tmp/<project>/chats/*.json`,
/// `*.jsonl` and `tmp/<project>/logs.json`, the project named in `projects.json` or hashed.
fn gemini_files(gemini: &Path, root: &Path, here: &dyn Fn(&str) -> bool) -> Vec<File> {
    let mut folders = vec![gemini_cli::hashed_folder(&root.to_string_lossy())];
    let mut budget = MAX_REGISTRY_BYTES;
    if let Some(registry) = read_whole(&gemini.join("projects.json"), &mut budget) {
        folders.extend(gemini_cli::registered_folders(&registry, here));
    }
    let paths = folders.iter().flat_map(|name| {
        let project = gemini.join("tmp").join(name);
        let mut paths = entries(&project.join("chats"), |n| {
            n.ends_with(".json") || n.ends_with(".jsonl")
        });
        paths.push(project.join("logs.json"));
        paths
    });
    listed(paths)
}

/// The last [`MAX_FILE_BYTES`] of `path` (from the first line that starts within them), as
/// text, taken from `budget`.
fn read_tail(path: &Path, budget: &mut u64) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let take = len.min(MAX_FILE_BYTES).min(*budget);
    if take == 0 {
        return None;
    }
    *budget -= take;
    file.seek(SeekFrom::Start(len - take)).ok()?;
    let mut bytes = Vec::with_capacity(take as usize);
    file.take(take).read_to_end(&mut bytes).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    Some(match (take < len, text.find('\n')) {
        // The first line is cut: it starts after its newline.
        (true, Some(at)) => text[at + 1..].to_string(),
        _ => text.into_owned(),
    })
}

/// The whole of `path` when it fits in [`MAX_FILE_BYTES`] and `budget`; `None` otherwise.
fn read_whole(path: &Path, budget: &mut u64) -> Option<String> {
    let len = std::fs::metadata(path).ok()?.len();
    if len > MAX_FILE_BYTES.min(*budget) {
        return None;
    }
    *budget -= len;
    let bytes = std::fs::read(path).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The working tree: a directory is in it when it is its root or under it, and not inside
/// another repository or worktree nested in it.
struct Tree {
    /// The root as git gives it, and as the file system resolves it (an agent may record
    /// either).
    roots: Vec<PathBuf>,
}

impl Tree {
    fn new(root: &Path) -> Self {
        let mut roots = vec![root.to_path_buf()];
        if let Ok(real) = root.canonicalize()
            && real != root
        {
            roots.push(real);
        }
        Self { roots }
    }

    fn holds(&self, dir: &str) -> bool {
        let dir = Path::new(dir);
        self.roots.iter().any(|root| {
            let Ok(below) = dir.strip_prefix(root) else {
                return false;
            };
            // No `.git` between the root and the directory: that would be another repository.
            let mut at = root.clone();
            below.components().all(|part| {
                at.push(part);
                !at.join(".git").exists()
            })
        })
    }
}

/// The local time's offset east of UTC, in seconds (aider writes local times).
fn local_offset() -> i64 {
    #[cfg(unix)]
    {
        let now = super::now() as libc::time_t;
        // SAFETY: localtime_r reads `now` and writes only the `tm` it is given, which lives
        // for the call; a zeroed tm is a valid value of that plain C struct.
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        if unsafe { libc::localtime_r(&now, &mut tm) }.is_null() {
            return 0;
        }
        tm.tm_gmtoff
    }
    #[cfg(not(unix))]
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_holds_its_subdirectories_but_not_a_repository_inside_it_or_a_sibling() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("shop");
        std::fs::create_dir_all(root.join("web/src")).unwrap();
        std::fs::create_dir_all(root.join("vendor/lib")).unwrap();
        std::fs::write(root.join("vendor/lib/.git"), "gitdir: elsewhere\n").unwrap();
        let tree = Tree::new(&root);
        let at = |rel: &str| root.join(rel).to_string_lossy().into_owned();
        assert!(tree.holds(&root.to_string_lossy()));
        assert!(tree.holds(&at("web/src")));
        assert!(!tree.holds(&at("vendor/lib")));
        assert!(!tree.holds(&format!("{}-admin", root.display())));
    }

    #[test]
    fn a_long_file_is_read_from_its_end_within_the_budget() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let line = format!("{}\n", "x".repeat(999));
        let lines = (MAX_FILE_BYTES / 1000 + 10) as usize;
        std::fs::write(&path, line.repeat(lines) + "last\n").unwrap();
        let mut budget = MAX_TOTAL_BYTES;
        let text = read_tail(&path, &mut budget).unwrap();
        assert!(text.len() as u64 <= MAX_FILE_BYTES);
        assert!(text.starts_with("xxx") && text.ends_with("last\n"));
        assert_eq!(
            text.lines().next().unwrap().len(),
            999,
            "a cut line is left out"
        );
        assert_eq!(budget, MAX_TOTAL_BYTES - MAX_FILE_BYTES);
        let mut spent = 10;
        assert_eq!(read_tail(&path, &mut spent).map(|t| t.len()), Some(5));
        assert_eq!(
            read_whole(&path, &mut budget),
            None,
            "too long to read whole"
        );
    }
}
