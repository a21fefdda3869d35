//! A project's `commit.template` (the file git opens the editor with) as the shape its
//! messages take: the request tells the model to write in it.

/// Characters of a template the request carries; templates are a few lines.
const MAX_TEMPLATE: usize = 4_000;

/// The request's section for a commit template's text; `None` when it holds nothing.
pub fn section(template: &str) -> Option<String> {
    let text = template.trim();
    if text.is_empty() {
        return None;
    }
    let shown: String = text.chars().take(MAX_TEMPLATE).collect();
    let cut = if shown.len() < text.len() {
        "\n(the rest of the template is left out)"
    } else {
        ""
    };
    Some(format!(
        "## The project's commit template (commit.template)\n\n\
         The project's messages take this shape: write the message in it, its headings and \
         fields filled from the evidence (a field the evidence cannot fill is left out). Its \
         comment lines are guidance for you, not text for the message.\n\n\
         ```\n{shown}{cut}\n```"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_is_quoted_whole_and_an_empty_one_is_none() {
        let text = section("Why:\n\nHow:\n# Lines starting with # are left out.\n").expect("one");
        assert!(
            text.starts_with("## The project's commit template"),
            "{text}"
        );
        assert!(
            text.contains("```\nWhy:\n\nHow:\n# Lines starting with # are left out.\n```"),
            "{text}"
        );
        assert_eq!(section(" \n\n"), None);
    }

    #[test]
    fn a_long_template_is_cut() {
        let text = section(&"x".repeat(MAX_TEMPLATE + 10)).expect("one");
        assert!(text.contains("(the rest of the template is left out)"));
        assert!(text.len() < MAX_TEMPLATE + 500);
    }
}
