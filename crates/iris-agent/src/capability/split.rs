//! "Split this change into commits": one request with the change as numbered hunks, the
//! project's commit rules and a sample of its recent messages; the plan that comes back is
//! checked ([`check_plan`]) and, when it names a hunk twice, an unknown one or an empty
//! group, sent back once with what is wrong. A second bad plan fails the run.

use std::sync::Arc;

use anyhow::anyhow;

use crate::EventSink;
use crate::capability::chat::Turn;
use crate::capability::evidence::style_sample;
use crate::capability::write::rules_section;
use crate::iris::IrisAgent;
use crate::tools::registry::tool;
use crate::tools::{IrisTool, ToolContext, ToolFailure};
use iris_studio_core::artifact::OutputType;
use iris_studio_core::change::FileDiff;
use iris_studio_core::commit_rules::CommitRules;
use iris_studio_core::protocol::{AgentEvent, Risk};
use iris_studio_core::split::{
    PlanProblem, SplitPlan, Unit, check_plan, unit_ids, units_for_model,
};
use iris_studio_git::DiffTarget;

const CAPABILITY: &str = "split";
/// Diff lines of the hunks a request shows, shared among them (a hosted model; a local one).
const SPLIT_LINES: usize = 1600;
const LOCAL_SPLIT_LINES: usize = 400;
/// Characters of a bad plan shown back to the model, and problems listed, at most.
const MAX_PLAN_ECHO_CHARS: usize = 4000;
const MAX_PROBLEMS_SHOWN: usize = 12;

/// A checked plan (what its requests spent is on the run's events, as for every run).
#[derive(Debug, Clone)]
pub struct PlannedSplit {
    /// The plan as checked: the commits in the order they are made, every hunk in exactly one.
    pub plan: SplitPlan,
    /// What was wrong with the first plan, when it was sent back.
    pub first_problems: Vec<String>,
}

impl IrisAgent {
    /// Plans how to split the change made of `units` (and the `files` they come from) into
    /// commits; `staged` says whether only the index's change is split (for the sample of
    /// recent messages that fits its files). One deadline for the whole run, which ends with
    /// an [`AgentEvent::Done`] or [`AgentEvent::Error`].
    pub async fn plan_split(
        &self,
        units: &[Unit],
        files: &[FileDiff],
        staged: bool,
        sink: &EventSink,
    ) -> crate::Result<PlannedSplit> {
        crate::error::at_edge(async move {
            let work = async {
                if units.is_empty() {
                    return Err(anyhow!("there is no change to split"));
                }
                let rules = self.commit_rules(sink).await;
                let request = self
                    .split_request(units, files, staged, rules.as_ref())
                    .await;
                let ids = unit_ids(units);
                sink.send(AgentEvent::Status(format!(
                    "planning commits for {} hunks",
                    units.len()
                )));
                let first = self
                    .follow_up::<SplitPlan>(CAPABILITY, request.as_str().into(), sink)
                    .await?;
                let mut planned = PlannedSplit {
                    plan: SplitPlan::default(),
                    first_problems: Vec::new(),
                };
                // A plan that holds but whose messages break the project's rules is sent back
                // too; it stands if the second one is no better.
                let checked = check_plan(&first.artifact, &ids);
                let problems = match &checked {
                    Ok(plan) => broken_rules(rules.as_ref(), plan),
                    Err(problems) => bounded(problems),
                };
                if problems.is_empty() {
                    planned.plan = checked.unwrap_or_default();
                    return Ok(planned);
                }
                planned.first_problems = problems.clone();
                sink.send(AgentEvent::Status(format!(
                    "the plan is not valid ({}): asking once more",
                    problems.join("; ")
                )));
                let again = sent_back(&request, &first.artifact, &problems);
                let second = self
                    .follow_up::<SplitPlan>(CAPABILITY, again.into(), sink)
                    .await?;
                planned.plan = match (check_plan(&second.artifact, &ids), checked) {
                    (Ok(plan), _) => plan,
                    (Err(_), Ok(first)) => first,
                    (Err(problems), Err(_)) => {
                        return Err(anyhow!(
                            "Iris' plan was not valid, and not when sent back either: {}",
                            bounded(&problems).join("; ")
                        ));
                    }
                };
                let still = broken_rules(rules.as_ref(), &planned.plan);
                if !still.is_empty() {
                    sink.send(AgentEvent::Warning(format!(
                        "{}; edit the messages before applying",
                        still.join("; ")
                    )));
                }
                Ok(planned)
            };
            self.bounded(sink, work, |p| {
                format!("Iris planned {} commits", p.plan.groups.len())
            })
            .await
        })
        .await
    }

    /// Diff lines of the hunks shown in all: fewer for a server on this machine, whose
    /// context is often a few thousand tokens and which reads a prompt slowly.
    fn split_lines(&self) -> usize {
        if self.main.local {
            LOCAL_SPLIT_LINES
        } else {
            SPLIT_LINES
        }
    }

    /// The request: the hunks, then the commit rules and the recent messages.
    async fn split_request(
        &self,
        units: &[Unit],
        files: &[FileDiff],
        staged: bool,
        rules: Option<&CommitRules>,
    ) -> String {
        let mut parts = vec![format!(
            "Split this change into atomic commits. It has {} hunks in {} files.\n\n## The \
             hunks\n{}",
            units.len(),
            files.len(),
            units_for_model(units, files, self.split_lines()).trim_end()
        )];
        if let Some(section) = rules.and_then(rules_section) {
            parts.push(section);
        }
        let target = if staged {
            DiffTarget::Staged
        } else {
            DiffTarget::WorkingTree
        };
        parts.push(style_sample(&self.ctx, vec![target]).await);
        parts.join("\n\n")
    }
}

/// Called with the checked plan each time Iris replaces it in chat.
pub type OnSplitUpdate = Arc<dyn Fn(SplitPlan) + Send + Sync>;

/// What is being discussed in the split view: the change's units and the plan as it stands.
#[derive(Debug, Clone)]
pub struct SplitTarget {
    /// The change's units (`h1`, `h2`, ...): the hunks and whole files the plan groups.
    pub units: Vec<Unit>,
    /// The diffs of the files the units come from.
    pub files: Vec<FileDiff>,
    /// The plan as it stands in the split view.
    pub plan: SplitPlan,
}

/// `update_split`: Iris replaces the plan in the studio's split view. The plan is checked
/// like her first one; a plan that is not valid is refused with what is wrong, so she can
/// fix it and call again.
struct UpdateSplit {
    ids: Vec<String>,
    on_update: OnSplitUpdate,
}

impl IrisTool for UpdateSplit {
    const NAME: &'static str = "update_split";
    const RISK: Risk = Risk::Write;
    const DESCRIPTION: &'static str = "Replace the split plan in the user's studio with a new \
        complete plan: every commit in order, each with its message and the ids of the hunks it \
        takes. Every hunk in exactly one commit. The user sees it at once.";
    type Args = SplitPlan;

    async fn run(&self, _ctx: &ToolContext, plan: SplitPlan) -> Result<String, ToolFailure> {
        match check_plan(&plan, &self.ids) {
            Ok(checked) => {
                let count = checked.groups.len();
                (self.on_update)(checked);
                Ok(format!(
                    "The plan in the studio is updated: {count} commits."
                ))
            }
            Err(problems) => {
                let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
                Err(ToolFailure::new(format!(
                    "the plan was not changed: {}; call update_split again with the whole plan, fixed",
                    said.join("; ")
                )))
            }
        }
    }
}

impl IrisAgent {
    /// One chat turn about a split plan: Iris sees the hunks and the plan, the conversation
    /// so far and the new message; she may replace the plan through `update_split`.
    pub async fn chat_split(
        &self,
        target: &SplitTarget,
        history: &[Turn],
        message: &str,
        on_update: OnSplitUpdate,
        sink: &EventSink,
    ) -> crate::Result<String> {
        crate::error::at_edge(async move {
            let cap = self.capability("chat")?;
            let plan = serde_json::to_string_pretty(&target.plan)?;
            // A command-line agent has no tools: it writes the new plan in its reply instead.
            let block = crate::capability::chat::Block("plan");
            let cli = self.main.kind.cli().is_some();
            let how = if cli {
                format!(
                    "write {}",
                    block.asked("the complete new plan, as JSON of the same shape,")
                )
            } else {
                "call update_split with the complete new plan".to_string()
            };
            let preamble = format!(
                "{}\n\n## The split plan\nThe user is splitting a change into commits. Its hunks:\n\
             {}\nThe plan as it stands (the commits in order):\n{plan}\nTo change the plan, \
             {how}; then say in one or two sentences what you changed. Answer questions without \
             changing it.",
                self.preamble(&cap.task_prompt, OutputType::Text)?,
                units_for_model(&target.units, &target.files, self.split_lines()),
            );
            let update = UpdateSplit {
                ids: unit_ids(&target.units),
                on_update,
            };
            if cli {
                let reply = self
                    .chat_turn(&cap, preamble, Vec::new(), history, message, sink)
                    .await?;
                let (plan, said) = block.take(&reply);
                let Some(plan) = plan else {
                    return Ok(said);
                };
                let ctx = self.ctx.reporting_to(sink);
                let outcome = match serde_json::from_str::<SplitPlan>(plan.trim()) {
                    Ok(plan) => update.run(&ctx, plan).await.map_err(|f| f.to_string()),
                    Err(err) => Err(format!("the plan in the reply is not a plan: {err}")),
                };
                return Ok(match outcome {
                    Ok(_) => said,
                    Err(why) => format!("{said}\n\n({why})"),
                });
            }
            let mut tools = self.main_tools(sink);
            tools.push(tool(&self.ctx.reporting_to(sink), update));
            self.chat_turn(&cap, preamble, tools, history, message, sink)
                .await
        })
        .await
    }
}

/// The request again, with the plan and what is wrong with it.
/// The error-level rules each commit's message breaks (the group of left-out hunks, named by
/// Iris rather than the model, is not held to them).
fn broken_rules(rules: Option<&CommitRules>, plan: &SplitPlan) -> Vec<String> {
    let Some(rules) = rules else {
        return Vec::new();
    };
    let mut broken = Vec::new();
    for (i, group) in plan.groups.iter().enumerate().filter(|(_, g)| !g.left_out) {
        for violation in rules.check(&group.message).iter().filter(|v| v.error) {
            broken.push(format!(
                "commit {}'s message breaks {}: {}",
                i + 1,
                violation.rule,
                violation.message
            ));
        }
    }
    broken.truncate(MAX_PROBLEMS_SHOWN);
    broken
}

/// The first problems, and how many more there are.
fn bounded(problems: &[PlanProblem]) -> Vec<String> {
    let mut listed: Vec<String> = problems
        .iter()
        .take(MAX_PROBLEMS_SHOWN)
        .map(ToString::to_string)
        .collect();
    if problems.len() > MAX_PROBLEMS_SHOWN {
        listed.push(format!("and {} more", problems.len() - MAX_PROBLEMS_SHOWN));
    }
    listed
}

/// The plan and its problems (already [`bounded`]) are the model's own output: the plan is
/// cut too, so a reply that repeats itself cannot grow the request past the model's context.
fn sent_back(request: &str, plan: &SplitPlan, problems: &[String]) -> String {
    let listed: Vec<String> = problems.iter().map(|p| format!("- {p}")).collect();
    let mut json = serde_json::to_string(plan).unwrap_or_default();
    if let Some((cut, _)) = json.char_indices().nth(MAX_PLAN_ECHO_CHARS) {
        json.truncate(cut);
        json.push_str(" … (cut: the plan was longer than a plan of this change can be)");
    }
    format!(
        "{request}\n\n## Your plan\n{json}\n\n## What is wrong with it\n{}\n\nAnswer with the \
         whole plan again, fixed: every hunk in exactly one commit, only the hunks listed \
         above, no commit without hunks.",
        listed.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_core::split::{LEFT_OUT_MESSAGE as LEFT_OUT, PlanGroup};

    #[tokio::test]
    async fn update_split_refuses_a_plan_that_is_not_valid_and_keeps_the_old_one() {
        let updated = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = Arc::clone(&updated);
        let tool = UpdateSplit {
            ids: vec!["h1".into(), "h2".into()],
            on_update: Arc::new(move |plan: SplitPlan| seen.lock().unwrap().push(plan)),
        };
        let ctx = ToolContext::new(std::env::temp_dir());
        let group = |hunks: &[&str]| PlanGroup {
            message: "fix: parse numbers".into(),
            hunks: hunks.iter().map(|h| h.to_string()).collect(),
            reason: String::new(),
            left_out: false,
        };
        // A hunk the change does not have.
        let invalid = SplitPlan {
            groups: vec![group(&["h1", "h9"])],
        };
        let err = tool.run(&ctx, invalid).await.unwrap_err().to_string();
        assert!(err.starts_with("the plan was not changed: "), "{err}");
        assert!(
            err.contains("\"h9\", which is not a hunk of this change"),
            "{err}"
        );
        assert!(
            updated.lock().unwrap().is_empty(),
            "the studio's plan was replaced"
        );
        // A valid plan goes to the studio.
        let valid = SplitPlan {
            groups: vec![group(&["h1"]), group(&["h2"])],
        };
        let said = tool.run(&ctx, valid).await.unwrap();
        assert_eq!(said, "The plan in the studio is updated: 2 commits.");
        assert_eq!(updated.lock().unwrap().len(), 1);
    }

    #[test]
    fn a_plan_sent_back_carries_what_is_wrong() {
        let plan = SplitPlan {
            groups: vec![PlanGroup {
                message: "fix: a".into(),
                hunks: vec!["h1".into(), "h1".into()],
                reason: String::new(),
                left_out: false,
            }],
        };
        let problems = check_plan(&plan, &["h1".into()]).unwrap_err();
        let text = sent_back("REQUEST", &plan, &bounded(&problems));
        assert!(
            text.starts_with("REQUEST\n\n## Your plan\n{\"groups\""),
            "{text}"
        );
        assert!(
            text.contains("## What is wrong with it\n- group 1 names h1 twice\n"),
            "{text}"
        );
    }

    #[test]
    fn a_runaway_plan_is_cut_before_it_goes_back() {
        let group = |i: usize| PlanGroup {
            message: format!("fix: part {i}"),
            hunks: vec![format!("h{}", i + 2)],
            reason: String::new(),
            left_out: false,
        };
        let plan = SplitPlan {
            groups: (0..5000).map(group).collect(),
        };
        let problems = check_plan(&plan, &["h1".into()]).unwrap_err();
        assert_eq!(problems.len(), 5000);
        let text = sent_back("REQUEST", &plan, &bounded(&problems));
        assert!(text.len() < MAX_PLAN_ECHO_CHARS + 2000, "{}", text.len());
        assert!(text.contains("… (cut: the plan was longer"), "{text}");
        assert!(text.contains("- and 4988 more"), "{text}");
    }

    #[test]
    fn messages_are_held_to_the_rules_but_the_left_out_group_is_not() {
        let rules = iris_studio_core::commit_rules::parse(
            "commitlint.config.js",
            "module.exports = { rules: { 'type-empty': [2, 'never'] } };",
        );
        let Ok(rules) = rules else {
            panic!("rules: {rules:?}");
        };
        let plan = SplitPlan {
            groups: vec![
                PlanGroup {
                    message: "fix: a".into(),
                    hunks: vec!["h1".into()],
                    ..PlanGroup::default()
                },
                PlanGroup {
                    message: "Untyped".into(),
                    hunks: vec!["h2".into()],
                    ..PlanGroup::default()
                },
                PlanGroup {
                    message: LEFT_OUT.into(),
                    hunks: vec!["h3".into()],
                    left_out: true,
                    ..PlanGroup::default()
                },
            ],
        };
        let broken = broken_rules(Some(&rules), &plan);
        assert_eq!(broken.len(), 1, "{broken:?}");
        assert!(
            broken[0].starts_with("commit 2's message breaks type-empty"),
            "{broken:?}"
        );
        assert!(broken_rules(None, &plan).is_empty());
    }
}
