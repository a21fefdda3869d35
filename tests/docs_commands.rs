//! Every `iris` command line the README and the book show parses as the binary parses it: the
//! command exists, its flags exist and take the values given, no two conflict. A chapter that
//! falls behind a renamed or removed flag fails here, as the reference pages do when stale.

use clap::CommandFactory;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use iris_studio::cli::Cli;

/// `line`'s words as `sh` would split them (quotes removed, a `$(...)` one word), up to the
/// first `#` comment, pipe, redirection or command separator outside quotes.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && quote != Some('\'') && chars.peek() == Some(&'(') {
            // A command substitution: its text up to the matching `)`, whatever it holds.
            let mut depth = 0;
            word.push(c);
            for c in chars.by_ref() {
                word.push(c);
                match c {
                    '(' => depth += 1,
                    ')' if depth == 1 => break,
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            in_word = true;
            continue;
        }
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    in_word = true;
                }
                '#' if !in_word => break,
                '|' | '>' | '<' | ';' | '&' => break,
                c if c.is_whitespace() => {
                    if in_word {
                        words.push(std::mem::take(&mut word));
                        in_word = false;
                    }
                }
                c => {
                    word.push(c);
                    in_word = true;
                }
            },
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The `iris ...` commands of `markdown`: in each line of a code block and each inline code
/// span, every command of a pipeline or list (`a | iris ...`, `a && iris ...`) that is iris,
/// its variable assignments dropped (`IRIS_TRUST_REPO=1 iris ...`), the command after ` -- `
/// (`claude mcp add iris -- iris mcp`) and in a `$(iris ...)`.
fn command_lines(markdown: &str) -> Vec<String> {
    let mut texts = Vec::new();
    let mut in_block = false;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_block = !in_block;
        } else if in_block {
            // A prompt's `$ ` is not part of the command.
            texts.push(trimmed.strip_prefix("$ ").unwrap_or(trimmed).to_string());
        } else {
            texts.extend(line.split('`').skip(1).step_by(2).map(str::to_string));
        }
    }
    texts.iter().flat_map(|text| iris_commands(text)).collect()
}

/// The iris commands of one shell line (see [`command_lines`]).
fn iris_commands(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for inner in text.split("$(").skip(1) {
        if inner.starts_with("iris ") {
            found.push(inner.split(')').next().unwrap_or(inner).to_string());
        }
    }
    for command in segments(text) {
        let command = match command.split_once(" -- ") {
            Some((_, after)) if after.trim_start().starts_with("iris") => after.trim_start(),
            _ => command.as_str(),
        };
        let mut rest = command.trim_start();
        // `NAME=value` words before the command set its environment.
        while let Some((word, after)) = rest.split_once(' ') {
            let assigns = word.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            if !assigns {
                break;
            }
            rest = after.trim_start();
        }
        if rest == "iris" || rest.starts_with("iris ") {
            found.push(rest.to_string());
        }
    }
    found
}

/// `text` cut at `|`, `||`, `&&` and `;` outside quotes and `$(...)`; a comment (` #`) ends it.
fn segments(text: &str) -> Vec<String> {
    let mut segments = vec![String::new()];
    let mut quote: Option<char> = None;
    let mut depth = 0;
    let mut previous = ' ';
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(') if previous == '$' => depth += 1,
            (None, ')') if depth > 0 => depth -= 1,
            (None, '#') if depth == 0 && previous.is_whitespace() => break,
            (None, '|' | '&' | ';') if depth == 0 => {
                segments.push(String::new());
                previous = c;
                continue;
            }
            _ => {}
        }
        if let Some(segment) = segments.last_mut() {
            segment.push(c);
        }
        previous = c;
    }
    segments
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A word of a synopsis that stands for a value: `SHELL`, `REV`, `FILE:START-END`.
fn placeholder(word: &str) -> bool {
    word.len() > 1
        && word.chars().any(|c| c.is_ascii_uppercase())
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || "_-:.,".contains(c))
}

/// Why `line` does not parse, or `None` when it does. A synopsis reads as a command: its
/// optional parts' brackets dropped (`[-r REV]`), and a placeholder taken for any value.
fn refused(line: &str) -> Option<String> {
    let words: Vec<String> = words(line)
        .into_iter()
        .map(|w| w.trim_start_matches('[').trim_end_matches(']').to_string())
        .collect();
    // A placeholder for "and so on", or a remark in brackets, is prose, not a command.
    if words
        .iter()
        .any(|w| w == "..." || w.starts_with('<') || w.starts_with('('))
    {
        return None;
    }
    match Cli::command().try_get_matches_from(&words) {
        Ok(_) => None,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => None,
        // A command shown without the argument it needs (`iris blame`, `iris config set`)
        // names the command, which exists: its arguments are the prose around it.
        Err(e) if e.kind() == ErrorKind::MissingRequiredArgument => None,
        Err(e)
            if e.kind() == ErrorKind::InvalidValue
                && matches!(
                    e.get(ContextKind::InvalidValue),
                    Some(ContextValue::String(v)) if placeholder(v)
                ) =>
        {
            None
        }
        Err(e) => Some(
            e.render()
                .to_string()
                .lines()
                .next()
                .unwrap_or("")
                .to_string(),
        ),
    }
}

/// The pages that show commands: the front door and the book, without the reference pages
/// (made from the command tree itself).
fn pages() -> Vec<std::path::PathBuf> {
    crate::docs_links::pages()
        .into_iter()
        .filter(|page| !page.starts_with("docs/reference"))
        .map(|page| crate::docs_links::root().join(page))
        .collect()
}

/// Every `iris` command line shown, with the name of the page that shows it.
fn shown() -> Vec<(String, String)> {
    let mut shown = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        let name = page
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        shown.extend(
            command_lines(&text)
                .into_iter()
                .map(|line| (name.clone(), line)),
        );
    }
    shown
}

#[test]
fn every_command_the_book_shows_parses() {
    let shown = shown();
    let checked = shown.len();
    let broken: Vec<String> = shown
        .iter()
        .filter_map(|(name, line)| refused(line).map(|why| format!("{name}: `{line}`: {why}")))
        .collect();
    assert!(
        checked > 100,
        "the book shows its commands: {checked} found"
    );
    assert!(
        broken.is_empty(),
        "commands the book shows that iris refuses:\n{}",
        broken.join("\n")
    );
}

/// Every `iris config set KEY VALUE` the book shows with a real key and value, run: the key is
/// one the binary takes, in the form shown, and the value one it accepts.
#[test]
fn every_config_set_the_book_shows_is_taken() {
    use crate::common::{Iris, TestRepo, stderr};
    let mut ran = 0;
    let mut refused = Vec::new();
    for (name, line) in shown() {
        let words = words(&line);
        let is_set = words.len() >= 5 && words[1] == "config" && words[2] == "set";
        // `PROVIDER.price_input N` is a synopsis, not a line to run.
        let stands_for_something = |w: &String| {
            w.contains("...") || w.split(['.', '=']).any(placeholder) || placeholder(w)
        };
        if !is_set || words.iter().any(stands_for_something) {
            continue;
        }
        let repo = TestRepo::new();
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        // `-` reads the value from stdin, as the book's `pass show ... |` line gives it.
        let out = repo.iris_env(
            &args,
            &[],
            "sk-ant-api03-Qx7fLw2rT9mZp4Kd8sVn3Hb6Yc1Ej5Gu\n",
        );
        ran += 1;
        if !out.status.success() {
            refused.push(format!("{name}: `{line}`: {}", stderr(&out).trim()));
        }
    }
    assert!(
        ran >= 10,
        "the book shows `iris config set` lines: {ran} run"
    );
    assert!(
        refused.is_empty(),
        "`iris config set` lines the book shows that iris refuses:\n{}",
        refused.join("\n")
    );
}

#[test]
fn the_check_splits_as_sh_does_and_refuses_what_iris_refuses() {
    assert_eq!(
        words(r#"iris gen -i "mention the ticket" --copy  # copied"#),
        ["iris", "gen", "-i", "mention the ticket", "--copy"]
    );
    assert_eq!(
        words("iris review --format sarif > iris.sarif"),
        ["iris", "review", "--format", "sarif"]
    );
    assert_eq!(
        command_lines("Run `iris gen --all` or\n```sh\n$ iris pr  # a PR\ngit add -p\n```\n"),
        ["iris gen --all", "iris pr"]
    );
    // Within pipelines and lists, after variables, after ` -- `, in a `$(...)`.
    assert_eq!(
        command_lines(
            "```sh\npass show x | iris config set anthropic.api_key -\n\
             IRIS_TRUST_REPO=1 iris review\njj new && iris pr --create   # then\n\
             claude mcp add iris -- iris mcp\n\
             git commit -e -m \"$(iris gen --print --no-stream)\"\n```\n"
        ),
        [
            "iris config set anthropic.api_key -",
            "iris review",
            "iris pr --create",
            "iris mcp",
            "iris gen --print --no-stream",
        ]
    );
    assert_eq!(refused("iris gen --auto-commit"), None);
    assert!(refused("iris gen --no-such-flag").is_some());
    assert!(refused("iris review --format yaml").is_some());
    assert!(refused("iris frobnicate").is_some());
    // A synopsis: optional parts, a placeholder for an enumerated value.
    assert_eq!(refused("iris split [-r REV] --apply"), None);
    assert_eq!(refused("iris completions SHELL"), None);
    assert!(refused("iris completions tcsh").is_some());
    assert_eq!(
        words("iris eval --commits $(git log --format=%h -3 | paste -sd, -) --json"),
        [
            "iris",
            "eval",
            "--commits",
            "$(git log --format=%h -3 | paste -sd, -)",
            "--json"
        ]
    );
}
