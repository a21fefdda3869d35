//! The aspects a review can look at in passes of their own, and how reviews are asked for.

use std::str::FromStr;

use super::Category;

/// One side of a change a review pass looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aspect {
    /// Bugs and wrong logic.
    Correctness,
    /// Security problems.
    Security,
    /// Performance problems.
    Performance,
    /// Missing or weak tests.
    Tests,
}

impl Aspect {
    /// Every aspect, in the order passes run.
    pub const ALL: [Aspect; 4] = [
        Aspect::Correctness,
        Aspect::Security,
        Aspect::Performance,
        Aspect::Tests,
    ];

    /// The name on the command line and in the configuration.
    pub fn name(self) -> &'static str {
        match self {
            Aspect::Correctness => "correctness",
            Aspect::Security => "security",
            Aspect::Performance => "performance",
            Aspect::Tests => "tests",
        }
    }

    /// How a pass over this aspect is titled.
    pub fn label(self) -> &'static str {
        match self {
            Aspect::Correctness => "Correctness",
            Aspect::Security => "Security",
            Aspect::Performance => "Performance",
            Aspect::Tests => "Tests",
        }
    }

    /// The category of what this pass finds.
    pub fn category(self) -> Category {
        match self {
            Aspect::Correctness => Category::Correctness,
            Aspect::Security => Category::Security,
            Aspect::Performance => Category::Performance,
            Aspect::Tests => Category::Tests,
        }
    }
}

impl FromStr for Aspect {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let name = s.trim().to_ascii_lowercase();
        Aspect::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = Aspect::ALL.iter().map(|a| a.name()).collect();
                format!("unknown aspect `{s}`; known: {}", known.join(", "))
            })
    }
}

/// How reviews are written: the aspects reviewed in passes of their own (none: one pass over
/// everything), whether the findings get a second look, and what was dismissed before.
#[derive(Debug, Clone, Default)]
pub struct ReviewOptions {
    /// The aspects reviewed in passes of their own (none: one pass over everything).
    pub aspects: Vec<Aspect>,
    /// The findings get a second look that keeps or drops each with a reason.
    pub verify: bool,
    /// The findings dismissed earlier: those on the files under review go in the request as
    /// notes ([`super::memory::dismissal_notes`]).
    pub dismissals: Vec<super::memory::Dismissal>,
    /// For a re-review of a pull request: the findings already on it, which the request
    /// names so the model does not raise them again ([`super::memory::earlier_notes`]).
    pub earlier: Vec<super::memory::Seen>,
}
