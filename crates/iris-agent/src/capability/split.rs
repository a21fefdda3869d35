//! "Split this change into commits": one request with the change as numbered hunks, the
//! project's commit rules and a sample of its recent messages; the plan that comes back is
//! checked ([`check_plan`]) and, when it names a hunk twice, an unknown one or an empty
//! group, sent back once with what is wrong. A second bad plan fails the run.

use anyhow::anyhow;

use crate::EventSink;
use crate::capability::evidence::style_sample;
use crate::capability::write::rules_section;
use crate::iris::IrisAgent;
use iris_core::change::FileDiff;
use iris_core::protocol::AgentEvent;
use iris_core::split::{PlanProblem, SplitPlan, Unit, check_plan, unit_ids, units_for_model};
use iris_git::DiffTarget;

const CAPABILITY: &str = "split";

/// A checked plan and what it took.
#[derive(Debug, Clone)]
pub struct PlannedSplit {
    pub plan: SplitPlan,
    /// What was wrong with the first plan, when it was sent back.
    pub first_problems: Vec<String>,
    pub requests: usize,
    pub input_tokens: u64,
    pub output_tokens: u64,
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
    ) -> anyhow::Result<PlannedSplit> {
        let work = async {
            if units.is_empty() {
                return Err(anyhow!("there is no change to split"));
            }
            let request = self.split_request(units, files, staged, sink).await;
            let ids = unit_ids(units);
            sink.send(AgentEvent::Status(format!(
                "planning commits for {} hunks",
                units.len()
            )));
            let first = self
                .follow_up::<SplitPlan>(CAPABILITY, &request, sink)
                .await?;
            let mut planned = PlannedSplit {
                plan: SplitPlan::default(),
                first_problems: Vec::new(),
                requests: first.requests,
                input_tokens: first.input_tokens,
                output_tokens: first.output_tokens,
            };
            let problems = match check_plan(&first.artifact, &ids) {
                Ok(plan) => {
                    planned.plan = plan;
                    return Ok(planned);
                }
                Err(problems) => problems,
            };
            planned.first_problems = problems.iter().map(ToString::to_string).collect();
            sink.send(AgentEvent::Status(format!(
                "the plan is not valid ({}): asking once more",
                planned.first_problems.join("; ")
            )));
            let again = sent_back(&request, &first.artifact, &problems);
            let second = self
                .follow_up::<SplitPlan>(CAPABILITY, &again, sink)
                .await?;
            planned.requests += second.requests;
            planned.input_tokens += second.input_tokens;
            planned.output_tokens += second.output_tokens;
            planned.plan = check_plan(&second.artifact, &ids).map_err(|problems| {
                let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
                anyhow!(
                    "Iris' plan was not valid, and not when sent back either: {}",
                    said.join("; ")
                )
            })?;
            Ok(planned)
        };
        self.bounded(sink, work, |p| {
            format!("Iris planned {} commits", p.plan.groups.len())
        })
        .await
    }

    /// The request: the hunks, then the commit rules and the recent messages.
    async fn split_request(
        &self,
        units: &[Unit],
        files: &[FileDiff],
        staged: bool,
        sink: &EventSink,
    ) -> String {
        let mut parts = vec![format!(
            "Split this change into atomic commits. It has {} hunks in {} files.\n\n## The \
             hunks\n{}",
            units.len(),
            files.len(),
            units_for_model(units, files).trim_end()
        )];
        if let Some(section) = self
            .commit_rules(sink)
            .await
            .as_ref()
            .and_then(rules_section)
        {
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

/// The request again, with the plan and what is wrong with it.
fn sent_back(request: &str, plan: &SplitPlan, problems: &[PlanProblem]) -> String {
    let listed: Vec<String> = problems.iter().map(|p| format!("- {p}")).collect();
    let json = serde_json::to_string_pretty(plan).unwrap_or_default();
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
    use iris_core::split::PlanGroup;

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
        let text = sent_back("REQUEST", &plan, &problems);
        assert!(text.starts_with("REQUEST\n\n## Your plan\n{"), "{text}");
        assert!(
            text.contains("## What is wrong with it\n- group 1 names h1 twice\n"),
            "{text}"
        );
    }
}
