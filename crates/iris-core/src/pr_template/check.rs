//! Whether a filled body kept its template's structure (pure): every heading and every
//! checkbox line of the template must be in it.

use std::fmt;

use super::markdown::{checkbox, heading, key, prose_lines, strip_comments};

/// What of a template a filled body must keep: its headings (`## Testing`) and its checkbox
/// lines (`- [ ] Tests added`), as written, outside code and comments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    /// Its headings, with their `#` marks (`## Testing`).
    pub headings: Vec<String>,
    /// Its checkbox lines, made `- [ ] label`.
    pub checkboxes: Vec<String>,
}

/// The outline of `text` (its comments removed first).
pub fn outline(text: &str) -> Outline {
    let text = strip_comments(text);
    let mut found = Outline::default();
    for (_, line) in prose_lines(&text) {
        if let Some((level, title)) = heading(line) {
            if !title.is_empty() {
                found
                    .headings
                    .push(format!("{} {title}", "#".repeat(level)));
            }
        } else if let Some((_, label)) = checkbox(line) {
            found.checkboxes.push(format!("- [ ] {label}"));
        }
    }
    found
}

/// What a filled body left out of its template.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Gaps {
    /// The template's headings the body lacks.
    pub headings: Vec<String>,
    /// The template's checkbox lines the body lacks.
    pub checkboxes: Vec<String>,
}

impl Gaps {
    /// Whether the body kept everything.
    pub fn is_empty(&self) -> bool {
        self.headings.is_empty() && self.checkboxes.is_empty()
    }
}

impl fmt::Display for Gaps {
    /// "the headings `## Testing`, `## Notes` and the checkbox `- [ ] Docs`".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |items: &[String]| {
            items
                .iter()
                .map(|i| format!("`{i}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let plural = |n: usize, one: &'static str, many: &'static str| {
            if n == 1 { one } else { many }
        };
        let mut parts = Vec::new();
        if !self.headings.is_empty() {
            let noun = plural(self.headings.len(), "heading", "headings");
            parts.push(format!("the {noun} {}", list(&self.headings)));
        }
        if !self.checkboxes.is_empty() {
            let noun = plural(self.checkboxes.len(), "checkbox", "checkboxes");
            parts.push(format!("the {noun} {}", list(&self.checkboxes)));
        }
        f.write_str(&parts.join(" and "))
    }
}

/// The headings and checkbox lines of `template` that `body` lacks. Each must appear as
/// often as in the template; a heading may change level, a box may be ticked (`[x]`), and
/// case, emphasis, spacing and a trailing colon do not count.
pub fn check(template: &str, body: &str) -> Gaps {
    let wanted = outline(template);
    let have = outline(body);
    Gaps {
        headings: missing(&wanted.headings, &have.headings, |h| {
            heading(h).map_or(String::new(), |(_, t)| key(t))
        }),
        checkboxes: missing(&wanted.checkboxes, &have.checkboxes, |c| {
            checkbox(c).map_or(String::new(), |(_, l)| key(l))
        }),
    }
}

/// The items of `wanted` that `have` does not match one for one, by `key_of`.
fn missing(wanted: &[String], have: &[String], key_of: impl Fn(&str) -> String) -> Vec<String> {
    let mut left: Vec<String> = have.iter().map(|h| key_of(h)).collect();
    let mut out = Vec::new();
    for item in wanted {
        let k = key_of(item);
        match left.iter().position(|l| *l == k) {
            Some(i) => {
                left.swap_remove(i);
            }
            None => out.push(item.clone()),
        }
    }
    out
}

/// Whether `body` is the template itself, not filled in: the same text once comments and
/// spacing are set aside.
pub fn unfilled(template: &str, body: &str) -> bool {
    let plain = |text: &str| {
        strip_comments(text)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    plain(template) == plain(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = "\
## Description
<!-- What and why. -->

## Type of change
- [ ] Bug fix
- [ ] New feature

## Checklist:
- [ ] Tests added
- [ ] Docs updated
```md
## Not a heading
- [ ] not a box
```
<!--
## Hidden
- [ ] hidden box
-->
";

    #[test]
    fn the_outline_skips_code_and_comments() {
        let found = outline(TEMPLATE);
        assert_eq!(
            found.headings,
            vec!["## Description", "## Type of change", "## Checklist:"]
        );
        assert_eq!(
            found.checkboxes,
            vec![
                "- [ ] Bug fix",
                "- [ ] New feature",
                "- [ ] Tests added",
                "- [ ] Docs updated"
            ]
        );
    }

    #[test]
    fn a_body_that_keeps_everything_has_no_gaps_ticked_boxes_and_levels_aside() {
        let body = "### description\n\nAdds two().\n\n## Type of change\n- [x] New feature\n\
                    - [ ] Bug fix\n\n## **Checklist**\n* [X] Tests added\n- [ ] Docs   updated\n";
        let gaps = check(TEMPLATE, body);
        assert!(gaps.is_empty(), "{gaps:?}");
    }

    #[test]
    fn missing_headings_and_boxes_are_named_as_the_template_writes_them() {
        let body = "## Description\n\nAdds two().\n\n- [x] Tests added\n";
        let gaps = check(TEMPLATE, body);
        assert_eq!(gaps.headings, vec!["## Type of change", "## Checklist:"]);
        assert_eq!(
            gaps.checkboxes,
            vec!["- [ ] Bug fix", "- [ ] New feature", "- [ ] Docs updated"]
        );
        assert_eq!(
            gaps.to_string(),
            "the headings `## Type of change`, `## Checklist:` and the checkboxes `- [ ] Bug \
             fix`, `- [ ] New feature`, `- [ ] Docs updated`"
        );
    }

    #[test]
    fn a_heading_twice_in_the_template_must_be_there_twice_and_comments_do_not_count() {
        let template = "## Notes\n- [ ] a\n## Notes\n";
        assert_eq!(
            check(template, "## Notes\n- [ ] a\n<!--\n## Notes\n-->").headings,
            vec!["## Notes"]
        );
        assert!(check(template, "## notes\n## NOTES\n- [x] A").is_empty());
        assert_eq!(
            Gaps {
                headings: vec![],
                checkboxes: vec!["- [ ] a".into()]
            }
            .to_string(),
            "the checkbox `- [ ] a`"
        );
    }

    #[test]
    fn the_template_as_given_is_unfilled() {
        let stripped = strip_comments(TEMPLATE);
        assert!(unfilled(TEMPLATE, &stripped));
        assert!(unfilled(TEMPLATE, &format!("\n{stripped}\n\n")));
        assert!(!unfilled(
            TEMPLATE,
            &stripped.replace("## Type", "Adds two().\n\n## Type")
        ));
    }
}
