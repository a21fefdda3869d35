//! Generating, shell side: Iris writes the mode's artifact, alternatives to it, or the
//! request she would send, kept and shown unsent.

use iris_studio_agent::EventSink;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::stack::InStack;
use iris_studio_tui::action::Action;
use iris_studio_tui::failure::{Failure, FailureKind, Outcome, ProviderFailure};
use iris_studio_tui::features::msgs::{GenerateFx, GenerateMsg};

use super::runner::Runner;
use super::{fail, findings};
use crate::app::stores::review_memory::ReviewMemory;

impl Runner {
    /// Carries out generation's work.
    pub(super) fn generate(&mut self, fx: GenerateFx) {
        match fx {
            GenerateFx::Generate {
                task,
                kind,
                range,
                stack,
            } => self.write(task, kind, range, stack),
            GenerateFx::ShowRequest { kind, range, stack } => self.show_request(kind, range, stack),
            GenerateFx::Alternatives { task, kind, count } => self.alternatives(task, kind, count),
        }
    }

    /// Iris writes `kind`; `stack` is the request's section on a stack layer's place. A
    /// review is written as `iris review` writes it: the dismissals in its request, the
    /// findings dismissed before left out.
    fn write(
        &mut self,
        task: u64,
        kind: ArtifactKind,
        range: Option<(String, String)>,
        stack: Option<InStack>,
    ) {
        let scope = self.jobs.scope(kind, range);
        let (memory, root) = (self.memory_for(kind), self.root.clone());
        let (sessions, tx) = (self.sessions.clone(), self.tx.clone());
        self.spawn_iris(
            task,
            |iris, sink| async move {
                let scope = scope_now(scope).await?;
                let iris = sessions.apply(iris, &scope, &tx).await;
                let (iris, dismissed) = findings::with_dismissals(iris, memory).await?;
                let written = match &stack {
                    Some(layer) => iris.write_layer(&scope, layer, false, &sink).await?,
                    None => iris.write(kind, &scope, false, &sink).await?,
                };
                match dismissed {
                    Some(dismissed) => findings::left_out(dismissed, (root, scope), written).await,
                    None => Ok(written.text),
                }
            },
            move |result| Action::Generate(GenerateMsg::Written { task, kind, result }),
        );
    }

    /// The first request a generation of `kind` would send, kept and not sent (`--dry-run`
    /// as the studio's `$`), its preview sent back.
    fn show_request(
        &mut self,
        kind: ArtifactKind,
        range: Option<(String, String)>,
        stack: Option<InStack>,
    ) {
        let Some(iris) = self.iris_for_a_job() else {
            let _ = self.tx.send(Action::Generate(GenerateMsg::RequestShown(Err(
                Failure::new(
                    FailureKind::Provider(ProviderFailure::NotSetUp),
                    "Iris is not set up yet: I sets her up",
                ),
            ))));
            return;
        };
        let tx = self.tx.clone();
        let scope = self.jobs.scope(kind, range);
        let memory = self.memory_for(kind);
        let sessions = self.sessions.clone();
        tokio::spawn(async move {
            let found = async {
                let scope = scope_now(scope).await?;
                let iris = sessions.apply(iris, &scope, &tx).await;
                let (iris, _) = findings::with_dismissals(iris, memory).await?;
                anyhow::Ok((scope, iris))
            };
            let (scope, iris) = match found.await {
                Ok(found) => found,
                Err(err) => {
                    let _ = tx.send(Action::Generate(GenerateMsg::RequestShown(Err(fail::of(
                        &err,
                    )))));
                    return;
                }
            };
            let (dry, kept) = crate::app::iris::with_dry_run((*iris).clone(), true);
            let quiet = EventSink::none();
            let ran = match &stack {
                Some(layer) => dry.write_layer(&scope, layer, false, &quiet).await,
                None => dry.write(kind, &scope, false, &quiet).await,
            };
            let (provider, model, price) = iris.pricing();
            let shown = match kept.and_then(|kept| kept.captured()) {
                Some(captured) => fail::typed(crate::output::preview::preview(
                    &captured, provider, model, price, false,
                )),
                None => Err(match ran {
                    Err(err) => fail::of(&err.into()).context("no request was built"),
                    Ok(_) => Failure::other("no request was built"),
                }),
            };
            let _ = tx.send(Action::Generate(GenerateMsg::RequestShown(shown)));
        });
    }

    /// The review memory, for a review (what it leaves out and tells the reviewer).
    fn memory_for(&self, kind: ArtifactKind) -> Option<ReviewMemory> {
        (kind == ArtifactKind::Review).then(|| self.review_memory.clone())
    }

    /// `count` alternatives to the artifact, from the same staged change as a generation.
    fn alternatives(&mut self, task: u64, kind: ArtifactKind, count: usize) {
        let scope = self.jobs.scope(kind, None);
        let (sessions, tx) = (self.sessions.clone(), self.tx.clone());
        self.spawn_iris(
            task,
            |iris, sink| async move {
                let scope = scope_now(scope).await?;
                let iris = sessions.apply(iris, &scope, &tx).await;
                let written = iris
                    .write_candidates(kind, &scope, count, &[], false, &sink)
                    .await?;
                Ok(written.into_iter().map(|c| c.written.text).collect())
            },
            move |result| Action::Generate(GenerateMsg::Alternatives { task, kind, result }),
        );
    }
}

/// A generation's scope, found off the async threads (in a jj workspace it asks jj).
pub(super) async fn scope_now(
    find: impl FnOnce() -> Outcome<Scope> + Send + 'static,
) -> anyhow::Result<Scope> {
    Ok(tokio::task::spawn_blocking(find).await??)
}
