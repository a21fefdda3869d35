//! Side-by-side diffs: a hunk's lines paired into rows of old | new. A run of removed lines
//! and the run of added lines after it share rows, so a changed line sits beside its new
//! text; context lines show on both sides.

use iris_studio_core::change::{Hunk, LineKind};

/// Columns inside its borders a pane needs before a diff shows side by side.
pub const MIN_WIDTH: usize = 100;

/// One side of a row: the line's number in its file, its kind and its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Side<'a> {
    /// 1-based: the old file's numbering on the left, the new file's on the right.
    pub number: u32,
    /// Removed, added or context, which colours the side.
    pub kind: LineKind,
    /// The line's content, without the diff's `-`, `+` or space marker.
    pub text: &'a str,
}

/// One row: the old file's line on the left, the new file's on the right (either may be
/// missing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair<'a> {
    /// A removed or context line; `None` where an added line has no removed one to face.
    pub old: Option<Side<'a>>,
    /// An added or context line; `None` where a removed line has no added one to face.
    pub new: Option<Side<'a>>,
}

/// The rows of a hunk, top to bottom.
pub fn pairs(hunk: &Hunk) -> Vec<Pair<'_>> {
    let (mut old_no, mut new_no) = (hunk.old_start, hunk.new_start);
    let mut rows = Vec::with_capacity(hunk.lines.len());
    let mut removed: Vec<Side> = Vec::new();
    let mut added: Vec<Side> = Vec::new();
    for line in &hunk.lines {
        match line.kind {
            LineKind::Removed => {
                // A removal after additions starts a new run.
                if !added.is_empty() {
                    pair_runs(&mut rows, &mut removed, &mut added);
                }
                removed.push(Side {
                    number: old_no,
                    kind: line.kind,
                    text: &line.content,
                });
                old_no += 1;
            }
            LineKind::Added => {
                added.push(Side {
                    number: new_no,
                    kind: line.kind,
                    text: &line.content,
                });
                new_no += 1;
            }
            LineKind::Context => {
                pair_runs(&mut rows, &mut removed, &mut added);
                let side = |number| Side {
                    number,
                    kind: line.kind,
                    text: &line.content,
                };
                rows.push(Pair {
                    old: Some(side(old_no)),
                    new: Some(side(new_no)),
                });
                old_no += 1;
                new_no += 1;
            }
        }
    }
    pair_runs(&mut rows, &mut removed, &mut added);
    rows
}

/// The removed and added lines gathered so far, side by side.
fn pair_runs<'a>(rows: &mut Vec<Pair<'a>>, removed: &mut Vec<Side<'a>>, added: &mut Vec<Side<'a>>) {
    let mut old = removed.drain(..);
    let mut new = added.drain(..);
    loop {
        match (old.next(), new.next()) {
            (None, None) => break,
            (old, new) => rows.push(Pair { old, new }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_core::change::DiffLine;

    fn hunk(lines: &[(LineKind, &str)]) -> Hunk {
        Hunk {
            header: "@@ -10,4 +10,5 @@".into(),
            old_start: 10,
            old_lines: 4,
            new_start: 10,
            new_lines: 5,
            lines: lines
                .iter()
                .map(|(kind, text)| DiffLine {
                    kind: *kind,
                    content: text.to_string(),
                    no_newline: false,
                })
                .collect(),
        }
    }

    /// A side as (number, text).
    type Shown<'a> = Option<(u32, &'a str)>;

    fn shown<'a>(pair: &Pair<'a>) -> (Shown<'a>, Shown<'a>) {
        (
            pair.old.map(|s| (s.number, s.text)),
            pair.new.map(|s| (s.number, s.text)),
        )
    }

    #[test]
    fn a_changed_line_sits_beside_its_new_text_and_context_shows_on_both_sides() {
        use LineKind::*;
        let h = hunk(&[
            (Context, "a"),
            (Removed, "b"),
            (Removed, "c"),
            (Added, "B"),
            (Context, "d"),
            (Added, "e"),
            (Added, "f"),
            (Removed, "g"),
        ]);
        let rows: Vec<_> = pairs(&h).iter().map(shown).collect();
        assert_eq!(
            rows,
            vec![
                (Some((10, "a")), Some((10, "a"))),
                (Some((11, "b")), Some((11, "B"))),
                (Some((12, "c")), None),
                (Some((13, "d")), Some((12, "d"))),
                (None, Some((13, "e"))),
                (None, Some((14, "f"))),
                (Some((14, "g")), None),
            ]
        );
    }
}
