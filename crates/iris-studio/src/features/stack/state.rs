//! PR mode over a stack of branches (main <- b1 <- b2 <- ...): its layers, the one shown, and
//! every other layer's description while it is not shown.

use crate::state::ArtifactBuffer;
use iris_studio_core::stack::{Layer, Stack};

/// The stack the branch is in, as PR mode shows it.
pub struct StackView {
    /// The stack, bottom layer first.
    pub stack: Stack,
    /// The layer shown: its commits, diff and description.
    pub selected: usize,
    /// Each layer's description; the shown layer's slot is empty, as its text is the PR
    /// artifact the editor holds.
    pub buffers: Vec<ArtifactBuffer>,
    /// The stack is being published (a second `P` waits for it).
    pub publishing: bool,
}

impl StackView {
    /// The view of `stack`, on the checked-out branch's layer.
    pub fn new(stack: Stack) -> Self {
        let buffers = stack
            .layers
            .iter()
            .map(|_| ArtifactBuffer::default())
            .collect();
        Self {
            selected: stack.current,
            stack,
            buffers,
            publishing: false,
        }
    }

    /// The layer shown.
    pub fn layer(&self) -> Option<&Layer> {
        self.stack.layers.get(self.selected)
    }

    /// Whether the range FROM..TO is the shown layer's (`to` None is HEAD, which a layer's
    /// branch is only by name).
    pub fn shows(&self, from: Option<&str>, to: Option<&str>) -> bool {
        self.layer()
            .is_some_and(|l| from == Some(l.parent.as_str()) && to == Some(l.branch.as_str()))
    }
}
