//! The staged files ranked for the file list: first from their paths and kinds of change
//! alone (a diff of the index, no file contents: a few milliseconds), then with their changed
//! lines and new functions and types, read from the same diff, whose added lines are also
//! scanned for secrets (the list marks a file that stages one).

use crate::studio::fail;
use iris_studio_core::change::{
    ChangeKind, Relevance, most_relevant_first, score_file, score_lines,
};
use iris_studio_core::secrets::Scanner;
use iris_studio_git::{DiffTarget, GitRepo};
use iris_studio_tui::action::RankedFile;
use iris_studio_tui::failure::Outcome;

/// Hands `send` the first ranking of `target`'s files (the staged ones; in a jj workspace,
/// `@`'s commit), then the complete one (`complete` true). An error ends it and is sent as
/// the complete ranking, so the list stops waiting.
pub fn rank_staged(
    repo: &GitRepo,
    target: &DiffTarget,
    scanner: Option<&Scanner>,
    mut send: impl FnMut(Outcome<Vec<RankedFile>>, bool),
) {
    let list = match repo.change_list(target, &[]) {
        Ok(list) => list,
        Err(err) => return send(Err(fail::git(&err)), true),
    };
    let first = list
        .files
        .iter()
        .map(|f| Scored {
            path: f.path.clone(),
            kind: f.kind,
            relevance: score_file(&f.path, f.kind, 0, &[]),
            secret: None,
        })
        .collect();
    send(Ok(sorted(first)), false);
    let complete = repo.map_changed_lines(&list, |file, lines| {
        let (relevance, _) = score_lines(&file.path, file.kind, lines.added, lines.removed);
        Scored {
            path: file.path.clone(),
            kind: file.kind,
            relevance,
            secret: scanner.and_then(|scanner| secret_in(scanner, &file.path, lines.added)),
        }
    });
    send(complete.map(sorted).map_err(fail::any), true);
}

struct Scored {
    path: String,
    kind: ChangeKind,
    relevance: Relevance,
    secret: Option<std::sync::Arc<str>>,
}

/// The kind of the first secret among a file's added lines, as the scanner sees them in a
/// diff of that file (so `.irissecretsignore` paths apply).
fn secret_in(scanner: &Scanner, path: &str, added: &[&str]) -> Option<std::sync::Arc<str>> {
    let mut diff = format!("+++ b/{path}\n@@ -0,0 +1,{} @@\n", added.len());
    for line in added {
        diff.push('+');
        diff.push_str(line);
        diff.push('\n');
    }
    scanner
        .redact(&diff)
        .findings
        .first()
        .map(|f| f.rule.clone())
}

fn sorted(mut scored: Vec<Scored>) -> Vec<RankedFile> {
    scored.sort_by(|a, b| most_relevant_first((&a.relevance, &a.path), (&b.relevance, &b.path)));
    scored
        .into_iter()
        .map(|s| RankedFile {
            path: s.path,
            kind: s.kind,
            relevance: s.relevance.percent(),
            secret: s.secret,
        })
        .collect()
}
