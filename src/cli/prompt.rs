//! Questions on the terminal: the question on stderr, the answer a line of stdin, or for a
//! secret, keys read in raw mode and echoed as `*`. Without a terminal on stdin (a script, a
//! test) every answer, secrets included, is a plain line.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Context, Result};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Why no answer came.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    #[error("no answer before the end of input; nothing was written")]
    EndOfInput,
    #[error("interrupted; nothing was written")]
    Interrupted,
}

/// Asks questions on stderr and reads answers from stdin.
pub struct Prompter {
    input: Box<dyn BufRead>,
    /// Whether stdin is a terminal, where a secret is read without echo.
    terminal: bool,
}

impl Prompter {
    /// The process's stdin and stderr.
    pub fn stdio() -> Self {
        Self {
            input: Box::new(std::io::BufReader::new(std::io::stdin())),
            terminal: std::io::stdin().is_terminal(),
        }
    }

    /// Prints `question` and returns the line typed, trimmed.
    pub fn ask(&mut self, question: &str) -> Result<String> {
        show(question)?;
        let mut line = String::new();
        let read = self
            .input
            .read_line(&mut line)
            .context("cannot read the answer from standard input")?;
        // A terminal echoes the answer and its line ending; piped input echoes nothing, so
        // the question gets its line ending here.
        if !self.terminal || read == 0 {
            eprintln!();
        }
        if read == 0 {
            return Err(Stopped::EndOfInput.into());
        }
        Ok(line.trim().to_string())
    }

    /// A yes or no question; an empty answer is `default`, anything else is asked again.
    pub fn confirm(&mut self, question: &str, default: bool) -> Result<bool> {
        loop {
            let answer = self.ask(question)?.to_ascii_lowercase();
            match answer.as_str() {
                "" => return Ok(default),
                "y" | "yes" => return Ok(true),
                "n" | "no" => return Ok(false),
                _ => eprintln!("Please answer y or n."),
            }
        }
    }

    /// Asks for a secret: on a terminal each key shows as `*` (backspace erases, ctrl-c
    /// stops, and the terminal is restored whatever happens); otherwise a plain line.
    pub fn secret(&mut self, question: &str) -> Result<String> {
        if !self.terminal {
            return self.ask(question);
        }
        // Raw mode first: a key typed (or pasted) the moment the question shows would
        // otherwise be echoed by the terminal, in clear.
        let raw = RawMode::enable()?;
        show(question)?;
        let typed = read_masked();
        drop(raw);
        eprintln!();
        typed
    }
}

fn show(question: &str) -> Result<()> {
    let mut err = std::io::stderr().lock();
    err.write_all(question.as_bytes())
        .and_then(|()| err.flush())
        .context("cannot write to stderr")
}

/// The terminal in raw mode while this lives.
struct RawMode;

impl RawMode {
    fn enable() -> Result<Self> {
        crossterm::terminal::enable_raw_mode().context("cannot read the terminal's keys")?;
        Ok(Self)
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        let _ = crossterm::terminal::disable_raw_mode();
    }
}

/// What one key does to a secret being typed.
#[derive(Debug, PartialEq, Eq)]
enum Edit {
    Push(char),
    Pop,
    Clear,
    Done,
    Stop(Stopped),
    Ignore,
}

fn edit_for(key: KeyEvent, empty: bool) -> Edit {
    if key.kind == KeyEventKind::Release {
        return Edit::Ignore;
    }
    let control = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Enter => Edit::Done,
        KeyCode::Char('c') if control => Edit::Stop(Stopped::Interrupted),
        KeyCode::Char('d') if control && empty => Edit::Stop(Stopped::EndOfInput),
        KeyCode::Char('u') if control => Edit::Clear,
        KeyCode::Esc => Edit::Stop(Stopped::Interrupted),
        KeyCode::Backspace => Edit::Pop,
        KeyCode::Char(c) if !control && !key.modifiers.contains(KeyModifiers::ALT) => Edit::Push(c),
        _ => Edit::Ignore,
    }
}

/// Reads keys until enter, echoing `*` for each character of the secret (in raw mode).
fn read_masked() -> Result<String> {
    let mut secret = String::new();
    let mut err = std::io::stderr();
    loop {
        let event = crossterm::event::read().context("cannot read the terminal's keys")?;
        // Without bracketed paste (never turned on), a paste arrives as keys.
        let Event::Key(key) = event else {
            continue;
        };
        match edit_for(key, secret.is_empty()) {
            Edit::Push(c) => {
                secret.push(c);
                let _ = err.write_all(b"*");
            }
            Edit::Pop => {
                if secret.pop().is_some() {
                    let _ = err.write_all(b"\x08 \x08");
                }
            }
            Edit::Clear => {
                let _ = err.write_all("\x08 \x08".repeat(secret.chars().count()).as_bytes());
                secret.clear();
            }
            Edit::Done => return Ok(secret.trim().to_string()),
            Edit::Stop(stopped) => return Err(stopped.into()),
            Edit::Ignore => {}
        }
        let _ = err.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompter(input: &str) -> Prompter {
        Prompter {
            input: Box::new(std::io::Cursor::new(input.as_bytes().to_vec())),
            terminal: false,
        }
    }

    #[test]
    fn answers_are_lines_and_the_end_of_input_stops() {
        let mut p = prompter(" 2 \nsk-typed\n");
        assert_eq!(p.ask("? ").unwrap(), "2");
        assert_eq!(p.secret("key: ").unwrap(), "sk-typed");
        let err = p.ask("? ").unwrap_err();
        assert!(matches!(
            err.downcast_ref::<Stopped>(),
            Some(Stopped::EndOfInput)
        ));
    }

    #[test]
    fn confirmation_takes_the_default_and_asks_again_when_unsure() {
        assert!(!prompter("\n").confirm("? ", false).unwrap());
        assert!(prompter("\n").confirm("? ", true).unwrap());
        assert!(prompter("maybe\nYes\n").confirm("? ", false).unwrap());
        assert!(!prompter("N\n").confirm("? ", true).unwrap());
        assert!(prompter("maybe\n").confirm("? ", true).is_err());
    }

    #[test]
    fn keys_edit_the_secret() {
        let key = |code, modifiers| KeyEvent::new(code, modifiers);
        let none = KeyModifiers::NONE;
        let ctrl = KeyModifiers::CONTROL;
        assert_eq!(
            edit_for(key(KeyCode::Char('a'), none), true),
            Edit::Push('a')
        );
        assert_eq!(
            edit_for(key(KeyCode::Char('A'), KeyModifiers::SHIFT), true),
            Edit::Push('A')
        );
        assert_eq!(edit_for(key(KeyCode::Backspace, none), false), Edit::Pop);
        assert_eq!(edit_for(key(KeyCode::Enter, none), false), Edit::Done);
        assert_eq!(
            edit_for(key(KeyCode::Char('c'), ctrl), false),
            Edit::Stop(Stopped::Interrupted)
        );
        assert_eq!(
            edit_for(key(KeyCode::Char('d'), ctrl), true),
            Edit::Stop(Stopped::EndOfInput)
        );
        assert_eq!(edit_for(key(KeyCode::Char('d'), ctrl), false), Edit::Ignore);
        assert_eq!(edit_for(key(KeyCode::Char('u'), ctrl), false), Edit::Clear);
        let mut release = key(KeyCode::Char('a'), none);
        release.kind = KeyEventKind::Release;
        assert_eq!(edit_for(release, true), Edit::Ignore);
    }
}
