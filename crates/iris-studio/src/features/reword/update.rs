//! PR mode's `r`: Iris writes the selected commit's message anew from its own change (the
//! commit replayed over its parent, as `iris reword` does), the user sees old and new and says
//! yes or no, and the commit is reworded with nothing else changed.

use crate::effect::Effect;
use crate::failure::{Done, Outcome};
use crate::features::msgs::RewordFx;
use crate::state::{Confirm, Level, Rewording, State, TaskKind};
use crate::update::{notice, range, task};

/// `r`: Iris writes the selected commit's message anew.
pub(crate) fn ask(state: &mut State) -> Vec<Effect> {
    let Some(commit) = state.range.commits.get(state.range.selected) else {
        notice(state, Level::Warning, "there is no commit to reword");
        return Vec::new();
    };
    let commit = commit.id.clone();
    let Some(task) = task::start(state, TaskKind::Reword) else {
        return Vec::new();
    };
    notice(
        state,
        Level::Info,
        "Iris is writing the commit's message from its change (esc cancels)",
    );
    vec![Effect::Reword(RewordFx::Write { task, commit })]
}

/// Iris' message arrived: asked whether to reword, or why there is none.
pub(crate) fn written(state: &mut State, task: u64, result: Outcome<Rewording>) -> Vec<Effect> {
    let Some(finished) = task::finish(state, task) else {
        return Vec::new();
    };
    match result {
        Ok(rewording) => {
            let what = format!(
                "Iris wrote {}'s message anew: y rewords it, n keeps it",
                rewording.short_id
            );
            state.range.reword = Some(rewording);
            state.overlay.confirm = Some(Confirm::Reword);
            task::done_notice(state, &finished, what);
        }
        Err(err) => return crate::update::failed::task_failed(state, &finished, err),
    }
    Vec::new()
}

/// `y` to the question: the commit gets its new message.
pub(crate) fn confirmed(state: &mut State) -> Vec<Effect> {
    let Some(rewording) = state.range.reword.take() else {
        return Vec::new();
    };
    notice(
        state,
        Level::Info,
        format!("rewording {}…", rewording.short_id),
    );
    vec![Effect::Reword(RewordFx::Apply {
        commit: rewording.id,
        message: rewording.new,
    })]
}

/// The commit was reworded: the range's commits are read again (their ids changed).
pub(crate) fn done(state: &mut State, result: Outcome<Done>) -> Vec<Effect> {
    match result {
        Ok(said) => {
            notice(state, Level::Success, said.0);
            range::load_commits(state)
        }
        Err(err) => crate::update::failed::failed(state, err, None),
    }
}
