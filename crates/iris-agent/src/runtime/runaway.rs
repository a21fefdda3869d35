//! A reply that has stopped saying anything: the same chunk (a word, a line, a few lines) over
//! and over at its end, or nothing but blank space. Lines that recur apart from each other
//! are no sign: a review's JSON repeats `"severity": "low",` once per finding. Weak local models fall into such loops and would fill their whole output
//! budget (minutes on a CPU); the stream is cut as soon as the loop is plain.

/// Why a reply was judged degenerate, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Degenerate(pub String);

/// The shortest span of repetition that counts (bytes), so a short legitimate repeat
/// ("----", a few identical table rows) never does.
const MIN_REPEATED_BYTES: usize = 600;
/// The fewest repetitions of one chunk that count.
const MIN_REPEATS: usize = 8;
/// Longest repeating chunk looked for (bytes).
const MAX_PERIOD: usize = 400;
/// This much blank space at the end of a reply is no progress.
const MAX_BLANK_TAIL: usize = 2_000;

/// Checks a reply so far. Cheap enough to run every few hundred characters of a stream.
pub fn check(text: &str) -> Option<Degenerate> {
    blank_tail(text)
        .or_else(|| repeating_tail(text))
        .or_else(|| monotone_tail(text))
        .or_else(|| circling_tail(text))
}

/// Bytes at the end of a reply looked at for circling (blank space collapsed).
const CIRCLE_WINDOW: usize = 1_200;
/// Length of the pieces compared.
const SHINGLE: usize = 16;
/// Below this share of different pieces, the reply goes round in circles.
const MIN_VARIETY: f64 = 0.2;

/// The same few phrases again and again with small changes between them, which no single
/// period describes: few of the 16-byte pieces of the tail differ from each other. Blank
/// space is collapsed first, so padded tables count for their words; in this project's own
/// source and docs at least a third of any window's pieces differ, in a loop a handful.
fn circling_tail(text: &str) -> Option<Degenerate> {
    let mut start = text.len().saturating_sub(4 * CIRCLE_WINDOW);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let raw = &text[start..];
    let collapsed = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let bytes = collapsed.as_bytes();
    if bytes.len() < CIRCLE_WINDOW {
        // Thousands of bytes that collapse to a few hundred: blank space with a word here
        // and there, which is no more progress than blank space alone.
        let mostly_blank = raw.len() >= 4 * CIRCLE_WINDOW;
        return mostly_blank.then(|| {
            Degenerate(format!(
                "the reply made no progress (its last {} bytes hold only {} of text)",
                raw.len(),
                bytes.len()
            ))
        });
    }
    let tail = &bytes[bytes.len() - CIRCLE_WINDOW..];
    let pieces = tail.windows(SHINGLE);
    let total = pieces.len();
    let distinct: std::collections::HashSet<&[u8]> = pieces.collect();
    let variety = distinct.len() as f64 / total as f64;
    (variety < MIN_VARIETY).then(|| {
        Degenerate(format!(
            "the reply goes round in circles (only {:.0}% of its last {CIRCLE_WINDOW} bytes differ)",
            variety * 100.0
        ))
    })
}

/// Bytes at the end of a reply that must show some variety.
const MONOTONE_WINDOW: usize = 800;
/// At most this many different characters in that window is no longer writing.
const MONOTONE_CHARS: usize = 4;

/// The same few characters in an irregular pattern ("🍵 🍵🍵 🍵", "#\n##\n#"), which no
/// single period describes.
fn monotone_tail(text: &str) -> Option<Degenerate> {
    if text.len() < MONOTONE_WINDOW {
        return None;
    }
    let mut start = text.len() - MONOTONE_WINDOW;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let tail = &text[start..];
    let mut seen: Vec<char> = Vec::new();
    for c in tail.chars().filter(|c| !c.is_whitespace()) {
        if !seen.contains(&c) {
            seen.push(c);
            if seen.len() > MONOTONE_CHARS {
                return None;
            }
        }
    }
    let shown: String = seen.iter().collect();
    Some(Degenerate(format!(
        "the reply keeps writing the same few characters (\"{shown}\")"
    )))
}

fn blank_tail(text: &str) -> Option<Degenerate> {
    let blank = text.len() - text.trim_end().len();
    (blank >= MAX_BLANK_TAIL && text.len() >= MAX_BLANK_TAIL).then(|| {
        Degenerate(format!(
            "the reply made no progress ({blank} characters of blank space)"
        ))
    })
}

/// The end of the text is one chunk repeated: for some period p, every byte of the last
/// `max(MIN_REPEATED_BYTES, MIN_REPEATS * p)` equals the one p before it. Measured in bytes,
/// which follow tokens more closely than characters do (an emoji is one character and
/// several tokens).
fn repeating_tail(text: &str) -> Option<Degenerate> {
    let bytes = text.as_bytes();
    // Only the tail can repeat; look at no more than it takes.
    let tail = &bytes[bytes
        .len()
        .saturating_sub(MAX_PERIOD * MIN_REPEATS + MAX_PERIOD)..];
    let n = tail.len();
    for period in 1..=MAX_PERIOD.min(n / 2) {
        let span = (MIN_REPEATS * period).max(MIN_REPEATED_BYTES);
        if span + period > n {
            break;
        }
        if !(n - span..n).all(|i| tail[i] == tail[i - period]) {
            continue;
        }
        // The repeated chunk, from the first character boundary of its last copy.
        let mut start = text.len() - period;
        while !text.is_char_boundary(start) {
            start += 1;
        }
        let chunk = text[start..].trim();
        if chunk.is_empty() {
            continue; // blank space is blank_tail's to judge
        }
        return Some(Degenerate(format!(
            "the reply repeats itself (\"{}\" over and over)",
            shorten(chunk)
        )));
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

/// A streamed part of a reply that no hook hands over whole (a tool call's arguments, the
/// reasoning), gathered and watched.
#[derive(Debug, Default)]
pub struct Gathered {
    text: String,
    watch: Watch,
}

impl Gathered {
    /// Adds `delta` and checks the whole so far.
    pub fn push(&mut self, delta: &str) -> Option<Degenerate> {
        self.text.push_str(delta);
        self.watch.observe(&self.text)
    }

    /// What was gathered since the part began.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// A new part begins (the next tool call, the next turn's reasoning).
    pub fn restart(&mut self) {
        self.text.clear();
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
    fn the_same_heading_lines_over_and_over_are_caught() {
        let text = "Some prose first.\n".to_string() + &"#\n##\n".repeat(400);
        assert!(check(&text).is_some());
        let hashes = "Intro.\n".to_string() + &"#\n".repeat(400);
        assert!(check(&hashes).is_some());
    }

    #[test]
    fn the_same_few_characters_in_no_fixed_pattern_are_caught() {
        // Spaces at pseudo-random places: no period describes it.
        let mut seed: u32 = 7;
        let noise: String = (0..900)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                if (seed >> 16).is_multiple_of(4) {
                    " "
                } else {
                    "🍵"
                }
            })
            .collect();
        assert_eq!(
            repeating_tail(&noise),
            None,
            "the test needs an irregular pattern"
        );
        let found = check(&format!("{{\"title\": \"Tea\", \"message\": \"{noise}")).unwrap();
        assert!(found.0.contains("same few characters"), "{}", found.0);
    }

    #[test]
    fn an_emoji_loop_is_caught_within_a_few_hundred_tokens() {
        // An emoji is one character but four bytes and several tokens.
        let text = "{\"title\": \"x\", \"message\": \"".to_string() + &"💻".repeat(160);
        assert!(check(&text).unwrap().0.contains("💻"));
    }

    #[test]
    fn phrases_repeated_with_small_changes_are_caught() {
        let mut seed: u32 = 3;
        let mut text = String::from("{\"title\": \"x\", \"findings\": [");
        while text.len() < 3_000 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            text.push_str(match (seed >> 16) % 3 {
                0 => "\"highlight.js.minimal\", ",
                1 => "\"\", \"highlight.js.minimal\",",
                _ => " \"highlight.js\", ",
            });
        }
        assert_eq!(
            repeating_tail(&text),
            None,
            "the test needs an irregular pattern"
        );
        assert!(check(&text).unwrap().0.contains("round in circles"));
    }

    #[test]
    fn blank_space_is_no_progress() {
        let text = "{\"title\": \"x\"".to_string() + &"\n".repeat(2_500);
        assert!(check(&text).unwrap().0.contains("no progress"));
        let mut seed: u32 = 5;
        let sparse: String = (0..600)
            .map(|i| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let gap = " ".repeat(16 + (seed >> 16) as usize % 24);
                format!("{gap}w{i}\n")
            })
            .collect();
        assert!(
            check(&sparse).unwrap().0.contains("no progress"),
            "words lost in blank space"
        );
    }

    #[test]
    fn ordinary_replies_pass() {
        let review: String = (0..60)
            .map(|i| format!("- Finding {i}: the function `parse_{i}` ignores an error.\n"))
            .collect();
        assert_eq!(check(&review), None);
        let findings: Vec<serde_json::Value> = (0..60)
            .map(|i| serde_json::json!({"title": format!("Finding {i}"), "severity": "low",
                                        "suggestion": null, "end_line": null,
                                        "body": format!("`parse_{i}` drops the error of step {}.", i * 7)}))
            .collect();
        let pretty = serde_json::to_string_pretty(&findings).unwrap_or_default();
        assert_eq!(check(&pretty), None, "recurring lines apart are not a loop");
        let table = "| a | b |\n|---|---|\n".to_string() + &"| x | y |\n".repeat(6);
        assert_eq!(check(&table), None);
        let padded: String = (0..60)
            .map(|i| format!("| option_{i:<20} | {:<30} | default {i:>5} |\n", i * 37))
            .collect();
        assert_eq!(check(&padded), None, "padding is not a loop");
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
        let looped = "again and again ".repeat(200);
        assert_eq!(watch.observe(&looped[..100]), None, "too early to check");
        assert!(watch.observe(&looped[..1_600]).is_some());
        assert_eq!(watch.observe(&looped[..1_600]), None, "checked already");
        assert_eq!(watch.observe(&looped[..1_855]), None, "too little new");
        assert!(watch.observe(&looped[..1_856]).is_some());
        // A shorter text is a new reply, checked from its start.
        assert!(watch.observe(&looped[..800]).is_some());
    }

    #[test]
    fn a_gathered_part_is_its_pieces_until_it_restarts() {
        let mut call = Gathered::default();
        assert_eq!(call.push("{\"content\": "), None);
        assert_eq!(call.push("\"Add\""), None);
        assert_eq!(call.text(), "{\"content\": \"Add\"");
        call.restart();
        assert_eq!(call.text(), "");
        let looped = "again and again ".repeat(100);
        assert!(
            looped
                .as_bytes()
                .chunks(100)
                .any(|piece| { call.push(std::str::from_utf8(piece).unwrap()).is_some() })
        );
    }

    /// `len` letters that look random, from `seed`.
    fn letters(len: usize, mut seed: u32) -> String {
        (0..len)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                char::from(b'a' + ((seed >> 16) % 26) as u8)
            })
            .collect()
    }

    #[test]
    fn a_chunk_must_come_eight_times_and_may_be_four_hundred_bytes_long() {
        let prose = letters(900, 11);
        let chunk = letters(400, 12);
        // Nine copies: eight of them each the same as the one before.
        let nine = format!("{prose}{}", chunk.repeat(9));
        let found = repeating_tail(&nine).expect("a 400-byte loop");
        assert!(found.0.contains(&chunk[..40]), "{}", found.0);
        assert_eq!(repeating_tail(&format!("{prose}{}", chunk.repeat(8))), None);
        // A short chunk needs 600 bytes of repeats, a longer one eight copies.
        let short = letters(100, 13);
        assert_eq!(repeating_tail(&format!("{prose}{}", short.repeat(7))), None);
        assert!(repeating_tail(&format!("{prose}{}", short.repeat(9))).is_some());
        // The chunk said is the repeated one, whole.
        let said = repeating_tail(&format!("{prose}{}", "again and again ".repeat(60))).unwrap();
        assert_eq!(
            said.0,
            "the reply repeats itself (\"again and again\" over and over)"
        );
    }

    #[test]
    fn four_characters_are_too_few_and_five_are_writing() {
        let irregular = |alphabet: &[char]| -> String {
            let mut seed: u32 = 9;
            (0..800)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    alphabet[(seed >> 16) as usize % alphabet.len()]
                })
                .collect()
        };
        assert!(monotone_tail(&irregular(&['a', 'b', 'c', 'd'])).is_some());
        assert_eq!(monotone_tail(&irregular(&['a', 'b', 'c', 'd', 'e'])), None);
        // The window is 800 bytes: fewer are not judged.
        assert!(monotone_tail(&"#".repeat(800)).is_some());
        assert_eq!(monotone_tail(&"#".repeat(799)), None);
    }

    #[test]
    fn circling_is_judged_on_the_last_1200_bytes_below_a_fifth_of_them_differing() {
        // Exactly 1,200 bytes going round: judged.
        assert!(circling_tail(&"ab".repeat(600)).is_some());
        // Varied text before them does not count.
        let varied = letters(2_500, 21);
        assert!(circling_tail(&format!("{varied}{}", "ab".repeat(650))).is_some());
        // A 237-byte cycle: 237 of the 1,185 pieces differ, a fifth exactly: not circling.
        let cycle = letters(237, 22);
        let fifth = cycle.repeat(6)[..1_200].to_string();
        assert_eq!(circling_tail(&fifth), None);
        // A few words in 1,860 bytes of blank space: too short to call it no progress.
        assert_eq!(
            circling_tail(&format!("w{}", " ".repeat(30)).repeat(60)),
            None
        );
    }
}
