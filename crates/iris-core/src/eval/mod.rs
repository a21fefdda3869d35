//! How good a written commit message is, measured against the one its author committed
//! (`iris eval`): the scores of one message, the summary of a run, the comparison with an
//! earlier run, and what users did with the messages Iris wrote for them.
//!
//! The yardstick is the word-level edit distance, normalised by the longer message: research
//! on commit message generation found it follows what users accept far better than BLEU or
//! METEOR (0 is the author's message word for word, 1 nothing in common).

mod accepted;
mod clean;
mod distance;
mod evidence;
mod reviews;
mod score;
mod summary;

pub use accepted::{AcceptedReport, AcceptedRow, Committed, Remembered, accepted_report};
pub use clean::{Scanned, choose_clean};
pub use distance::word_distance;
pub use evidence::{Recall, terms};
pub use reviews::{FIX_PATTERN, NEAR, Placed, fixed_lines, hits, without_flags};
pub use score::{Score, conventional_type, history_uses_types, score};
pub use summary::{Failure, Outcome, Summary, Verdict, compare, median, percentile, summarize};
