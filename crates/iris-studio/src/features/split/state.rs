//! The split view: a tangled change as the commits Iris planned, which the user reorders,
//! renames and applies. Plain data; `update::split_plan` changes it.

use tui_textarea::TextArea;

use iris_studio_core::change::{FileDiff, Hunk};
use iris_studio_core::split::{SplitPlan, Unit, UnitKind};

use crate::state::ChatMessage;

/// The change and Iris' plan for it, as the runner brings them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedChange {
    /// The pieces the change can be cut into: hunks, or whole files that cannot be cut.
    pub units: Vec<Unit>,
    /// The staged change's file diffs the units were made from.
    pub files: Vec<FileDiff>,
    /// Iris' plan: the commits to make, each with its message and units.
    pub plan: SplitPlan,
    /// What was wrong with her first plan, when it was sent back.
    pub first_problems: Vec<String>,
}

/// A key that waits for a group's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pending {
    /// `m`: the hunk at the top of the diff goes to group N (`n`: a new group).
    Move,
    /// `M`: the selected group merges into group N.
    Merge,
}

/// Where applying stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitPhase {
    /// The plan can be changed.
    Planning,
    /// `enter` asked: y applies.
    Confirming,
    /// Commits are being made: how many so far, and the last step said.
    Applying {
        /// Commits made so far.
        done: usize,
        /// Commits the plan makes in all.
        of: usize,
        /// What applying is doing now, in a few words.
        step: String,
    },
    /// The plan was applied (how it ended, in one line); `u` undoes it.
    Applied(String),
}

/// The split view overlay: the change's units, the plan as the user edits it, a chat with Iris
/// about it, and where applying stands.
pub struct SplitView {
    /// The pieces the change can be cut into; the plan's groups name them by id.
    pub units: Vec<Unit>,
    /// The staged change's file diffs, which the selected group's hunks are shown from.
    pub files: Vec<FileDiff>,
    /// The plan as it stands now, with the user's changes.
    pub plan: SplitPlan,
    /// The selected group (0-based).
    pub selected: usize,
    /// The selected group's hunk at the top of the diff (an index into its hunks).
    pub top: usize,
    /// Lines of the diff scrolled past, from that hunk on.
    pub scroll: usize,
    /// A key (`m` or `M`) waiting for the group's number that completes it.
    pub pending: Option<Pending>,
    /// The selected group's message being edited in place.
    pub editing: Option<TextArea<'static>>,
    /// The conversation with Iris about the plan, and the message being written (while
    /// the chat input is open).
    pub chat: Vec<ChatMessage>,
    /// The message to Iris being written; `None` while the chat input is closed.
    pub chat_input: Option<TextArea<'static>>,
    /// The task of the chat reply under way.
    pub chat_task: Option<u64>,
    /// Planning, confirming, applying or applied.
    pub phase: SplitPhase,
    /// Earlier plans, oldest first: `z` steps back through every change, Iris' too.
    pub earlier: Vec<SplitPlan>,
}

/// Earlier plans kept at most.
const EARLIER_KEPT: usize = 50;

impl SplitView {
    /// The view of a fresh plan: the first group selected, nothing changed yet.
    pub fn new(planned: PlannedChange) -> Self {
        Self {
            units: planned.units,
            files: planned.files,
            plan: planned.plan,
            selected: 0,
            top: 0,
            scroll: 0,
            pending: None,
            editing: None,
            chat: Vec::new(),
            chat_input: None,
            chat_task: None,
            phase: SplitPhase::Planning,
            earlier: Vec::new(),
        }
    }

    /// The units of the selected group, in order.
    pub fn selected_units(&self) -> Vec<&Unit> {
        let Some(group) = self.plan.groups.get(self.selected) else {
            return Vec::new();
        };
        group
            .hunks
            .iter()
            .filter_map(|id| self.units.iter().find(|u| &u.id == id))
            .collect()
    }

    /// Changes the plan through `edit`, keeping the plan before when it changed.
    pub fn change<R>(&mut self, edit: impl FnOnce(&mut SplitPlan) -> R) -> R {
        let before = self.plan.clone();
        let result = edit(&mut self.plan);
        if self.plan != before {
            self.earlier.push(before);
            if self.earlier.len() > EARLIER_KEPT {
                self.earlier.remove(0);
            }
        }
        result
    }

    /// Back to the plan before the last change; false when there is none.
    pub fn step_back(&mut self) -> bool {
        let Some(plan) = self.earlier.pop() else {
            return false;
        };
        self.plan = plan;
        self.selected = self.selected.min(self.plan.groups.len().saturating_sub(1));
        self.top = 0;
        self.scroll = 0;
        true
    }

    /// The hunks a unit shows: its own, or its whole file's.
    pub fn hunks_of<'a>(&'a self, unit: &'a Unit) -> Vec<&'a Hunk> {
        match &unit.kind {
            UnitKind::Hunk { hunk, .. } => vec![hunk],
            UnitKind::Whole { .. } => self
                .files
                .get(unit.file)
                .map_or(Vec::new(), |f| f.hunks.iter().collect()),
        }
    }

    /// Lines the diff shows from the top hunk on: each unit's place, its hunks' headers and
    /// lines, and a blank line after it.
    pub fn diff_lines(&self) -> usize {
        let units = self.selected_units();
        units
            .iter()
            .skip(self.top)
            .map(|u| {
                let hunks = self.hunks_of(u);
                2 + hunks.iter().map(|h| 1 + h.lines.len()).sum::<usize>()
            })
            .sum()
    }

    /// The id of the hunk at the top of the diff.
    pub fn top_unit(&self) -> Option<String> {
        let group = self.plan.groups.get(self.selected)?;
        group
            .hunks
            .get(self.top.min(group.hunks.len().saturating_sub(1)))
            .cloned()
    }

    /// Whether the plan may change (not while it is applied or a question is up).
    pub fn editable(&self) -> bool {
        self.phase == SplitPhase::Planning
    }
}
