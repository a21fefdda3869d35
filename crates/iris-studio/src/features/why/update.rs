//! "Why is this code like this?": the selected lines of the open file explained by Iris from
//! their history, in a pane beside the code. Answers are kept for the session by file text,
//! lines and HEAD, so asking again is instant; the commits behind the lines open with enter.

use crate::answer;
use crate::command::Command;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::WhyFx;
use crate::layout::keep_in_view;
use crate::state::{DiffView, Explore, Level, Pane, ShownCommit, State, TaskKind, WhyKey, WhyView};
use crate::update::cx::{Cx, Then};
use crate::update::{notice, step, task};
use iris_studio_core::protocol::{Explained, LinesAsked};

/// `w`: asks Iris about the selected lines (or the cursor's line), or shows her earlier
/// answer about them.
pub(crate) fn ask(state: &mut State) -> Vec<Effect> {
    let explorer = &state.explore;
    let (Some(path), Some((first, last))) = (explorer.open.clone(), explorer.selection()) else {
        notice(
            state,
            Level::Info,
            "open a file (enter on the tree), select lines with v, then ask with w",
        );
        return Vec::new();
    };
    let Some(head) = state.repo.head.clone() else {
        notice(
            state,
            Level::Info,
            "nothing is committed yet: these lines have no history to explain",
        );
        return Vec::new();
    };
    let key = WhyKey {
        path,
        digest: explorer.digest,
        head,
        start: first + 1,
        end: last + 1,
    };
    state.explore.anchor = None;
    if let Some(known) = state.explore.answers.get(&key).cloned() {
        show(&mut state.explore, key, known);
        notice(
            state,
            Level::Info,
            "Iris answered this earlier in the session",
        );
        return Vec::new();
    }
    let Some(task) = task::start(state, TaskKind::Why) else {
        return Vec::new();
    };
    let asked = LinesAsked {
        path: key.path.clone(),
        start: key.start,
        end: key.end,
        working_copy: true,
    };
    state.explore.why = Some(WhyView {
        key,
        answer: None,
        scroll: 0,
        commit: 0,
    });
    vec![Effect::Why(WhyFx::Explain { task, asked })]
}

/// The answer in the pane, its first cited commit chosen (else its first).
fn show(explore: &mut Explore, key: WhyKey, answer: Explained) {
    let commit = answer
        .commits
        .iter()
        .position(|c| answer.cited.contains(&c.short_id))
        .unwrap_or(0);
    explore.why = Some(WhyView {
        key,
        answer: Some(answer),
        scroll: 0,
        commit,
    });
}

/// Iris' answer arrived: shown beside the code and kept for the session, or why none came
/// (the pane closes).
pub(crate) fn explained(
    explore: &mut Explore,
    cx: &mut Cx,
    task: u64,
    result: Outcome<Explained>,
) -> Vec<Effect> {
    let Some(finished) = cx.finish_task(task) else {
        return Vec::new(); // cancelled: the pane has closed
    };
    let Some(key) = explore.why.as_ref().map(|w| w.key.clone()) else {
        return Vec::new();
    };
    match result {
        Ok(answer) => {
            explore.answers.insert(key.clone(), answer.clone());
            let what = format!(
                "Iris explained lines {}-{}: n / p pick a commit, enter shows it",
                key.start, key.end
            );
            show(explore, key, answer);
            cx.task_done(&finished, what);
        }
        Err(err) => {
            explore.why = None;
            cx.then(Then::Failed(err, None));
        }
    }
    Vec::new()
}

/// Up, down and the page keys scroll the answer (`rows` as wrapped, `height` of them shown).
pub(crate) fn scroll(
    why: &mut Option<WhyView>,
    (rows, height): (&[answer::Row], usize),
    command: Command,
) -> Vec<Effect> {
    if let Some(why) = why.as_mut() {
        let last = rows.len().saturating_sub(height.max(1));
        why.scroll = step(why.scroll, last, command);
    }
    Vec::new()
}

/// `n` / `p`: the next or previous commit behind the lines, scrolled into view.
pub(crate) fn step_commit(
    why: &mut Option<WhyView>,
    (rows, height): (&[answer::Row], usize),
    cx: &mut Cx,
    command: Command,
) -> Vec<Effect> {
    let count = why
        .as_ref()
        .and_then(|w| w.answer.as_ref())
        .map_or(0, |a| a.commits.len());
    let Some(why) = why.as_mut().filter(|_| count > 0) else {
        cx.say(
            Level::Info,
            "n / p step through the commits of an answer: select lines (v) and ask why (w)",
        );
        return Vec::new();
    };
    why.commit = match command {
        Command::NextHunk => (why.commit + 1).min(count - 1),
        _ => why.commit.saturating_sub(1),
    };
    if let Some(row) = answer::commit_row(rows, why.commit) {
        why.scroll = keep_in_view(why.scroll, row, height);
    }
    Vec::new()
}

/// A click on a commit's row of the answer's pane (`area`) chooses it (enter then shows it).
pub(crate) fn click(
    why: &mut Option<WhyView>,
    (rows, area): (&[answer::Row], Option<ratatui::layout::Rect>),
    row: u16,
) -> Vec<Effect> {
    let (Some(area), Some(why)) = (area, why.as_mut()) else {
        return Vec::new();
    };
    let at = (row > area.y).then(|| why.scroll + usize::from(row - area.y - 1));
    if let Some(answer::Row::Commit { index, .. }) = at.and_then(|at| rows.get(at)) {
        why.commit = *index;
    }
    Vec::new()
}

/// Enter on the answer: the chosen commit's diff, in place of the code.
pub(crate) fn open_commit(state: &mut State) -> Vec<Effect> {
    let chosen = state.explore.why.as_ref().and_then(|why| {
        let answer = why.answer.as_ref()?;
        answer.commits.get(why.commit)
    });
    let Some(commit) = chosen.cloned() else {
        return Vec::new();
    };
    state.explore.commit = Some(ShownCommit {
        id: commit.id.clone(),
        view: DiffView {
            path: Some(format!(
                "commit {} · esc back · {}",
                commit.short_id, commit.summary
            )),
            loading: true,
            ..DiffView::default()
        },
    });
    state.focus = Pane::Code;
    vec![Effect::Why(WhyFx::ShowCommit { id: commit.id })]
}

/// A commit behind the answer arrived, shown in place of the code (or why not: back to the
/// code).
pub(crate) fn commit_shown(
    explore: &mut Explore,
    cx: &mut Cx,
    id: String,
    result: Outcome<Vec<iris_studio_core::change::FileDiff>>,
) -> Vec<Effect> {
    let shown = explore.commit.as_mut().filter(|c| c.id == id);
    let Some(ShownCommit { view, .. }) = shown else {
        return Vec::new(); // a commit the user has since closed or replaced
    };
    view.loading = false;
    match result {
        Ok(files) => view.files = files,
        Err(err) => {
            explore.commit = None;
            cx.say(Level::Error, format!("showing the commit failed: {err}"));
        }
    }
    Vec::new()
}
