//! A draft: an artifact's text with its versions, as the studio keeps it and the shell saves
//! it under `.git/iris/drafts/`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// An artifact's text and every earlier version of it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    /// The text in the editor when the draft was saved.
    pub text: String,
    /// Earlier texts, oldest first.
    #[serde(default)]
    pub versions: Vec<String>,
    /// Where in `versions` the user had stepped back to (`versions.len()`: the newest text).
    #[serde(default)]
    pub position: usize,
    /// The text Iris last wrote (for `iris eval --accepted` when the commit comes later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_iris: Option<String>,
    /// What the text was written for: the staged change (its parent and tree, or jj's change)
    /// or the range (its base and commits), as the studio keys them. `None`: not known (a
    /// draft from an earlier release).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written_for: Option<String>,
    /// For the PR over a stack of branches: the layer (its branch) this text is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<String>,
    /// For the PR over a stack of branches: the other layers' drafts, by branch.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub layers: BTreeMap<String, Draft>,
}
