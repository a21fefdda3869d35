//! The subscription the user already pays for: Claude Code, Codex and Gemini CLIs run as
//! Iris' model. Requests are written as Chat Completions by rig as for any server and pass
//! the whole HTTP stack (secrets withheld, the cost cap, `--dry-run`); this middleware, the
//! last, carries each to the command instead of the network and writes its answer back as a
//! Chat Completions reply, streamed where the CLI streams. The CLI runs in an empty directory
//! of its own with its tools off and none of Iris' keys in its environment; a silence longer
//! than the stall timeout, or a run given up on (Esc, the deadline), kills it.

mod asked;
mod invocation;
mod output;
mod reply;

use std::time::Duration;

use reqwest::{Request, Response, ResponseBuilderExt};
use reqwest_middleware::{Middleware, Next};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout};

use asked::Asked;
use invocation::Invocation;
use iris_studio_config::{CliAgent, ProviderKind};
use output::{Reader, Reply};

use crate::runtime::transport_failure::TransportFailure;

/// The most a CLI may print for one reply.
const MAX_OUTPUT: usize = 8 << 20;
/// The most of its standard error kept (the end), for its last words.
const MAX_STDERR: usize = 64 << 10;
/// How long its standard error may take to close once it has exited.
const STDERR_GRACE: Duration = Duration::from_secs(2);

/// The middleware that runs `agent` in place of the network.
pub struct CliTransport {
    agent: CliAgent,
    stall_timeout: Duration,
    failure: TransportFailure,
    /// Where the CLI is looked for: PATH when the client was built.
    path: std::ffi::OsString,
}

impl CliTransport {
    pub fn new(agent: CliAgent, stall_timeout: Duration, failure: TransportFailure) -> Self {
        Self {
            agent,
            stall_timeout,
            failure,
            path: std::env::var_os("PATH").unwrap_or_default(),
        }
    }

    fn refused(&self, text: String) -> reqwest_middleware::Error {
        self.failure.set(&text);
        reqwest_middleware::Error::Middleware(anyhow::anyhow!(text))
    }
}

#[async_trait::async_trait]
impl Middleware for CliTransport {
    async fn handle(
        &self,
        req: Request,
        _extensions: &mut http::Extensions,
        _next: Next<'_>,
    ) -> reqwest_middleware::Result<Response> {
        let url = req.url().clone();
        let body = req.body().and_then(|b| b.as_bytes()).unwrap_or_default();
        let body: Value = serde_json::from_slice(body)
            .map_err(|e| self.refused(format!("the request could not be read: {e}")))?;
        let asked = Asked::from_body(&body).map_err(|e| self.refused(e))?;
        let mut run = Running::start(self.agent, &asked, self.stall_timeout, &self.path)
            .await
            .map_err(|e| self.refused(e))?;
        let head = http::Response::builder().status(200).url(url);
        if !asked.stream {
            let reply = run.read_all().await.map_err(|e| self.refused(e))?;
            let json = reply::whole(&asked.model, &reply).to_string();
            let head = head.header(reqwest::header::CONTENT_TYPE, "application/json");
            return respond(head, reqwest::Body::from(json));
        }
        // The first text (or the end) before answering: a CLI that fails at once (not signed
        // in) is an error of the request, not of a stream.
        let (first, run) = match run.step().await {
            Step::Text(text) => (reply::chunk(&asked.model, &text), Some(run)),
            Step::End => {
                let reply = run.finish().await.map_err(|e| self.refused(e))?;
                let text = format!(
                    "{}{}",
                    reply::chunk(&asked.model, &reply.text),
                    reply::end(&asked.model, &reply)
                );
                (text, None)
            }
            Step::Failed(why) => return Err(self.refused(why)),
        };
        let model = asked.model.clone();
        let failure = self.failure.clone();
        let events = futures::stream::unfold((Some(first), run), move |(pending, run)| {
            let model = model.clone();
            let failure = failure.clone();
            async move {
                if let Some(text) = pending {
                    return Some((Ok(text), (None, run)));
                }
                let mut run = run?;
                let item = match run.step().await {
                    Step::Text(text) => {
                        return Some((Ok(reply::chunk(&model, &text)), (None, Some(run))));
                    }
                    Step::End => {
                        let streamed = run.streamed.clone();
                        match run.finish().await {
                            Ok(reply) => {
                                let rest = reply::rest(&reply.text, &streamed);
                                let mut text = String::new();
                                if !rest.is_empty() {
                                    text.push_str(&reply::chunk(&model, rest));
                                }
                                text.push_str(&reply::end(&model, &reply));
                                Ok(text)
                            }
                            Err(why) => Err(why),
                        }
                    }
                    Step::Failed(why) => Err(why),
                };
                let item: Result<String, crate::runtime::rebody::BoxError> = item.map_err(|why| {
                    failure.set(&why);
                    why.into()
                });
                Some((item, (None, None)))
            }
        });
        let head = head.header(reqwest::header::CONTENT_TYPE, "text/event-stream");
        respond(head, reqwest::Body::wrap_stream(events))
    }
}

fn respond(
    head: http::response::Builder,
    body: reqwest::Body,
) -> reqwest_middleware::Result<Response> {
    let response = head
        .body(body)
        .map_err(|e| reqwest_middleware::Error::Middleware(e.into()))?;
    Ok(Response::from(response))
}

/// What reading on found.
enum Step {
    Text(String),
    End,
    Failed(String),
}

/// A CLI running for one request.
struct Running {
    agent: CliAgent,
    child: Child,
    lines: Lines<BufReader<ChildStdout>>,
    reader: Reader,
    stderr: tokio::task::JoinHandle<String>,
    stall: Duration,
    /// The text streamed so far.
    streamed: String,
    /// Bytes of output read.
    read: usize,
    /// Whatever the CLI started goes with the run.
    group: GroupKill,
    /// Its directory, removed when the run ends.
    _dir: tempfile::TempDir,
}

impl Running {
    async fn start(
        agent: CliAgent,
        asked: &Asked,
        stall: Duration,
        path: &std::ffi::OsStr,
    ) -> Result<Self, String> {
        let dir = tempfile::Builder::new()
            .prefix("iris-cli-")
            .tempdir()
            .map_err(|e| format!("no directory to run {} in: {e}", agent.program()))?;
        let invocation = Invocation::of(agent, asked, dir.path());
        for (name, text) in &invocation.files {
            std::fs::write(dir.path().join(name), text)
                .map_err(|e| format!("could not write {name} for {}: {e}", agent.program()))?;
        }
        let Some(program) = iris_studio_process::find_on_path(invocation.program, path) else {
            return Err(format!(
                "`{}` was not found on PATH ({} runs it): install it with `{}`, then {}",
                agent.program(),
                agent.name(),
                agent.install(),
                agent.login()
            ));
        };
        let mut command = command(&program, &invocation);
        command.current_dir(dir.path());
        let mut child = command
            .spawn()
            .map_err(|e| format!("could not run `{}`: {e}", agent.program()))?;
        let group = GroupKill(child.id());
        // Written while the answer is read: a long prompt fills the pipe.
        if let Some(mut stdin) = child.stdin.take() {
            let prompt = invocation.stdin.clone();
            tokio::spawn(async move {
                let _ = stdin.write_all(prompt.as_bytes()).await;
                let _ = stdin.shutdown().await;
            });
        }
        // Read to its end (a CLI whose pipe closed early could die of it), its tail kept.
        let stderr = child.stderr.take();
        let stderr = tokio::spawn(async move {
            let mut kept: Vec<u8> = Vec::new();
            let mut buffer = [0u8; 8192];
            if let Some(mut stderr) = stderr {
                while let Ok(n) = stderr.read(&mut buffer).await {
                    if n == 0 {
                        break;
                    }
                    kept.extend_from_slice(&buffer[..n]);
                    let over = kept.len().saturating_sub(MAX_STDERR);
                    kept.drain(..over);
                }
            }
            String::from_utf8_lossy(&kept).into_owned()
        });
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| format!("`{}` gave no output to read", agent.program()))?;
        Ok(Self {
            agent,
            child,
            lines: BufReader::new(stdout).lines(),
            reader: Reader::new(agent, asked.stream),
            stderr,
            stall,
            streamed: String::new(),
            read: 0,
            group,
            _dir: dir,
        })
    }

    /// Reads on until the reply's next text, its end, or a failure.
    async fn step(&mut self) -> Step {
        loop {
            let line = match tokio::time::timeout(self.stall, self.lines.next_line()).await {
                Err(_) => {
                    let _ = self.child.start_kill();
                    return Step::Failed(format!(
                        "{} printed nothing for {}s (request_timeout_secs): stopped",
                        self.agent.program(),
                        self.stall.as_secs()
                    ));
                }
                Ok(Ok(Some(line))) => line,
                Ok(Ok(None)) => return Step::End,
                Ok(Err(e)) => {
                    return Step::Failed(format!("reading {}: {e}", self.agent.program()));
                }
            };
            self.read += line.len() + 1;
            if self.read > MAX_OUTPUT {
                let _ = self.child.start_kill();
                return Step::Failed(format!(
                    "{} printed more than {} MB for one reply: stopped",
                    self.agent.program(),
                    MAX_OUTPUT >> 20
                ));
            }
            if let Some(text) = self.reader.line(&line) {
                self.streamed.push_str(&text);
                return Step::Text(text);
            }
        }
    }

    /// Reads to the end, then the reply.
    async fn read_all(mut self) -> Result<Reply, String> {
        loop {
            match self.step().await {
                Step::Text(_) => {}
                Step::End => return self.finish().await,
                Step::Failed(why) => return Err(why),
            }
        }
    }

    /// The reply, once the output has ended: the CLI's exit and last words decide.
    async fn finish(mut self) -> Result<Reply, String> {
        let status = tokio::time::timeout(self.stall, self.child.wait()).await;
        let code = match status {
            Ok(Ok(status)) => status.code(),
            _ => {
                let _ = self.child.start_kill();
                None
            }
        };
        // Whatever it left running would hold its standard error open.
        if let Some(pid) = self.group.0.take() {
            iris_studio_process::kill_group_of(pid);
        }
        let stderr = match tokio::time::timeout(STDERR_GRACE, &mut self.stderr).await {
            Ok(text) => text.unwrap_or_default(),
            Err(_) => {
                self.stderr.abort();
                String::new()
            }
        };
        let agent = self.agent;
        self.reader
            .finish(code, &crate::runtime::redact::for_log(&stderr))
            .map_err(|why| said(agent, &why, code))
    }
}

/// Kills a CLI's process group when its run ends, however it ends (an answer, Esc, the
/// deadline): an agent may leave helpers of its own running.
struct GroupKill(Option<u32>);

impl Drop for GroupKill {
    fn drop(&mut self) {
        if let Some(pid) = self.0 {
            iris_studio_process::kill_group_of(pid);
        }
    }
}

/// The command (a process group of its own) with none of Iris' keys or settings in its
/// environment.
fn command(program: &std::path::Path, invocation: &Invocation) -> tokio::process::Command {
    #[allow(clippy::disallowed_methods)] // found by find_on_path; its group is killed on drop
    let mut group = std::process::Command::new(program);
    iris_studio_process::in_own_group(&mut group);
    let mut command = tokio::process::Command::from(group);
    command
        .args(&invocation.args)
        .envs(invocation.env.iter().map(|(k, v)| (k, v)))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    // The keys Iris reads for its providers, but one the CLI signs in with itself
    // (Gemini CLI's GEMINI_API_KEY): ANTHROPIC_API_KEY would move Claude Code off the plan.
    for kind in ProviderKind::all() {
        for var in kind.api_key_vars() {
            if !invocation.own_keys.contains(&var) {
                command.env_remove(var);
            }
        }
    }
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("IRIS_") {
            command.env_remove(&name);
        }
    }
    command
}

/// Why a CLI failed, in a sentence naming it, with how to sign in when that is what it asks.
fn said(agent: CliAgent, why: &str, code: Option<i32>) -> String {
    let why = crate::runtime::redact::for_log(why);
    let lower = why.to_lowercase();
    let sign_in = code == Some(41)
        || [
            "login",
            "log in",
            "sign in",
            "api key",
            "unauthorized",
            "401",
            "auth method",
            "not logged",
        ]
        .iter()
        .any(|w| lower.contains(w));
    // The run's error names the provider already.
    if sign_in {
        format!("{why} (not signed in? {})", agent.login())
    } else {
        why
    }
}

#[cfg(test)]
mod tests;
