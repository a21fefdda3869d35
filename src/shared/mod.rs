//! What the binary's faces share (the command line, `iris mcp`, `iris eval` and the studio's
//! shell stand side by side and import none of each other): exit codes and usage errors, how
//! untrusted text and withheld secrets are said, the request preview, the checks of a staged
//! change, what a written artifact warns about, the accepted-messages store, the
//! last message for a change,
//! `.git/iris/` layout, and history replayed for Iris to write a past commit's message.

pub mod accepted;
pub mod commit_rules;
pub mod exit;
pub mod iris_dir;
pub mod last_message;
pub mod preview;
pub mod replayed;
pub mod said;
pub mod written;

pub use iris_dir::IrisDir;

/// Seconds since the epoch, as the stores under `.git/iris/` date what they keep.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A change as the stores key it: the commit it goes on (`None` for a first commit) and the
/// tree it makes (`GitRepo::staged_change`).
pub type Change = (Option<String>, String);
