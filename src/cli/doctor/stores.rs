//! What Iris keeps in the repository (`.git/iris/`): its size, and its largest files.

use std::path::{Path, PathBuf};

use super::check::Check;

/// Above this, the stores are worth a look (a long studio log, many drafts).
pub const LARGE_BYTES: u64 = 50 * 1024 * 1024;

/// Files counted at most: the folder is Iris' own and small; a walk never runs long.
const MAX_FILES: usize = 10_000;

/// How many of the largest files are named.
const LARGEST: usize = 3;

/// The stores' folder and its files (paths relative to it) with their sizes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreFacts {
    pub dir: PathBuf,
    pub files: Vec<(PathBuf, u64)>,
}

impl StoreFacts {
    /// The files under `dir` (none when it does not exist), at most [`MAX_FILES`].
    pub fn read(dir: &Path) -> Self {
        let mut files = Vec::new();
        let mut pending = vec![dir.to_path_buf()];
        while let Some(folder) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            for entry in entries.flatten() {
                // Symbolic links are not followed: nothing outside the folder is counted.
                let Ok(meta) = entry.metadata() else { continue };
                let path = entry.path();
                if meta.is_dir() {
                    pending.push(path);
                } else if files.len() < MAX_FILES {
                    let relative = path.strip_prefix(dir).unwrap_or(&path).to_path_buf();
                    files.push((relative, meta.len()));
                }
            }
        }
        Self {
            dir: dir.to_path_buf(),
            files,
        }
    }
}

/// The stores' check: ok below [`LARGE_BYTES`], a warning above it.
pub fn check(facts: &StoreFacts) -> Check {
    const NAME: &str = "stores";
    let dir = facts.dir.display();
    if facts.files.is_empty() {
        return Check::ok(NAME, format!("{dir}: nothing kept yet"));
    }
    let total: u64 = facts.files.iter().map(|(_, size)| size).sum();
    let mut largest: Vec<&(PathBuf, u64)> = facts.files.iter().collect();
    largest.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let named: Vec<String> = largest
        .iter()
        .take(LARGEST)
        .map(|(path, size)| format!("{} {}", path.display(), size_text(*size)))
        .collect();
    let detail = format!(
        "{dir}: {} in {} file{}; the largest: {}",
        size_text(total),
        facts.files.len(),
        if facts.files.len() == 1 { "" } else { "s" },
        named.join(", ")
    );
    if total <= LARGE_BYTES {
        return Check::ok(NAME, detail);
    }
    Check::warning(
        NAME,
        format!("{detail} (more than {})", size_text(LARGE_BYTES)),
        format!(
            "every file in {dir} is Iris' own, none is git's: delete those you no longer need \
             (studio.log holds traces, drafts/ the studio's drafts, accepted.jsonl the messages \
             `iris eval --accepted` measures)"
        ),
    )
}

/// A size as people read it: `812 B`, `4.2 KB`, `61.0 MB`.
fn size_text(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut size = bytes as f64 / 1024.0;
    let mut unit = 0;
    while size >= 1024.0 && unit < UNITS.len() - 1 {
        size /= 1024.0;
        unit += 1;
    }
    format!("{size:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::doctor::check::Status;

    fn facts(files: &[(&str, u64)]) -> StoreFacts {
        StoreFacts {
            dir: PathBuf::from("/r/.git/iris"),
            files: files.iter().map(|(p, s)| (PathBuf::from(p), *s)).collect(),
        }
    }

    #[test]
    fn sizes_read_as_people_read_them() {
        assert_eq!(size_text(812), "812 B");
        assert_eq!(size_text(4300), "4.2 KB");
        assert_eq!(size_text(LARGE_BYTES), "50.0 MB");
        assert_eq!(size_text(3 << 30), "3.0 GB");
    }

    #[test]
    fn the_total_and_the_largest_files_are_said_and_a_large_store_is_a_warning() {
        let small = check(&facts(&[
            ("drafts/commit.json", 2048),
            ("accepted.jsonl", 100),
            ("studio.log", 4096),
            ("last-message.json", 50),
        ]));
        assert_eq!(small.status, Status::Ok);
        assert_eq!(
            small.detail,
            "/r/.git/iris: 6.1 KB in 4 files; the largest: studio.log 4.0 KB, \
             drafts/commit.json 2.0 KB, accepted.jsonl 100 B"
        );
        let large = check(&facts(&[("studio.log", LARGE_BYTES + 1)]));
        assert_eq!(large.status, Status::Warning);
        assert!(
            large
                .fix
                .unwrap_or_default()
                .contains("studio.log holds traces")
        );
        assert_eq!(check(&facts(&[])).detail, "/r/.git/iris: nothing kept yet");
    }

    #[test]
    fn a_folder_is_walked_whole_and_a_missing_one_holds_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("drafts")).expect("drafts");
        std::fs::write(dir.path().join("drafts/pr.json"), "12345").expect("write");
        std::fs::write(dir.path().join("studio.log"), "12").expect("write");
        let mut read = StoreFacts::read(dir.path()).files;
        read.sort();
        assert_eq!(
            read,
            [
                (PathBuf::from("drafts/pr.json"), 5),
                (PathBuf::from("studio.log"), 2)
            ]
        );
        assert!(StoreFacts::read(&dir.path().join("none")).files.is_empty());
    }
}
