//! The little markdown a template needs read (pure): its HTML comments, its code fences, its
//! headings and its checkbox lines.

/// A code fence that is open: its character (`` ` `` or `~`) and its length.
type Fence = (char, usize);

/// The fence a line opens or closes (up to three spaces of indent, three or more backticks
/// or tildes).
fn fence_marker(line: &str) -> Option<Fence> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let c = rest.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let run = rest.chars().take_while(|&x| x == c).count();
    (run >= 3).then_some((c, run))
}

/// Tracks whether a line is inside a fenced code block.
#[derive(Debug, Default)]
struct Fences {
    open: Option<Fence>,
}

impl Fences {
    /// Whether `line` is code (a fence line itself counts as code), moving the state on.
    fn is_code(&mut self, line: &str) -> bool {
        match (self.open, fence_marker(line)) {
            (None, Some(marker)) => {
                self.open = Some(marker);
                true
            }
            (Some((c, run)), Some((c2, run2))) if c == c2 && run2 >= run => {
                // A closing fence carries nothing after its marker.
                if line.trim().chars().all(|x| x == c) {
                    self.open = None;
                }
                true
            }
            (Some(_), _) => true,
            (None, None) => false,
        }
    }
}

/// The lines of `text` that are not code, with their index.
pub fn prose_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fences = Fences::default();
    text.lines()
        .enumerate()
        .filter(move |(_, line)| !fences.is_code(line))
}

const OPEN: &str = "<!--";
const CLOSE: &str = "-->";

/// `text` without its HTML comments, and the comments' texts (trimmed, in order): the
/// template's instructions. A line that held only comments goes with them, text beside an
/// inline comment stays, and runs of blank lines become one (outside code). A `<!--` that
/// is never closed runs to the end, as in HTML. Comments inside fenced code are code.
pub fn split_comments(text: &str) -> (String, Vec<String>) {
    let mut out: Vec<String> = Vec::new();
    let mut comments = Vec::new();
    let mut fences = Fences::default();
    // The comment being read (it may span lines).
    let mut open: Option<String> = None;
    for line in text.lines() {
        if open.is_none() && fences.is_code(line) {
            out.push(line.to_string());
            continue;
        }
        let mut kept = String::new();
        let mut had_comment = open.is_some();
        let mut rest = line;
        loop {
            if let Some(comment) = open.as_mut() {
                match rest.find(CLOSE) {
                    Some(end) => {
                        comment.push_str(&rest[..end]);
                        comments.push(comment.trim().to_string());
                        open = None;
                        rest = &rest[end + CLOSE.len()..];
                    }
                    None => {
                        comment.push_str(rest);
                        comment.push('\n');
                        break;
                    }
                }
            } else {
                match comment_start(rest) {
                    Some(start) => {
                        kept.push_str(&rest[..start]);
                        had_comment = true;
                        open = Some(String::new());
                        rest = &rest[start + OPEN.len()..];
                    }
                    None => {
                        kept.push_str(rest);
                        break;
                    }
                }
            }
        }
        if had_comment && kept.trim().is_empty() {
            continue;
        }
        let kept = kept.trim_end();
        if kept.is_empty() && out.last().is_none_or(|l| l.trim().is_empty()) {
            continue;
        }
        out.push(kept.to_string());
    }
    if let Some(comment) = open {
        comments.push(comment.trim().to_string());
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    comments.retain(|c| !c.is_empty());
    (out.join("\n"), comments)
}

/// Where the first `<!--` of `line` outside inline code spans starts: `` `<!--` `` is code
/// that shows the marker, not a comment.
fn comment_start(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let run_at = |at: usize| bytes[at..].iter().take_while(|&&b| b == b'`').count();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'`' {
            let run = run_at(at);
            // A span closes at the next run of as many backticks; without one the
            // backticks are plain text.
            let mut end = at + run;
            let mut closed = None;
            while end < bytes.len() {
                if bytes[end] == b'`' {
                    let other = run_at(end);
                    if other == run {
                        closed = Some(end + other);
                        break;
                    }
                    end += other;
                } else {
                    end += 1;
                }
            }
            at = closed.unwrap_or(at + run);
            continue;
        }
        if bytes[at..].starts_with(OPEN.as_bytes()) {
            return Some(at);
        }
        at += 1;
    }
    None
}

/// `text` without its HTML comments (see [`split_comments`]).
pub fn strip_comments(text: &str) -> String {
    split_comments(text).0
}

/// An ATX heading: its level (1 to 6) and its text, closing hashes removed.
pub fn heading(line: &str) -> Option<(usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let level = rest.chars().take_while(|&c| c == '#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let after = &rest[level..];
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let text = after.trim();
    let without = text.trim_end_matches('#');
    let text = if without.is_empty() || without.ends_with([' ', '\t']) {
        without.trim_end()
    } else {
        text
    };
    Some((level, text))
}

/// A task list item (`- [ ] label`, `* [x] label`, `1. [ ] label`): whether it is ticked,
/// and its label.
pub fn checkbox(line: &str) -> Option<(bool, &str)> {
    let rest = line.trim_start();
    let rest = if let Some(r) = rest.strip_prefix(['-', '*', '+']) {
        r
    } else {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        rest[digits..].strip_prefix(['.', ')'])?
    };
    let rest = rest.strip_prefix([' ', '\t'])?.trim_start();
    let (checked, label) = if let Some(label) = rest.strip_prefix("[ ]") {
        (false, label)
    } else if let Some(label) = rest
        .strip_prefix("[x]")
        .or_else(|| rest.strip_prefix("[X]"))
    {
        (true, label)
    } else {
        return None;
    };
    if !(label.is_empty() || label.starts_with([' ', '\t'])) {
        return None;
    }
    Some((checked, label.trim()))
}

/// How a heading or a checkbox label is compared: case, emphasis markers, spacing and a
/// trailing colon do not count.
pub fn key(text: &str) -> String {
    let plain: String = text
        .chars()
        .filter(|c| !matches!(c, '*' | '_' | '`'))
        .collect::<String>()
        .to_lowercase();
    plain
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches(':')
        .trim_end()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_marker_in_inline_code_is_code() {
        let text = "Handles `<!--` here\n## Next\n- [ ] a <!-- gone -->\n``a `<!--` b``";
        assert_eq!(
            strip_comments(text),
            "Handles `<!--` here\n## Next\n- [ ] a\n``a `<!--` b``"
        );
        assert_eq!(comment_start("日本 `x` <!-- y"), Some(11));
        assert_eq!(comment_start("an ` unclosed <!-- y"), Some(14));
    }

    #[test]
    fn a_comment_alone_on_its_lines_goes_with_them() {
        let template = "## What\n\n<!-- Say what changed.\n     Two lines of it. -->\n\n## Why\n<!-- one -->\n\nText\n";
        let (text, comments) = split_comments(template);
        assert_eq!(text, "## What\n\n## Why\n\nText");
        assert_eq!(
            comments,
            vec!["Say what changed.\n     Two lines of it.", "one"]
        );
    }

    #[test]
    fn text_beside_an_inline_comment_stays() {
        let (text, comments) = split_comments(
            "Fixes #<!-- the issue --> 12 <!--a--><!--b-->done\n- [ ] Docs <!-- if any -->",
        );
        assert_eq!(text, "Fixes # 12 done\n- [ ] Docs");
        assert_eq!(comments, vec!["the issue", "a", "b", "if any"]);
    }

    #[test]
    fn a_comment_that_starts_after_text_and_ends_lines_later() {
        let (text, comments) = split_comments("Intro <!-- begins\nmiddle\nends --> tail\nnext");
        // The line break stays: a soft break in the paragraph, as the comment's was.
        assert_eq!(text, "Intro\n tail\nnext");
        assert_eq!(comments, vec!["begins\nmiddle\nends"]);
    }

    #[test]
    fn an_unclosed_comment_runs_to_the_end() {
        let (text, comments) = split_comments("## A\nkept\n<!-- never closed\n## B\n");
        assert_eq!(text, "## A\nkept");
        assert_eq!(comments, vec!["never closed\n## B"]);
    }

    #[test]
    fn comments_in_code_are_code_and_blank_runs_collapse_outside_it() {
        let template = "```html\n<!-- markup -->\n\n\n```\n\n\n\n<!-- gone -->\n\nafter";
        let (text, comments) = split_comments(template);
        assert_eq!(text, "```html\n<!-- markup -->\n\n\n```\n\nafter");
        assert_eq!(comments, vec!["gone"]);
    }

    #[test]
    fn headings_are_atx_lines_of_one_to_six_hashes() {
        assert_eq!(heading("## Summary"), Some((2, "Summary")));
        assert_eq!(heading("   ###   Test plan ###"), Some((3, "Test plan")));
        assert_eq!(heading("#"), Some((1, "")));
        assert_eq!(heading("####### seven"), None);
        assert_eq!(heading("#hashtag"), None);
        assert_eq!(heading("    ## code"), None);
        assert_eq!(heading("## C#"), Some((2, "C#")));
    }

    #[test]
    fn checkboxes_are_task_list_items_ticked_or_not() {
        assert_eq!(checkbox("- [ ] Tests added"), Some((false, "Tests added")));
        assert_eq!(checkbox("  * [x] Docs"), Some((true, "Docs")));
        assert_eq!(checkbox("+ [X] Big"), Some((true, "Big")));
        assert_eq!(checkbox("1. [ ] First"), Some((false, "First")));
        assert_eq!(checkbox("- [ ]"), Some((false, "")));
        assert_eq!(checkbox("- [link](url)"), None);
        assert_eq!(checkbox("-[ ] tight"), None);
        assert_eq!(checkbox("[ ] bare"), None);
        assert_eq!(checkbox("- [x]y"), None);
    }

    #[test]
    fn keys_ignore_case_emphasis_spacing_and_a_colon() {
        assert_eq!(key("**Checklist**:"), "checklist");
        assert_eq!(
            key("  How  Has This Been   Tested? "),
            "how has this been tested?"
        );
    }

    #[test]
    fn prose_lines_skip_fenced_code() {
        let lines: Vec<usize> = prose_lines("a\n~~~\n# not\n~~~~\nb\n````\n```\n````\nc")
            .map(|(i, _)| i)
            .collect();
        assert_eq!(lines, vec![0, 4, 8]);
    }
}
