//! Changed files in order of relevance, each with its score, reasons and semantic changes.

use std::cmp::Ordering;

use super::{ChangeKind, FileDiff, Relevance, SemanticChange, detect_semantic_changes, score_file};

/// A changed file with how relevant it is and what it does.
#[derive(Debug, Clone)]
pub struct ScoredFile<'a> {
    /// The file ranked, borrowed from the list given to [`rank_files`].
    pub file: &'a FileDiff,
    /// Its score and the reasons for it.
    pub relevance: Relevance,
    /// What its added and removed lines do (functions, types, imports).
    pub semantic: Vec<SemanticChange>,
}

/// Scores every file and sorts them, most relevant first (ties by path, so the order is stable).
pub fn rank_files(files: &[FileDiff]) -> Vec<ScoredFile<'_>> {
    let mut scored: Vec<ScoredFile<'_>> = files
        .iter()
        .map(|file| {
            let added: Vec<&str> = file.added_lines().collect();
            let removed: Vec<&str> = file.removed_lines().collect();
            let (relevance, semantic) = score_lines(&file.path, file.kind, &added, &removed);
            ScoredFile {
                file,
                relevance,
                semantic,
            }
        })
        .collect();
    scored.sort_by(|a, b| {
        most_relevant_first((&a.relevance, &a.file.path), (&b.relevance, &b.file.path))
    });
    scored
}

/// One file's relevance and the functions and types it adds or removes, from its added and
/// removed lines.
pub fn score_lines(
    path: &str,
    kind: ChangeKind,
    added: &[&str],
    removed: &[&str],
) -> (Relevance, Vec<SemanticChange>) {
    let semantic = detect_semantic_changes(path, added, removed);
    let relevance = score_file(path, kind, added.len() + removed.len(), &semantic);
    (relevance, semantic)
}

/// The ranking's order: higher score first, then by path.
pub fn most_relevant_first(a: (&Relevance, &str), b: (&Relevance, &str)) -> Ordering {
    b.0.score.total_cmp(&a.0.score).then_with(|| a.1.cmp(b.1))
}
