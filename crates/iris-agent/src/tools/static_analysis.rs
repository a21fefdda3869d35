//! `static_analysis`: runs the linters a project is set up for, when they are installed and the
//! user trusts the repository (linters run a project's build scripts and plugins).

use iris_studio_core::protocol::Risk;
use std::fmt::Write;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::Deserialize;

use super::{IrisTool, ToolContext, ToolFailure, blocking, bound_output};

const DEFAULT_TIMEOUT_SECS: u64 = 300;
const MAX_TIMEOUT_SECS: u64 = 600;
const DEFAULT_OUTPUT_CHARS: usize = 12_000;
const MIN_OUTPUT_CHARS: usize = 512;
const MAX_OUTPUT_CHARS: usize = 40_000;
/// Output kept from one analyzer before it is cut to the limit; the rest is drained and dropped.
const CAPTURE_BYTES: usize = 1 << 20;

/// `auto` (default) runs what the project files call for; the others pick one language.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(inline)]
pub enum AnalyzerChoice {
    #[default]
    Auto,
    Rust,
    Python,
    Javascript,
    Go,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct StaticAnalysisArgs {
    /// `auto` (default), `rust`, `python`, `javascript` or `go`.
    #[serde(default)]
    pub analyzer: AnalyzerChoice,
    /// Time limit for the whole run in seconds (1-600, default 300).
    #[serde(default)]
    pub timeout_secs: Option<u64>,
    /// Bound on each analyzer's output in characters (512-40000, default 12000).
    #[serde(default)]
    pub max_output_chars: Option<usize>,
}

/// A command line that runs one analyzer.
struct Candidate {
    program: &'static str,
    args: &'static [&'static str],
    /// The executable whose presence on PATH says the command can run.
    needs: &'static str,
}

/// The analyzers of one language: the files that call for them and the commands, best first.
struct Family {
    choice: AnalyzerChoice,
    language: &'static str,
    markers: &'static [&'static str],
    candidates: &'static [Candidate],
}

static FAMILIES: &[Family] = &[
    Family {
        choice: AnalyzerChoice::Rust,
        language: "Rust",
        markers: &["Cargo.toml"],
        candidates: &[Candidate {
            program: "cargo",
            args: &[
                "clippy",
                "--workspace",
                "--no-deps",
                "--message-format",
                "short",
            ],
            needs: "cargo-clippy",
        }],
    },
    Family {
        choice: AnalyzerChoice::Python,
        language: "Python",
        markers: &["pyproject.toml", "ruff.toml", ".ruff.toml", "setup.cfg"],
        candidates: &[Candidate {
            program: "ruff",
            args: &["check", "."],
            needs: "ruff",
        }],
    },
    Family {
        choice: AnalyzerChoice::Javascript,
        language: "JavaScript/TypeScript",
        markers: &["package.json"],
        candidates: &[
            Candidate {
                program: "biome",
                args: &["check", "."],
                needs: "biome",
            },
            Candidate {
                program: "oxlint",
                args: &["."],
                needs: "oxlint",
            },
        ],
    },
    Family {
        choice: AnalyzerChoice::Go,
        language: "Go",
        markers: &["go.mod"],
        candidates: &[
            Candidate {
                program: "golangci-lint",
                args: &["run"],
                needs: "golangci-lint",
            },
            Candidate {
                program: "go",
                args: &["vet", "./..."],
                needs: "go",
            },
        ],
    },
];

impl Candidate {
    fn command_line(&self) -> String {
        std::iter::once(self.program)
            .chain(self.args.iter().copied())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// What one family will do: run a command (and why), or why it cannot.
enum Step {
    Run {
        candidate: &'static Candidate,
        program: PathBuf,
        why: String,
    },
    Missing {
        language: &'static str,
        why: String,
        looked_for: Vec<&'static str>,
    },
}

/// The steps for this repository: the families the choice and the project files call for.
fn plan(root: &Path, choice: AnalyzerChoice) -> Vec<Step> {
    FAMILIES
        .iter()
        .filter_map(|family| {
            let present: Vec<&str> = family
                .markers
                .iter()
                .copied()
                .filter(|m| root.join(m).is_file())
                .collect();
            let why = match (choice, present.is_empty()) {
                (AnalyzerChoice::Auto, true) => return None,
                (AnalyzerChoice::Auto, false) => format!("{} found", present.join(", ")),
                (chosen, _) if chosen == family.choice => {
                    format!("analyzer \"{}\" was asked for", family.language)
                }
                _ => return None,
            };
            let found = family
                .candidates
                .iter()
                .find_map(|c| find_on_path(c.needs).map(|path| (c, path)));
            Some(match found {
                Some((candidate, needed)) => Step::Run {
                    candidate,
                    // Run the program found next to what was looked for (cargo beside cargo-clippy).
                    program: needed
                        .parent()
                        .map(|dir| dir.join(candidate.program))
                        .filter(|p| p.is_file())
                        .unwrap_or_else(|| PathBuf::from(candidate.program)),
                    why,
                },
                None => Step::Missing {
                    language: family.language,
                    why,
                    looked_for: family.candidates.iter().map(|c| c.needs).collect(),
                },
            })
        })
        .collect()
}

/// The executable `name` in a directory of PATH.
/// `name` on the user's PATH (its absolute entries: the repository must not supply its own).
fn find_on_path(name: &str) -> Option<PathBuf> {
    iris_studio_process::find_on_path(name, &std::env::var_os("PATH")?)
}

pub struct StaticAnalysis;

impl IrisTool for StaticAnalysis {
    const NAME: &'static str = "static_analysis";
    const RISK: Risk = Risk::Execute;
    const DESCRIPTION: &'static str = "Runs the project's linters, chosen from its files \
        (Cargo.toml: cargo clippy; pyproject.toml/ruff.toml/setup.cfg: ruff; package.json: biome \
        or oxlint; go.mod: golangci-lint or go vet), only those installed, and only in a \
        repository the user trusts. Each analyzer's output is bounded; a run past timeout_secs \
        is stopped and its partial output returned.";
    type Args = StaticAnalysisArgs;

    async fn run(
        &self,
        ctx: &ToolContext,
        args: StaticAnalysisArgs,
    ) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

impl StaticAnalysis {
    fn run_blocking(ctx: &ToolContext, args: StaticAnalysisArgs) -> Result<String, ToolFailure> {
        let timeout = Duration::from_secs(
            args.timeout_secs
                .unwrap_or(DEFAULT_TIMEOUT_SECS)
                .clamp(1, MAX_TIMEOUT_SECS),
        );
        let max_chars = args
            .max_output_chars
            .unwrap_or(DEFAULT_OUTPUT_CHARS)
            .clamp(MIN_OUTPUT_CHARS, MAX_OUTPUT_CHARS);
        let steps = plan(&ctx.repo_root, args.analyzer);
        if steps.is_empty() {
            let markers: Vec<&str> = FAMILIES
                .iter()
                .flat_map(|f| f.markers.iter().copied())
                .collect();
            return Ok(format!(
                "No analyzer applies: the repository root has none of {}.\n",
                markers.join(", ")
            ));
        }
        if !ctx.trusted {
            return Ok(untrusted_answer(&steps));
        }
        let deadline = Instant::now() + timeout;
        let mut out = String::new();
        for step in &steps {
            match step {
                Step::Run {
                    candidate,
                    program,
                    why,
                } => {
                    let _ = writeln!(out, "== {} (ran because {why})", candidate.command_line());
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        out.push_str(
                            "[not run: the time limit was used up by the analyzers before it]\n\n",
                        );
                        continue;
                    }
                    let finished = run_until(program, candidate.args, &ctx.repo_root, left)
                        .map_err(|e| {
                            ToolFailure::new(format!(
                                "could not start {}: {e}",
                                candidate.command_line()
                            ))
                        })?;
                    out.push_str(&finished.describe(max_chars, timeout));
                }
                Step::Missing {
                    language,
                    why,
                    looked_for,
                } => {
                    let _ = writeln!(
                        out,
                        "== {language}: no analyzer installed ({why}); looked for {} on PATH\n",
                        looked_for.join(", then ")
                    );
                }
            }
        }
        Ok(out)
    }
}

fn untrusted_answer(steps: &[Step]) -> String {
    let mut out = String::from(
        "static_analysis was not run: this repository is not trusted, and analyzers run a \
         project's build scripts and plugins. The user can trust it with the --trust-repo flag \
         (`iris tool --trust-repo static_analysis`) or by setting IRIS_TRUST_REPO=1.\n",
    );
    for step in steps {
        match step {
            Step::Run { candidate, why, .. } => {
                let _ = writeln!(out, "It would run: {} ({why})", candidate.command_line());
            }
            Step::Missing {
                language,
                looked_for,
                ..
            } => {
                let _ = writeln!(
                    out,
                    "For {language} no analyzer is installed (looked for {})",
                    looked_for.join(", ")
                );
            }
        }
    }
    out
}

/// How an analyzer run ended.
struct Finished {
    output: Vec<u8>,
    /// `None` when it was stopped at the time limit.
    status: Option<ExitStatus>,
    dropped_bytes: usize,
}

impl Finished {
    fn describe(&self, max_chars: usize, timeout: Duration) -> String {
        let text = String::from_utf8_lossy(&self.output);
        let mut out = if text.trim().is_empty() {
            "(no output)\n".to_string()
        } else {
            bound_output(
                text.into_owned(),
                max_chars,
                "raise max_output_chars, or fix the first findings and run again",
            )
        };
        if !out.ends_with('\n') {
            out.push('\n');
        }
        if self.dropped_bytes > 0 {
            let _ = writeln!(
                out,
                "[{} more bytes of output were dropped]",
                self.dropped_bytes
            );
        }
        let _ = match self.status {
            Some(status) if status.success() => {
                writeln!(out, "[exit status 0: no problems reported]\n")
            }
            Some(status) => match status.code() {
                Some(code) => writeln!(out, "[exit status {code}]\n"),
                None => writeln!(out, "[ended by a signal]\n"),
            },
            None => writeln!(
                out,
                "[timed out after {} s: the analyzer and its child processes were stopped; the \
                 output above is what it printed until then]\n",
                timeout.as_secs()
            ),
        };
        out
    }
}

/// Runs a command in `dir` with its output and errors captured together; past `timeout` its
/// whole process group is killed and what it printed so far is kept.
fn run_until(
    program: &Path,
    args: &[&str],
    dir: &Path,
    timeout: Duration,
) -> std::io::Result<Finished> {
    let (mut reader, writer) = std::io::pipe()?;
    #[allow(clippy::disallowed_methods)] // found by find_on_path, run to a deadline below
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(writer.try_clone()?)
        .stderr(writer)
        .env("NO_COLOR", "1")
        .env("CARGO_TERM_COLOR", "never");
    let mut child = iris_studio_process::in_own_group(&mut command).spawn()?;
    // The command holds our copies of the pipe's write end; the reader sees the end only once
    // they are closed.
    drop(command);

    let captured = Arc::new(Mutex::new((Vec::new(), 0usize)));
    let (done, drained) = mpsc::channel();
    let sink = Arc::clone(&captured);
    std::thread::spawn(move || {
        let mut chunk = [0u8; 8192];
        while let Ok(n @ 1..) = reader.read(&mut chunk) {
            if let Ok(mut guard) = sink.lock() {
                let (kept, dropped) = &mut *guard;
                let room = CAPTURE_BYTES.saturating_sub(kept.len()).min(n);
                kept.extend_from_slice(&chunk[..room]);
                *dropped += n - room;
            }
        }
        let _ = done.send(());
    });

    let status = iris_studio_process::wait_or_kill(&mut child, timeout)?;
    let _ = drained.recv_timeout(iris_studio_process::DRAIN_GRACE);
    let (output, dropped_bytes) = match captured.lock() {
        Ok(mut guard) => std::mem::take(&mut *guard),
        Err(_) => (Vec::new(), 0),
    };
    Ok(Finished {
        output,
        status,
        dropped_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_follows_the_project_files_and_the_choice() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert!(plan(dir.path(), AnalyzerChoice::Auto).is_empty());
        std::fs::write(dir.path().join("go.mod"), "module x\n").expect("write");
        let steps = plan(dir.path(), AnalyzerChoice::Auto);
        assert_eq!(steps.len(), 1);
        let why = match &steps[0] {
            Step::Run { why, .. } | Step::Missing { why, .. } => why.clone(),
        };
        assert_eq!(why, "go.mod found");
        let asked = plan(dir.path(), AnalyzerChoice::Python);
        assert_eq!(asked.len(), 1);
        assert!(plan(dir.path(), AnalyzerChoice::Rust).iter().all(|s| matches!(s, Step::Run { why, .. } | Step::Missing { why, .. } if why.contains("asked for"))));
    }

    #[test]
    fn a_command_past_its_time_is_stopped_with_its_output_so_far() {
        let dir = tempfile::tempdir().expect("temp dir");
        let started = Instant::now();
        let finished = run_until(
            Path::new("sh"),
            &["-c", "echo before; sleep 30; echo after"],
            dir.path(),
            Duration::from_millis(300),
        )
        .expect("runs");
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(finished.status.is_none());
        assert_eq!(String::from_utf8_lossy(&finished.output), "before\n");
        let text = finished.describe(MIN_OUTPUT_CHARS, Duration::from_secs(1));
        assert!(text.contains("timed out after 1 s"), "{text}");
    }
}
