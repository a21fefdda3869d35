//! Drafts: each artifact's text and its versions, kept under `.git/iris/drafts/` so a studio
//! that is quit, killed or crashes loses nothing, and undo still works when it is reopened.
//!
//! A draft is written to a temporary file and renamed over the old one, so a write cut short
//! never leaves half a draft.

use std::path::PathBuf;

use super::IrisDir;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_tui::state::Draft;

/// The drafts folder of a repository.
#[derive(Debug, Clone)]
pub struct DraftStore {
    dir: PathBuf,
}

impl DraftStore {
    /// The drafts folder of the repository whose stores are `stores`.
    pub fn new(stores: &IrisDir) -> Self {
        Self {
            dir: stores.drafts(),
        }
    }

    fn path(&self, kind: ArtifactKind) -> PathBuf {
        self.dir.join(format!("{}.json", kind.name()))
    }

    /// Where an earlier release kept a draft (the text alone).
    fn text_path(&self, kind: ArtifactKind) -> PathBuf {
        self.dir.join(format!("{}.md", kind.name()))
    }

    /// The drafts that hold text, an earlier release's text drafts included.
    pub fn load_all(&self) -> Vec<(ArtifactKind, Draft)> {
        ArtifactKind::ALL
            .into_iter()
            .filter_map(|kind| {
                let draft = match std::fs::read_to_string(self.path(kind)) {
                    Ok(json) => serde_json::from_str::<Draft>(&json).ok()?,
                    Err(_) => Draft {
                        text: std::fs::read_to_string(self.text_path(kind)).ok()?,
                        ..Draft::default()
                    },
                };
                (!draft.text.trim().is_empty()).then_some((kind, draft))
            })
            .collect()
    }

    /// Writes a draft whole or not at all.
    pub fn save(&self, kind: ArtifactKind, draft: &Draft) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let json = serde_json::to_string(draft)?;
        let mut file = tempfile::NamedTempFile::new_in(&self.dir)?;
        std::io::Write::write_all(&mut file, json.as_bytes())?;
        file.as_file().sync_all()?;
        file.persist(self.path(kind)).map_err(|e| e.error)?;
        Ok(())
    }

    /// Removes a draft (after its artifact was committed).
    pub fn clear(&self, kind: ArtifactKind) -> std::io::Result<()> {
        for path in [self.path(kind), self.text_path(kind)] {
            match std::fs::remove_file(path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stacks_pr_draft_keeps_every_layers_text() {
        let dir = tempfile::tempdir().unwrap();
        let store = DraftStore::new(&IrisDir::of(dir.path()));
        let layer = Draft {
            text: "# b1".into(),
            ..Draft::default()
        };
        let mut stacked = Draft {
            text: "# b2".into(),
            layer: Some("b2".into()),
            ..Draft::default()
        };
        stacked.layers.insert("b1".into(), layer);
        store.save(ArtifactKind::Pr, &stacked).unwrap();
        assert_eq!(store.load_all(), vec![(ArtifactKind::Pr, stacked)]);
    }

    #[test]
    fn a_draft_round_trips_with_its_versions_and_replaces_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let store = DraftStore::new(&IrisDir::of(dir.path()));
        let draft = Draft {
            text: "second".into(),
            versions: vec!["first".into()],
            position: 1,
            by_iris: Some("first".into()),
            ..Draft::default()
        };
        store.save(ArtifactKind::Commit, &draft).unwrap();
        store.save(ArtifactKind::Commit, &draft).unwrap();
        assert_eq!(store.load_all(), vec![(ArtifactKind::Commit, draft)]);
        // No temporary file is left beside it.
        let names: Vec<_> = std::fs::read_dir(dir.path().join("iris/drafts"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("commit.json")]);
        store.clear(ArtifactKind::Commit).unwrap();
        assert!(store.load_all().is_empty());
        store.clear(ArtifactKind::Commit).unwrap();
    }

    #[test]
    fn a_reader_never_sees_half_a_draft_while_one_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let store = DraftStore::new(&IrisDir::of(dir.path()));
        let draft = |fill: &str| Draft {
            text: fill.repeat(50_000),
            ..Draft::default()
        };
        let (a, b) = (draft("a"), draft("b"));
        store.save(ArtifactKind::Commit, &a).unwrap();
        let writer = {
            let (store, a, b) = (store.clone(), a.clone(), b.clone());
            std::thread::spawn(move || {
                for i in 0..150 {
                    let next = if i % 2 == 0 { &b } else { &a };
                    store.save(ArtifactKind::Commit, next).unwrap();
                }
            })
        };
        // Written in place, a reader would catch the file empty or cut short.
        let mut reads = 0;
        while !writer.is_finished() || reads == 0 {
            let loaded = store.load_all();
            assert_eq!(loaded.len(), 1, "a read found no whole draft");
            assert!(
                loaded[0].1 == a || loaded[0].1 == b,
                "a read found half a draft"
            );
            reads += 1;
        }
        writer.join().unwrap();
    }

    #[test]
    fn an_earlier_releases_text_draft_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let drafts = dir.path().join("iris/drafts");
        std::fs::create_dir_all(&drafts).unwrap();
        std::fs::write(drafts.join("release-notes.md"), "Notes").unwrap();
        let loaded = DraftStore::new(&IrisDir::of(dir.path())).load_all();
        assert_eq!(loaded[0].0, ArtifactKind::ReleaseNotes);
        assert_eq!(loaded[0].1.text, "Notes");
    }

    #[test]
    fn a_failed_write_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the drafts folder should be.
        std::fs::create_dir_all(dir.path().join("iris")).unwrap();
        std::fs::write(dir.path().join("iris/drafts"), "").unwrap();
        let store = DraftStore::new(&IrisDir::of(dir.path()));
        assert!(store.save(ArtifactKind::Pr, &Draft::default()).is_err());
    }
}
