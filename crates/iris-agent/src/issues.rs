//! The issues a change is for, read from the repository's forge by whoever runs Iris (the
//! application reads them through the user's `gh` or `glab`): Iris only asks, with the
//! numbers the branch and the commits name, and says in a word when none could be read.

use std::sync::Arc;

use iris_studio_core::linked_issue::{LinkedIssue, MAX_ISSUES};

/// Reads issues by number. Blocking, and bounded by the reader's own deadline.
pub trait IssueReader: Send + Sync {
    /// Issue `number`, or why it could not be read, in a few words ("not logged in").
    fn read(&self, number: u64) -> Result<LinkedIssue, String>;
}

/// The issues `numbers` (at most [`MAX_ISSUES`]) read in parallel, and for those that could
/// not be, the number with why.
pub async fn read_all(
    reader: &Arc<dyn IssueReader>,
    numbers: &[u64],
) -> (Vec<LinkedIssue>, Vec<(u64, String)>) {
    let reads: Vec<_> = numbers
        .iter()
        .take(MAX_ISSUES)
        .map(|&number| {
            let reader = Arc::clone(reader);
            (
                number,
                tokio::task::spawn_blocking(move || reader.read(number)),
            )
        })
        .collect();
    let (mut read, mut unread) = (Vec::new(), Vec::new());
    for (number, task) in reads {
        match task.await {
            Ok(Ok(issue)) => read.push(issue),
            Ok(Err(why)) => unread.push((number, why)),
            Err(_) => unread.push((number, "the read failed".into())),
        }
    }
    (read, unread)
}
