//! The staged files ranked for the file list: first from their paths and kinds of change
//! alone (a diff of the index, no file contents: a few milliseconds), then with their changed
//! lines and new functions and types, read from the same diff.

use std::path::Path;

use crate::change::{ChangeKind, Relevance, most_relevant_first, score_file, score_lines};
use crate::git::{DiffTarget, GitRepo};
use crate::studio::action::RankedFile;

/// Hands `send` the first ranking, then the complete one (`complete` true). An error ends it
/// and is sent as the complete ranking, so the list stops waiting.
pub fn rank_staged(root: &Path, mut send: impl FnMut(Result<Vec<RankedFile>, String>, bool)) {
    let listed = GitRepo::discover(root).and_then(|repo| {
        let list = repo.change_list(&DiffTarget::Staged)?;
        Ok((repo, list))
    });
    let (repo, list) = match listed {
        Ok(listed) => listed,
        Err(err) => return send(Err(err.to_string()), true),
    };
    let first = list
        .files
        .iter()
        .map(|f| (f.path.clone(), f.kind, score_file(&f.path, f.kind, 0, &[])))
        .collect();
    send(Ok(sorted(first)), false);
    let complete = repo.map_changed_lines(&list, |file, added, removed| {
        let (relevance, _) = score_lines(&file.path, file.kind, added, removed);
        (file.path.clone(), file.kind, relevance)
    });
    send(complete.map(sorted).map_err(|e| e.to_string()), true);
}

fn sorted(mut scored: Vec<(String, ChangeKind, Relevance)>) -> Vec<RankedFile> {
    scored.sort_by(|a, b| most_relevant_first((&a.2, &a.0), (&b.2, &b.0)));
    scored
        .into_iter()
        .map(|(path, kind, relevance)| RankedFile {
            path,
            kind,
            relevance: relevance.percent(),
        })
        .collect()
}
