//! The one way an artifact is written, for the command line and the studio alike: the
//! capability and request come from the artifact's kind and scope, the critic and the
//! emoji from the configuration.

use std::time::Duration;

use crate::EventSink;
use crate::capability::requests::{Scope, request};
use crate::capability::template_filling::{keep_template, template_section};
use crate::iris::IrisAgent;
use crate::runtime::request::{Request, Section};
use iris_studio_core::artifact::review::memory::{Dismissal, Seen, dismissal_notes, earlier_notes};
use iris_studio_core::artifact::{
    Artifact, ArtifactKind, Changelog, GeneratedMessage, PullRequest, ReleaseNotes, Review,
};
use iris_studio_core::change::FileDiff;
use iris_studio_core::commit_rules::{CommitRules, RuleName, Violation, error_count};
use iris_studio_core::history;
use iris_studio_core::linked_issue;
use iris_studio_core::pr_template::Template;
use iris_studio_core::protocol::AgentEvent;
use iris_studio_core::stack::InStack;
use iris_studio_core::ticket::{self, Ticket};
use iris_studio_git::HeadState;

/// A written artifact, as text and as data.
#[derive(Debug, Clone)]
pub struct Written {
    /// Which artifact it is: a commit message, a PR description, a review, ...
    pub kind: ArtifactKind,
    /// The markdown (for a commit message, the text git records).
    pub text: String,
    /// The structured artifact, as the model filled it in.
    pub json: serde_json::Value,
    /// Requests sent to the model, the critic's included.
    pub requests: usize,
    /// Input tokens of those requests, as the provider reported them.
    pub input_tokens: u64,
    /// Output tokens of those requests, as the provider reported them.
    pub output_tokens: u64,
    /// The critic could not run; the first artifact stands.
    pub critic_warning: Option<String>,
    /// For a commit message in a repository with commit rules: the rules it still breaks,
    /// errors and warnings, after the one retry its errors asked for. Empty otherwise.
    pub rule_violations: Vec<Violation>,
    /// The file the repository's commit rules came from (`commitlint.config.js`, ...), when
    /// a commit message was checked against them.
    pub rules_source: Option<String>,
}

impl IrisAgent {
    /// Writes `kind` over `scope`. The critic checks it when the kind asks for it by default
    /// or `ask_critic` does, and never when the configuration turns it off. The whole run has
    /// one deadline (`run_timeout_secs`), and ends with an [`AgentEvent::Done`] or
    /// [`AgentEvent::Error`] event as well.
    pub async fn write(
        &self,
        kind: ArtifactKind,
        scope: &Scope,
        ask_critic: bool,
        sink: &EventSink,
    ) -> crate::Result<Written> {
        crate::error::at_edge(
            async move { self.write_about(kind, scope, None, ask_critic, sink).await },
        )
        .await
    }

    /// Writes the pull request of one layer of a stack, over `scope` (the layer's own
    /// change): the request carries the layer's place in the stack. Otherwise as
    /// [`IrisAgent::write`].
    pub async fn write_layer(
        &self,
        scope: &Scope,
        layer: &InStack,
        ask_critic: bool,
        sink: &EventSink,
    ) -> crate::Result<Written> {
        crate::error::at_edge(async move {
            self.write_about(ArtifactKind::Pr, scope, Some(layer), ask_critic, sink)
                .await
        })
        .await
    }

    async fn write_about(
        &self,
        kind: ArtifactKind,
        scope: &Scope,
        layer: Option<&InStack>,
        ask_critic: bool,
        sink: &EventSink,
    ) -> anyhow::Result<Written> {
        let started = std::time::Instant::now();
        let work = async {
            let clock = self.clock();
            let prepared = self.prepare(kind, scope, layer, sink).await?;
            self.compose(&prepared, None, ask_critic, clock, sink).await
        };
        self.bounded(sink, work, |written| {
            finished(kind, started, written, self.price.as_ref().map(|(p, _)| *p))
        })
        .await
    }

    /// One version of an artifact from what [`IrisAgent::prepare`] gathered, with `angle`
    /// (a section of the request: how this one differs from the others) when several are
    /// written for the user to choose from; within the run's deadline, as [`IrisAgent::write`].
    pub(crate) async fn write_version(
        &self,
        prepared: &Prepared,
        angle: Option<&str>,
        ask_critic: bool,
        sink: &EventSink,
    ) -> anyhow::Result<Written> {
        let started = std::time::Instant::now();
        let work = self.compose(prepared, angle, ask_critic, self.clock(), sink);
        self.bounded(sink, work, |written| {
            finished(
                prepared.kind,
                started,
                written,
                self.price.as_ref().map(|(p, _)| *p),
            )
        })
        .await
    }

    /// When a run starts, and how long approvals had waited then: the retry on the commit
    /// rules must end before the run's deadline, or the first message is lost.
    fn clock(&self) -> Clock {
        (tokio::time::Instant::now(), self.ctx.safety.waited())
    }

    /// What every version of `kind` over `scope` is written from, read once: the template
    /// (first, so a template named but missing fails before any work), the evidence, the
    /// commit rules and the ticket.
    pub(crate) async fn prepare(
        &self,
        kind: ArtifactKind,
        scope: &Scope,
        layer: Option<&InStack>,
        sink: &EventSink,
    ) -> anyhow::Result<Prepared> {
        let template = match kind {
            ArtifactKind::Pr => self.find_pr_template(sink).await?,
            _ => None,
        };
        sink.send(AgentEvent::Status("gathering the evidence".into()));
        let gathered =
            crate::capability::evidence::gather(&self.ctx, self.main.local, kind, scope).await;
        let packages =
            crate::capability::evidence::packages(&self.ctx, scope, self.pin_tags.clone()).await;
        let rules = match kind {
            ArtifactKind::Commit => self.commit_rules(sink).await,
            _ => None,
        };
        let ticket = match kind {
            ArtifactKind::Commit | ArtifactKind::Pr => self.ticket().await,
            _ => None,
        };
        let linked = match kind {
            ArtifactKind::Commit | ArtifactKind::Pr => {
                self.linked_issues(kind, scope, ticket.as_ref(), sink).await
            }
            _ => None,
        };
        let attribution = match kind {
            ArtifactKind::Commit => self.attribution().await,
            _ => None,
        };
        let scope_hint = match (kind, scope) {
            (ArtifactKind::Commit, Scope::Staged) => {
                self.scope_hint(rules.as_ref(), gathered.history.as_deref())
                    .await
            }
            _ => None,
        };
        let operation = match (kind, scope) {
            (ArtifactKind::Commit, Scope::Staged | Scope::Uncommitted) => self.operation().await,
            _ => None,
        };
        let commit_template = match kind {
            ArtifactKind::Commit => self.commit_template().await,
            _ => None,
        };
        let reviewed = match kind {
            ArtifactKind::Review => {
                match crate::capability::evidence::reviewed_change(&self.ctx, scope).await {
                    Ok(diffs) => Some(diffs),
                    Err(err) => {
                        sink.send(AgentEvent::Warning(format!(
                            "the change could not be read ({err}): the findings are not checked against it"
                        )));
                        None
                    }
                }
            }
            _ => None,
        };
        Ok(Prepared {
            kind,
            asked: request(kind, scope),
            version: scope.version().map(str::to_string),
            evidence: gathered.evidence,
            packages,
            history: gathered.history,
            rules,
            template,
            ticket,
            linked,
            scope_hint,
            operation,
            commit_template,
            attribution,
            reviewed,
            stack: layer
                .filter(|_| kind == ArtifactKind::Pr)
                .map(InStack::section),
            sessions: self.sessions.clone(),
        })
    }

    /// The shape the project's `commit.template` gives its messages, as a section of the
    /// request; `None` when none is set or it cannot be read.
    async fn commit_template(&self) -> Option<String> {
        let root = self.ctx.repo_root.clone();
        tokio::task::spawn_blocking(move || {
            let path = iris_studio_git::GitRepo::discover(&root)
                .ok()?
                .commit_template()?;
            let text = std::fs::read(path).ok()?;
            iris_studio_core::artifact::commit_template::section(&String::from_utf8_lossy(&text))
        })
        .await
        .ok()
        .flatten()
    }

    /// For a commit that concludes a merge, cherry-pick, revert or rebase: git's prepared
    /// message and how the conflicts were resolved, as a section of the request.
    async fn operation(&self) -> Option<String> {
        let root = self.ctx.repo_root.clone();
        tokio::task::spawn_blocking(move || {
            let repo = iris_studio_git::GitRepo::discover(&root).ok()?;
            Some(match repo.operation() {
                Ok(op) => iris_studio_core::change::operation::section(&op?),
                Err(e) => format!("## An operation is in progress\n\n(it could not be read: {e})"),
            })
        })
        .await
        .ok()
        .flatten()
    }

    /// The trailer that says Iris helped, as `attribution_trailer` and the project's
    /// contributor guides (read now, so an edited guide counts) decide.
    async fn attribution(&self) -> Option<String> {
        let setting = self.style.attribution.clone();
        let root = self.ctx.repo_root.clone();
        tokio::task::spawn_blocking(move || {
            iris_studio_config::project::attribution_trailer(&setting, &root)
        })
        .await
        .ok()
        .flatten()
    }

    /// The scope the staged files suggest (their workspace member), when the project's rules
    /// ask for scopes (`scope-enum`, or `scope-empty` never) or its history writes them.
    async fn scope_hint(
        &self,
        rules: Option<&CommitRules>,
        history: Option<&str>,
    ) -> Option<String> {
        let allowed = rules
            .and_then(|r| r.rule(RuleName::ScopeEnum))
            .and_then(|rule| match &rule.value {
                iris_studio_core::commit_rules::Value::Names { names, .. } => Some(names.clone()),
                _ => None,
            });
        let required = rules
            .and_then(|r| r.rule(RuleName::ScopeEmpty))
            .is_some_and(|rule| rule.when == iris_studio_core::commit_rules::When::Never);
        if allowed.is_none() && !required && !history.is_some_and(history::sample_uses_scopes) {
            return None;
        }
        let root = self.ctx.repo_root.clone();
        tokio::task::spawn_blocking(move || {
            let repo = iris_studio_git::GitRepo::discover(&root).ok()?;
            let status = repo.status().ok()?;
            let files: Vec<String> = status.staged().map(|e| e.path.clone()).collect();
            let members = iris_studio_config::project::members::workspace_members(&root);
            iris_studio_core::scope::section(&files, &members, allowed.as_deref())
        })
        .await
        .ok()
        .flatten()
    }

    async fn compose(
        &self,
        prepared: &Prepared,
        angle: Option<&str>,
        ask_critic: bool,
        clock: Clock,
        sink: &EventSink,
    ) -> anyhow::Result<Written> {
        let Prepared {
            kind,
            asked,
            version,
            evidence,
            packages,
            history,
            rules,
            template,
            ticket,
            linked,
            scope_hint,
            operation,
            commit_template,
            attribution,
            reviewed,
            stack,
            sessions,
        } = prepared;
        let kind = *kind;
        // The rules, the template, the ticket and the user's words go before the evidence, so
        // a retry without the evidence keeps them.
        let mut request = Request::ask(asked.clone());
        let sections = [
            (Section::Rules, rules.as_ref().and_then(rules_section)),
            (Section::Template, template.as_ref().map(template_section)),
            (
                Section::Ticket,
                ticket
                    .as_ref()
                    .map(|t| t.section(kind == ArtifactKind::Commit)),
            ),
            (Section::Sessions, sessions.clone()),
            (Section::LinkedIssues, linked.clone()),
            (Section::Stack, stack.clone()),
            (Section::Scope, scope_hint.clone()),
            (
                Section::Dismissals,
                reviewed
                    .as_deref()
                    .and_then(|diffs| dismissals_section(&self.review.dismissals, diffs)),
            ),
            (
                Section::Earlier,
                reviewed
                    .as_ref()
                    .and_then(|_| earlier_section(&self.review.earlier)),
            ),
            (Section::Operation, operation.clone()),
            (Section::CommitTemplate, commit_template.clone()),
            (Section::Angle, angle.map(str::to_string)),
            (Section::Evidence, Some(evidence.clone())),
            (Section::Packages, packages.clone()),
            (Section::History, history.clone()),
        ];
        for (kind, text) in sections {
            if let Some(text) = text {
                request.push(kind, text);
            }
        }
        let critic = self.critic_enabled && (kind.describe().critic || ask_critic);
        let version = version.clone();
        // Without gitmoji (and always with conventional commits, or rules that read a type at
        // the start of the header) no emoji is kept.
        let typed_header = rules.as_ref().is_some_and(|r| {
            r.rule(RuleName::TypeEmpty).is_some() || r.rule(RuleName::TypeEnum).is_some()
        });
        let drop_emoji = !self.style.gitmoji || self.style.preset == "conventional" || typed_header;
        let run = Run {
            kind,
            request: &request,
            critic,
            sink,
        };
        match kind {
            ArtifactKind::Commit => {
                let attribution = attribution.as_deref();
                let model = self.main.model.as_str();
                let finish = move |m: &mut GeneratedMessage| {
                    if drop_emoji {
                        m.emoji = None;
                    }
                    if let Some(ticket) = ticket {
                        ticket.place(m, !typed_header);
                    }
                    if let Some(name) = attribution {
                        iris_studio_core::attribution::add(m, name, model);
                    }
                };
                let written = self.compose_as(run, &finish).await?;
                match rules {
                    Some(rules) => {
                        self.keep_to_rules(written, rules, (&request, clock), finish, sink)
                            .await
                    }
                    None => Ok(written),
                }
            }
            ArtifactKind::Review => {
                let pass = |request: Request, critic: bool| async move {
                    let run = Run {
                        request: &request,
                        critic: critic && run.critic,
                        ..run
                    };
                    self.compose_as(run, |_: &mut Review| {}).await
                };
                self.compose_review(&request, reviewed.as_deref(), sink, pass)
                    .await
            }
            ArtifactKind::Pr => {
                let finish = |pr: &mut PullRequest| keep_template(pr, template.as_ref(), sink);
                self.compose_as(run, finish).await
            }
            ArtifactKind::Changelog => {
                self.compose_as(run, |c: &mut Changelog| {
                    c.version = c.version.take().or(version)
                })
                .await
            }
            ArtifactKind::ReleaseNotes => {
                self.compose_as(run, |n: &mut ReleaseNotes| {
                    n.version = n.version.take().or(version)
                })
                .await
            }
        }
    }

    /// Generates the artifact as `T`, lets `finish` complete it, and renders it (a commit
    /// message's markdown is the text git records).
    async fn compose_as<T: Artifact + Send + 'static>(
        &self,
        run: Run<'_>,
        finish: impl FnOnce(&mut T),
    ) -> anyhow::Result<Written> {
        let name = run.kind.name();
        let mut generated = self
            .run_capability::<T>(name, run.request, run.critic, run.sink)
            .await?;
        finish(&mut generated.artifact);
        Ok(Written {
            kind: run.kind,
            text: generated.artifact.to_markdown(),
            json: serde_json::to_value(&generated.artifact)?,
            requests: generated.requests,
            input_tokens: generated.input_tokens,
            output_tokens: generated.output_tokens,
            critic_warning: generated.critic_warning,
            rule_violations: Vec::new(),
            rules_source: None,
        })
    }

    /// The ticket the branch's name carries, with where the project's history puts ticket ids;
    /// `None` on a detached HEAD, a branch without one or a repository that cannot be read.
    async fn ticket(&self) -> Option<Ticket> {
        let root = self.ctx.repo_root.clone();
        let found = tokio::task::spawn_blocking(move || {
            let repo = iris_studio_git::GitRepo::discover(&root).ok()?;
            let branch = match repo.head_state().ok()? {
                HeadState::Branch(name) | HeadState::Unborn(name) => name,
                HeadState::Detached(_) => return None,
            };
            let history: Vec<String> = repo
                .log(ticket::HISTORY)
                .unwrap_or_default()
                .into_iter()
                // The same commits the style sample is chosen from: people's, no merges.
                .filter(|c| history::by_people(c.parent_count, &c.author_name, &c.author_email))
                .map(|c| c.message)
                .collect();
            Ticket::find(&branch, &history)
        });
        found.await.ok().flatten()
    }

    /// The issues the change is for, read from the forge when Iris has a reader: the branch's
    /// ticket, and for a PR every issue its commits name. Those that could not be read are
    /// said on the progress line in a word; the request goes without them.
    async fn linked_issues(
        &self,
        kind: ArtifactKind,
        scope: &Scope,
        ticket: Option<&Ticket>,
        sink: &EventSink,
    ) -> Option<String> {
        let reader = self.issues.as_ref()?;
        let mut numbers: Vec<u64> = ticket
            .and_then(|t| linked_issue::number_of_ticket(&t.id))
            .into_iter()
            .collect();
        if let (ArtifactKind::Pr, Scope::Range { from, to, .. }) = (kind, scope) {
            let (root, from, to) = (self.ctx.repo_root.clone(), from.clone(), to.clone());
            let messages = tokio::task::spawn_blocking(move || {
                iris_studio_git::GitRepo::discover(&root)
                    .and_then(|repo| repo.log_range(&from, &to, 200))
                    .map(|log| log.into_iter().map(|c| c.message).collect::<Vec<_>>())
                    .unwrap_or_default()
            })
            .await
            .unwrap_or_default();
            for n in linked_issue::numbers_in(&messages) {
                if !numbers.contains(&n) {
                    numbers.push(n);
                }
            }
        }
        if numbers.is_empty() {
            return None;
        }
        sink.send(AgentEvent::Status("reading the linked issues".into()));
        let (read, unread) = crate::issues::read_all(reader, &numbers).await;
        if let Some((number, why)) = unread.first() {
            let more = match unread.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            sink.send(AgentEvent::Status(format!(
                "issue #{number} not read: {why}{more}"
            )));
        }
        linked_issue::section(&read)
    }

    /// The repository's commit rules, if it has any. A configuration that cannot be read is
    /// a warning, and the message is written as if there were none.
    pub(crate) async fn commit_rules(&self, sink: &EventSink) -> Option<CommitRules> {
        let root = self.ctx.repo_root.clone();
        let found =
            tokio::task::spawn_blocking(move || iris_studio_config::project::commit_rules(&root))
                .await;
        let err = match found {
            Ok(Ok(Some(rules))) if !rules.notes.is_empty() => {
                // What the reader passed over (an `extends` it cannot resolve, a function).
                let notes = rules.notes.join("; ");
                sink.send(AgentEvent::Warning(format!("{}: {notes}", rules.source)));
                return Some(rules);
            }
            Ok(Ok(rules)) => return rules,
            Ok(Err(err)) => err.to_string(),
            Err(join) => format!("cannot read the commit rules: {join}"),
        };
        sink.send(AgentEvent::Warning(format!(
            "{err}; the message is written without them"
        )));
        None
    }

    /// `written` (a commit message) checked against `rules`: on an error-level violation the
    /// model is asked once more, with the message and what it breaks, and the revision is kept
    /// when it breaks fewer error-level rules. Never more than one retry; a retry that fails
    /// leaves the first message, with a warning.
    async fn keep_to_rules(
        &self,
        mut written: Written,
        rules: &CommitRules,
        (request, (started, waited_before)): (&Request, (tokio::time::Instant, Duration)),
        finish: impl Fn(&mut GeneratedMessage),
        sink: &EventSink,
    ) -> anyhow::Result<Written> {
        written.rules_source = Some(rules.source.clone());
        let first = rules.check(&written.text);
        let errors = error_count(&first);
        if errors == 0 {
            written.rule_violations = first;
            return Ok(written);
        }
        sink.send(AgentEvent::Status(format!(
            "the message breaks {}: asking once more",
            broken_rules(&first)
        )));
        let asked = follow_up_request(request, rules, &written.text, &first);
        // The run's deadline as `within` keeps it (answered questions move it on), less a
        // second, so the run's own timeout never cuts the first message off.
        let waited = self.ctx.safety.waited().saturating_sub(waited_before);
        let deadline = started + self.settings.run_timeout + waited;
        let until = deadline
            .checked_sub(Duration::from_secs(1))
            .unwrap_or(started);
        let follow_up = self.follow_up::<GeneratedMessage>(written.kind.name(), asked, sink);
        let asked_again = match tokio::time::timeout_at(until, follow_up).await {
            Ok(Ok(revised)) => Ok(revised),
            Ok(Err(err)) => Err(format!("{err:#}")),
            Err(_) => Err("the run's time ran out".to_string()),
        };
        let revised = match asked_again {
            Ok(revised) => revised,
            Err(why) => {
                sink.send(AgentEvent::Warning(format!(
                    "asking for a message that follows {} failed ({why}); keeping the first",
                    rules.source
                )));
                written.rule_violations = first;
                return Ok(written);
            }
        };
        written.requests += revised.requests;
        written.input_tokens += revised.input_tokens;
        written.output_tokens += revised.output_tokens;
        let mut message = revised.artifact;
        finish(&mut message);
        let text = message.to_markdown();
        let second = rules.check(&text);
        let left = error_count(&second);
        if left < errors {
            sink.send(AgentEvent::Status(if left == 0 {
                "the revised message follows the rules".to_string()
            } else {
                format!("the revised message still breaks {}", broken_rules(&second))
            }));
            written.text = text;
            written.json = serde_json::to_value(&message)?;
            written.rule_violations = second;
        } else {
            sink.send(AgentEvent::Status(
                "the revised message is no better: keeping the first".into(),
            ));
            written.rule_violations = first;
        }
        Ok(written)
    }
}

/// The error-level rules broken, each once: "type-enum, header-max-length".
fn broken_rules(violations: &[Violation]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for v in violations.iter().filter(|v| v.error) {
        if !names.contains(&v.rule.as_str()) {
            names.push(&v.rule);
        }
    }
    names.join(", ")
}

/// The request's section on the repository's commit rules; `None` when they set no rule.
pub(crate) fn rules_section(rules: &CommitRules) -> Option<String> {
    let sentences = rules.describe();
    if sentences.is_empty() {
        return None;
    }
    let lines: Vec<String> = sentences.iter().map(|s| format!("- {s}")).collect();
    Some(format!(
        "## This project's commit rules ({})\nThe message must follow them; they come before \
         the style of the recent history.\n{}",
        rules.source,
        lines.join("\n")
    ))
}

/// The one follow-up on a message that breaks `rules`: the request without its evidence and
/// history sample (the rules are in it), the message and every rule it breaks.
fn follow_up_request(
    request: &Request,
    rules: &CommitRules,
    message: &str,
    violations: &[Violation],
) -> Request {
    let broken: Vec<String> = violations
        .iter()
        .map(|v| {
            let warning = if v.error { "" } else { " (a warning)" };
            format!("- {}: {}{warning}", v.rule, v.message)
        })
        .collect();
    request
        .without(&[Section::Evidence, Section::History])
        .with(
            Section::Revision,
            format!(
                "## Your message\n{}\n\n## Rules it breaks ({})\n{}\n\nWrite the commit \
                 message again so that it follows every rule of this project, saying the same \
                 about the change. Everything you need is above: answer at once.",
                message.trim_end(),
                rules.source,
                broken.join("\n")
            ),
        )
}

/// When a run started, and how long approvals had waited then.
type Clock = (tokio::time::Instant, Duration);

/// What every version of one artifact is written from (see [`IrisAgent::prepare`]).
pub(crate) struct Prepared {
    kind: ArtifactKind,
    /// The request's first section: what to write, over what.
    asked: String,
    /// The version a range ships in, for a changelog or release notes.
    version: Option<String>,
    evidence: String,
    /// The packages the change moves (its lock files' and its workflows' pins), when any.
    packages: Option<String>,
    /// For a commit message: how the repository's people write theirs.
    history: Option<String>,
    rules: Option<CommitRules>,
    template: Option<Template>,
    ticket: Option<Ticket>,
    /// The issues the change is for, as their section.
    linked: Option<String>,
    /// For a staged commit whose project writes scopes: the scope its files suggest.
    scope_hint: Option<String>,
    /// For a commit that concludes a merge, cherry-pick, revert or rebase: what git prepared
    /// and how the conflicts were resolved.
    operation: Option<String>,
    /// For a commit message: the shape of the project's `commit.template`.
    commit_template: Option<String>,
    /// For a commit message: the trailer that says Iris helped, when the project asks.
    attribution: Option<String>,
    /// For a review: the change it covers, which its findings are checked against.
    reviewed: Option<Vec<FileDiff>>,
    /// For one layer of a stack of pull requests: its place in the stack.
    stack: Option<String>,
    /// What the user asked their coding agent while making the change.
    sessions: Option<String>,
}

/// For a review: the notes on the findings dismissed earlier in the files under review (a
/// renamed file's old path counts), or none.
fn dismissals_section(dismissed: &[Dismissal], diffs: &[FileDiff]) -> Option<String> {
    let files: Vec<String> = diffs
        .iter()
        .flat_map(|d| std::iter::once(d.path.clone()).chain(d.old_path.clone()))
        .collect();
    notes_section(
        "## Dismissed before\n\nThe project dismissed these findings on the files under \
         review. Do not raise them, or the same kind of finding, again:",
        &dismissal_notes(dismissed, &files),
    )
}

/// For a re-review of a pull request: the findings already on it, or none.
fn earlier_section(earlier: &[Seen]) -> Option<String> {
    notes_section(
        "## Already on the pull request\n\nIris reviewed the earlier commits of this pull \
         request; these findings are posted on it. Review the new commits, and do not raise \
         these again:",
        &earlier_notes(earlier),
    )
}

/// `heading` (with its line of instructions), then `notes` as a list; none without notes.
fn notes_section(heading: &str, notes: &[String]) -> Option<String> {
    if notes.is_empty() {
        return None;
    }
    let list: Vec<String> = notes.iter().map(|n| format!("- {n}")).collect();
    Some(format!("{heading}\n{}", list.join("\n")))
}

/// A run's debug line; the text its Done event carries.
fn finished(
    kind: ArtifactKind,
    started: std::time::Instant,
    written: &Written,
    price: Option<iris_studio_config::prices::Price>,
) -> String {
    let cost = price.map(|p| {
        format!(
            "{:.4}",
            p.cost(written.input_tokens, 0, written.output_tokens)
        )
    });
    tracing::debug!(
        capability = kind.name(),
        requests = written.requests,
        input_tokens = written.input_tokens,
        output_tokens = written.output_tokens,
        cost_usd = cost.as_deref().unwrap_or("unknown"),
        ms = started.elapsed().as_millis() as u64,
        "run finished"
    );
    written.text.clone()
}

/// What one write asks of the generation.
#[derive(Clone, Copy)]
struct Run<'a> {
    kind: ArtifactKind,
    request: &'a Request,
    critic: bool,
    sink: &'a EventSink,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violation(rule: &str, error: bool) -> Violation {
        Violation {
            rule: rule.into(),
            message: format!("{rule} is broken"),
            error,
        }
    }

    #[test]
    fn rules_that_set_nothing_add_no_section() {
        assert_eq!(
            rules_section(&CommitRules::empty(".commitlintrc.json")),
            None
        );
        let rules = iris_studio_core::commit_rules::parse(
            ".commitlintrc.json",
            r#"{"rules": {"header-max-length": [2, "always", 60]}}"#,
        )
        .expect("rules");
        assert_eq!(
            rules_section(&rules).as_deref(),
            Some(
                "## This project's commit rules (.commitlintrc.json)\nThe message must follow \
                 them; they come before the style of the recent history.\n- The header (first \
                 line) is at most 60 characters"
            )
        );
    }

    #[test]
    fn only_errors_count_and_each_rule_is_named_once() {
        let found = [
            violation("type-enum", true),
            violation("body-leading-blank", false),
            violation("scope-case", true),
            violation("scope-case", true),
        ];
        assert_eq!(error_count(&found), 3);
        assert_eq!(broken_rules(&found), "type-enum, scope-case");
        assert_eq!(error_count(&found[1..2]), 0);
    }

    #[test]
    fn the_follow_up_leaves_the_evidence_out_and_lists_every_violation() {
        let rules = CommitRules::empty("commitlint.config.js");
        let request = Request::ask("Write the commit message.")
            .with(Section::Rules, "## Rules\n- one")
            .with(Section::Evidence, "## Evidence\n\ndiff --git a/x b/x")
            .with(
                Section::History,
                "How this repository writes its commit messages",
            );
        let asked = follow_up_request(
            &request,
            &rules,
            "feature: x\n",
            &[
                violation("type-enum", true),
                violation("body-leading-blank", false),
            ],
        )
        .render();
        assert!(
            asked.starts_with(
                "Write the commit message.\n\n## Rules\n- one\n\n## Your message\nfeature: x\n\n"
            ),
            "{asked}"
        );
        assert!(!asked.contains("diff --git"), "{asked}");
        assert!(!asked.contains("How this repository"), "{asked}");
        assert!(
            asked.contains("- type-enum: type-enum is broken\n"),
            "{asked}"
        );
        assert!(
            asked.contains("- body-leading-blank: body-leading-blank is broken (a warning)"),
            "{asked}"
        );
    }
}
