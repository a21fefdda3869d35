//! The question `d` asks before a finding is dismissed: why, and whose memory keeps it.

/// Why a finding is dismissed, as the question offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// The finding is wrong.
    FalsePositive,
    /// The code is meant to be so.
    Intended,
    /// The user's own words (none typed: no reason given).
    OwnWords,
}

impl Why {
    /// The choices, in the order the question lists them.
    pub const ALL: [Why; 3] = [Why::FalsePositive, Why::Intended, Why::OwnWords];

    /// How the question names it; the first two are also the reason kept.
    pub fn label(self) -> &'static str {
        match self {
            Why::FalsePositive => "false positive",
            Why::Intended => "intended",
            Why::OwnWords => "in your words:",
        }
    }

    /// The choice `by` places after this one (`-1` before), going round.
    pub fn step(self, by: isize) -> Why {
        let count = Why::ALL.len() as isize;
        let at = Why::ALL.iter().position(|w| *w == self).unwrap_or(0) as isize;
        Why::ALL[(at + by).rem_euclid(count) as usize]
    }
}

/// A finding being dismissed: the question over the panes until enter or esc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dismissing {
    /// The finding's stable id, as its heading ends (`· id 3fa9c01b2e`).
    pub id: String,
    /// Its title, for the question.
    pub title: String,
    /// The highlighted reason.
    pub why: Why,
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
            why: Why::FalsePositive,
            words: String::new(),
            team: false,
        }
    }

    /// The reason kept: the choice's words, or the user's own trimmed (empty: none given).
    pub fn reason(&self) -> String {
        match self.why {
            Why::OwnWords => self.words.trim().to_string(),
            why => why.label().to_string(),
        }
    }
}
