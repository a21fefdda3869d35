//! Changed files in order of relevance, each with its score, reasons and semantic changes.

use super::{FileDiff, Relevance, SemanticChange, detect_semantic_changes, score_file};

#[derive(Debug, Clone)]
pub struct ScoredFile<'a> {
    pub file: &'a FileDiff,
    pub relevance: Relevance,
    pub semantic: Vec<SemanticChange>,
}

/// Scores every file and sorts them, most relevant first (ties by path, so the order is stable).
pub fn rank_files(files: &[FileDiff]) -> Vec<ScoredFile<'_>> {
    let mut scored: Vec<ScoredFile<'_>> = files
        .iter()
        .map(|file| {
            let added: Vec<&str> = file.added_lines().collect();
            let removed: Vec<&str> = file.removed_lines().collect();
            let semantic = detect_semantic_changes(&file.path, &added, &removed);
            let relevance = score_file(&file.path, file.kind, file.changed_lines(), &semantic);
            ScoredFile {
                file,
                relevance,
                semantic,
            }
        })
        .collect();
    scored.sort_by(|a, b| {
        b.relevance
            .score
            .total_cmp(&a.relevance.score)
            .then_with(|| a.file.path.cmp(&b.file.path))
    });
    scored
}
