//! Several artifacts for the same change, for the user to choose from: `count` from each
//! model, written in parallel. No wire Iris speaks through rig hands back several answers to
//! one request, so each candidate is a run of its own, and every candidate after the first
//! is asked for a different angle so that even a model that answers the same way every time
//! offers a real choice.

use crate::EventSink;
use crate::capability::requests::Scope;
use crate::capability::write::Written;
use crate::iris::IrisAgent;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::protocol::AgentEvent;

/// Most candidates one request for them may ask for, across every model.
pub const MAX_CANDIDATES: usize = 6;

/// What sets the candidates after the first apart.
const ANGLES: [&str; 4] = [
    "lead with why the change was made",
    "lead with what changes for the people who use the code",
    "be as brief as the change allows",
    "name the main code change precisely, with its identifiers",
];

/// One of several artifacts written for the same change, and who wrote it.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The model that wrote it, when several models were asked; empty otherwise.
    pub label: String,
    /// The artifact, with what it cost.
    pub written: Written,
}

/// The request section of the `index`-th candidate (0-based) of `total`; none for the first.
pub fn angle(index: usize, total: usize) -> Option<String> {
    let angle = ANGLES[index.checked_sub(1)? % ANGLES.len()];
    Some(format!(
        "## Alternative {} of {total}\nThe user asked for several versions to choose from. In \
         this one, {angle}: a different emphasis and wording from the most obvious draft, \
         equally true to the evidence and the style.",
        index + 1
    ))
}

/// The candidates without repeats: a model that wrote the same text twice offers one choice.
pub fn distinct(candidates: Vec<Candidate>) -> Vec<Candidate> {
    let mut kept: Vec<Candidate> = Vec::new();
    for candidate in candidates {
        if !kept
            .iter()
            .any(|k| k.written.text.trim() == candidate.written.text.trim())
        {
            kept.push(candidate);
        }
    }
    kept
}

impl IrisAgent {
    /// `count` versions of `kind` over `scope` from each of `models` (the configured model
    /// alone when empty), written in parallel from one reading of the repository, in order,
    /// repeats dropped. Candidates that fail
    /// are warned about while any succeeds; when all fail, the first error is the result.
    pub async fn write_candidates(
        &self,
        kind: ArtifactKind,
        scope: &Scope,
        count: usize,
        models: &[String],
        ask_critic: bool,
        sink: &EventSink,
    ) -> crate::Result<Vec<Candidate>> {
        crate::error::at_edge(async move {
            let writers: Vec<(String, IrisAgent)> = if models.is_empty() {
                vec![(String::new(), self.clone())]
            } else {
                models
                    .iter()
                    .map(|model| {
                        let mut iris = self.clone();
                        iris.main.model = model.clone();
                        (model.clone(), iris)
                    })
                    .collect()
            };
            // The evidence, rules, template and ticket are read once for every candidate (the
            // models share a provider, so the evidence's budget is the same).
            let prepared = self.prepare(kind, scope, None, sink).await?;
            let prepared = &prepared;
            let count = count.clamp(1, MAX_CANDIDATES);
            let jobs: Vec<(String, IrisAgent, Option<String>)> = writers
                .into_iter()
                .flat_map(|(label, iris)| {
                    (0..count).map(move |i| (label.clone(), iris.clone(), angle(i, count)))
                })
                .take(MAX_CANDIDATES)
                .collect();
            let runs = jobs.iter().map(|(label, iris, angle)| async move {
                let written = iris
                    .write_version(prepared, angle.as_deref(), ask_critic, sink)
                    .await;
                (label.clone(), written)
            });
            let total = jobs.len();
            let mut candidates = Vec::new();
            let mut first_error = None;
            for (index, (label, written)) in futures::future::join_all(runs)
                .await
                .into_iter()
                .enumerate()
            {
                match written {
                    Ok(written) => candidates.push(Candidate { label, written }),
                    Err(err) => {
                        sink.send(AgentEvent::Warning(failed(index, total, &label, &err)));
                        first_error.get_or_insert(err);
                    }
                }
            }
            match (candidates.is_empty(), first_error) {
                (true, Some(err)) => Err(err),
                _ => Ok(distinct(candidates)),
            }
        })
        .await
    }
}

/// What the user is told of the `index`-th candidate (0-based) of `total` that failed: by
/// the model's name when several models wrote, and as stopped by the cap when it was.
fn failed(index: usize, total: usize, label: &str, err: &anyhow::Error) -> String {
    let who = if label.is_empty() {
        format!("candidate {} of {total}", index + 1)
    } else {
        format!("candidate {} of {total} ({label})", index + 1)
    };
    crate::capability::did_not_finish(&who, err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_candidate_is_asked_plainly_and_the_others_each_for_an_angle() {
        assert_eq!(angle(0, 3), None);
        let second = angle(1, 3).unwrap();
        let third = angle(2, 3).unwrap();
        assert!(second.starts_with("## Alternative 2 of 3\n"), "{second}");
        assert!(second.contains(ANGLES[0]) && third.contains(ANGLES[1]));
        assert!(
            angle(5, 6).unwrap().contains(ANGLES[0]),
            "the angles go round"
        );
    }
}
