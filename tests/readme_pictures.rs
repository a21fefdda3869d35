//! The README's pictures of the studio, made from the real binary: a demo repository, the
//! studio in a pseudo-terminal with Iris on the fake provider, and each screen's cells and
//! colours drawn as SVG. Run with `IRIS_PICTURES=write` to make them again
//! (`IRIS_PICTURES=write cargo test --test e2e readme_pictures`); without it, the test fails
//! when a committed picture no longer matches what the studio shows.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::Iris;
use crate::common::TestRepo;
use crate::common::agent::approval;
use crate::common::fake_provider::{FAKE_API_KEY, FakeProvider, Step};
use crate::common::pty::PtyProgram;
use serde_json::json;

const COLS: u16 = 120;
const ROWS: u16 = 34;
const TIMEOUT: Duration = Duration::from_secs(30);
/// How long a screen must stay the same to be taken.
const STILL: Duration = Duration::from_millis(1000);

/// A small project: `main` with its history, a `feature` branch two commits ahead, and a
/// staged change on it.
fn demo_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"numbers\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    );
    repo.write(
        "src/lib.rs",
        "//! Small numbers as functions.\n\npub mod parse;\n\n/// One.\npub fn one() -> u32 {\n    1\n}\n",
    );
    repo.write(
        "src/parse.rs",
        "/// Reads a number.\npub fn parse(input: &str) -> u32 {\n    input.trim().parse().unwrap_or(0)\n}\n",
    );
    repo.write("README.md", "# numbers\n\nSmall numbers as functions.\n");
    repo.commit_all("Start the numbers crate");
    repo.write(
        "src/lib.rs",
        "//! Small numbers as functions.\n\npub mod parse;\n\n/// One.\npub fn one() -> u32 {\n    1\n}\n\n/// Two.\npub fn two() -> u32 {\n    2\n}\n",
    );
    repo.commit_all("Add two()");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(
        "src/parse.rs",
        "/// Reads a number; an error says why it is not one.\npub fn parse(input: &str) -> Result<u32, std::num::ParseIntError> {\n    input.trim().parse()\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn reads_a_number() {\n        assert_eq!(super::parse(\" 42 \"), Ok(42));\n    }\n}\n",
    );
    repo.commit_all("Return parse errors instead of zero");
    repo.write(
        "src/lib.rs",
        "//! Small numbers as functions.\n\npub mod parse;\n\n/// One.\npub fn one() -> u32 {\n    1\n}\n\n/// Two.\npub fn two() -> u32 {\n    2\n}\n\n/// Three, the sum of one and two.\npub fn three() -> u32 {\n    one() + two()\n}\n",
    );
    repo.write(
        "README.md",
        "# numbers\n\nSmall numbers as functions: `one()`, `two()` and `three()`.\n",
    );
    repo.git(&["add", "-A"]);
    repo
}

/// What Iris answers, in the order the pictures ask.
fn script() -> Vec<Step> {
    let message = json!({
        "emoji": null,
        "title": "Add three(), the sum of one and two",
        "message": "three() is built from one() and two() rather than a constant, so the \
                    three stay consistent. The README lists the new function."
    });
    let edited = "Add three(), the sum of one() and two()\n\nthree() is built from one() and \
                  two() rather than a constant, so the three stay consistent.\n\nThe README \
                  lists the new function.";
    let review = json!({
        "summary": "Adds three() as one() + two() and documents it. Small and clear; one \
                    gap in the tests.",
        "findings": [
            {"severity": "medium", "file": "src/lib.rs", "line": 17, "title": "three() has no test",
             "body": "Nothing calls three(); a test would pin its value.", "confidence": 85,
             "category": "tests", "quote": "pub fn three() -> u32 {",
             "suggestion": "Add `assert_eq!(three(), 3)` to the tests."},
            {"severity": "low", "file": "README.md", "line": 3, "title": "The list will grow",
             "body": "Naming every function in the README goes stale.", "confidence": 75,
             "category": "maintainability", "quote": "Small numbers as functions"}
        ],
        "strengths": ["Builds on the existing functions", "Documents the addition"]
    });
    let pr = json!({
        "title": "Return parse errors instead of zero",
        "summary": "parse() now returns a Result, so a caller can tell a bad input from 0.",
        "changes": ["`parse()` returns `Result<u32, ParseIntError>`", "A test reads \" 42 \""],
        "testing": "`cargo test`: reads_a_number passes.",
        "breaking_changes": ["Callers of parse() must handle the error."],
        "notes": null
    });
    vec![
        Step::text(message.to_string()),
        Step::tool_call("update_commit", json!({"content": edited})),
        Step::text("Done: the title names both functions, and the README gets its own paragraph."),
        Step::text(review.to_string()),
        // The critic reads the review and the description, and approves.
        Step::text(approval()),
        Step::text(pr.to_string()),
        Step::text(approval()),
    ]
}

/// The studio on the demo repository, Iris on the fake provider.
struct Studio {
    program: PtyProgram,
}

impl Studio {
    fn start(repo: &TestRepo, fake: &FakeProvider) -> Studio {
        let mut command = repo.isolated_iris(&["studio", "--mode", "commit"]);
        // In colour, as a terminal that can shows it.
        command
            .env_remove("NO_COLOR")
            .env("COLORTERM", "truecolor")
            .env("IRIS_PROVIDER", "openai")
            .env("OPENAI_API_KEY", FAKE_API_KEY)
            .env("OPENAI_BASE_URL", fake.openai_base_url())
            .env("IRIS_LOCAL", "false");
        Studio {
            program: PtyProgram::spawn(command, COLS, ROWS),
        }
    }

    fn send(&mut self, keys: &str) {
        self.program.send(keys.as_bytes());
    }

    /// Waits until `text` is on the screen and the screen has stopped changing.
    fn settled(&self, text: &str) -> vt100::Screen {
        self.settled_when(text, |_| true)
    }

    /// [`Studio::settled`], and the code `code` on the screen highlighted: its first and last
    /// characters in different colours (the syntax definitions load in the background).
    fn highlighted(&self, text: &str, code: &str) -> vt100::Screen {
        self.settled_when(text, |screen| {
            let contents = screen.contents();
            let Some((row, line)) = contents.lines().enumerate().find(|(_, l)| l.contains(code))
            else {
                return false;
            };
            let col = line[..line.find(code).unwrap_or(0)].chars().count();
            let (row, col) = (row as u16, col as u16);
            let fg = |c: u16| screen.cell(row, c).map(|cell| cell.fgcolor());
            let last = col + code.chars().count() as u16 - 1;
            fg(col) != fg(last)
        })
    }

    fn settled_when(&self, text: &str, ready: impl Fn(&vt100::Screen) -> bool) -> vt100::Screen {
        let start = Instant::now();
        let mut last = String::new();
        let mut since = Instant::now();
        loop {
            let (now, screen) = self.program.screen(|s| (s.contents_formatted(), s.clone()));
            let contents = screen.contents();
            if now != last {
                last = now;
                since = Instant::now();
            } else if contents.contains(text) && since.elapsed() >= STILL && ready(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "waiting for `{text}`; the screen:\n{contents}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The pictures: the screens of commit mode with the chat, review, PR and explore.
fn pictures() -> Vec<(&'static str, String)> {
    let repo = demo_repo();
    let fake = FakeProvider::start(script());
    let mut studio = Studio::start(&repo, &fake);
    studio.settled("Iris wrote the commit");
    studio.send("/");
    studio.settled("Chat");
    studio.send("Name both functions in the title, and give the README its own paragraph.");
    studio.send("\r");
    let commit = svg(&studio.highlighted("the README gets its own paragraph", "+pub fn three"));
    studio.send("\x1b");
    studio.settled("title 39/72");
    studio.send("3");
    let review = svg(&studio.highlighted("Iris wrote the review", "+pub fn three"));
    studio.send("4");
    let pr = svg(&studio.highlighted("Iris wrote the pull request description", "+pub fn parse"));
    // Explore: src/lib.rs open, its lines' age in the margin.
    studio.send("1");
    studio.settled("Cargo.toml");
    studio.send("jj\r");
    studio.settled("parse.rs");
    studio.send("j\r");
    let explore = svg(&studio.highlighted("Three, the sum of one and two.", "pub fn three"));
    vec![
        ("commit", commit),
        ("review", review),
        ("pr", pr),
        ("explore", explore),
    ]
}

fn pictures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/screenshots")
}

#[test]
fn readme_pictures_match_the_studio() {
    let write = std::env::var_os("IRIS_PICTURES").is_some_and(|v| v == "write");
    let dir = pictures_dir();
    for (name, made) in pictures() {
        let path = dir.join(format!("{name}.svg"));
        if write {
            std::fs::create_dir_all(&dir).expect("assets/screenshots");
            std::fs::write(&path, &made).expect("write the picture");
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == made,
            "assets/screenshots/{name}.svg no longer matches the studio: make the pictures \
             again with `IRIS_PICTURES=write cargo test --test e2e readme_pictures`"
        );
    }
}

// The drawing: each cell of the screen at its column and row, runs of one style as one text
// element, backgrounds as rectangles.

const CELL_W: f32 = 8.4;
const CELL_H: f32 = 18.0;
const FONT: f32 = 14.0;
const DEFAULT_FG: (u8, u8, u8) = (0xd0, 0xd0, 0xd0);
const DEFAULT_BG: (u8, u8, u8) = (0x16, 0x18, 0x1d);

/// The 16 ANSI colours (xterm's), then the 6x6x6 cube and the greys of the 256.
fn indexed(i: u8) -> (u8, u8, u8) {
    const BASE: [(u8, u8, u8); 16] = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ];
    match i {
        0..=15 => BASE[usize::from(i)],
        16..=231 => {
            let n = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            (level(n / 36), level((n / 6) % 6), level(n % 6))
        }
        _ => {
            let grey = 8 + (i - 232) * 10;
            (grey, grey, grey)
        }
    }
}

fn rgb(color: vt100::Color, default: (u8, u8, u8)) -> (u8, u8, u8) {
    match color {
        vt100::Color::Default => default,
        vt100::Color::Idx(i) => indexed(i),
        vt100::Color::Rgb(r, g, b) => (r, g, b),
    }
}

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The style of a cell: foreground, background, bold, italic, underline.
type Style = ((u8, u8, u8), (u8, u8, u8), bool, bool, bool);

fn style(cell: &vt100::Cell) -> Style {
    let (mut fg, mut bg) = (
        rgb(cell.fgcolor(), DEFAULT_FG),
        rgb(cell.bgcolor(), DEFAULT_BG),
    );
    if cell.inverse() {
        std::mem::swap(&mut fg, &mut bg);
    }
    (fg, bg, cell.bold(), cell.italic(), cell.underline())
}

/// The screen as an SVG picture.
fn svg(screen: &vt100::Screen) -> String {
    let (rows, cols) = screen.size();
    let (rows, cols) = (rows.get(), cols.get());
    let (width, height) = (f32::from(cols) * CELL_W, f32::from(rows) * CELL_H);
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"'DejaVu Sans Mono', Menlo, \
         Consolas, monospace\" font-size=\"{FONT}\">\n<rect width=\"100%\" height=\"100%\" \
         fill=\"{}\"/>\n",
        hex(DEFAULT_BG)
    );
    for row in 0..rows {
        // Runs of cells of one style: (first column, style, text, columns wide).
        let mut runs: Vec<(u16, Style, String, u16)> = Vec::new();
        let mut col = 0;
        // A character two cells wide is a run of its own, so every run is one cell a char.
        let mut after_wide = false;
        while col < cols {
            let Some(cell) = screen.cell(row, col) else {
                break;
            };
            let wide = if cell.is_wide() { 2 } else { 1 };
            let text = if cell.has_contents() {
                cell.contents().to_string()
            } else {
                " ".to_string()
            };
            let look = style(cell);
            match runs.last_mut() {
                Some(run) if run.1 == look && wide == 1 && !after_wide => {
                    run.2.push_str(&text);
                    run.3 += 1;
                }
                _ => runs.push((col, look, text, wide)),
            }
            after_wide = wide == 2;
            col += wide;
        }
        let y = f32::from(row) * CELL_H;
        for (first, (fg, bg, bold, italic, underline), text, span) in &runs {
            let x = f32::from(*first) * CELL_W;
            if *bg != DEFAULT_BG {
                let _ = writeln!(
                    out,
                    "<rect x=\"{x:.1}\" y=\"{y:.0}\" width=\"{:.1}\" height=\"{CELL_H:.0}\" fill=\"{}\"/>",
                    f32::from(*span) * CELL_W,
                    hex(*bg)
                );
            }
            if text.trim().is_empty() {
                continue;
            }
            let mut attrs = format!("fill=\"{}\"", hex(*fg));
            if *bold {
                attrs.push_str(" font-weight=\"bold\"");
            }
            if *italic {
                attrs.push_str(" font-style=\"italic\"");
            }
            if *underline {
                attrs.push_str(" text-decoration=\"underline\"");
            }
            let _ = writeln!(
                out,
                "<text x=\"{x:.1}\" y=\"{:.1}\" {attrs} textLength=\"{:.1}\" \
                 lengthAdjust=\"spacingAndGlyphs\" xml:space=\"preserve\">{}</text>",
                y + CELL_H * 0.75,
                f32::from(*span) * CELL_W,
                escape(text)
            );
        }
    }
    out.push_str("</svg>\n");
    out
}
