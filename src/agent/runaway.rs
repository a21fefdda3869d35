//! A reply that has stopped saying anything: the same chunk or line over and over, or nothing
//! but blank space. Weak local models fall into such loops and would fill their whole output
//! budget (minutes on a CPU); the stream is cut as soon as the loop is plain.

/// Why a reply was judged degenerate, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Degenerate(pub String);

/// The shortest span of repetition that counts (characters), so a short legitimate repeat
/// ("----", a few identical table rows) never does.
const MIN_REPEATED_CHARS: usize = 600;
/// The fewest repetitions of one chunk that count.
const MIN_REPEATS: usize = 8;
/// Longest repeating chunk looked for (characters).
const MAX_PERIOD: usize = 400;
/// The same non-blank line this many times in the reply is a loop, wherever the copies are.
const MAX_SAME_LINE: usize = 30;
/// This much blank space at the end of a reply is no progress.
const MAX_BLANK_TAIL: usize = 2_000;

/// Checks a reply so far. Cheap enough to run every few hundred characters of a stream.
pub fn check(text: &str) -> Option<Degenerate> {
    blank_tail(text)
        .or_else(|| repeating_tail(text))
        .or_else(|| same_line(text))
}

fn blank_tail(text: &str) -> Option<Degenerate> {
    let blank = text.len() - text.trim_end().len();
    (blank >= MAX_BLANK_TAIL && text.len() >= MAX_BLANK_TAIL).then(|| {
        Degenerate(format!(
            "the reply made no progress ({blank} characters of blank space)"
        ))
    })
}

/// The end of the text is one chunk repeated: for some period p, every character of the last
/// `max(MIN_REPEATED_CHARS, MIN_REPEATS * p)` equals the one p before it.
fn repeating_tail(text: &str) -> Option<Degenerate> {
    let chars: Vec<char> = {
        // Only the tail can repeat; look at no more than it takes.
        let window = MAX_PERIOD * MIN_REPEATS + MAX_PERIOD;
        let start = text.char_indices().rev().nth(window).map_or(0, |(i, _)| i);
        text[start..].chars().collect()
    };
    let n = chars.len();
    for period in 1..=MAX_PERIOD.min(n / 2) {
        let span = (MIN_REPEATS * period).max(MIN_REPEATED_CHARS);
        if span + period > n {
            break;
        }
        let repeats = (n - span..n).all(|i| chars[i] == chars[i - period]);
        if repeats {
            let chunk: String = chars[n - period..].iter().collect();
            if chunk.trim().is_empty() {
                continue; // blank space is blank_tail's to judge
            }
            return Some(Degenerate(format!(
                "the reply repeats itself (\"{}\" over and over)",
                shorten(chunk.trim())
            )));
        }
    }
    None
}

fn same_line(text: &str) -> Option<Degenerate> {
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for line in text.lines().map(str::trim).filter(|l| l.len() >= 2) {
        let count = counts.entry(line).or_default();
        *count += 1;
        if *count >= MAX_SAME_LINE {
            return Some(Degenerate(format!(
                "the reply repeats the line \"{}\" {MAX_SAME_LINE} times",
                shorten(line)
            )));
        }
    }
    None
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// Checks a growing stream every [`STEP`] characters, so the cost stays linear.
#[derive(Debug, Default)]
pub struct Watch {
    checked_at: usize,
}

/// Characters of new text between two checks.
const STEP: usize = 256;

impl Watch {
    /// Checks `text` (the reply so far) when enough has been added since the last check.
    pub fn observe(&mut self, text: &str) -> Option<Degenerate> {
        if text.len() < self.checked_at {
            self.checked_at = 0; // a new reply
        }
        if text.len() < self.checked_at + STEP {
            return None;
        }
        self.checked_at = text.len();
        check(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_sentence_is_caught() {
        let mut text = String::from("{\"title\": \"Version 1.1.2\", \"body\": \"");
        for _ in 0..20 {
            text.push_str("This is the first version of the version 1.1.2 Git-Patch. ");
        }
        let found = check(&text).expect("degenerate");
        assert!(found.0.contains("repeats itself"), "{}", found.0);
    }

    #[test]
    fn the_same_heading_line_over_and_over_is_caught() {
        let text = "Some prose first.\n".to_string() + &"#\n##\n".repeat(400);
        assert!(check(&text).is_some());
        let lines: String = (0..40).map(|i| format!("# Heading\nline {i}\n")).collect();
        assert!(check(&lines).unwrap().0.contains("# Heading"));
    }

    #[test]
    fn blank_space_is_no_progress() {
        let text = "{\"title\": \"x\"".to_string() + &"\n".repeat(2_500);
        assert!(check(&text).unwrap().0.contains("no progress"));
    }

    #[test]
    fn ordinary_replies_pass() {
        let review: String = (0..60)
            .map(|i| format!("- Finding {i}: the function `parse_{i}` ignores an error.\n"))
            .collect();
        assert_eq!(check(&review), None);
        let table = "| a | b |\n|---|---|\n".to_string() + &"| x | y |\n".repeat(6);
        assert_eq!(check(&table), None);
        let json = serde_json::json!({
            "title": "Add the parser",
            "body": "word ".repeat(20),
        })
        .to_string();
        assert_eq!(check(&json), None, "a short repeat is not a loop");
        assert_eq!(check(""), None);
    }

    #[test]
    fn a_watch_checks_only_every_few_hundred_characters() {
        let mut watch = Watch::default();
        let looped = "again and again ".repeat(100);
        assert_eq!(watch.observe(&looped[..100]), None, "too early to check");
        assert!(watch.observe(&looped).is_some());
    }
}
