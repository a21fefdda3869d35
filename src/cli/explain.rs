//! `iris explain FILE`: why a file exists and the responsibility blocks its code divides
//! into, as text or (`--json`) as the FileIntent.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use super::config::ConfigFlags;
use super::progress::ProgressLine;
use super::session::{OutputFlags, Session};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The file, as it is in the working copy (relative to the current directory).
    #[arg(value_name = "FILE")]
    pub file: String,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
}

/// `file` as typed in `cwd`, relative to the repository `root` (where Iris reads paths
/// from); left as typed when it cannot be (the check that follows says why).
fn from_root(file: &str, cwd: &Path, root: &Path) -> String {
    let joined = cwd.join(file);
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    match joined.strip_prefix(&root) {
        Ok(inner) if !inner.as_os_str().is_empty() => inner.to_string_lossy().into_owned(),
        _ => file.to_string(),
    }
}

pub async fn run(args: ExplainArgs) -> Result<ExitCode> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let ws = args.config.workspace()?;
    let session = Session::on(&ws, args.output)?;
    let path = from_root(&args.file, &cwd, &ws.repo.root());
    let progress = ProgressLine::start();
    let result = session.iris.explain_file(&path, &progress.sink()).await;
    progress.finish().await;
    let result = session.finish(result);
    let explained = result?;
    if args.output.json {
        println!("{}", serde_json::to_string_pretty(&explained)?);
    } else {
        println!(
            "{}",
            crate::output::said::shown(explained.to_text().trim_end())
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_taken_from_the_current_directory() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let sub = root.join("src");
        assert_eq!(from_root("app.rs", &sub, &root), "src/app.rs");
        assert_eq!(from_root("app.rs", &root, &root), "app.rs");
        assert_eq!(
            from_root(&sub.join("a.rs").to_string_lossy(), &root, &root),
            "src/a.rs"
        );
        // Outside the repository: left for the check to refuse.
        assert_eq!(from_root("/etc/passwd", &root, &root), "/etc/passwd");
        assert_eq!(from_root("../x.rs", &root, &root), "../x.rs");
    }
}
