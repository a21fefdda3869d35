//! `workspace`: Iris' notebook for one run: notes and a task list she keeps while she works.

use iris_studio_core::protocol::Risk;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;

use super::{IrisTool, ToolContext, ToolFailure};

/// `add_note` / `add_task` need `content`; `update_task` needs `task_id` and `status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(inline)]
pub(crate) enum NoteAction {
    AddNote,
    AddTask,
    UpdateTask,
    GetSummary,
}

/// `pending`, `in_progress`, `done` or `blocked`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(inline)]
pub(crate) enum TaskStatus {
    Pending,
    InProgress,
    Done,
    Blocked,
}

impl TaskStatus {
    fn label(self) -> &'static str {
        match self {
            TaskStatus::Pending => "pending",
            TaskStatus::InProgress => "in progress",
            TaskStatus::Done => "done",
            TaskStatus::Blocked => "blocked",
        }
    }
}

#[expect(
    missing_docs,
    reason = "a doc comment here would go into the tool's JSON schema, sent with every request"
)]
#[derive(Debug, Deserialize, JsonSchema)]
pub struct NotesArgs {
    /// add_note, add_task, update_task or get_summary.
    pub(crate) action: NoteAction,
    /// The note or task text (add_note, add_task).
    #[serde(default)]
    pub content: Option<String>,
    /// The task number add_task gave (update_task).
    #[serde(default)]
    pub task_id: Option<usize>,
    /// The task's new status (update_task).
    #[serde(default)]
    pub(crate) status: Option<TaskStatus>,
}

/// Longest note or task kept; longer text is cut.
const MAX_ENTRY_CHARS: usize = 2_000;
/// Notes and tasks kept at most each, so a looping model cannot grow memory without bound.
const MAX_ENTRIES: usize = 200;

#[derive(Debug, Default)]
struct Notebook {
    notes: Vec<String>,
    tasks: Vec<(String, TaskStatus)>,
}

/// The tool; clones share one notebook.
#[derive(Clone, Default)]
pub struct Notes {
    book: Arc<Mutex<Notebook>>,
}

impl Notes {
    fn apply(&self, args: NotesArgs) -> Result<String, ToolFailure> {
        let mut book = self
            .book
            .lock()
            .map_err(|_| ToolFailure::new("the notebook is unavailable"))?;
        let content = || -> Result<String, ToolFailure> {
            let text = args
                .content
                .as_deref()
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .ok_or_else(|| ToolFailure::new("this action needs `content`"))?;
            Ok(text.chars().take(MAX_ENTRY_CHARS).collect())
        };
        match args.action {
            NoteAction::AddNote => {
                if book.notes.len() >= MAX_ENTRIES {
                    return Err(ToolFailure::new("the notebook is full; summarize instead"));
                }
                book.notes.push(content()?);
                Ok(format!("Note {} saved.", book.notes.len()))
            }
            NoteAction::AddTask => {
                if book.tasks.len() >= MAX_ENTRIES {
                    return Err(ToolFailure::new("the task list is full"));
                }
                book.tasks.push((content()?, TaskStatus::Pending));
                Ok(format!("Task {} added (pending).", book.tasks.len()))
            }
            NoteAction::UpdateTask => {
                let id = args
                    .task_id
                    .ok_or_else(|| ToolFailure::new("update_task needs `task_id`"))?;
                let status = args
                    .status
                    .ok_or_else(|| ToolFailure::new("update_task needs `status`"))?;
                let count = book.tasks.len();
                let task = id
                    .checked_sub(1)
                    .and_then(|i| book.tasks.get_mut(i))
                    .ok_or_else(|| {
                        ToolFailure::new(format!("no task {id}; there are {count} task(s)"))
                    })?;
                task.1 = status;
                Ok(format!("Task {id} is {}.", status.label()))
            }
            NoteAction::GetSummary => Ok(summary(&book)),
        }
    }
}

fn summary(book: &Notebook) -> String {
    if book.notes.is_empty() && book.tasks.is_empty() {
        return "The notebook is empty.".to_string();
    }
    let mut out = String::new();
    if !book.notes.is_empty() {
        out.push_str("Notes:\n");
        for (i, note) in book.notes.iter().enumerate() {
            let _ = writeln!(out, "{}. {note}", i + 1);
        }
    }
    if !book.tasks.is_empty() {
        let done = book
            .tasks
            .iter()
            .filter(|t| t.1 == TaskStatus::Done)
            .count();
        let _ = writeln!(out, "Tasks ({done}/{} done):", book.tasks.len());
        for (i, (task, status)) in book.tasks.iter().enumerate() {
            let _ = writeln!(out, "{}. [{}] {task}", i + 1, status.label());
        }
    }
    out
}

impl IrisTool for Notes {
    const NAME: &'static str = "workspace";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Your notebook for this task: add_note (a finding to \
        remember), add_task (a step to do), update_task (task_id, status), get_summary (all \
        notes and tasks). Use it to plan large changes and keep track of findings.";
    type Args = NotesArgs;

    async fn run(&self, _ctx: &ToolContext, args: NotesArgs) -> Result<String, ToolFailure> {
        self.apply(args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(
        action: NoteAction,
        content: Option<&str>,
        id: Option<usize>,
        status: Option<TaskStatus>,
    ) -> NotesArgs {
        NotesArgs {
            action,
            content: content.map(str::to_string),
            task_id: id,
            status,
        }
    }

    #[test]
    fn notes_and_tasks_are_kept_and_summarized() {
        let notes = Notes::default();
        assert_eq!(
            notes
                .apply(args(
                    NoteAction::AddNote,
                    Some("parser changed"),
                    None,
                    None
                ))
                .unwrap(),
            "Note 1 saved."
        );
        assert_eq!(
            notes
                .apply(args(NoteAction::AddTask, Some("read tests"), None, None))
                .unwrap(),
            "Task 1 added (pending)."
        );
        assert_eq!(
            notes
                .apply(args(
                    NoteAction::UpdateTask,
                    None,
                    Some(1),
                    Some(TaskStatus::Done)
                ))
                .unwrap(),
            "Task 1 is done."
        );
        let summary = notes
            .clone()
            .apply(args(NoteAction::GetSummary, None, None, None))
            .unwrap();
        assert!(summary.contains("1. parser changed"));
        assert!(summary.contains("Tasks (1/1 done):\n1. [done] read tests"));
    }

    #[test]
    fn bad_requests_are_explained() {
        let notes = Notes::default();
        let err = notes
            .apply(args(NoteAction::AddNote, Some("  "), None, None))
            .unwrap_err();
        assert!(err.0.contains("needs `content`"));
        let err = notes
            .apply(args(
                NoteAction::UpdateTask,
                None,
                Some(3),
                Some(TaskStatus::Done),
            ))
            .unwrap_err();
        assert!(err.0.contains("no task 3; there are 0 task(s)"));
        let err = notes
            .apply(args(NoteAction::UpdateTask, None, None, None))
            .unwrap_err();
        assert!(err.0.contains("needs `task_id`"));
    }
}
