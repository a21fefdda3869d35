//! The question `d` asks before a finding is dismissed: why, and whose memory keeps it.

/// Why a finding is dismissed, as the question offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The finding is wrong.
    FalsePositive,
    /// The code is meant to be so.
    Intended,
    /// The user's own words (none typed: no reason given).
    OwnWords,
}

impl Reason {
    /// The choices, in the order the question lists them.
    pub const ALL: [Reason; 3] = [Reason::FalsePositive, Reason::Intended, Reason::OwnWords];

    /// How the question names it; the first two are also the reason kept.
    pub fn label(self) -> &'static str {
        match self {
            Reason::FalsePositive => "false positive",
            Reason::Intended => "intended",
            Reason::OwnWords => "in your words:",
        }
    }

    /// The choice `by` places after this one (`-1` before), going round.
    pub fn step(self, by: isize) -> Reason {
        let count = Reason::ALL.len() as isize;
        let at = Reason::ALL.iter().position(|w| *w == self).unwrap_or(0) as isize;
        Reason::ALL[(at + by).rem_euclid(count) as usize]
    }
}

/// A finding being dismissed: the question over the panes until enter or esc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dismissing {
    /// The finding's stable id, as its heading ends (`· id 3fa9c01b2e`).
    pub id: String,
    /// Its title, for the question.
    pub title: String,
    /// The highlighted choice.
    pub chosen: Reason,
    /// The user's own words, as typed.
    pub words: String,
    /// Kept in the team's `.iris/review-memory.toml` (committed) rather than the user's
    /// `.git/iris/`.
    pub team: bool,
}

impl Dismissing {
    /// The question about the finding `id` titled `title`: false positive highlighted, kept
    /// for the user.
    pub fn new(id: String, title: String) -> Self {
        Self {
            id,
            title,
            chosen: Reason::FalsePositive,
            words: String::new(),
            team: false,
        }
    }

    /// The reason kept: the choice's words, or the user's own trimmed (empty: none given).
    pub fn reason(&self) -> String {
        match self.chosen {
            Reason::OwnWords => self.words.trim().to_string(),
            chosen => chosen.label().to_string(),
        }
    }
}
