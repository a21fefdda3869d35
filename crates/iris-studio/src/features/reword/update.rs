//! PR mode's `r`: Iris writes the selected commit's message anew from its own change (the
//! commit replayed over its parent, as `iris reword` does), the user sees old and new and says
//! yes or no, and the commit is reworded with nothing else changed.

use crate::effect::Effect;
use crate::failure::{Done, Outcome};
use crate::features::msgs::RewordFx;
use crate::state::{CommitRange, Confirm, Level, Rewording, TaskKind};
use crate::update::cx::{Cx, Then};

/// `r`: Iris writes the selected commit's message anew.
pub(crate) fn ask(range: &CommitRange, cx: &mut Cx) -> Vec<Effect> {
    let Some(commit) = range.commits.get(range.selected) else {
        cx.say(Level::Warning, "there is no commit to reword");
        return Vec::new();
    };
    let commit = commit.id.clone();
    let Some(task) = cx.start_task(TaskKind::Reword) else {
        return Vec::new();
    };
    cx.say(
        Level::Info,
        "Iris is writing the commit's message from its change (esc cancels)",
    );
    vec![Effect::Reword(RewordFx::Write { task, commit })]
}

/// Iris' message arrived: asked whether to reword, or why there is none.
pub(crate) fn written(
    (range, confirm): (&mut CommitRange, &mut Option<Confirm>),
    cx: &mut Cx,
    task: u64,
    result: Outcome<Rewording>,
) -> Vec<Effect> {
    let Some(finished) = cx.finish_task(task) else {
        return Vec::new();
    };
    match result {
        Ok(rewording) => {
            let what = format!(
                "Iris wrote {}'s message anew: y rewords it, n keeps it",
                rewording.short_id
            );
            range.reword = Some(rewording);
            *confirm = Some(Confirm::Reword);
            cx.task_done(&finished, what);
        }
        Err(err) => cx.task_failed(&finished, err),
    }
    Vec::new()
}

/// `y` to the question: the commit gets its new message.
pub(crate) fn confirmed(range: &mut CommitRange, cx: &mut Cx) -> Vec<Effect> {
    let Some(rewording) = range.reword.take() else {
        return Vec::new();
    };
    cx.say(Level::Info, format!("rewording {}…", rewording.short_id));
    vec![Effect::Reword(RewordFx::Apply {
        commit: rewording.id,
        message: rewording.new,
    })]
}

/// The commit was reworded: the range's commits are read again (their ids changed).
pub(crate) fn done(cx: &mut Cx, result: Outcome<Done>) -> Vec<Effect> {
    match result {
        Ok(said) => {
            cx.say(Level::Success, said.0);
            cx.then(Then::LoadCommits);
        }
        Err(err) => cx.then(Then::Failed(err, None)),
    }
    Vec::new()
}
