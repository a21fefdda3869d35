//! What each artifact was written for (the staged change, or the range's base and commits),
//! and what happens when that moved under it. Arriving at an artifact (the studio opened on a
//! draft, another mode entered): a text Iris wrote and the user never touched is written
//! anew, the old one kept a version back; a text the user edited is never replaced without
//! asking. While the user works (files staged in another window) the move is only said: the
//! user knows what they did, and nothing is spent or asked in the middle of their typing. A
//! restored draft for the same change is left as it is.

use crate::effect::Effect;
use crate::state::{Confirm, Level, State};
use crate::update::{editing, generate, notice};
use iris_studio_core::artifact::ArtifactKind;

/// What `kind` is written for now, when known: the staged change's key for a commit message
/// or a review; for a range's artifact (the mode's own), its base and its commits.
pub(crate) fn current(state: &State, kind: ArtifactKind) -> Option<String> {
    if !kind.uses_range() {
        return state.changes.key.clone();
    }
    let range = &state.range;
    let loaded = state.mode.artifact() == Some(kind) && range.loaded_for == Some(state.mode);
    let (newest, oldest) = (range.commits.first()?, range.commits.last()?);
    loaded.then(|| {
        let base = range.resolved_from.as_deref().unwrap_or_default();
        format!("{base}: {}..{}", oldest.id, newest.id)
    })
}

/// Iris wrote `kind`'s text, or the user began one: it is for what is in front of them now.
pub(crate) fn note(state: &mut State, kind: ArtifactKind) {
    let now = current(state, kind);
    if let Some(buffer) = state.artifacts.get_mut(&kind) {
        buffer.written_for = now;
    }
}

/// After the change or the range was read. `arriving` in the mode: the mode's artifact, when
/// it was written for something else, is written anew (Iris' untouched text) or asked about
/// (the user's), then Iris writes an empty artifact as the studio is set to. A refresh while
/// the user works only says that the artifact's change moved.
pub(crate) fn arrive(state: &mut State, arriving: bool) -> Vec<Effect> {
    let Some(kind) = state.mode.artifact() else {
        return Vec::new();
    };
    // A stack's layers keep drafts of their own, by branch.
    let stacked = kind == ArtifactKind::Pr && state.stack.is_some();
    let now = current(state, kind);
    let Some(buffer) = state.artifacts.get_mut(&kind) else {
        return Vec::new();
    };
    let moved = match (&buffer.written_for, &now) {
        (Some(then), Some(now)) => then != now && !buffer.is_empty() && !stacked,
        _ => false,
    };
    if !moved {
        return match arriving {
            true => generate::auto_generate(state),
            false => Vec::new(),
        };
    }
    if !arriving {
        // Said once for this move: the text is now taken as being for what is here.
        buffer.written_for = now;
        let text = format!(
            "{} moved since this {} was written: ctrl-g has Iris write anew",
            what_moved(kind),
            kind.noun()
        );
        notice(state, Level::Warning, text);
        return Vec::new();
    }
    if buffer.untouched() {
        // Kept a version back (ctrl-z brings it), and Iris writes for what is here now.
        buffer.replace("");
        buffer.by_iris = None;
        buffer.written_for = None;
        let text = format!(
            "{} moved since Iris wrote the {}: hers for the earlier one is a version back \
             (ctrl-z)",
            what_moved(kind),
            kind.noun()
        );
        notice(state, Level::Info, text);
        let mut effects = editing::save_draft(state, kind);
        effects.extend(generate::auto_generate(state));
        return effects;
    }
    if state.overlay.confirm.is_none() {
        state.overlay.confirm = Some(Confirm::Moved(kind));
    }
    Vec::new()
}

/// The answer to [`Confirm::Moved`]: Iris writes anew (the user's text stays a version
/// back), or the text is kept, now as the user's for what is here.
pub(crate) fn answered(state: &mut State, kind: ArtifactKind, write_anew: bool) -> Vec<Effect> {
    if write_anew {
        return generate::generate(state);
    }
    note(state, kind);
    notice(state, Level::Info, format!("kept your {}", kind.noun()));
    // The text is the same; what it is for is not: saved anyway.
    if let Some(buffer) = state.artifacts.get_mut(&kind) {
        buffer.saved.clear();
    }
    editing::save_draft(state, kind)
}

/// What an artifact of `kind` is written for, as the user is told it moved.
pub(crate) fn what_moved(kind: ArtifactKind) -> &'static str {
    if kind.uses_range() {
        "the range's commits"
    } else {
        "the staged change"
    }
}
