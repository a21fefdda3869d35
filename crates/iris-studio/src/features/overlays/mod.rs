//! The overlays over the panes that are no feature's own: the help (`?`), a yes-or-no
//! question (`Confirm`) and a long report (a hook's output, a long error, the request's
//! preview). They have no messages or effects: the reducer opens and closes them
//! (`update/input.rs`, `update/commands.rs`), drawing shows them.

pub(crate) mod confirm;
pub(crate) mod help;
pub(crate) mod report;
