//! The reducer: `update(&mut State, Action) -> Vec<Effect>`. Pure: no terminal, git or network.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEventKind};

use super::action::Action;
use super::command::Command;
use super::effect::Effect;
use super::findings::findings_in;
use super::layout::{PaneRects, contains, hit, inner_rows, inner_size, keep_in_view};
use super::state::{
    ChatMessage, Confirm, FileEntry, Level, Mode, Notice, Pane, Speaker, State, Task, TaskKind,
};
use crate::agent::AgentEvent;

/// Lines a page moves.
const PAGE: usize = 20;

pub fn update(state: &mut State, action: Action) -> Vec<Effect> {
    let effects = reduce(state, action);
    follow_selections(state);
    effects
}

/// Each list's first row, moved only as far as its selection needs.
fn follow_selections(state: &mut State) {
    let rects = PaneRects::compute(state.size, state);
    let (files, findings) = (inner_rows(rects.files), inner_rows(rects.findings));
    let tops = &mut state.list_tops;
    tops.files = keep_in_view(tops.files, state.selected, files);
    tops.tree = keep_in_view(tops.tree, state.explorer.selected, files);
    tops.commits = keep_in_view(tops.commits, state.range.selected, files);
    tops.findings = keep_in_view(tops.findings, state.finding, findings);
}

fn reduce(state: &mut State, action: Action) -> Vec<Effect> {
    match action {
        Action::Key(key) => key_input(state, key),
        Action::Mouse(mouse) => mouse_input(state, mouse),
        Action::ResizeTo(width, height) => {
            state.size = (width, height);
            Vec::new()
        }
        Action::Tick => Vec::new(),
        Action::Command(command) => command_input(state, command),
        Action::RankingLoaded {
            result: Ok(ranked),
            complete,
        } => {
            state.ranking_complete = complete;
            state.relevance = ranked
                .iter()
                .map(|r| (r.path.clone(), r.relevance))
                .collect();
            if state.files_loading {
                // Until the status arrives, the list is the ranked staged files.
                state.files = ranked
                    .into_iter()
                    .map(|r| FileEntry {
                        staged: Some(r.kind),
                        relevance: Some(r.relevance),
                        path: r.path,
                        unstaged: None,
                        untracked: false,
                        conflicted: false,
                    })
                    .collect();
                state.has_staged = !state.files.is_empty();
            } else {
                apply_relevance(state);
            }
            Vec::new()
        }
        Action::RankingLoaded {
            result: Err(err), ..
        } => {
            notice(
                state,
                Level::Error,
                format!("ranking the staged files failed: {err}"),
            );
            Vec::new()
        }
        Action::StatusLoaded(Ok(snapshot)) => {
            let first = !std::mem::replace(&mut state.status_seen, true);
            let selected_path = state.selected_file().map(|f| f.path.clone());
            state.branch = snapshot.branch;
            state.files = snapshot.files;
            state.files_loading = false;
            apply_relevance(state);
            state.has_staged = state.files.iter().any(|f| f.staged.is_some());
            if std::mem::take(&mut state.choose_mode) {
                // A new file or a merge conflict is work for commit mode too.
                let changed = state.files.iter().any(|f| {
                    f.staged.is_some() || f.unstaged.is_some() || f.untracked || f.conflicted
                });
                state.mode = if changed { Mode::COMMIT } else { Mode::Explore };
            }
            state.selected = selected_path
                .and_then(|p| state.files.iter().position(|f| f.path == p))
                .unwrap_or(0)
                .min(state.files.len().saturating_sub(1));
            let mut effects = load_selected_diff(state);
            if state.mode == Mode::Explore && !state.explorer.loaded {
                effects.push(Effect::LoadTree);
            } else if state.mode.uses_range()
                && state.range.loaded_for != Some(state.mode)
                && !state.range.loading
            {
                // Started in a range mode: its commits come with the first status.
                effects.extend(load_commits(state));
            } else if first {
                // Only on arriving in the mode: staging or a refresh later never starts Iris.
                effects.extend(auto_generate(state));
            }
            effects
        }
        Action::StatusLoaded(Err(err)) => {
            state.files_loading = false;
            notice(state, Level::Error, format!("git status failed: {err}"));
            Vec::new()
        }
        Action::TreeLoaded(result) => {
            match result {
                Ok(files) => {
                    state.explorer.files = files;
                    state.explorer.loaded = true;
                }
                Err(err) => notice(
                    state,
                    Level::Error,
                    format!("listing the files failed: {err}"),
                ),
            }
            Vec::new()
        }
        Action::FileOpened { path, result } => {
            if state.explorer.open.as_deref() == Some(path.as_str()) {
                match result {
                    Ok(opened) => {
                        state.explorer.lines = opened.lines;
                        state.explorer.history = opened.history;
                    }
                    Err(err) => {
                        notice(state, Level::Error, format!("opening {path} failed: {err}"))
                    }
                }
            }
            Vec::new()
        }
        Action::CommitsLoaded { mode, result } => {
            state.range.loading = false;
            match result {
                Ok((from, commits)) => {
                    state.range.resolved_from = Some(from);
                    state.range.commits = commits;
                    state.range.selected = 0;
                    state.range.loaded_for = Some(mode);
                    if state.mode != mode {
                        return Vec::new();
                    }
                    if state.range.commits.is_empty() {
                        notice(
                            state,
                            Level::Info,
                            "the range has no commits: R picks another",
                        );
                    }
                    let mut effects = load_selected_commit_diff(state);
                    effects.extend(auto_generate(state));
                    effects
                }
                Err(err) => {
                    notice(state, Level::Error, err);
                    Vec::new()
                }
            }
        }
        Action::DiffLoaded {
            path,
            result,
            staged,
        } => {
            if state.diff.path.as_deref() == Some(path.as_str()) {
                state.diff.loading = false;
                match result {
                    Ok(files) => {
                        state.diff.files = files;
                        state.diff.staged = staged;
                        if let Some((file, line)) = state.pending_jump.take() {
                            let row = state.diff.row_of_new_line(&file, line);
                            state.diff.scroll = row.unwrap_or(0);
                        }
                    }
                    Err(err) => {
                        notice(state, Level::Error, format!("diff of {path} failed: {err}"))
                    }
                }
            }
            Vec::new()
        }
        Action::Agent { task, event } => {
            if let Some(running) = state.task.as_mut().filter(|t| t.id == task) {
                match event {
                    AgentEvent::Status(text) => running.activity = text,
                    AgentEvent::ToolStarted { summary, .. } => {
                        running.activity = summary;
                        running.streamed.clear();
                    }
                    AgentEvent::TextDelta(text) => {
                        running.activity = "writing".to_string();
                        running.streamed.push_str(&text);
                    }
                    AgentEvent::Usage { input, output } => {
                        running.input_tokens += input;
                        running.output_tokens += output;
                    }
                    AgentEvent::ToolFinished { .. }
                    | AgentEvent::Done(_)
                    | AgentEvent::Error(_) => {}
                }
            }
            Vec::new()
        }
        Action::Generated { task, mode, result } => {
            if !finish_task(state, task) {
                return Vec::new();
            }
            match result {
                Ok(text) => {
                    replace_artifact(state, mode, &text);
                    notice(
                        state,
                        Level::Success,
                        format!("Iris wrote the {}", mode.title().to_lowercase()),
                    );
                    save_draft(state, mode)
                }
                Err(err) => {
                    notice(state, Level::Error, err);
                    Vec::new()
                }
            }
        }
        Action::ChatReplied { task, result, .. } => {
            if !finish_task(state, task) {
                return Vec::new();
            }
            match result {
                Ok(outcome) => state.chat.messages.push(ChatMessage {
                    speaker: Speaker::Iris,
                    text: outcome.reply,
                }),
                Err(err) => notice(state, Level::Error, err),
            }
            Vec::new()
        }
        Action::ArtifactUpdated { task, mode, text } => {
            // Only the running task may edit (a cancelled one's late edit is dropped).
            if state.task.as_ref().is_none_or(|t| t.id != task) {
                return Vec::new();
            }
            replace_artifact(state, mode, &text);
            save_draft(state, mode)
        }
        Action::GitDone { result, committed } => {
            let mut effects = vec![Effect::LoadStatus];
            match result {
                Ok(text) => {
                    notice(state, Level::Success, text);
                    if committed {
                        if let Some(buffer) = state.artifacts.get_mut(&Mode::COMMIT) {
                            buffer.replace("");
                            buffer.saved.clear();
                        }
                        state.commit_flags = Default::default();
                        effects.push(Effect::ClearDraft { mode: Mode::COMMIT });
                    }
                }
                Err(err) if committed => {
                    // A hook's output can be long: it is shown whole until esc.
                    notice(
                        state,
                        Level::Error,
                        "the commit failed: the message stays in the editor (esc closes the report)",
                    );
                    state.report = Some(err);
                }
                Err(err) => notice(state, Level::Error, err),
            }
            effects
        }
        Action::DraftsLoaded(drafts) => {
            let mut restored = Vec::new();
            for (mode, text) in drafts {
                if let Some(buffer) = state.artifacts.get_mut(&mode).filter(|b| b.is_empty()) {
                    buffer.replace(&text);
                    buffer.saved = text;
                    restored.push(mode.title());
                }
            }
            if !restored.is_empty() {
                notice(
                    state,
                    Level::Info,
                    format!("restored drafts: {}", restored.join(", ")),
                );
            }
            Vec::new()
        }
    }
}

/// Puts the known relevance on the files and sorts them: most relevant first, then by path.
fn apply_relevance(state: &mut State) {
    let selected = state.selected_file().map(|f| f.path.clone());
    for file in &mut state.files {
        file.relevance = state.relevance.get(&file.path).copied().or(file.relevance);
    }
    state.files.sort_by(|a, b| {
        b.relevance
            .unwrap_or(0)
            .cmp(&a.relevance.unwrap_or(0))
            .then_with(|| a.path.cmp(&b.path))
    });
    if let Some(path) = selected {
        state.selected = state.files.iter().position(|f| f.path == path).unwrap_or(0);
    }
}

fn notice(state: &mut State, level: Level, text: impl Into<String>) {
    let text = text.into().split_whitespace().collect::<Vec<_>>().join(" ");
    // An error longer than the status line is shown whole over the panes (esc closes it).
    let room = usize::from(state.size.0).saturating_sub(10);
    if level == Level::Error && crate::studio::ui::text::width(&text) > room {
        state.report = Some(text.clone());
    }
    state.notice = Some(Notice { level, text });
}

fn finish_task(state: &mut State, task: u64) -> bool {
    if state.task.as_ref().is_some_and(|t| t.id == task) {
        state.task = None;
        true
    } else {
        false // a cancelled task's late result
    }
}

fn replace_artifact(state: &mut State, mode: Mode, text: &str) {
    if let Some(buffer) = state.artifacts.get_mut(&mode) {
        buffer.replace(text);
    }
}

fn save_draft(state: &mut State, mode: Mode) -> Vec<Effect> {
    match state.artifacts.get_mut(&mode) {
        Some(buffer) if buffer.text() != buffer.saved => {
            buffer.saved = buffer.text();
            vec![Effect::SaveDraft {
                mode,
                text: buffer.saved.clone(),
            }]
        }
        _ => Vec::new(),
    }
}

fn load_selected_diff(state: &mut State) -> Vec<Effect> {
    let Some(path) = state.selected_file().map(|f| f.path.clone()) else {
        state.diff = Default::default();
        return Vec::new();
    };
    if state.diff.path.as_deref() == Some(path.as_str()) && !state.diff.loading {
        // Same file: reload in place (after staging) without jumping to the top.
        state.diff.loading = true;
    } else {
        state.diff = super::state::DiffView {
            path: Some(path.clone()),
            loading: true,
            ..Default::default()
        };
    }
    vec![Effect::LoadDiff { path }]
}

/// Generates on entering a mode whose artifact is empty and whose input is not.
fn auto_generate(state: &mut State) -> Vec<Effect> {
    let input_ready = match state.mode {
        Mode::COMMIT | Mode::REVIEW => state.has_staged,
        Mode::PR | Mode::CHANGELOG | Mode::RELEASE_NOTES => {
            state.range.loaded_for == Some(state.mode) && !state.range.commits.is_empty()
        }
        Mode::Explore => false,
    };
    let empty = state.artifact().is_some_and(|a| a.is_empty());
    if state.auto_generate
        && input_ready
        && empty
        && state.task.is_none()
        && state.ai_unavailable.is_none()
    {
        start_generate(state)
    } else {
        Vec::new()
    }
}

fn start_task(state: &mut State, kind: TaskKind) -> Option<u64> {
    if let Some(why) = &state.ai_unavailable {
        let why = why.clone();
        notice(state, Level::Warning, why);
        return None;
    }
    if state.task.is_some() {
        notice(
            state,
            Level::Warning,
            "Iris is busy: Esc cancels what she is doing",
        );
        return None;
    }
    let id = state.next_task_id;
    state.next_task_id += 1;
    state.task = Some(Task {
        id,
        mode: state.mode,
        kind,
        started: std::time::Instant::now(),
        activity: "starting".to_string(),
        input_tokens: 0,
        output_tokens: 0,
        streamed: String::new(),
    });
    Some(id)
}

fn start_generate(state: &mut State) -> Vec<Effect> {
    if !state.mode.has_artifact() {
        notice(
            state,
            Level::Info,
            "explore mode has nothing to write: switch to a mode (2-6)",
        );
        return Vec::new();
    }
    let range = if state.mode.uses_range() {
        match &state.range.resolved_from {
            Some(from) => Some((from.clone(), state.range.to_or_head().to_string())),
            None => {
                notice(
                    state,
                    Level::Warning,
                    "the range is not known yet: R picks FROM..TO",
                );
                return Vec::new();
            }
        }
    } else {
        None
    };
    match start_task(state, TaskKind::Generate) {
        Some(task) => vec![Effect::Generate {
            task,
            mode: state.mode,
            range,
        }],
        None => Vec::new(),
    }
}

fn command_input(state: &mut State, command: Command) -> Vec<Effect> {
    if state.help && !matches!(command, Command::Help | Command::Back | Command::Quit) {
        return Vec::new();
    }
    match command {
        Command::Quit => {
            if state.unsaved() {
                state.confirm = Some(Confirm::Quit);
            } else {
                state.quit = true;
            }
            Vec::new()
        }
        Command::Help => {
            state.help = !state.help;
            Vec::new()
        }
        Command::NextPane | Command::PrevPane => {
            let panes = visible_panes(state);
            let at = panes.iter().position(|p| *p == state.focus).unwrap_or(0);
            let next = if command == Command::NextPane {
                (at + 1) % panes.len()
            } else {
                (at + panes.len() - 1) % panes.len()
            };
            state.focus = panes[next];
            Vec::new()
        }
        Command::Up
        | Command::Down
        | Command::PageUp
        | Command::PageDown
        | Command::Top
        | Command::Bottom => move_cursor(state, command),
        Command::Select => match state.focus {
            Pane::Files if state.mode == Mode::Explore => open_tree_row(state),
            Pane::Files => {
                state.focus = Pane::Diff;
                Vec::new()
            }
            Pane::Findings => jump_to_finding(state),
            _ => Vec::new(),
        },
        Command::Back => {
            if let Some(task) = state.task.take() {
                notice(state, Level::Info, "cancelled: the text from before stays");
                if task.kind == TaskKind::Chat {
                    // Keep the conversation alternating: the question gets an answer.
                    state.chat.messages.push(ChatMessage {
                        speaker: Speaker::Iris,
                        text: "(cancelled)".to_string(),
                    });
                }
                return vec![Effect::Cancel { task: task.id }];
            }
            if state.report.is_some() {
                state.report = None;
            } else if state.help {
                state.help = false;
            } else if state.focus == Pane::RangeInput {
                state.range_input = None;
                state.focus = Pane::Files;
            } else if state.focus == Pane::ChatInput {
                // Out of typing altogether, as from the editor: the next key is a command.
                state.chat.open = false;
                state.focus = Pane::Files;
            } else if state.focus != Pane::Files {
                state.focus = Pane::Files;
            }
            Vec::new()
        }
        Command::Generate => start_generate(state),
        Command::OpenChat => {
            if !state.mode.has_artifact() {
                notice(
                    state,
                    Level::Info,
                    "chat edits an artifact: switch to a mode (2-6)",
                );
            } else if let Some(why) = state.ai_unavailable.clone() {
                notice(state, Level::Warning, why);
            } else {
                state.chat.open = true;
                state.focus = Pane::ChatInput;
            }
            Vec::new()
        }
        Command::StageFile | Command::UnstageFile => match state.selected_file() {
            Some(file) => {
                let path = file.path.clone();
                vec![if command == Command::StageFile {
                    Effect::Stage { path }
                } else {
                    Effect::Unstage { path }
                }]
            }
            None => Vec::new(),
        },
        Command::StageAll => vec![Effect::StageAll],
        Command::UnstageAll => vec![Effect::UnstageAll],
        Command::StageHunk => {
            if !matches!(state.mode, Mode::COMMIT | Mode::REVIEW) {
                notice(state, Level::Info, "hunks are staged in commit mode (2)");
                return Vec::new();
            }
            let Some(path) = state
                .diff
                .path
                .clone()
                .filter(|_| state.diff.staged.is_some())
            else {
                return Vec::new();
            };
            // The hunk at the top of the view (the first one above them all).
            let hunks = state.diff.hunks();
            let top = hunks.iter().rev().find(|h| h.row <= state.diff.scroll);
            let Some(place) = top.or(hunks.first()) else {
                return Vec::new();
            };
            let hunk = place.in_side;
            match state.diff.is_staged(place.file) {
                Some(true) => vec![Effect::UnstageHunk { path, hunk }],
                _ => vec![Effect::StageHunk { path, hunk }],
            }
        }
        Command::Commit => {
            if state.mode != Mode::COMMIT {
                notice(state, Level::Info, "commits are made in commit mode (2)");
            } else if state.artifact().is_none_or(|a| a.is_empty()) {
                notice(state, Level::Warning, "the commit message is empty");
            } else if !state.has_staged && !state.commit_flags.amend {
                notice(
                    state,
                    Level::Warning,
                    "nothing is staged (s stages the selected file)",
                );
            } else {
                state.confirm = Some(Confirm::Commit);
            }
            Vec::new()
        }
        Command::ToggleAmend => {
            state.commit_flags.amend = !state.commit_flags.amend;
            Vec::new()
        }
        Command::ToggleNoVerify => {
            state.commit_flags.no_verify = !state.commit_flags.no_verify;
            Vec::new()
        }
        Command::UndoVersion | Command::RedoVersion => {
            let mode = state.mode;
            let moved = state.artifact_mut().is_some_and(|a| {
                if command == Command::UndoVersion {
                    a.undo()
                } else {
                    a.redo()
                }
            });
            if moved {
                save_draft(state, mode)
            } else {
                Vec::new()
            }
        }
        Command::NextHunk | Command::PrevHunk => {
            let starts = state.diff.hunk_starts();
            let scroll = state.diff.scroll;
            let target = if command == Command::NextHunk {
                starts.into_iter().find(|s| *s > scroll)
            } else {
                starts.into_iter().rev().find(|s| *s < scroll)
            };
            if let Some(line) = target {
                state.diff.scroll = line;
            }
            Vec::new()
        }
        Command::ScrollLeft | Command::ScrollRight => {
            let right = command == Command::ScrollRight;
            scroll_sideways(state, if right { SIDEWAYS } else { -SIDEWAYS });
            Vec::new()
        }
        Command::Refresh => {
            let mut effects = vec![Effect::LoadStatus];
            if state.mode.uses_range() {
                effects.extend(load_commits(state));
            }
            effects
        }
        Command::PickRange => {
            if !state.mode.uses_range() {
                notice(
                    state,
                    Level::Info,
                    "ranges belong to the PR, changelog and release notes modes (4-6)",
                );
                return Vec::new();
            }
            // An empty line: the current range is in the title and stays when nothing is typed.
            let input = tui_textarea::TextArea::default();
            state.range_input = Some(input);
            state.focus = Pane::RangeInput;
            Vec::new()
        }
        Command::ModeExplore => switch_mode(state, Mode::Explore),
        Command::ModeCommit => switch_mode(state, Mode::COMMIT),
        Command::ModeReview => switch_mode(state, Mode::REVIEW),
        Command::ModePr => switch_mode(state, Mode::PR),
        Command::ModeChangelog => switch_mode(state, Mode::CHANGELOG),
        Command::ModeReleaseNotes => switch_mode(state, Mode::RELEASE_NOTES),
    }
}

fn visible_panes(state: &State) -> Vec<Pane> {
    let mut panes = state.mode.panes().to_vec();
    if state.chat.open {
        panes.push(Pane::ChatInput);
    }
    panes
}

fn switch_mode(state: &mut State, mode: Mode) -> Vec<Effect> {
    if state.mode == mode {
        return Vec::new();
    }
    state.mode = mode;
    state.focus = Pane::Files;
    if !mode.has_artifact() {
        state.chat.open = false;
    }
    if mode.uses_range() && state.range.loaded_for != Some(mode) {
        return load_commits(state);
    }
    if mode == Mode::Explore && !state.explorer.loaded {
        return vec![Effect::LoadTree];
    }
    auto_generate(state)
}

fn load_commits(state: &mut State) -> Vec<Effect> {
    state.range.loading = true;
    vec![Effect::LoadCommits {
        mode: state.mode,
        from: state.range.from.clone(),
        to: state.range.to.clone(),
    }]
}

fn load_selected_commit_diff(state: &mut State) -> Vec<Effect> {
    let Some(commit) = state.range.commits.get(state.range.selected) else {
        state.diff = Default::default();
        return Vec::new();
    };
    let id = commit.id.clone();
    state.diff = super::state::DiffView {
        path: Some(format!("commit {}", commit.short_id)),
        loading: true,
        ..Default::default()
    };
    vec![Effect::LoadCommitDiff { id }]
}

fn move_cursor(state: &mut State, command: Command) -> Vec<Effect> {
    match state.focus {
        Pane::Files if state.mode == Mode::Explore => {
            let last = state.explorer.rows().len().saturating_sub(1);
            state.explorer.selected = step(state.explorer.selected, last, command, PAGE);
            Vec::new()
        }
        Pane::Diff if state.mode == Mode::Explore => {
            let last = state
                .explorer
                .lines
                .as_ref()
                .map_or(0, Vec::len)
                .saturating_sub(1);
            state.explorer.scroll = step(state.explorer.scroll, last, command, PAGE);
            Vec::new()
        }
        Pane::Files if state.mode.uses_range() => {
            let last = state.range.commits.len().saturating_sub(1);
            let before = state.range.selected;
            state.range.selected = step(before, last, command, PAGE);
            if state.range.selected != before {
                return load_selected_commit_diff(state);
            }
            Vec::new()
        }
        Pane::Files => {
            let last = state.files.len().saturating_sub(1);
            let before = state.selected;
            state.selected = step(state.selected, last, command, PAGE);
            if state.selected != before {
                return load_selected_diff(state);
            }
            Vec::new()
        }
        Pane::Diff => {
            let last = state.diff.line_count().saturating_sub(1);
            state.diff.scroll = step(state.diff.scroll, last, command, PAGE);
            Vec::new()
        }
        Pane::Findings => {
            let count = findings_in(&state.artifact().map(|a| a.text()).unwrap_or_default()).len();
            state.finding = step(state.finding, count.saturating_sub(1), command, PAGE);
            Vec::new()
        }
        Pane::Editor | Pane::ChatInput | Pane::RangeInput => Vec::new(),
    }
}

/// Enter on the explore tree: a directory opens or closes, a file opens in the code view.
fn open_tree_row(state: &mut State) -> Vec<Effect> {
    let Some(row) = state
        .explorer
        .rows()
        .into_iter()
        .nth(state.explorer.selected)
    else {
        return Vec::new();
    };
    if row.is_dir {
        if !state.explorer.expanded.remove(&row.path) {
            state.explorer.expanded.insert(row.path);
        }
        return Vec::new();
    }
    state.explorer.open = Some(row.path.clone());
    state.explorer.lines = None;
    state.explorer.history.clear();
    state.explorer.scroll = 0;
    state.explorer.hscroll = 0;
    state.focus = Pane::Diff;
    vec![Effect::OpenFile { path: row.path }]
}

/// Shows the selected finding: its file in the list and the diff at its line.
fn jump_to_finding(state: &mut State) -> Vec<Effect> {
    let rows = findings_in(&state.artifact().map(|a| a.text()).unwrap_or_default());
    let Some(finding) = rows.get(state.finding) else {
        return Vec::new();
    };
    let Some(index) = state.files.iter().position(|f| f.path == finding.file) else {
        let text = format!("{} is not among the changed files", finding.file);
        notice(state, Level::Info, text);
        return Vec::new();
    };
    let (file, line) = (finding.file.clone(), finding.line.unwrap_or(1));
    state.focus = Pane::Diff;
    if state.selected == index && !state.diff.loading {
        state.diff.scroll = state.diff.row_of_new_line(&file, line).unwrap_or(0);
        return Vec::new();
    }
    state.selected = index;
    state.pending_jump = Some((file, line));
    load_selected_diff(state)
}

fn step(at: usize, last: usize, command: Command, page: usize) -> usize {
    match command {
        Command::Up => at.saturating_sub(1),
        Command::Down => (at + 1).min(last),
        Command::PageUp => at.saturating_sub(page),
        Command::PageDown => (at + page).min(last),
        Command::Top => 0,
        Command::Bottom => last,
        _ => at,
    }
}

/// Keys that no command claimed: answers to a question, or text for the focused editor.
fn key_input(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    if let Some(question) = state.confirm.take() {
        let yes = matches!(
            key.code,
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter
        );
        return match (question, yes) {
            (Confirm::Quit, true) => {
                state.quit = true;
                Vec::new()
            }
            (Confirm::Commit, true) => {
                let message = state.artifact().map(|a| a.text()).unwrap_or_default();
                notice(state, Level::Info, "committing...");
                vec![Effect::Commit {
                    message,
                    flags: state.commit_flags,
                }]
            }
            (_, false) => {
                notice(state, Level::Info, "cancelled");
                Vec::new()
            }
        };
    }
    match state.focus {
        Pane::Editor => {
            let mode = state.mode;
            if let Some(buffer) = state.artifact_mut() {
                buffer.editor.input(key);
            }
            // Drafts are saved as they change, so a crash or a kill loses nothing.
            save_draft(state, mode)
        }
        Pane::ChatInput => chat_key(state, key),
        Pane::RangeInput => range_key(state, key),
        Pane::Files | Pane::Diff | Pane::Findings => Vec::new(),
    }
}

fn range_key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(input) = state.range_input.as_mut() else {
        state.focus = Pane::Files;
        return Vec::new();
    };
    if key.code != KeyCode::Enter {
        input.input(key);
        return Vec::new();
    }
    let text = input.lines().join("").trim().to_string();
    state.range_input = None;
    state.focus = Pane::Files;
    if text.is_empty() {
        return Vec::new();
    }
    let (from, to) = match text.split_once("..") {
        Some((from, to)) => (from.trim(), to.trim()),
        None => (text.as_str(), ""),
    };
    state.range.from = (!from.is_empty()).then(|| from.to_string());
    state.range.to = (!to.is_empty()).then(|| to.to_string());
    state.range.loaded_for = None;
    load_commits(state)
}

/// Columns a sideways step moves the diff or the code.
const SIDEWAYS: isize = 8;

/// Scrolls the diff (or explore's code view) sideways, never past its longest line.
fn scroll_sideways(state: &mut State, delta: isize) {
    use crate::studio::ui::text::{expand_tabs, width};
    let widest = |lines: &mut dyn Iterator<Item = &str>| {
        lines.map(|l| width(&expand_tabs(l))).max().unwrap_or(0)
    };
    let (hscroll, longest) = if state.mode == Mode::Explore {
        let lines = state.explorer.lines.as_deref().unwrap_or_default();
        let longest = widest(&mut lines.iter().map(String::as_str));
        (&mut state.explorer.hscroll, longest)
    } else {
        let files = &state.diff.files;
        let mut lines = files
            .iter()
            .flat_map(|f| &f.hunks)
            .flat_map(|h| &h.lines)
            .map(|l| l.content.as_str());
        let longest = widest(&mut lines);
        (&mut state.diff.hscroll, longest)
    };
    // Keep some of the longest line in view.
    let most = longest.saturating_sub(SIDEWAYS as usize);
    *hscroll = hscroll.saturating_add_signed(delta).min(most);
}

/// Rows the mouse wheel moves a text.
const WHEEL: isize = 3;

/// Moves the conversation's window by `delta` rows (negative: back in time).
fn scroll_conversation(state: &mut State, rects: &PaneRects, delta: isize) {
    let (width, height) = inner_size(rects.chat_log);
    let rows = crate::studio::conversation::rows(
        &state.chat,
        crate::studio::ui::chat::streaming(state),
        width,
    )
    .len();
    crate::studio::conversation::scroll(&mut state.chat, rows, height, delta);
}

fn chat_key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    if matches!(key.code, KeyCode::PageUp | KeyCode::PageDown) {
        // The input is a few lines: the page keys page through the conversation.
        let rects = PaneRects::compute(state.size, state);
        let page = inner_size(rects.chat_log).1.max(1) as isize;
        let delta = if key.code == KeyCode::PageUp {
            -page
        } else {
            page
        };
        scroll_conversation(state, &rects, delta);
        return Vec::new();
    }
    let send = key.code == KeyCode::Enter
        && !key
            .modifiers
            .intersects(KeyModifiers::SHIFT | KeyModifiers::ALT);
    if !send {
        state.chat.input.input(key);
        return Vec::new();
    }
    let message = state.chat.input.lines().join("\n").trim().to_string();
    if message.is_empty() {
        return Vec::new();
    }
    let Some(task) = start_task(state, TaskKind::Chat) else {
        return Vec::new();
    };
    state.chat.input = super::state::text_input(Vec::new());
    // What is sent and its reply come into view.
    state.chat.top = None;
    let history = state.chat.messages.clone();
    state.chat.messages.push(ChatMessage {
        speaker: Speaker::User,
        text: message.clone(),
    });
    let artifact = state.artifact().map(|a| a.text()).unwrap_or_default();
    vec![Effect::Chat {
        task,
        mode: state.mode,
        history,
        message,
        artifact,
    }]
}

/// The selected row of whatever the files pane shows in this mode, and its list's top row.
fn files_pane_selection(state: &State) -> (usize, usize) {
    let tops = &state.list_tops;
    if state.mode == Mode::Explore {
        (state.explorer.selected, tops.tree)
    } else if state.mode.uses_range() {
        (state.range.selected, tops.commits)
    } else {
        (state.selected, tops.files)
    }
}

/// Selects row `row` of what the files pane shows (the tree, the commits or the changed files).
fn select_in_files_pane(state: &mut State, row: usize) -> Vec<Effect> {
    if state.mode == Mode::Explore {
        if row < state.explorer.rows().len() {
            state.explorer.selected = row;
        }
        Vec::new()
    } else if state.mode.uses_range() {
        if row >= state.range.commits.len() {
            return Vec::new();
        }
        state.range.selected = row;
        load_selected_commit_diff(state)
    } else {
        if row >= state.files.len() {
            return Vec::new();
        }
        state.selected = row;
        load_selected_diff(state)
    }
}

fn mouse_input(state: &mut State, mouse: crossterm::event::MouseEvent) -> Vec<Effect> {
    let rects = PaneRects::compute(state.size, state);
    let Some(pane) = hit(&rects, mouse.column, mouse.row) else {
        return Vec::new();
    };
    match mouse.kind {
        MouseEventKind::Down(_) => {
            state.focus = pane;
            if pane == Pane::Files
                && let Some(area) = rects.files
                && mouse.row > area.y
                && mouse.row + 1 < area.y + area.height
            {
                // Row 0 of the list is under the top border; the list may be scrolled.
                let rows = inner_rows(Some(area));
                let (current, top) = files_pane_selection(state);
                let row = keep_in_view(top, current, rows) + usize::from(mouse.row - area.y - 1);
                if row != current {
                    return select_in_files_pane(state, row);
                }
            }
            Vec::new()
        }
        MouseEventKind::ScrollLeft | MouseEventKind::ScrollRight if pane == Pane::Diff => {
            let right = mouse.kind == MouseEventKind::ScrollRight;
            scroll_sideways(state, if right { SIDEWAYS } else { -SIDEWAYS });
            Vec::new()
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let down = mouse.kind == MouseEventKind::ScrollDown;
            if contains(rects.chat_log, mouse.column, mouse.row) {
                scroll_conversation(state, &rects, if down { WHEEL } else { -WHEEL });
                return Vec::new();
            }
            if pane == Pane::Editor {
                // The editor's view moves (its cursor kept inside), not the focus.
                if let Some(buffer) = state.artifact_mut() {
                    let rows = if down { WHEEL } else { -WHEEL };
                    buffer.editor.scroll((rows as i16, 0));
                }
                return Vec::new();
            }
            let previous = state.focus;
            state.focus = pane;
            let command = if mouse.kind == MouseEventKind::ScrollDown {
                Command::Down
            } else {
                Command::Up
            };
            let effects = move_cursor(state, command);
            if matches!(pane, Pane::Editor | Pane::ChatInput) {
                state.focus = previous;
            }
            effects
        }
        _ => Vec::new(),
    }
}
