//! The trailers of a message as `git interpret-trailers --parse` prints them (what
//! commitlint's trailer-exists reads): the last paragraph, when it is not the title and
//! its lines are all trailers (`Token: value`), or it holds one git writes itself
//! (`Signed-off-by: `, `(cherry picked from commit `) and at least a quarter are trailers.

/// The trailer lines of `message`, each as `Token: value`.
pub fn parse(message: &str) -> Vec<String> {
    let lines = message_lines(message);
    let Some(start) = block_start(&lines) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    let mut last_is_trailer = false;
    for line in &lines[start..] {
        if line.starts_with('#') {
            continue;
        }
        // A line that starts with blank space continues the trailer above it.
        if line.starts_with([' ', '\t']) {
            if last_is_trailer && let Some(last) = out.last_mut() {
                let more = line.trim();
                if !more.is_empty() {
                    if !last.ends_with(' ') {
                        last.push(' ');
                    }
                    last.push_str(more);
                }
            }
            continue;
        }
        last_is_trailer = match separator(line) {
            Some(at) if at >= 1 => {
                let token = line[..at].trim();
                let value = line[at + 1..].trim();
                out.push(format!("{token}: {value}"));
                true
            }
            _ => false,
        };
    }
    out
}

/// `new` with the trailers of `old` it lacks (`Signed-off-by:`, `Co-authored-by:`,
/// `Change-Id:` ...) added at its end: a message written anew for the same commit keeps who
/// signed it, who wrote it with them and the review it belongs to.
pub fn carry(old: &str, new: &str) -> String {
    let have = parse(new);
    let missing: Vec<String> = parse(old)
        .into_iter()
        .filter(|t| !have.iter().any(|h| h.eq_ignore_ascii_case(t)))
        .collect();
    let new = new.trim_end();
    if missing.is_empty() {
        return new.to_string();
    }
    // Into the trailer block the message ends with, else a block of their own.
    let joiner = if have.is_empty() { "\n\n" } else { "\n" };
    format!("{new}{joiner}{}", missing.join("\n"))
}

/// The message's lines up to a `---` line (a patch below it) and without the comment and
/// blank lines at its end.
fn message_lines(message: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = Vec::new();
    for line in message.split('\n') {
        if let Some(rest) = line.strip_prefix("---")
            && rest.starts_with(|c: char| c.is_ascii_whitespace())
        {
            break;
        }
        lines.push(line);
    }
    // The last `split` piece is what follows the final newline: not a line of its own.
    if message.ends_with('\n') && lines.len() == message.split('\n').count() {
        lines.pop();
    }
    while lines
        .last()
        .is_some_and(|l| l.starts_with('#') || is_blank(l))
    {
        lines.pop();
    }
    lines
}

/// Where the trailer block starts, as git's `find_trailer_block_start` decides.
fn block_start(lines: &[&str]) -> Option<usize> {
    const GIT_PREFIXES: [&str; 2] = ["Signed-off-by: ", "(cherry picked from commit "];
    // The first paragraph is the title and holds no trailers.
    let end_of_title = lines
        .iter()
        .position(|l| !l.starts_with('#') && is_blank(l))?;
    let (mut trailers, mut others, mut continuations) = (0usize, 0usize, 0usize);
    let mut recognised = false;
    let mut only_spaces = true;
    for i in (end_of_title..lines.len()).rev() {
        let line = lines[i];
        if line.starts_with('#') {
            others += continuations;
            continuations = 0;
            continue;
        }
        if is_blank(line) {
            if only_spaces {
                continue;
            }
            others += continuations;
            return if (recognised && trailers * 3 >= others) || (trailers > 0 && others == 0) {
                Some(i + 1)
            } else {
                None
            };
        }
        only_spaces = false;
        if GIT_PREFIXES.iter().any(|p| line.starts_with(p)) {
            trailers += 1;
            continuations = 0;
            recognised = true;
            continue;
        }
        let starts_blank = line.starts_with(|c: char| c.is_ascii_whitespace());
        match separator(line) {
            Some(at) if at >= 1 && !starts_blank => {
                trailers += 1;
                continuations = 0;
            }
            _ if starts_blank => continuations += 1,
            _ => {
                others += 1 + continuations;
                continuations = 0;
            }
        }
    }
    None
}

/// The byte index of the `:` after a token (letters, digits and `-`, then maybe blank
/// space), as git's `find_separator` finds it.
fn separator(line: &str) -> Option<usize> {
    let mut spaced = false;
    for (i, c) in line.char_indices() {
        if c == ':' {
            return Some(i);
        }
        if !spaced && (c.is_ascii_alphanumeric() || c == '-') {
            continue;
        }
        if i > 0 && (c == ' ' || c == '\t') {
            spaced = true;
            continue;
        }
        break;
    }
    None
}

fn is_blank(line: &str) -> bool {
    line.chars().all(|c| c.is_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_written_anew_keeps_the_old_ones_trailers() {
        let old = "wip\n\nSigned-off-by: Ada <a@x>\nChange-Id: I123";
        assert_eq!(
            carry(old, "Add the parser\n\nIt reads the input."),
            "Add the parser\n\nIt reads the input.\n\nSigned-off-by: Ada <a@x>\nChange-Id: I123"
        );
        // One the new message has already is not repeated; the rest join its block.
        assert_eq!(
            carry(old, "Add the parser\n\nSigned-off-by: Ada <a@x>\n"),
            "Add the parser\n\nSigned-off-by: Ada <a@x>\nChange-Id: I123"
        );
        assert_eq!(carry("wip", "Add the parser\n"), "Add the parser");
    }

    #[test]
    fn the_last_paragraph_of_trailers() {
        let message = "fix: x\n\nbody text\n\nSigned-off-by: A <a@x>\nReviewed-by : B\n";
        assert_eq!(
            parse(message),
            vec!["Signed-off-by: A <a@x>", "Reviewed-by: B"]
        );
    }

    #[test]
    fn a_title_alone_or_a_prose_paragraph_has_none() {
        assert!(parse("Signed-off-by: A <a@x>").is_empty());
        assert!(parse("fix: x\n\nThis is prose.\nCloses: #1\nmore prose\n").is_empty());
    }

    #[test]
    fn a_git_trailer_among_prose_and_continuations() {
        let message = "fix: x\n\nSigned-off-by: A\nsome prose\nmore prose\n";
        // One trailer of three lines, one of them git's: a quarter is enough.
        assert_eq!(parse(message), vec!["Signed-off-by: A"]);
        let folded = "fix: x\n\nNote: one\n  two\n";
        assert_eq!(parse(folded), vec!["Note: one two"]);
    }

    #[test]
    fn a_patch_and_trailing_comments_are_not_the_message() {
        let message = "fix: x\n\nAcked-by: A\n# comment\n\n--- \ndiff\nSigned-off-by: B\n";
        assert_eq!(parse(message), vec!["Acked-by: A"]);
    }
}
