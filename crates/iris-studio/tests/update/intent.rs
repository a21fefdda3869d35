//! `update::intent`: what the open file is for, its responsibility blocks beside the code.

use iris_studio_core::artifact::intent::{
    BlockElements, ExecutionPath, FileIntent, IntentMetadata, ResponsibilityBlock,
};
use iris_studio_tui::action::Action;
use iris_studio_tui::blocks;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::Failure;
use iris_studio_tui::features::msgs::{IntentFx, IntentMsg};
use iris_studio_tui::layout::PaneRects;
use iris_studio_tui::state::{Level, Pane, TaskKind};
use iris_studio_tui::update::update;

use super::support::{click, command, explore_with_file, notice};

fn block(id: &str, label: &str, ranges: Vec<[usize; 2]>) -> ResponsibilityBlock {
    ResponsibilityBlock {
        id: id.into(),
        label: label.into(),
        description: format!("What {label} does."),
        elements: BlockElements {
            functions: vec!["f1".into()],
            ..BlockElements::default()
        },
        ranges,
    }
}

fn file_intent() -> FileIntent {
    FileIntent {
        path: "src/lib.rs".into(),
        intent: "Ten small functions for the examples.".into(),
        blocks: vec![
            block("first-half", "First half", vec![[1, 5]]),
            block("second-half", "Second half", vec![[6, 8], [10, 10]]),
        ],
        metadata: IntentMetadata {
            tool_reads: vec![],
            tool_call_count: 0,
            execution_path: ExecutionPath::FastPath,
        },
    }
}

#[test]
fn i_lists_the_blocks_and_choosing_one_brings_its_lines_into_view() {
    let mut state = explore_with_file();
    assert_eq!(
        command(&mut state, Command::FileIntent),
        vec![Effect::Intent(IntentFx::Explain {
            task: 1,
            path: "src/lib.rs".into()
        })]
    );
    assert_eq!(
        state.iris.task.as_ref().map(|t| t.kind),
        Some(TaskKind::Intent)
    );
    assert!(state.visible_panes().contains(&Pane::Blocks));
    update(
        &mut state,
        Action::Intent(IntentMsg::Explained {
            task: 1,
            result: Ok(file_intent()),
        }),
    );
    assert_eq!(state.focus, Pane::Blocks);
    assert_eq!(notice(&state).0, Level::Success);
    assert_eq!(state.explore.block_ranges(), vec![(0, 4)]);
    command(&mut state, Command::Down);
    assert_eq!(state.explore.block_ranges(), vec![(5, 7), (9, 9)]);
    assert_eq!(state.explore.cursor, 5, "the block's first line");
    // A click on a block's row chooses it.
    let area = PaneRects::compute(state.screen.size, &state)
        .blocks
        .unwrap();
    let view = state.explore.intent.clone().unwrap();
    let rows = blocks::rows(&view, usize::from(area.width - 2));
    let row = blocks::block_row(&rows, 0).unwrap() as u16;
    update(&mut state, click(area.x + 3, area.y + 1 + row));
    assert_eq!(state.explore.block_ranges(), vec![(0, 4)]);
    command(&mut state, Command::Down);
    command(&mut state, Command::Down);
    assert_eq!(
        state.explore.intent.as_ref().unwrap().block,
        1,
        "no block after the last"
    );
    command(&mut state, Command::Select);
    assert_eq!(state.focus, Pane::Code);
    // Asked again while shown: the pane takes the focus, nothing is sent.
    assert_eq!(command(&mut state, Command::FileIntent), vec![]);
    assert_eq!(state.focus, Pane::Blocks);
    // Closed with esc, then asked again: at once, from the session's answers.
    command(&mut state, Command::Back);
    assert!(state.explore.intent.is_none());
    assert_eq!(state.focus, Pane::Code);
    assert_eq!(command(&mut state, Command::FileIntent), vec![]);
    assert!(state.explore.intent.as_ref().unwrap().intent.is_some());
    assert!(notice(&state).1.contains("earlier"));
    // With an answer about lines too: the blocks above, the answer below, beside the code.
    command(&mut state, Command::AskWhy);
    let rects = PaneRects::compute(state.screen.size, &state);
    let (blocks, answer) = (rects.blocks.unwrap(), rects.answer.unwrap());
    assert_eq!((blocks.x, blocks.y + blocks.height), (answer.x, answer.y));
    assert!(blocks.x > rects.view.unwrap().x);
}

#[test]
fn blocks_are_about_their_file_and_esc_cancels_a_reading() {
    let mut state = explore_with_file();
    command(&mut state, Command::FileIntent);
    assert_eq!(
        command(&mut state, Command::Back),
        vec![Effect::Cancel { task: 1 }]
    );
    assert!(state.explore.intent.is_none());
    update(
        &mut state,
        Action::Intent(IntentMsg::Explained {
            task: 1,
            result: Ok(file_intent()),
        }),
    );
    assert!(state.explore.intent.is_none() && state.explore.intents.is_empty());
    // A failure closes the pane and says why.
    command(&mut state, Command::FileIntent);
    update(
        &mut state,
        Action::Intent(IntentMsg::Explained {
            task: 2,
            result: Err(Failure::other("no valid answer")),
        }),
    );
    assert!(state.explore.intent.is_none());
    assert_eq!(notice(&state), (Level::Error, "no valid answer"));
    // Edited text: the blocks no longer light its lines.
    command(&mut state, Command::FileIntent);
    update(
        &mut state,
        Action::Intent(IntentMsg::Explained {
            task: 3,
            result: Ok(file_intent()),
        }),
    );
    assert!(!state.explore.block_ranges().is_empty());
    state.explore.digest = 8;
    assert!(state.explore.block_ranges().is_empty());
}
