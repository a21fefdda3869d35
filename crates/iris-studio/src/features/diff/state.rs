//! The diff shown in a pane: its files, where it is scrolled, and how its rows are laid out
//! (unified, or side by side).

use crate::side_by_side;
use iris_studio_core::change::{DiffLine, FileDiff, Hunk, LineKind};

/// The diff shown for the selected file.
#[derive(Debug, Clone, Default)]
pub struct DiffView {
    /// What the diff is of, as the pane's title names it: the file's path, or
    /// `commit <short id>`; `None` when nothing is selected.
    pub path: Option<String>,
    /// The file diffs shown, top to bottom: for a changed file its staged part then its
    /// unstaged part, for a commit every file it touches.
    pub files: Vec<FileDiff>,
    /// First visible line.
    pub scroll: usize,
    /// Columns scrolled past on the left, for long lines.
    pub hscroll: usize,
    /// Git is computing the diff (the title says loading).
    pub loading: bool,
    /// How many of `files` are the staged part (the rest are unstaged); `None` for a commit.
    pub staged: Option<usize>,
    /// Rows pair old | new side by side (see [`DiffView::set_paired`]).
    pub paired: bool,
}

impl DiffView {
    /// The rendered lines count (headers, hunk headers and lines), for scrolling bounds.
    pub fn line_count(&self) -> usize {
        self.places().len()
    }

    /// The view row showing line `line` of the new file `path` (or the nearest after it).
    pub fn row_of_new_line(&self, path: &str, line: u32) -> Option<usize> {
        self.places()
            .iter()
            .position(|p| self.files[p.file].path == path && p.line.is_some_and(|l| l >= line))
    }

    /// The file and the line (of its new version) that row `row` shows: a file's header is its
    /// first line, a hunk's header the hunk's first.
    pub fn new_line_at(&self, row: usize) -> Option<(&str, u32)> {
        let place = *self.places().get(row)?;
        let file = &self.files[place.file];
        let hunk_start = place.hunk.map(|h| file.hunks[h].new_start);
        let line = place.line.or(hunk_start).unwrap_or(1).max(1);
        Some((file.path.as_str(), line))
    }

    /// Line numbers (in the rendered view) where hunks start.
    pub fn hunk_starts(&self) -> Vec<usize> {
        self.hunks().into_iter().map(|h| h.row).collect()
    }

    /// Every hunk: the view row it starts on, its file (index in `files`) and its number
    /// counted in its side of the index (the staged or the unstaged diff), as git numbers them.
    pub fn hunks(&self) -> Vec<HunkPlace> {
        let mut in_side = 0;
        let mut last_file = None;
        let mut places = Vec::new();
        for (row, place) in self.places().into_iter().enumerate() {
            if place.hunk.is_none() || place.line.is_some() {
                continue;
            }
            if last_file != Some(place.file) && Some(place.file) == self.staged {
                in_side = 0; // the unstaged part starts counting again
            }
            last_file = Some(place.file);
            places.push(HunkPlace {
                row,
                file: place.file,
                in_side,
            });
            in_side += 1;
        }
        places
    }

    /// Whether file `index` of the view is a staged change (`None` for a commit's diff).
    pub fn is_staged(&self, index: usize) -> Option<bool> {
        self.staged.map(|staged| index < staged)
    }

    /// Lays the rows out side by side or unified, keeping the top row's line in view.
    pub fn set_paired(&mut self, paired: bool) {
        if self.paired == paired {
            return;
        }
        let top = self.places().get(self.scroll).copied();
        self.paired = paired;
        if let Some(top) = top {
            let places = self.places();
            self.scroll = places
                .iter()
                .position(|p| p.file == top.file && p.hunk == top.hunk && p.line >= top.line)
                .unwrap_or_else(|| self.scroll.min(places.len().saturating_sub(1)));
        }
    }

    /// The view's rows, top to bottom: each file's header, then each hunk's header and its
    /// lines (one a row, or paired old | new when [`DiffView::paired`]). Drawing and every
    /// count of rows go through this one layout.
    pub fn rows(&self) -> impl Iterator<Item = DiffRow<'_>> {
        self.files
            .iter()
            .enumerate()
            .flat_map(move |(index, file)| {
                let header = DiffRow::File(file, self.is_staged(index));
                let path = file.path.as_str();
                std::iter::once(header).chain(file.hunks.iter().flat_map(move |hunk| {
                    // Unpaired, a hunk's lines are not collected: a frame of a long diff
                    // walks its rows without allocating.
                    let lines = if self.paired {
                        Either::Left(
                            side_by_side::pairs(hunk)
                                .into_iter()
                                .map(move |pair| DiffRow::Pair(pair, path)),
                        )
                    } else {
                        Either::Right(hunk.lines.iter().map(move |l| DiffRow::Line(l, path)))
                    };
                    std::iter::once(DiffRow::Hunk(hunk)).chain(lines)
                }))
            })
    }

    /// Where each row of [`DiffView::rows`] is: its file, its hunk (none for the file's
    /// header) and, for a row of lines, the new file's line shown there (or the next one, on
    /// a row without one).
    fn places(&self) -> Vec<RowPlace> {
        let mut places = Vec::new();
        let (mut file, mut hunk, mut next) = (None::<usize>, None::<usize>, 1);
        for row in self.rows() {
            let line = match row {
                DiffRow::File(..) => {
                    file = Some(file.map_or(0, |f| f + 1));
                    hunk = None;
                    None
                }
                DiffRow::Hunk(h) => {
                    hunk = Some(hunk.map_or(0, |h| h + 1));
                    next = h.new_start;
                    None
                }
                DiffRow::Line(diff_line, _) => {
                    let line = next;
                    if diff_line.kind != LineKind::Removed {
                        next += 1;
                    }
                    Some(line)
                }
                DiffRow::Pair(pair, _) => {
                    let line = pair.new.map_or(next, |side| side.number);
                    next = pair.new.map_or(next, |side| side.number + 1);
                    Some(line)
                }
            };
            places.push(RowPlace {
                file: file.unwrap_or(0),
                hunk,
                line,
            });
        }
        places
    }
}

/// One row of the view.
#[derive(Debug, Clone, Copy)]
pub enum DiffRow<'a> {
    /// A file's header: the file, and whether it is the staged part (`None` in a commit).
    File(&'a FileDiff, Option<bool>),
    /// A hunk's `@@ -a,b +c,d @@` header.
    Hunk(&'a Hunk),
    /// A line, of the file at the path.
    Line(&'a DiffLine, &'a str),
    /// Side by side: the old line and the new one, of the file at the path.
    Pair(side_by_side::Pair<'a>, &'a str),
}

/// A row of the view, by what it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RowPlace {
    file: usize,
    hunk: Option<usize>,
    line: Option<u32>,
}

/// Where a hunk of the diff view is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HunkPlace {
    /// The view row its header is on.
    pub row: usize,
    /// Its file's index in [`DiffView::files`].
    pub file: usize,
    /// Its number in its side (staged or unstaged) of the index, from 0, as git numbers the
    /// hunks to stage or unstage.
    pub in_side: usize,
}

/// One iterator or the other, as one type.
enum Either<L, R> {
    Left(L),
    Right(R),
}

impl<T, L: Iterator<Item = T>, R: Iterator<Item = T>> Iterator for Either<L, R> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match self {
            Either::Left(l) => l.next(),
            Either::Right(r) => r.next(),
        }
    }
}
