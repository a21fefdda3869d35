//! Commit and review modes' list: the changed files, their ranking, staging and committing.

use crate::action::{RankedFile, RepoSnapshot};
use crate::command::Command;
use crate::effect::Effect;
use crate::failure::{Done, FailureKind, GitFailure, Outcome};
use crate::features::msgs::{ChangesFx, ExploreFx};
use crate::state::{
    ArtifactBuffer, Changes, CommitFlags, Confirm, DiffView, FileEntry, Level, Mode, Pane, Repo,
    Report, State,
};
use crate::update::cx::{Cx, Then};
use crate::update::{diff, explore, range, step, written_for};
use iris_studio_core::artifact::ArtifactKind;

pub(crate) fn ranking_loaded(
    changes: &mut Changes,
    cx: &mut Cx,
    result: Outcome<Vec<RankedFile>>,
    complete: bool,
) -> Vec<Effect> {
    let ranked = match result {
        Ok(ranked) => ranked,
        Err(err) => {
            let err = err.context("ranking the staged files failed");
            cx.then(Then::Failed(err, None));
            return Vec::new();
        }
    };
    changes.ranking_complete = complete;
    changes.relevance = ranked
        .iter()
        .map(|r| (r.path.clone(), r.relevance))
        .collect();
    changes.secrets = ranked
        .iter()
        .filter_map(|r| Some((r.path.clone(), r.secret.clone()?)))
        .collect();
    if changes.loading {
        // Until the status arrives, the list is the ranked staged files.
        changes.files = ranked
            .into_iter()
            .map(|r| FileEntry {
                staged: Some(r.kind),
                relevance: Some(r.relevance),
                secret: r.secret,
                path: r.path,
                unstaged: None,
                untracked: false,
                conflicted: false,
            })
            .collect();
        changes.has_staged = !changes.files.is_empty();
    } else {
        apply_relevance(changes);
    }
    Vec::new()
}

pub(crate) fn status_loaded(state: &mut State, result: Outcome<RepoSnapshot>) -> Vec<Effect> {
    let snapshot = match result {
        Ok(snapshot) => snapshot,
        Err(err) => {
            state.changes.loading = false;
            return crate::update::failed::failed(state, err.context("git status failed"), None);
        }
    };
    let first = !std::mem::replace(&mut state.start.status_seen, true);
    let selected_path = state.changes.selected_file().map(|f| f.path.clone());
    state.repo.branch = snapshot.branch;
    state.repo.head = snapshot.head;
    state.repo.jj_change = snapshot.jj_change;
    state.changes.key = snapshot.change_key;
    state.changes.files = snapshot.files;
    state.changes.loading = false;
    apply_relevance(&mut state.changes);
    state.changes.has_staged = state.changes.files.iter().any(|f| f.staged.is_some());
    if std::mem::take(&mut state.start.choose_mode) {
        // A new file or a merge conflict is work for commit mode too.
        let changed = state
            .changes
            .files
            .iter()
            .any(|f| f.staged.is_some() || f.unstaged.is_some() || f.untracked || f.conflicted);
        state.mode = if changed { Mode::COMMIT } else { Mode::Explore };
        state.focus = state.mode.list_pane();
    }
    state.changes.selected = selected_path
        .and_then(|p| state.changes.files.iter().position(|f| f.path == p))
        .unwrap_or(0)
        .min(state.changes.files.len().saturating_sub(1));
    // A range mode's diff is the selected commit's, which a status does not change.
    let mut effects = if state.mode.uses_range() {
        Vec::new()
    } else {
        diff::load_selected_diff(state)
    };
    if state.mode == Mode::Explore && !state.explore.loaded {
        effects.push(Effect::Explore(ExploreFx::LoadTree));
    } else if state.mode.uses_range()
        && state.range.loaded_for != Some(state.mode)
        && !state.range.loading
    {
        // Started in a range mode: its commits come with the first status.
        effects.extend(range::load_commits(state));
    } else {
        // Only on arriving in the mode: staging or a refresh later never starts Iris, unless
        // her untouched text was for a change that has moved.
        effects.extend(written_for::arrive(state, first));
    }
    effects
}

/// A git operation ended: the status is read again; a commit made clears its message (and
/// the amend and no-verify options), one refused keeps it and says why.
pub(crate) fn git_done(
    flags: &mut CommitFlags,
    cx: &mut Cx,
    result: Outcome<Done>,
    tried: ChangesFx,
) -> Vec<Effect> {
    let committed = matches!(tried, ChangesFx::Commit { .. });
    match result {
        Ok(done) => {
            cx.say(Level::Success, done.0);
            if committed {
                cx.then(Then::Clear(ArtifactKind::Commit));
                *flags = CommitFlags::default();
            }
        }
        Err(err)
            if committed
                && !matches!(
                    err.kind,
                    FailureKind::Git(GitFailure::IndexLocked | GitFailure::HookFailed)
                ) =>
        {
            // git's words can be long: they are shown whole until esc.
            cx.say(
                Level::Error,
                "the commit failed: the message stays in the editor (esc closes the report)",
            );
            cx.then(Then::Report(Report::plain(err.words)));
        }
        Err(err) => cx.then(Then::Failed(err, Some(Effect::Changes(tried)))),
    }
    vec![Effect::Changes(ChangesFx::LoadStatus)]
}

/// Puts the known relevance (and secrets) on the files and sorts them: most relevant first, then by path.
fn apply_relevance(changes: &mut Changes) {
    let selected = changes.selected_file().map(|f| f.path.clone());
    for file in &mut changes.files {
        file.relevance = changes
            .relevance
            .get(&file.path)
            .copied()
            .or(file.relevance);
        file.secret = changes.secrets.get(&file.path).cloned();
    }
    changes.files.sort_by(|a, b| {
        b.relevance
            .unwrap_or(0)
            .cmp(&a.relevance.unwrap_or(0))
            .then_with(|| a.path.cmp(&b.path))
    });
    if let Some(path) = selected {
        changes.selected = changes
            .files
            .iter()
            .position(|f| f.path == path)
            .unwrap_or(0);
    }
}

/// Moves the selection in the changed files; the diff follows.
pub(crate) fn move_cursor(
    (changes, diff): (&mut Changes, &mut DiffView),
    command: Command,
) -> Vec<Effect> {
    let last = changes.files.len().saturating_sub(1);
    let before = changes.selected;
    changes.selected = step(before, last, command);
    if changes.selected != before {
        return diff::selected_diff(changes, diff);
    }
    Vec::new()
}

/// Selects row `row` of the changed files.
pub(crate) fn select((changes, diff): (&mut Changes, &mut DiffView), row: usize) -> Vec<Effect> {
    if row >= changes.files.len() {
        return Vec::new();
    }
    changes.selected = row;
    diff::selected_diff(changes, diff)
}

/// Said when a stage key is pressed in a jj workspace.
pub const JJ_NO_STAGING: &str = "jj has no staging area: every file of @ is in the change \
                                 (`iris split` or `jj split` divides it)";

/// Where staging and committing work: the changed files, the diff shown, the repository's
/// commit options, the commit message, the question.
pub(crate) type Staging<'a> = (
    &'a Changes,
    &'a DiffView,
    &'a mut Repo,
    Option<&'a ArtifactBuffer>,
    &'a mut Option<Confirm>,
);

/// Staging and committing.
pub(crate) fn command(
    (changes, diff, repo, message, confirm): Staging,
    cx: &mut Cx,
    command: Command,
) -> Vec<Effect> {
    let staging = matches!(
        command,
        Command::StageFile
            | Command::UnstageFile
            | Command::StageAll
            | Command::UnstageAll
            | Command::StageHunk
    );
    if staging && repo.jj_change.is_some() {
        cx.say(Level::Info, JJ_NO_STAGING);
        return Vec::new();
    }
    match command {
        Command::StageFile | Command::UnstageFile => match changes.selected_file() {
            Some(file) => {
                let path = file.path.clone();
                vec![if command == Command::StageFile {
                    Effect::Changes(ChangesFx::Stage { path })
                } else {
                    Effect::Changes(ChangesFx::Unstage { path })
                }]
            }
            None => Vec::new(),
        },
        Command::StageAll => vec![Effect::Changes(ChangesFx::StageAll)],
        Command::UnstageAll => vec![Effect::Changes(ChangesFx::UnstageAll)],
        Command::StageHunk => diff::stage_hunk(diff),
        Command::Commit => {
            if message.is_none_or(|a| a.is_empty()) {
                cx.say(Level::Warning, "the commit message is empty");
            } else if !changes.has_staged && !repo.commit_flags.amend {
                cx.say(
                    Level::Warning,
                    "nothing is staged (s stages the selected file)",
                );
            } else {
                *confirm = Some(Confirm::Commit);
            }
            Vec::new()
        }
        Command::ToggleAmend => {
            repo.commit_flags.amend = !repo.commit_flags.amend;
            Vec::new()
        }
        Command::ToggleNoVerify => {
            repo.commit_flags.no_verify = !repo.commit_flags.no_verify;
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// The answer to the commit question: the commit asked of git, with the message as it is
/// (and what Iris last wrote of it).
pub(crate) fn commit_confirmed(
    message: Option<&ArtifactBuffer>,
    flags: CommitFlags,
    cx: &mut Cx,
) -> Vec<Effect> {
    let written = message.and_then(|a| a.by_iris.clone());
    let message = message.map(|a| a.text()).unwrap_or_default();
    cx.say(Level::Info, "committing...");
    vec![Effect::Changes(ChangesFx::Commit {
        message,
        written,
        flags,
    })]
}

/// Enter on a list: a changed file or a commit shows its diff, a tree row opens.
pub(crate) fn select_in_list(state: &mut State) -> Vec<Effect> {
    match state.focus {
        Pane::Tree => explore::open_tree_row(state),
        Pane::Changes | Pane::Commits => {
            state.focus = Pane::Diff;
            Vec::new()
        }
        _ => Vec::new(),
    }
}
