//! What a review adds to writing an artifact: passes per aspect run in parallel and merged,
//! every finding checked against the change, and an optional second look that keeps or drops
//! each finding with a reason.

use crate::EventSink;
use crate::capability::write::Written;
use crate::iris::IrisAgent;
use crate::runtime::request::Request;
use iris_studio_core::artifact::review::Aspect;
use iris_studio_core::artifact::{
    Review, SecondLook, apply_second_look, check_findings, merge_reviews, second_look_request,
};
use iris_studio_core::change::FileDiff;
use iris_studio_core::protocol::AgentEvent;

/// What this pass looks for, and what it leaves to the others.
fn focus(aspect: Aspect) -> &'static str {
    match aspect {
        Aspect::Correctness => {
            "bugs and wrong logic: edge cases, off-by-one errors, error handling, panics, \
             races, resource leaks, broken APIs"
        }
        Aspect::Security => {
            "security problems: injection, path traversal, secrets, unchecked input, \
             unsafe code, permissions"
        }
        Aspect::Performance => {
            "performance problems: needless quadratic work, blocking calls on async paths, \
             large copies, work repeated in loops"
        }
        Aspect::Tests => {
            "tests: new or changed behaviour without a test, tests that cannot fail, \
             cases a test misses"
        }
    }
}

/// A review with one more request spent on it.
struct Spent {
    requests: usize,
    input_tokens: u64,
    output_tokens: u64,
}

impl IrisAgent {
    /// Reviews in passes per aspect, in parallel, when several are asked for, merged with
    /// each finding once; `pass` writes one review from a request. Each pass's findings are
    /// checked against `reviewed`, and the merged review gets a second look when asked.
    pub(crate) async fn compose_review<F, Fut>(
        &self,
        request: &Request,
        reviewed: Option<&[FileDiff]>,
        sink: &EventSink,
        pass: F,
    ) -> anyhow::Result<Written>
    where
        F: Fn(Request, bool) -> Fut,
        Fut: std::future::Future<Output = anyhow::Result<Written>>,
    {
        let mut written = match self.review.aspects.as_slice() {
            [] => pass(request.clone(), true).await?,
            aspects => self.in_passes(request, aspects, sink, &pass).await?,
        };
        let mut review: Review = serde_json::from_value(written.json.clone())?;
        if let Some(diffs) = reviewed {
            check_findings(&mut review, diffs);
            if self.review.verify
                && let Some(spent) = self.second_look(&mut review, diffs, sink).await
            {
                written.requests += spent.requests;
                written.input_tokens += spent.input_tokens;
                written.output_tokens += spent.output_tokens;
            }
        }
        written.text = review.to_markdown();
        written.json = serde_json::to_value(&review)?;
        Ok(written)
    }

    /// One pass per aspect, in parallel (the critic left to the checks and the second look);
    /// a pass that fails is a warning while another stands.
    async fn in_passes<F, Fut>(
        &self,
        request: &Request,
        aspects: &[Aspect],
        sink: &EventSink,
        pass: &F,
    ) -> anyhow::Result<Written>
    where
        F: Fn(Request, bool) -> Fut,
        Fut: std::future::Future<Output = anyhow::Result<Written>>,
    {
        sink.send(AgentEvent::Status(format!(
            "reviewing in {} passes: {}",
            aspects.len(),
            aspects
                .iter()
                .map(|a| a.name())
                .collect::<Vec<_>>()
                .join(", ")
        )));
        let runs = aspects.iter().map(|aspect| {
            let focused = Request::ask(format!(
                "This pass reviews one aspect only: {}. Leave everything else to the other \
                 passes.",
                focus(*aspect)
            ))
            .then(request);
            async move { (*aspect, pass(focused, false).await) }
        });
        let mut passes = Vec::new();
        let mut total: Option<Written> = None;
        let mut failure = None;
        for (aspect, result) in futures::future::join_all(runs).await {
            match result {
                Ok(written) => {
                    let mut review: Review = serde_json::from_value(written.json.clone())?;
                    for finding in &mut review.findings {
                        finding.category.get_or_insert(aspect.category());
                    }
                    passes.push((aspect.label().to_string(), review));
                    total = Some(match total {
                        None => written,
                        Some(mut sum) => {
                            sum.requests += written.requests;
                            sum.input_tokens += written.input_tokens;
                            sum.output_tokens += written.output_tokens;
                            sum
                        }
                    });
                }
                Err(err) => {
                    let who = format!("the {} pass", aspect.name());
                    sink.send(AgentEvent::Warning(crate::capability::did_not_finish(
                        &who, &err,
                    )));
                    failure.get_or_insert(err);
                }
            }
        }
        let mut written = match (total, failure) {
            (Some(written), _) => written,
            (None, Some(err)) => return Err(err),
            (None, None) => anyhow::bail!("no aspect to review"),
        };
        written.json = serde_json::to_value(merge_reviews(&passes))?;
        Ok(written)
    }

    /// Asks the model to keep or drop each finding that was placed in the change; a failure
    /// is a warning and the findings stand as checked.
    async fn second_look(
        &self,
        review: &mut Review,
        diffs: &[FileDiff],
        sink: &EventSink,
    ) -> Option<Spent> {
        let asked = second_look_request(review, diffs)?;
        sink.send(AgentEvent::Status(
            "taking a second look at the findings".into(),
        ));
        // Its reply is verdicts, not the review: nothing of it streams into the artifact.
        let quiet = EventSink::none();
        match self
            .follow_up::<SecondLook>("review_verify", asked.into(), &quiet)
            .await
        {
            Ok(look) => {
                let dropped = apply_second_look(review, &look.artifact);
                sink.send(AgentEvent::Status(format!(
                    "the second look dropped {dropped} of the findings"
                )));
                Some(Spent {
                    requests: look.requests,
                    input_tokens: look.input_tokens,
                    output_tokens: look.output_tokens,
                })
            }
            Err(err) => {
                sink.send(AgentEvent::Warning(format!(
                    "the second look failed ({err:#}); the findings stand as checked"
                )));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aspects_are_read_by_name() {
        assert_eq!("Security".parse::<Aspect>(), Ok(Aspect::Security));
        assert_eq!(" tests ".parse::<Aspect>(), Ok(Aspect::Tests));
        assert_eq!(
            "style".parse::<Aspect>(),
            Err("unknown aspect `style`; known: correctness, security, performance, tests".into())
        );
    }
}
