//! The commands a key can trigger. A keymap file names them (`"ctrl-g" = "generate"`), the help
//! overlay lists them, and the reducer acts on them.

use serde::{Deserialize, Serialize};

use super::state::{Mode, Pane};

/// Everything a user can ask of the studio with one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// Leaves the studio, asking first while a draft is unsaved.
    Quit,
    /// Shows or hides the help overlay with every key.
    Help,
    /// Moves the focus to the next pane on screen.
    NextPane,
    /// Moves the focus to the previous pane on screen.
    PrevPane,
    /// Moves the focused pane's cursor or view up a row.
    Up,
    /// Moves the focused pane's cursor or view down a row.
    Down,
    /// Moves the focused pane's cursor or view up a page.
    PageUp,
    /// Moves the focused pane's cursor or view down a page.
    PageDown,
    /// Goes to the first row of the focused pane.
    Top,
    /// Goes to the last row of the focused pane.
    Bottom,
    /// Opens what the cursor is on: a file's diff, a tree row, a finding, a commit of an answer.
    Select,
    /// Cancels what Iris is doing, else closes what is open, else goes back to the list.
    Back,
    /// Asks Iris to write the mode's artifact.
    Generate,
    /// Opens the chat with Iris about the artifact.
    OpenChat,
    /// Stages the selected file.
    StageFile,
    /// Unstages the selected file.
    UnstageFile,
    /// Stages the hunk at the top of the diff, or unstages it if it is staged.
    StageHunk,
    /// Stages every change.
    StageAll,
    /// Unstages everything staged.
    UnstageAll,
    /// Commits the staged changes with the message, after asking.
    Commit,
    /// Switches between a new commit and amending the last one.
    ToggleAmend,
    /// Switches the commit hooks off or back on for the next commit.
    ToggleNoVerify,
    /// Goes back to the artifact's previous version.
    UndoVersion,
    /// Goes forward to the artifact's next version.
    RedoVersion,
    /// Jumps to the diff's next hunk (explore: the next commit of an answer).
    NextHunk,
    /// Jumps to the diff's previous hunk (explore: the previous commit of an answer).
    PrevHunk,
    /// Scrolls the diff or the code to the left.
    ScrollLeft,
    /// Scrolls the diff or the code to the right.
    ScrollRight,
    /// Reads the status (and the range's commits) from git again.
    Refresh,
    /// Opens the picker for the range (FROM..TO) of the PR, changelog or release notes.
    PickRange,
    /// Starts selecting lines of the open file, or clears the selection.
    SelectLines,
    /// Asks Iris why the selected lines are as they are, from their history.
    AskWhy,
    /// Asks Iris what the open file is for, block by block.
    FileIntent,
    /// Gives the focused pane the whole screen, or gives it back.
    Zoom,
    /// Switches diffs between side by side (old | new) and unified.
    SideBySide,
    /// Opens the artifact, or the file at the cursor's line, in the user's `$EDITOR`.
    EditExternal,
    /// Opens setup: a model on this machine or a hosted provider.
    Setup,
    /// Copies the artifact (explore: the selected lines) to the clipboard.
    Copy,
    /// Opens or updates the pull request with the description, or posts the review.
    Publish,
    /// Shows the request Iris would send for the artifact, its size and cost, sending nothing.
    ShowRequest,
    /// Asks Iris for alternatives to the commit message, to pick one side by side.
    Alternatives,
    /// Has Iris plan how to split the change into commits, to adjust and apply.
    Split,
    /// Shows or folds the review's less certain findings.
    ShowUnsure,
    /// Dismisses the selected finding, with a reason: later reviews leave it out.
    DismissFinding,
    /// Has Iris write the selected commit's message anew from its change, to rewrite it.
    Reword,
    /// Shows the stack's layer below (PR mode over a stack of branches).
    PrevLayer,
    /// Shows the stack's layer above (PR mode over a stack of branches).
    NextLayer,
    /// Switches to explore mode: the repository's files, their history and Iris' answers.
    ModeExplore,
    /// Switches to commit mode: staging and the commit message.
    ModeCommit,
    /// Switches to review mode: Iris' review of the staged change.
    ModeReview,
    /// Switches to pull request mode: the description of a range of commits.
    ModePr,
    /// Switches to changelog mode: the changelog of a range of commits.
    ModeChangelog,
    /// Switches to release notes mode: the release notes of a range of commits.
    ModeReleaseNotes,
}

impl Command {
    /// Every command once, in the order the help overlay lists them.
    pub const ALL: [Command; 53] = [
        Command::Quit,
        Command::Help,
        Command::NextPane,
        Command::PrevPane,
        Command::Up,
        Command::Down,
        Command::PageUp,
        Command::PageDown,
        Command::Top,
        Command::Bottom,
        Command::Select,
        Command::Back,
        Command::Generate,
        Command::OpenChat,
        Command::StageFile,
        Command::UnstageFile,
        Command::StageHunk,
        Command::StageAll,
        Command::UnstageAll,
        Command::Commit,
        Command::ToggleAmend,
        Command::ToggleNoVerify,
        Command::UndoVersion,
        Command::RedoVersion,
        Command::NextHunk,
        Command::PrevHunk,
        Command::ScrollLeft,
        Command::ScrollRight,
        Command::Refresh,
        Command::PickRange,
        Command::SelectLines,
        Command::AskWhy,
        Command::FileIntent,
        Command::Zoom,
        Command::SideBySide,
        Command::EditExternal,
        Command::Setup,
        Command::Copy,
        Command::Publish,
        Command::ShowRequest,
        Command::Alternatives,
        Command::Split,
        Command::ShowUnsure,
        Command::DismissFinding,
        Command::Reword,
        Command::PrevLayer,
        Command::NextLayer,
        Command::ModeExplore,
        Command::ModeCommit,
        Command::ModeReview,
        Command::ModePr,
        Command::ModeChangelog,
        Command::ModeReleaseNotes,
    ];

    /// Whether the command means something in `mode`, and if not, why. The reducer says why
    /// and does nothing; the help overlay leaves the key out.
    pub fn applies(self, mode: Mode) -> Result<(), &'static str> {
        let stages = mode.list_pane() == Pane::Changes;
        match self {
            Command::Commit | Command::ToggleAmend | Command::ToggleNoVerify
                if mode != Mode::COMMIT =>
            {
                Err("commits are made in commit mode (2)")
            }
            Command::StageFile
            | Command::UnstageFile
            | Command::StageAll
            | Command::UnstageAll
            | Command::StageHunk
                if !stages =>
            {
                Err("files and hunks are staged in commit mode (2)")
            }
            Command::Generate | Command::ShowRequest if !mode.has_artifact() => {
                Err("explore mode has nothing to write: switch to a mode (2-6)")
            }
            Command::OpenChat | Command::UndoVersion | Command::RedoVersion
                if !mode.has_artifact() =>
            {
                Err("chat and versions belong to an artifact: switch to a mode (2-6)")
            }
            Command::SelectLines | Command::AskWhy | Command::FileIntent
                if mode != Mode::Explore =>
            {
                Err("lines are selected and explained in explore mode (1)")
            }
            Command::Publish if !matches!(mode, Mode::PR | Mode::REVIEW) => {
                Err("the PR (4) is published, and the review (3) posted, from their modes")
            }
            Command::Alternatives if mode != Mode::COMMIT => {
                Err("alternatives are written for the commit message (2)")
            }
            Command::Split if mode != Mode::COMMIT => {
                Err("the change is split into commits in commit mode (2)")
            }
            Command::ShowUnsure if mode != Mode::REVIEW => {
                Err("less certain findings are folded in review mode (3)")
            }
            Command::DismissFinding if mode != Mode::REVIEW => {
                Err("findings are dismissed in review mode (3)")
            }
            Command::Reword if mode != Mode::PR => {
                Err("commits are reworded from the pull request's commits (4)")
            }
            Command::PrevLayer | Command::NextLayer if mode != Mode::PR => {
                Err("a stack's layers are described in pull request mode (4)")
            }
            Command::PickRange if !mode.uses_range() => {
                Err("ranges belong to the PR, changelog and release notes modes (4-6)")
            }
            _ => Ok(()),
        }
    }

    /// What the help overlay says the command does.
    pub fn describe(self) -> &'static str {
        match self {
            Command::Quit => "quit (asks first if a draft is unsaved)",
            Command::Help => "show or hide this help",
            Command::NextPane => "focus the next pane",
            Command::PrevPane => "focus the previous pane",
            Command::Up => "move up",
            Command::Down => "move down",
            Command::PageUp => "page up",
            Command::PageDown => "page down",
            Command::Top => "go to the top",
            Command::Bottom => "go to the bottom",
            Command::Select => "open / select",
            Command::Back => "back, or cancel what Iris is doing",
            Command::Generate => "ask Iris to write the artifact",
            Command::OpenChat => "chat with Iris",
            Command::StageFile => "stage the selected file",
            Command::UnstageFile => "unstage the selected file",
            Command::StageHunk => "stage or unstage the hunk at the top of the diff",
            Command::StageAll => "stage everything",
            Command::UnstageAll => "unstage everything",
            Command::Commit => "commit with the message (asks first)",
            Command::ToggleAmend => "toggle amending the last commit",
            Command::ToggleNoVerify => "toggle skipping commit hooks",
            Command::UndoVersion => "go back to the previous version of the artifact",
            Command::RedoVersion => "go forward to the next version of the artifact",
            Command::NextHunk => "next hunk / commit of an answer",
            Command::PrevHunk => "previous hunk / commit of an answer",
            Command::ScrollLeft => "scroll the diff or code left",
            Command::ScrollRight => "scroll the diff or code right",
            Command::Refresh => "refresh from git",
            Command::PickRange => {
                "choose the range (FROM..TO) of the PR, changelog or release notes"
            }
            Command::SelectLines => "select lines of the code (v again clears)",
            Command::AskWhy => "ask Iris why the selected lines are so",
            Command::FileIntent => "ask Iris what the open file is for, block by block",
            Command::Zoom => "give the focused pane the whole screen, or back",
            Command::SideBySide => "show diffs side by side (old | new) or unified",
            Command::EditExternal => {
                "open the artifact in your $EDITOR, or the file at the line under the cursor"
            }
            Command::Setup => "set Iris up: a model on this machine, or a hosted provider",
            Command::Copy => "copy the artifact (explore: the selected lines) to the clipboard",
            Command::Publish => {
                "open or update the pull request with the description, or post the review (gh/glab)"
            }
            Command::Alternatives => {
                "ask Iris for alternatives to the message and pick one, side by side"
            }
            Command::Split => "have Iris split the change into commits you adjust and apply",
            Command::ShowRequest => {
                "show the request Iris would send for the artifact, its size and cost (sends nothing)"
            }
            Command::ShowUnsure => "show or fold the review's less certain findings",
            Command::DismissFinding => {
                "dismiss the selected finding, with a reason: later reviews leave it out"
            }
            Command::Reword => {
                "have Iris write the selected commit's message anew, then reword it (asks first)"
            }
            Command::PrevLayer => "show the stack's layer below: its commits and description",
            Command::NextLayer => "show the stack's layer above: its commits and description",
            Command::ModeExplore => "explore mode",
            Command::ModeCommit => "commit mode",
            Command::ModeReview => "review mode",
            Command::ModePr => "pull request mode",
            Command::ModeChangelog => "changelog mode",
            Command::ModeReleaseNotes => "release notes mode",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_is_listed_once_and_named_in_snake_case() {
        let unique: std::collections::BTreeSet<_> = Command::ALL.iter().collect();
        assert_eq!(unique.len(), Command::ALL.len());
        let name = serde_json::to_string(&Command::ModeReleaseNotes).unwrap();
        assert_eq!(name, "\"mode_release_notes\"");
        for command in Command::ALL {
            assert!(!command.describe().is_empty());
        }
    }
}
