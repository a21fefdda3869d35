//! Semantic blame: "why is this code like this?" Iris explains a line range of a committed
//! file from its history. The first request carries the evidence a careful model reads first
//! (each line's commit, and those commits' messages); her tools serve the rest.

use std::collections::BTreeMap;
use std::fmt::Write;

use anyhow::Context;
use iris_studio_core::artifact::OutputType;
use iris_studio_core::protocol::{AgentEvent, BlamedCommit, Explained, LinesAsked};
use iris_studio_git::{BlameLine, GitRepo};

use crate::capability::intent::FileRefused;
use crate::iris::IrisAgent;
use crate::{EventSink, Run, run};
use iris_studio_workspace::Boundary;

/// The commits of a blame, oldest first, with their summaries.
fn commits_of(repo: &GitRepo, blame: &[BlameLine]) -> Vec<BlamedCommit> {
    let mut by_id: BTreeMap<&str, BlamedCommit> = BTreeMap::new();
    for line in blame.iter().filter(|l| !l.is_uncommitted()) {
        let entry = by_id.entry(&line.commit).or_insert_with(|| {
            let info = repo.commit_info(&line.commit).ok();
            BlamedCommit {
                id: line.commit.clone(),
                short_id: line.short_id.clone(),
                author: line.author.clone(),
                time: line.time,
                date: info.as_ref().map(|c| c.date()).unwrap_or_default(),
                summary: info.map(|c| c.summary).unwrap_or_default(),
                lines: 0,
            }
        });
        entry.lines += 1;
    }
    let mut commits: Vec<BlamedCommit> = by_id.into_values().collect();
    commits.sort_by_key(|c| c.time);
    commits
}

/// The request: the range, each line with its commit, and the commits.
fn request(asked: &LinesAsked, blame: &[BlameLine], commits: &[BlamedCommit]) -> String {
    let mut out = format!(
        "Explain why lines {}-{} of {} are as they are.\n\n## The lines, each with the commit \
         that last changed it\n",
        asked.start, asked.end, asked.path
    );
    for line in blame {
        let commit = if line.is_uncommitted() {
            "(not committed yet)"
        } else {
            &line.short_id
        };
        let _ = writeln!(out, "{:>6} {commit} | {}", line.line, line.content);
    }
    out.push_str("\n## Those commits, oldest first\n");
    for c in commits {
        let _ = writeln!(
            out,
            "- {} {} by {} ({} line(s)): {}",
            c.short_id, c.date, c.author, c.lines, c.summary
        );
    }
    out.push_str(
        "\nRead a commit whole with git_show, older history with git_log and git_blame, and the \
         code around the lines with file_read, where this is not enough.",
    );
    out
}

/// The short ids of `commits` that `text` names (by any prefix of 7 or more characters).
fn cited(text: &str, commits: &[BlamedCommit]) -> Vec<String> {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_hexdigit())
        .filter(|w| w.len() >= 7)
        .collect();
    commits
        .iter()
        .filter(|c| {
            words
                .iter()
                .any(|w| c.id.starts_with(&w.to_ascii_lowercase()))
        })
        .map(|c| c.short_id.clone())
        .collect()
}

impl IrisAgent {
    /// Explains `asked` from its history (the `semantic_blame` capability), within the run's
    /// deadline; ends with a Done or Error event like every write.
    pub async fn explain_lines(
        &self,
        asked: &LinesAsked,
        sink: &EventSink,
    ) -> crate::Result<Explained> {
        crate::error::at_edge(async move {
            let work = async {
                let repo = self.ctx.repo()?;
                let blame = if asked.working_copy {
                    // The file the user sees, inside the repository like any file a tool reads.
                    let file = Boundary::open(&self.ctx.repo_root)?
                        .resolve(&asked.path)
                        .map_err(|outside| FileRefused(outside.0))?;
                    let content = std::fs::read(&file.absolute)
                        .with_context(|| format!("cannot read {}", asked.path))?;
                    repo.blame_working_copy(&asked.path, &content, asked.start, Some(asked.end))
                        .map_err(not_there)?
                } else {
                    repo.blame(&asked.path, asked.start, Some(asked.end))
                        .map_err(not_there)?
                };
                if blame.is_empty() {
                    let past = format!("line {} is past the end of {}", asked.start, asked.path);
                    return Err(FileRefused(past).into());
                }
                let commits = commits_of(&repo, &blame);
                let cap = self.capability("semantic_blame")?;
                sink.send(AgentEvent::Status("reading the history".to_string()));
                let output = run(
                    &self.main,
                    &self.run,
                    Run {
                        preamble: self.preamble(&cap.task_prompt, OutputType::Text)?,
                        history: Vec::new(),
                        prompt: request(asked, &blame, &commits).into(),
                        tools: self.main_tools(sink),
                        max_turns: self.settings.max_turns,
                        max_tokens: self.max_tokens(&cap),
                        schema: None,
                        stream: self.stream,
                    },
                    sink.clone(),
                )
                .await?;
                let explanation = crate::output::clean_text(&output.text).trim().to_string();
                anyhow::ensure!(
                    !explanation.is_empty(),
                    "the model answered with nothing to say about these lines"
                );
                Ok(Explained {
                    path: asked.path.clone(),
                    start_line: asked.start,
                    end_line: blame.last().map_or(asked.end, |l| l.line),
                    cited: cited(&explanation, &commits),
                    explanation,
                    commits,
                })
            };
            self.bounded(sink, work, |explained| explained.explanation.clone())
                .await
        })
        .await
    }
}

/// Lines that are not there, as git says it (a path never committed, a range past the end, a
/// revision that names nothing): the user's to fix, refused before anything is sent.
fn not_there(err: iris_studio_git::GitError) -> anyhow::Error {
    use iris_studio_git::GitError;
    match err {
        GitError::Unsupported(_) | GitError::InvalidPath(..) | GitError::UnknownRevision(_) => {
            FileRefused(err.to_string()).into()
        }
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit(id: &str) -> BlamedCommit {
        BlamedCommit {
            id: id.to_string(),
            short_id: id[..7].to_string(),
            author: "Ada".into(),
            time: 0,
            date: "2026-11-23".into(),
            summary: "s".into(),
            lines: 1,
        }
    }

    #[test]
    fn citations_are_found_by_any_long_enough_prefix() {
        let commits = [
            commit("0123456789abcdef0123456789abcdef01234567"),
            commit("fedcba9876543210fedcba9876543210fedcba98"),
        ];
        assert_eq!(
            cited("Added in 0123456 (Ada), then moved.", &commits),
            vec!["0123456"]
        );
        assert_eq!(
            cited("See FEDCBA98765 and 0123456789ab.", &commits),
            vec!["0123456", "fedcba9"]
        );
        assert!(cited("a 012345 short id, a deadbeefcafe", &commits).is_empty());
    }
}
