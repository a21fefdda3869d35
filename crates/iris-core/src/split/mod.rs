//! Splitting a tangled change into atomic commits: the change as numbered units, the plan
//! that groups them into commits, and each commit's content, all as pure functions.
//!
//! - [`units`]: the change as `h1`, `h2`, ... in `git diff`'s order (files by path, hunks top
//!   to bottom); a new, deleted, renamed or binary file and a change of mode is one unit.
//! - [`plan`]: the plan the model answers with, checked (every unit in exactly one group) and
//!   completed (units it left out go to a last group), and the edits the studio makes to it.
//! - [`compose`]: a file's content with some of its hunks applied, byte for byte.
//! - [`render`]: the plan as text, and the units as the model reads them.

pub mod compose;
pub mod plan;
pub mod render;
pub mod units;

pub use compose::{Span, compose};
pub use plan::{LEFT_OUT_MESSAGE, PlanGroup, PlanProblem, SplitPlan, check_plan};
pub use render::{plan_text, units_for_model};
pub use units::{Unit, UnitKind, WholeWhy, unit_ids, units, whole_why};
