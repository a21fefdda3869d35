//! Several candidates on the terminal: each shown numbered, and the one the user picks.

use anyhow::Result;

use super::prompt::Prompter;
use iris_studio_agent::capability::candidates::Candidate;
use iris_studio_agent::capability::write::Written;

/// The heading of candidate `number`: `--- 2 ---`, or `--- 2 (gpt-5-mini) ---`.
fn heading(number: usize, candidate: &Candidate) -> String {
    if candidate.label.is_empty() {
        format!("--- {number} ---")
    } else {
        format!("--- {number} ({}) ---", candidate.label)
    }
}

/// Every candidate under its numbered heading, a blank line between them.
pub fn numbered(candidates: &[Candidate]) -> String {
    candidates
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{}\n{}\n", heading(i + 1, c), c.written.text.trim_end()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What an answer to "which one?" means for `count` candidates.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Pick(usize),
    None,
    Unclear,
}

fn read_answer(answer: &str, count: usize) -> Answer {
    match answer.trim().to_ascii_lowercase().as_str() {
        "" => Answer::Pick(0),
        "q" | "quit" | "none" | "n" => Answer::None,
        number => match number.parse::<usize>() {
            Ok(n) if (1..=count).contains(&n) => Answer::Pick(n - 1),
            _ => Answer::Unclear,
        },
    }
}

/// Shows `candidates` on stderr and asks which one; `None` when the user picks none.
pub fn pick(candidates: &[Candidate], prompter: &mut Prompter) -> Result<Option<Written>> {
    if let [only] = candidates {
        eprintln!("(only one distinct message came out)");
        return Ok(Some(only.written.clone()));
    }
    eprintln!("{}", numbered(candidates));
    let question = format!("Which one? 1-{} (enter: 1, q: none): ", candidates.len());
    loop {
        match read_answer(&prompter.ask(&question)?, candidates.len()) {
            Answer::Pick(i) => return Ok(Some(candidates[i].written.clone())),
            Answer::None => return Ok(None),
            Answer::Unclear => eprintln!(
                "Please answer with a number from 1 to {}.",
                candidates.len()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_pick_by_number_enter_takes_the_first_and_q_none() {
        assert_eq!(read_answer("", 3), Answer::Pick(0));
        assert_eq!(read_answer(" 2 ", 3), Answer::Pick(1));
        assert_eq!(read_answer("3", 3), Answer::Pick(2));
        assert_eq!(read_answer("q", 3), Answer::None);
        assert_eq!(read_answer("4", 3), Answer::Unclear);
        assert_eq!(read_answer("0", 3), Answer::Unclear);
        assert_eq!(read_answer("two", 3), Answer::Unclear);
    }
}
