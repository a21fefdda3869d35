//! `iris blame FILE:START-END` (or `FILE:LINE`): why the lines are as they are, from their
//! history, in markdown or (`--json`) with the commits behind them.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::config::ConfigFlags;
use super::progress::ProgressLine;
use super::session::{OutputFlags, Session};
use super::typed_path::TypedPath;
use crate::output::exit::UsageError;
use iris_studio_core::protocol::LinesAsked;

#[derive(Debug, Args)]
pub struct BlameArgs {
    /// The lines: FILE:START-END or FILE:LINE (1-based, the file as committed at HEAD; FILE
    /// relative to the current directory, as git reads paths).
    #[arg(value_name = "FILE:LINES")]
    pub lines: String,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
}

/// `src/app.rs:10-20` or `src/app.rs:12`; the error says what was expected.
pub fn parse_lines(spec: &str) -> Result<LinesAsked, UsageError> {
    let bad = |why: &str| {
        UsageError(format!(
            "'{spec}': {why}; expected FILE:START-END or FILE:LINE"
        ))
    };
    let (path, range) = spec.rsplit_once(':').ok_or_else(|| bad("no line range"))?;
    if path.is_empty() {
        return Err(bad("no file"));
    }
    let number = |text: &str| match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(bad("lines are numbers from 1")),
    };
    let (start, end) = match range.split_once('-') {
        Some((start, end)) => (number(start)?, number(end)?),
        None => {
            let line = number(range)?;
            (line, line)
        }
    };
    if end < start {
        return Err(bad("the range ends before it starts"));
    }
    Ok(LinesAsked {
        path: path.to_string(),
        start,
        end,
        working_copy: false,
    })
}

pub async fn run(args: BlameArgs) -> Result<ExitCode> {
    let mut asked = parse_lines(&args.lines)?;
    let ws = args.config.workspace()?;
    let path = TypedPath::read(&asked.path, &ws.repo.root())?;
    if !ws.repo.committed_at_head(&path.in_repo) {
        return Err(path.not_there("is not a file committed at HEAD").into());
    }
    asked.path = path.in_repo;
    let session = Session::on(&ws, args.output)?;
    let progress = ProgressLine::start();
    let result = session.iris.explain_lines(&asked, &progress.sink()).await;
    progress.finish().await;
    let result = session.finish(result);
    // Lines that are not there (a path not committed, a range past the end) are the user's
    // to fix: Iris says so before any request (a usage error's exit code).
    let explained = result?;
    if args.output.json {
        println!("{}", serde_json::to_string_pretty(&explained)?);
    } else {
        println!(
            "{}",
            crate::output::said::shown(explained.explanation.trim_end())
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_or_a_line_of_a_file() {
        let asked = parse_lines("src/app.rs:10-20").unwrap();
        assert_eq!(
            (asked.path.as_str(), asked.start, asked.end),
            ("src/app.rs", 10, 20)
        );
        let one = parse_lines("a:b/c.rs:7").unwrap();
        assert_eq!((one.path.as_str(), one.start, one.end), ("a:b/c.rs", 7, 7));
        for (spec, why) in [
            ("src/app.rs", "no line range"),
            (":3", "no file"),
            ("src/app.rs:0", "numbers from 1"),
            ("src/app.rs:x-3", "numbers from 1"),
            ("src/app.rs:9-3", "ends before it starts"),
        ] {
            let err = parse_lines(spec).unwrap_err().to_string();
            assert!(
                err.contains(why) && err.contains("FILE:START-END"),
                "{spec}: {err}"
            );
        }
    }
}
