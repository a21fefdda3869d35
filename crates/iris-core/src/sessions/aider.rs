//! aider's chat history: `.aider.chat.history.md` in the repository, appended to by every
//! session. `# aider chat started at YYYY-MM-DD HH:MM:SS` (local time) opens a session; each
//! line of the user's input starts with `#### `; aider's own output is quoted (`> `), where
//! `> Applied edit to PATH` names a file it edited; the rest is the model's reply. aider
//! times its sessions, not their turns: a turn was said between its session's start and the
//! next session's (or the file's last change).

use super::{Turn, When, last_turns, parse_local};

/// The line that opens a session.
const STARTED: &str = "# aider chat started at ";
/// The start of each line of the user's input.
const USER: &str = "#### ";
/// aider's line naming a file it edited.
const APPLIED: &str = "> Applied edit to ";

/// The user's turns in the history `text`; `changed` is when the file last changed and
/// `offset` the local time's offset east of UTC in seconds (aider writes local times).
pub fn turns(text: &str, changed: i64, offset: i64) -> Vec<Turn> {
    // Each turn with the start of its session; the end is known once the next one starts.
    let mut turns: Vec<(i64, Turn)> = Vec::new();
    let mut ends: Vec<(usize, i64)> = Vec::new();
    // Turns before the first header (a history read from its middle) started before it.
    let mut start = i64::MIN;
    let mut typing: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix(USER) {
            let part = rest.trim_end();
            match &mut typing {
                Some(text) => {
                    text.push('\n');
                    text.push_str(part);
                }
                None => typing = Some(part.to_string()),
            }
            continue;
        }
        flush(&mut typing, &mut turns, start);
        if let Some(time) = line.strip_prefix(STARTED) {
            if let Some(started) = parse_local(time, offset) {
                ends.push((turns.len(), started));
                start = started;
            }
        } else if let Some(path) = line.strip_prefix(APPLIED)
            && let Some((_, turn)) = turns.last_mut()
        {
            turn.named(path.trim_end());
        }
    }
    flush(&mut typing, &mut turns, start);
    // A turn's session ends where the next one starts (its start is the first index past it).
    let mut turns: Vec<Turn> = turns
        .into_iter()
        .enumerate()
        .map(|(i, (start, mut turn))| {
            let end = ends
                .iter()
                .find(|(first, _)| *first > i)
                .map_or(changed, |(_, next)| *next);
            turn.when = When::Between(start, end.max(start));
            turn
        })
        .collect();
    turns.retain(|t| !t.text.is_empty());
    last_turns(turns)
}

/// The input being typed, ended: a turn of the session started at `start`, when it says
/// something.
fn flush(typing: &mut Option<String>, turns: &mut Vec<(i64, Turn)>, start: i64) {
    if let Some(text) = typing.take()
        && let Some(text) = said(&text)
    {
        turns.push((start, Turn::new(When::At(start), &text)));
    }
}

/// What the user said in `input`: a chat command's own words (`/ask`, `/code`,
/// `/architect`), no other command, and `<blank>` (aider's word for an empty input) none.
fn said(input: &str) -> Option<String> {
    let input = input.trim();
    if input.is_empty() || input == "<blank>" {
        return None;
    }
    let Some(command) = input.strip_prefix('/') else {
        return Some(input.to_string());
    };
    let (name, rest) = command.split_once(char::is_whitespace)?;
    ["ask", "code", "architect"]
        .contains(&name)
        .then(|| rest.trim().to_string())
        .filter(|rest| !rest.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = include_str!("../../../../tests/fixtures/sessions/aider.chat.history.md");

    #[test]
    fn the_users_lines_are_turns_timed_by_their_session() {
        // The fixture's sessions start at 2025-08-19 09:00:00 and 2025-08-20 16:26:40 local
        // time, two hours east of UTC.
        let turns = turns(FIXTURE, 1_755_710_000, 7200);
        let texts: Vec<&str> = turns.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Rename the helper module, nobody knows what util means",
                "Send the invoice email in the customer's language:\nthe Spanish shops \
                 complained",
                "Why does the template fall back to English?",
            ]
        );
        assert_eq!(turns[0].when, When::Between(1_755_586_800, 1_755_700_000));
        assert_eq!(turns[1].when, When::Between(1_755_700_000, 1_755_710_000));
        assert_eq!(turns[0].files, ["src/helpers.py"]);
        assert_eq!(
            turns[1].files,
            ["src/invoice.py", "templates/invoice.es.txt"]
        );
        assert!(turns[2].files.is_empty());
    }

    #[test]
    fn commands_are_no_turns_but_asking_is() {
        assert_eq!(said("/add src/a.py"), None);
        assert_eq!(
            said("/ask why is this slow?").as_deref(),
            Some("why is this slow?")
        );
        assert_eq!(said("<blank>"), None);
        assert_eq!(said("plain words").as_deref(), Some("plain words"));
    }
}
