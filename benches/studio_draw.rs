//! Benchmark: drawing one studio frame with a 10,000-line diff in view (120x40, TestBackend).
//! Prints the median and worst time of a frame over many frames. Asserts nothing.

use std::time::{Duration, Instant};

use iris_studio_core::change::parse_unified_diff;
use iris_studio_tui::highlight::{Highlights, Syntaxes};
use iris_studio_tui::keymap::Keymap;
use iris_studio_tui::state::{Mode, Pane, State};
use iris_studio_tui::theme::{ColorSupport, Theme};
use iris_studio_tui::ui::{Looks, draw};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const LINES: usize = 10_000;
const FRAMES: usize = 300;

fn main() {
    let mut text = format!(
        "diff --git a/src/big.rs b/src/big.rs\n--- a/src/big.rs\n+++ b/src/big.rs\n@@ -1,{LINES} +1,{LINES} @@\n"
    );
    for i in 0..LINES {
        let line = format!("    let value_{i} = compute(\"日本 {i}\", {i});\t// step {i}\n");
        text.push(match i % 3 {
            0 => '+',
            1 => '-',
            _ => ' ',
        });
        text.push_str(&line);
    }
    // Balance the counts so the parser takes every line.
    let text = text.replace(
        &format!("@@ -1,{LINES} +1,{LINES} @@"),
        &format!(
            "@@ -1,{} +1,{} @@",
            LINES - LINES.div_ceil(3),
            LINES - (LINES / 3)
        ),
    );
    let files = parse_unified_diff(&text);
    let shown: usize = files
        .iter()
        .flat_map(|f| &f.hunks)
        .map(|h| h.lines.len())
        .sum();
    let mut state = State::new(Mode::COMMIT);
    state.focus = Pane::Diff;
    state.changes.loading = false;
    state.diff.path = Some("src/big.rs".into());
    state.diff.files = files;
    let theme = Theme::builtin("dark")
        .expect("dark theme")
        .adapt(ColorSupport::TrueColor);
    let keymap = Keymap::default();
    let highlights = Highlights::new(std::sync::Arc::new(Syntaxes::new()));
    let looks = Looks {
        theme: &theme,
        keymap: &keymap,
        highlights: &highlights,
    };
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let mut times: Vec<Duration> = Vec::with_capacity(FRAMES);
    for frame in 0..FRAMES {
        // Scroll through the diff so each frame lays out other lines.
        state.diff.scroll = (frame * 33) % LINES;
        let started = Instant::now();
        terminal.draw(|f| draw(f, &state, &looks)).expect("draw");
        times.push(started.elapsed());
    }
    times.sort();
    println!(
        "frame with a {shown}-line diff in view (120x40): median {:.3} ms, p95 {:.3} ms, worst {:.3} ms over {FRAMES} frames",
        times[FRAMES / 2].as_secs_f64() * 1000.0,
        times[FRAMES * 95 / 100].as_secs_f64() * 1000.0,
        times[FRAMES - 1].as_secs_f64() * 1000.0
    );
}
