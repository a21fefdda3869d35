//! The deterministic fill (pure): a pull request's fields put into its template's sections
//! by the words of their headings, for when the model's own filling lost the template's
//! structure.
//!
//! The rules, in order:
//! - Each heading's section gets a topic from its words: "breaking" is breaking changes; a
//!   checklist or "type of change" keeps its boxes as they are; test, testing, QA, verify is
//!   testing; issue, related, fixes, closes, resolves, ticket is related issues; screenshots
//!   stay as they are; notes, reviewers, additional, risks is the reviewers' notes; why,
//!   motivation, context, background is the description; change, changes is the changes;
//!   summary, what, overview, purpose is the summary; description, details, approach, how is
//!   the description. Anything else is kept as the template writes it.
//! - A field goes to the first section of its topic. The summary goes to the first summary
//!   section, else to the first description section; the description to the first
//!   description section, else beside the summary. With neither, both go before the first
//!   heading.
//! - A section that gets a field loses the template's prose placeholder but keeps its
//!   checkbox lines (after the field, as written) and GitLab quick actions (`/label ~bug`); a
//!   section that gets nothing (or only empty fields) is kept as written.
//! - A non-empty field with no section of its topic is added at the end under its own
//!   heading, at the level of the template's top headings.
//! - The template's HTML comments never reach the result, and neither do any in the fields.

use super::markdown::{checkbox, heading, key, strip_comments};
use crate::artifact::PullRequest;
use crate::artifact::markdown::push_bullet;

/// What a section of the template is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Topic {
    Summary,
    Description,
    Changes,
    Testing,
    Breaking,
    Issues,
    Notes,
    /// Kept as written: a checklist, a type of change, screenshots, anything unknown.
    Other,
}

/// The topic of a heading, by its words (see the module's rules).
fn topic(title: &str) -> Topic {
    let text = key(title);
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let has = |list: &[&str]| words.iter().any(|w| list.contains(w));
    let says = |phrases: &[&str]| phrases.iter().any(|p| text.contains(p));
    if has(&["breaking"]) {
        Topic::Breaking
    } else if has(&["checklist"]) || says(&["type of change", "types of change", "kind of change"])
    {
        Topic::Other
    } else if has(&[
        "test",
        "tests",
        "testing",
        "tested",
        "qa",
        "verification",
        "verify",
        "verified",
        "reproduce",
    ]) {
        Topic::Testing
    } else if has(&[
        "issue",
        "issues",
        "related",
        "fixes",
        "closes",
        "resolves",
        "ticket",
        "tickets",
        "links",
        "references",
        "jira",
    ]) {
        Topic::Issues
    } else if has(&["screenshot", "screenshots", "demo", "recording", "video"]) {
        Topic::Other
    } else if has(&[
        "notes",
        "note",
        "reviewer",
        "reviewers",
        "additional",
        "risks",
        "risk",
        "concerns",
        "caveats",
        "limitations",
    ]) {
        Topic::Notes
    } else if has(&["why", "motivation", "context", "background", "rationale"]) {
        Topic::Description
    // "Summary of changes" is a summary and "Description of changes" a description, but
    // "What changed" lists the changes.
    } else if has(&["summary", "overview", "tldr", "tl", "purpose", "about"]) {
        Topic::Summary
    } else if has(&[
        "description",
        "details",
        "approach",
        "implementation",
        "how",
        "solution",
        "design",
    ]) {
        Topic::Description
    } else if has(&["change", "changes", "changed", "changelog", "modifications"]) {
        Topic::Changes
    } else if has(&["what"]) {
        Topic::Summary
    } else {
        Topic::Other
    }
}

/// One section of the template: its heading line (none before the first heading) and the
/// lines under it, each marked as code or not.
struct Section<'a> {
    heading: Option<&'a str>,
    topic: Topic,
    lines: Vec<(&'a str, bool)>,
}

/// The template, comments removed, cut at its headings (outside code).
fn sections(text: &str) -> Vec<Section<'_>> {
    let prose: std::collections::HashSet<usize> =
        super::markdown::prose_lines(text).map(|(i, _)| i).collect();
    let mut out = vec![Section {
        heading: None,
        topic: Topic::Other,
        lines: Vec::new(),
    }];
    for (i, line) in text.lines().enumerate() {
        let is_code = !prose.contains(&i);
        match heading(line).filter(|_| !is_code) {
            Some((_, title)) => out.push(Section {
                heading: Some(line),
                topic: topic(title),
                lines: Vec::new(),
            }),
            None => {
                if let Some(last) = out.last_mut() {
                    last.lines.push((line, is_code));
                }
            }
        }
    }
    out
}

/// What goes into one section, in this order.
#[derive(Default)]
struct Content<'a> {
    paragraphs: Vec<&'a str>,
    lists: Vec<&'a [String]>,
}

impl Content<'_> {
    fn is_empty(&self) -> bool {
        self.paragraphs.is_empty() && self.lists.is_empty()
    }

    fn render(&self, out: &mut Vec<String>) {
        for paragraph in &self.paragraphs {
            out.push(paragraph.trim().to_string());
            out.push(String::new());
        }
        for list in &self.lists {
            let mut text = String::new();
            for item in list.iter().filter(|i| !i.trim().is_empty()) {
                push_bullet(&mut text, item);
            }
            out.extend(text.lines().map(str::to_string));
            out.push(String::new());
        }
    }
}

/// Whether a line of a filled section stays: a checkbox or a GitLab quick action.
fn kept_line(line: &str) -> bool {
    let quick_action = line
        .strip_prefix('/')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_lowercase()));
    quick_action || checkbox(line).is_some()
}

/// `template` filled in from `pr` by the module's rules; no title line.
pub fn fill(template: &str, pr: &PullRequest) -> String {
    let stripped = strip_comments(template);
    let sections = sections(&stripped);
    let first = |t: Topic| sections.iter().position(|s| s.topic == t);
    let mut contents: Vec<Content> = sections.iter().map(|_| Content::default()).collect();
    let mut unplaced: Vec<(&str, &[String])> = Vec::new();

    let summary_at = first(Topic::Summary)
        .or(first(Topic::Description))
        .unwrap_or(0);
    let description_at = first(Topic::Description).unwrap_or(summary_at);
    if !pr.summary.trim().is_empty() {
        contents[summary_at].paragraphs.push(&pr.summary);
    }
    if !pr.description.trim().is_empty() {
        contents[description_at].paragraphs.push(&pr.description);
    }
    let lists: [(Topic, &str, &[String]); 5] = [
        (Topic::Changes, "Changes", &pr.changes),
        (Topic::Testing, "Testing", &pr.testing),
        (Topic::Breaking, "Breaking changes", &pr.breaking_changes),
        (Topic::Notes, "Notes for reviewers", &pr.reviewer_notes),
        (Topic::Issues, "Related issues", &pr.related_issues),
    ];
    for (topic, heading, items) in lists {
        if items.iter().all(|i| i.trim().is_empty()) {
            continue;
        }
        match first(topic) {
            Some(at) => contents[at].lists.push(items),
            None => unplaced.push((heading, items)),
        }
    }

    let mut out: Vec<String> = Vec::new();
    for (section, content) in sections.iter().zip(&contents) {
        if let Some(line) = section.heading {
            out.push(line.to_string());
            out.push(String::new());
        }
        if content.is_empty() {
            out.extend(section.lines.iter().map(|(l, _)| l.to_string()));
            out.push(String::new());
            continue;
        }
        content.render(&mut out);
        let kept: Vec<String> = section
            .lines
            .iter()
            .filter(|(line, is_code)| !is_code && kept_line(line))
            .map(|(line, _)| line.trim_end().to_string())
            .collect();
        if !kept.is_empty() {
            out.extend(kept);
            out.push(String::new());
        }
    }
    let level = sections
        .iter()
        .filter_map(|s| heading(s.heading?).map(|(level, _)| level))
        .min()
        .unwrap_or(2);
    for (title, items) in unplaced {
        out.push(format!("{} {title}", "#".repeat(level)));
        out.push(String::new());
        Content {
            paragraphs: Vec::new(),
            lists: vec![items],
        }
        .render(&mut out);
    }
    let mut text = strip_comments(&out.join("\n"));
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr_template::check::check;

    fn pr() -> PullRequest {
        PullRequest {
            title: "Add two()".into(),
            summary: "Adds two() beside one().".into(),
            description: "Callers wanted a second constant.".into(),
            changes: vec!["src/lib.rs: add two()".into()],
            testing: vec!["cargo test".into()],
            breaking_changes: vec![],
            reviewer_notes: vec!["Check the name".into()],
            related_issues: vec!["Closes #7".into()],
            ..PullRequest::default()
        }
    }

    #[test]
    fn headings_find_their_topics() {
        for (title, want) in [
            ("Description", Topic::Description),
            ("Summary", Topic::Summary),
            ("What does this PR do?", Topic::Summary),
            ("Why is this change needed?", Topic::Description),
            ("Motivation and Context", Topic::Description),
            ("What changed", Topic::Changes),
            ("Changes made", Topic::Changes),
            ("Summary of changes", Topic::Summary),
            ("Description of changes", Topic::Description),
            ("Type of change", Topic::Other),
            ("Checklist:", Topic::Other),
            ("How Has This Been Tested?", Topic::Testing),
            ("Test plan", Topic::Testing),
            ("How to test", Topic::Testing),
            ("Breaking Changes", Topic::Breaking),
            ("Related Issues", Topic::Issues),
            ("Fixes", Topic::Issues),
            ("Screenshots (if appropriate):", Topic::Other),
            ("Additional context", Topic::Notes),
            ("Notes for reviewers", Topic::Notes),
            ("TL;DR", Topic::Summary),
            ("Deployment", Topic::Other),
        ] {
            assert_eq!(topic(title), want, "{title}");
        }
    }

    /// A template much like the one many projects copy.
    const CLASSIC: &str = "\
# Description

<!-- Please include a summary of the change and which issue is fixed. -->
Please include a summary of the change.

Fixes # (issue)

## Type of change

Please delete options that are not relevant.

- [ ] Bug fix (non-breaking change which fixes an issue)
- [ ] New feature (non-breaking change which adds functionality)

# How Has This Been Tested?

<!-- Describe the tests that you ran. -->

- [ ] Test A

# Checklist:

- [ ] My code follows the style guidelines of this project
- [ ] I have added tests that prove my fix is effective
";

    #[test]
    fn the_classic_template_gets_each_field_in_its_section_and_keeps_the_rest() {
        let filled = fill(CLASSIC, &pr());
        assert_eq!(
            filled,
            "\
# Description

Adds two() beside one().

Callers wanted a second constant.

## Type of change

Please delete options that are not relevant.

- [ ] Bug fix (non-breaking change which fixes an issue)
- [ ] New feature (non-breaking change which adds functionality)

# How Has This Been Tested?

- cargo test

- [ ] Test A

# Checklist:

- [ ] My code follows the style guidelines of this project
- [ ] I have added tests that prove my fix is effective

# Changes

- src/lib.rs: add two()

# Notes for reviewers

- Check the name

# Related issues

- Closes #7
"
        );
        assert!(check(CLASSIC, &filled).is_empty());
    }

    #[test]
    fn what_and_why_split_the_summary_and_the_description() {
        let template = "## What?\n<!-- What changes. -->\n\n## Why?\n<!-- Why. -->\n\n\
                        ## Related issues\nCloses #\n\n## Breaking changes\n- [ ] None\n";
        let filled = fill(template, &pr());
        assert_eq!(
            filled,
            "## What?\n\nAdds two() beside one().\n\n## Why?\n\nCallers wanted a second \
             constant.\n\n## Related issues\n\n- Closes #7\n\n## Breaking changes\n\n- [ ] \
             None\n\n## Changes\n\n- src/lib.rs: add two()\n\n## Testing\n\n- cargo test\n\n\
             ## Notes for reviewers\n\n- Check the name\n"
        );
        assert!(check(template, &filled).is_empty());
    }

    /// [`pr`] with its summary alone.
    fn summary_only() -> PullRequest {
        PullRequest {
            description: String::new(),
            changes: vec![],
            testing: vec![],
            reviewer_notes: vec![],
            related_issues: vec![],
            ..pr()
        }
    }

    #[test]
    fn without_a_summary_section_the_text_goes_before_the_first_heading() {
        let template =
            "Describe the change here.\n/label ~feature\n\n### Checklist\n- [x] Signed off\n";
        let pr = summary_only();
        assert_eq!(
            fill(template, &pr),
            "Adds two() beside one().\n\n/label ~feature\n\n### Checklist\n\n- [x] Signed off\n"
        );
    }

    #[test]
    fn a_section_whose_field_is_empty_and_comments_in_fields_are_handled() {
        let template = "## Summary\n\n## Breaking changes\nList them, or say none.\n";
        let pr = PullRequest {
            summary: "Adds two(). <!-- internal -->".into(),
            ..summary_only()
        };
        assert_eq!(
            fill(template, &pr),
            "## Summary\n\nAdds two().\n\n## Breaking changes\n\nList them, or say none.\n"
        );
    }

    #[test]
    fn code_in_a_kept_section_stays_and_headings_in_code_are_not_sections() {
        let template = "## Summary\n\n## Deploy notes?\n```sh\n# not a heading\n- [ ] code\n```\n";
        let filled = fill(template, &PullRequest::default());
        assert_eq!(
            filled,
            "## Summary\n\n## Deploy notes?\n\n```sh\n# not a heading\n- [ ] code\n```\n"
        );
    }
}
