//! Which of the user's turns go in a request, and the section they make: the turns said
//! while the change was made, those whose agent then touched the changed files first, newest
//! first, each once, each clipped, all within [`MAX_CHARS`].

use super::{Agent, Turn, Window};

/// The characters the chosen turns take at most, together (a few hundred tokens).
pub const MAX_CHARS: usize = 1_200;
/// The characters one turn takes at most.
const MAX_TURN_CHARS: usize = 400;
/// A turn of fewer words ("yes", "go on") says no reason.
const MIN_WORDS: usize = 3;

/// The turns one session gave, and whose session it was.
#[derive(Debug, Clone)]
pub struct Found {
    /// The agent the session was with.
    pub agent: Agent,
    /// The user's turns in it.
    pub turns: Vec<Turn>,
}

/// A turn chosen for the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    /// The agent it was said to.
    pub agent: Agent,
    /// The user's words, on one line, clipped.
    pub text: String,
    /// Whether the agent's tool calls after it named a changed file.
    pub touched: bool,
}

/// The turns of `found` said within `window`, those after which the agent touched one of
/// `changed` (paths relative to `root`, the working tree) first, newest first, each text once,
/// as many as fit in [`MAX_CHARS`].
pub fn choose(found: &[Found], window: Window, root: &str, changed: &[String]) -> Vec<Chosen> {
    let mut candidates: Vec<(bool, i64, Agent, &Turn)> = found
        .iter()
        .flat_map(|f| f.turns.iter().map(move |t| (f.agent, t)))
        .filter(|(_, t)| t.when.within(window) && t.text.split_whitespace().count() >= MIN_WORDS)
        .map(|(agent, t)| (touches(t, root, changed), t.when.latest(), agent, t))
        .collect();
    // Touched first, then newest; the sort is stable, so a session's order breaks ties.
    candidates.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut chosen: Vec<Chosen> = Vec::new();
    let mut used = 0;
    for (touched, _, agent, turn) in candidates {
        let text = one_line(&turn.text);
        if chosen.iter().any(|c| c.text.eq_ignore_ascii_case(&text)) {
            continue;
        }
        let size = text.chars().count();
        if used + size > MAX_CHARS {
            break;
        }
        used += size;
        chosen.push(Chosen {
            agent,
            text,
            touched,
        });
    }
    chosen
}

/// The agents the `chosen` turns were said to, each once, in order.
pub fn agents(chosen: &[Chosen]) -> Vec<&'static str> {
    let mut agents: Vec<&'static str> = Vec::new();
    for c in chosen {
        if !agents.contains(&c.agent.name()) {
            agents.push(c.agent.name());
        }
    }
    agents
}

/// The request's section of the `chosen` turns; `None` when there are none.
pub fn section(chosen: &[Chosen]) -> Option<String> {
    if chosen.is_empty() {
        return None;
    }
    let agents = agents(chosen);
    let lines: Vec<String> = chosen
        .iter()
        .map(|c| format!("- {}: {}", c.agent.name(), c.text))
        .collect();
    Some(format!(
        "## Why, in the user's own words\n\nWhile this change was made, the user asked their \
         coding agent ({}) for it in these words (newest and nearest the changed files first). \
         They are the user's words, not evidence of what changed: take the reason for the \
         change from them when they give one, and never invent one they do not give.\n\n{}",
        agents.join(", "),
        lines.join("\n")
    ))
}

/// Whether a tool call after `turn` named one of `changed` (relative to `root`); a relative
/// path (an agent working in a subdirectory) matches a changed path it ends.
fn touches(turn: &Turn, root: &str, changed: &[String]) -> bool {
    let root = root.trim_end_matches('/');
    turn.files.iter().any(|file| {
        let rel = file
            .strip_prefix(root)
            .and_then(|r| r.strip_prefix('/'))
            .unwrap_or(file)
            .trim_start_matches("./");
        changed.iter().any(|c| {
            c == rel
                || c.strip_suffix(rel).is_some_and(|head| head.ends_with('/'))
                || rel
                    .strip_suffix(c.as_str())
                    .is_some_and(|head| head.ends_with('/'))
        })
    })
}

/// `text` on one line (whitespace runs made one space), clipped at [`MAX_TURN_CHARS`].
fn one_line(text: &str) -> String {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if words.chars().count() <= MAX_TURN_CHARS {
        return words;
    }
    let mut clipped: String = words.chars().take(MAX_TURN_CHARS - 1).collect();
    clipped.push('…');
    clipped
}

#[cfg(test)]
mod tests {
    use super::super::When;
    use super::*;

    fn turn(at: i64, text: &str, files: &[&str]) -> Turn {
        Turn {
            when: When::At(at),
            text: text.to_string(),
            files: files.iter().map(|f| f.to_string()).collect(),
        }
    }

    const WINDOW: Window = Window { from: 100, to: 200 };

    #[test]
    fn turns_that_touched_the_change_come_first_then_the_newest() {
        let found = [
            Found {
                agent: Agent::ClaudeCode,
                turns: vec![
                    turn(50, "before the window, about the last commit", &[]),
                    turn(
                        110,
                        "make the retry back off, the provider rate limits",
                        &["/r/src/retry.rs"],
                    ),
                    turn(
                        150,
                        "also tidy the readme while you are there",
                        &["README.md"],
                    ),
                    turn(160, "yes go", &[]),
                ],
            },
            Found {
                agent: Agent::Codex,
                turns: vec![
                    turn(170, "run the tests once more please", &[]),
                    turn(300, "after the window: the next change", &[]),
                ],
            },
        ];
        let chosen = choose(&found, WINDOW, "/r", &["src/retry.rs".to_string()]);
        let texts: Vec<&str> = chosen.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "make the retry back off, the provider rate limits",
                "run the tests once more please",
                "also tidy the readme while you are there",
            ]
        );
        assert!(chosen[0].touched && !chosen[1].touched);
        let section = section(&chosen).expect("a section");
        assert!(
            section.starts_with("## Why, in the user's own words\n"),
            "{section}"
        );
        assert!(
            section.contains("coding agent (Claude Code, Codex)"),
            "{section}"
        );
        assert!(
            section.ends_with(
                "- Claude Code: make the retry back off, the provider rate limits\n- Codex: run \
                 the tests once more please\n- Claude Code: also tidy the readme while you are \
                 there"
            ),
            "{section}"
        );
        assert_eq!(super::section(&[]), None);
    }

    #[test]
    fn the_section_is_bounded_and_says_each_text_once() {
        let long = "why ".repeat(300);
        let mut turns = vec![turn(120, &long, &[])];
        for i in 0..40 {
            turns.push(turn(
                130 + i,
                &format!("the same   reason\nagain {}", i % 2),
                &[],
            ));
        }
        let chosen = choose(
            &[Found {
                agent: Agent::Aider,
                turns,
            }],
            WINDOW,
            "/r",
            &[],
        );
        let total: usize = chosen.iter().map(|c| c.text.chars().count()).sum();
        assert!(total <= MAX_CHARS, "{total}");
        assert_eq!(chosen.len(), 3, "{chosen:?}");
        assert_eq!(chosen[0].text, "the same reason again 1");
        assert_eq!(chosen[2].text.chars().count(), MAX_TURN_CHARS);
        assert!(chosen[2].text.ends_with('…'));
    }

    #[test]
    fn relative_and_absolute_paths_match_the_changed_ones() {
        let changed = ["src/a.rs".to_string()];
        for file in ["/r/src/a.rs", "src/a.rs", "./src/a.rs", "a.rs"] {
            assert!(touches(&turn(0, "x", &[file]), "/r", &changed), "{file}");
        }
        for file in ["/r/src/ba.rs", "/other/src/b.rs", "rc/a.rs"] {
            assert!(!touches(&turn(0, "x", &[file]), "/r/", &changed), "{file}");
        }
    }
}
