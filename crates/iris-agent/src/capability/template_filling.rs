//! Iris and the repository's pull request template: looked for before a description is
//! written, shown to the model in the request, and its filling checked after the reply.

use crate::EventSink;
use crate::iris::IrisAgent;
use iris_studio_core::artifact::PullRequest;
use iris_studio_core::pr_template::{self, Template, TemplateError};
use iris_studio_core::protocol::AgentEvent;

impl IrisAgent {
    /// The template a pull request description fills in: the one [`IrisAgent::pr_template`]
    /// names, else the repository's default. A name the repository lacks is an error; a
    /// template that cannot be read is a warning, and the description is written without it.
    pub(super) async fn find_pr_template(
        &self,
        sink: &EventSink,
    ) -> anyhow::Result<Option<Template>> {
        let root = self.ctx.repo_root.clone();
        let name = self.pr_template.clone();
        let found = tokio::task::spawn_blocking(move || {
            iris_studio_config::project::pr_template::find(&root, name.as_deref())
        })
        .await;
        let why = match found {
            Ok(Ok(Some(found))) => {
                let of = match found.of {
                    1 => String::new(),
                    n => format!(" (one of {n})"),
                };
                sink.send(AgentEvent::Status(format!(
                    "filling in the pull request template {}{of}",
                    found.template.source
                )));
                return Ok(Some(found.template));
            }
            Ok(Ok(None)) => return Ok(None),
            Ok(Err(err @ TemplateError::Unknown { .. })) => return Err(err.into()),
            Ok(Err(err)) => err.to_string(),
            Err(join) => format!("cannot look for the pull request template: {join}"),
        };
        sink.send(AgentEvent::Warning(format!(
            "{why}; the description is written without the template"
        )));
        Ok(None)
    }
}

/// The request's section on the template: how to fill it in, then the template as written,
/// comments and all (they are the project's instructions), in a fence longer than any run
/// of backticks in it.
pub(super) fn template_section(template: &Template) -> String {
    let longest = template
        .text
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!(
        "## This repository's pull request template ({})\nFill it in as filled_template: keep \
         every heading and every checkbox line as written and write each section from the \
         evidence; tick a box (`- [x]`) only when the evidence shows it holds. The HTML \
         comments (`<!-- ... -->`) are the project's instructions for the part they stand \
         in: follow them, and leave them out. No title line in it; fill in the other fields \
         as well.\n{fence}markdown\n{}\n{fence}",
        template.source,
        template.text.trim_end()
    )
}

/// Settles `pr`'s body: without a template, none (whatever the model sent); with one, the
/// model's filling when it kept the template's structure, else the template filled in from
/// the fields, with a warning saying why.
pub(super) fn keep_template(pr: &mut PullRequest, template: Option<&Template>, sink: &EventSink) {
    let Some(template) = template else {
        pr.filled_template = None;
        return;
    };
    let (body, refilled) = pr_template::complete(&template.text, pr);
    if let Some(why) = refilled {
        sink.send(AgentEvent::Warning(format!(
            "{why}: {} was filled in from the description's fields",
            template.source
        )));
    }
    pr.filled_template = Some(body);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(text: &str) -> Template {
        Template {
            source: ".github/pull_request_template.md".into(),
            text: text.into(),
        }
    }

    #[test]
    fn the_section_shows_the_template_with_its_comments_in_a_fence_it_cannot_close() {
        let section = template_section(&template(
            "## Why\n<!-- The motivation. -->\n```sh\ncargo test\n```\n",
        ));
        assert!(
            section.starts_with(
                "## This repository's pull request template (.github/pull_request_template.md)\n"
            ),
            "{section}"
        );
        assert!(
            section.ends_with(
                "\n````markdown\n## Why\n<!-- The motivation. -->\n```sh\ncargo test\n```\n````"
            ),
            "{section}"
        );
        let plain = template_section(&template("## A\n"));
        assert!(plain.ends_with("\n```markdown\n## A\n```"), "{plain}");
    }

    #[test]
    fn the_body_is_settled_and_a_refill_warns() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let sink = EventSink::new(tx);
        let mut pr = PullRequest {
            title: "T".into(),
            summary: "S.".into(),
            filled_template: Some("made up".into()),
            ..PullRequest::default()
        };
        keep_template(&mut pr, None, &sink);
        assert_eq!(pr.filled_template, None);
        assert!(rx.try_recv().is_err());

        keep_template(&mut pr, Some(&template("## Summary\n<!-- x -->\n")), &sink);
        assert_eq!(pr.filled_template.as_deref(), Some("## Summary\n\nS.\n"));
        match rx.try_recv() {
            Ok(AgentEvent::Warning(text)) => assert_eq!(
                text,
                "the model did not fill it in: .github/pull_request_template.md was filled in \
                 from the description's fields"
            ),
            other => panic!("a warning expected, got {other:?}"),
        }

        pr.filled_template = Some("## Summary\nMine.".into());
        keep_template(&mut pr, Some(&template("## Summary\n<!-- x -->\n")), &sink);
        assert_eq!(pr.filled_template.as_deref(), Some("## Summary\nMine.\n"));
        assert!(rx.try_recv().is_err());
    }
}
