//! A file's content with only some of its hunks applied, byte for byte: the old side outside
//! the taken hunks, the new side's own bytes inside them. Hunks come from one diff of the two
//! sides, so they are ordered and do not overlap on either side.

/// Where a hunk stands on both sides, as its `@@ -a,b +c,d @@` header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// The first line on the old side, 1-based (0 when that side is empty).
    pub old_start: u32,
    /// How many lines it covers on the old side.
    pub old_lines: u32,
    /// The first line on the new side, 1-based (0 when that side is empty).
    pub new_start: u32,
    /// How many lines it covers on the new side.
    pub new_lines: u32,
}

impl From<&crate::change::Hunk> for Span {
    fn from(h: &crate::change::Hunk) -> Self {
        Self {
            old_start: h.old_start,
            old_lines: h.old_lines,
            new_start: h.new_start,
            new_lines: h.new_lines,
        }
    }
}

/// The 0-based line range a side of a hunk covers. A side with no lines names the line
/// after which it stands (`-5,0`: between lines 5 and 6).
fn range(start: u32, lines: u32) -> (usize, usize) {
    let begin = if lines == 0 {
        start
    } else {
        start.saturating_sub(1)
    } as usize;
    (begin, begin + lines as usize)
}

/// `old` with the hunks `take` says yes to replaced by their lines of `new`. `None` when a
/// hunk does not fit the texts (they are not the two sides of its diff).
pub fn compose(
    old: &[u8],
    new: &[u8],
    spans: &[Span],
    take: impl Fn(usize) -> bool,
) -> Option<Vec<u8>> {
    let old_lines: Vec<&[u8]> = old.split_inclusive(|&b| b == b'\n').collect();
    let new_lines: Vec<&[u8]> = new.split_inclusive(|&b| b == b'\n').collect();
    let mut out = Vec::with_capacity(old.len().max(new.len()));
    let mut cursor = 0usize;
    for (i, span) in spans.iter().enumerate() {
        let (begin, end) = range(span.old_start, span.old_lines);
        let (new_begin, new_end) = range(span.new_start, span.new_lines);
        if begin < cursor || end > old_lines.len() || new_end > new_lines.len() {
            return None;
        }
        old_lines[cursor..begin]
            .iter()
            .for_each(|l| out.extend_from_slice(l));
        let lines = if take(i) {
            &new_lines[new_begin..new_end]
        } else {
            &old_lines[begin..end]
        };
        lines.iter().for_each(|l| out.extend_from_slice(l));
        cursor = end;
    }
    old_lines[cursor..]
        .iter()
        .for_each(|l| out.extend_from_slice(l));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(old_start: u32, old_lines: u32, new_start: u32, new_lines: u32) -> Span {
        Span {
            old_start,
            old_lines,
            new_start,
            new_lines,
        }
    }

    const OLD: &[u8] = b"a\nb\nc\nd\ne\nf\ng\nh\n";
    const NEW: &[u8] = b"a\nB\nc\nd\ne\nf\ng\nh\ni";
    /// Line 2 changed; a line without a newline added at the end (and h's newline kept).
    fn spans() -> Vec<Span> {
        vec![span(1, 3, 1, 3), span(7, 2, 7, 3)]
    }

    #[test]
    fn all_hunks_give_the_new_side_and_none_the_old() {
        assert_eq!(compose(OLD, NEW, &spans(), |_| true).as_deref(), Some(NEW));
        assert_eq!(compose(OLD, NEW, &spans(), |_| false).as_deref(), Some(OLD));
    }

    #[test]
    fn one_hunk_gives_its_lines_only() {
        let first = compose(OLD, NEW, &spans(), |i| i == 0).unwrap();
        assert_eq!(first, b"a\nB\nc\nd\ne\nf\ng\nh\n");
        let second = compose(OLD, NEW, &spans(), |i| i == 1).unwrap();
        assert_eq!(second, b"a\nb\nc\nd\ne\nf\ng\nh\ni");
    }

    #[test]
    fn insertions_and_deletions_stand_between_lines() {
        // "x" inserted after line 2; line 5 deleted.
        let new = b"a\nb\nx\nc\nd\nf\ng\nh\n";
        let spans = [span(2, 0, 3, 1), span(5, 1, 5, 0)];
        assert_eq!(
            compose(OLD, new, &spans, |_| true).as_deref(),
            Some(&new[..])
        );
        assert_eq!(
            compose(OLD, new, &spans, |i| i == 1).unwrap(),
            b"a\nb\nc\nd\nf\ng\nh\n"
        );
        // At the very top: inserted before line 1.
        let top = compose(b"b\n", b"a\nb\n", &[span(0, 0, 1, 1)], |_| true);
        assert_eq!(top.as_deref(), Some(&b"a\nb\n"[..]));
    }

    #[test]
    fn crlf_and_invalid_utf8_pass_through_untouched() {
        let old = b"one\r\n\xff\xfe\r\nthree\r\n";
        let new = b"one\r\n\xff\xfe!\r\nthree\r\n";
        assert_eq!(
            compose(old, new, &[span(1, 3, 1, 3)], |_| true).as_deref(),
            Some(&new[..])
        );
    }

    #[test]
    fn a_hunk_that_does_not_fit_is_refused() {
        assert_eq!(compose(b"a\n", b"b\n", &[span(3, 1, 3, 1)], |_| true), None);
        // Overlapping hunks.
        assert_eq!(
            compose(OLD, NEW, &[span(1, 3, 1, 3), span(2, 1, 2, 1)], |_| true),
            None
        );
    }
}
