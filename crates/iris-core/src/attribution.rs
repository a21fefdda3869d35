//! Saying that Iris helped: a trailer (`Assisted-by: Iris (gpt-5)`) on every commit message
//! she writes, where the project's policy asks for one. The trailer's name comes from the
//! configuration (`attribution_trailer`) or from the project's contributor guide (AGENTS.md,
//! CONTRIBUTING.md) when it names one for AI-assisted work.

use std::sync::LazyLock;

use regex::Regex;

use crate::artifact::GeneratedMessage;

/// The trailer names contributor guides use for AI assistance (not `Co-authored-by`, which a
/// guide names for people, and which many projects forbid for tools).
static AI_TRAILER: LazyLock<Regex> = LazyLock::new(|| {
    crate::commit_rules::built_in(
        r"(?i)\b(assisted-by|generated-by|ai-assisted-by|ai-assisted|ai-generated-by|co-developed-with)\s*:",
    )
});

/// The AI-assistance trailer a contributor guide names (`Assisted-by`), as it writes it.
pub fn named_in_guide(guide: &str) -> Option<String> {
    let found = AI_TRAILER.captures(guide)?;
    Some(found.get(1)?.as_str().to_string())
}

/// Adds `NAME: Iris (MODEL)` to the message's closing trailers, unless a `NAME:` trailer is
/// already there.
pub fn add(message: &mut GeneratedMessage, name: &str, model: &str) {
    let name = name.trim().trim_end_matches(':');
    let prefix = format!("{}:", name.to_ascii_lowercase());
    if name.is_empty()
        || message
            .message
            .lines()
            .any(|l| l.trim_start().to_ascii_lowercase().starts_with(&prefix))
    {
        return;
    }
    crate::ticket::add_trailer(message, &format!("{name}: Iris ({model})"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guide_names_its_trailer_and_co_authored_by_is_not_one() {
        let guide = "## AI tools\nCommits made with an AI assistant must carry an \
                     `Assisted-by: TOOL (MODEL)` trailer.\n";
        assert_eq!(named_in_guide(guide).as_deref(), Some("Assisted-by"));
        assert_eq!(
            named_in_guide("Add Generated-by: to generated commits").as_deref(),
            Some("Generated-by")
        );
        assert_eq!(named_in_guide("Use Co-authored-by: for pair work."), None);
        assert_eq!(named_in_guide("We assisted by reviewing"), None);
    }

    #[test]
    fn the_trailer_joins_the_closing_block_once() {
        let mut m = GeneratedMessage {
            emoji: None,
            title: "Add two()".into(),
            message: "Adds two().\n\nRefs: #12".into(),
        };
        add(&mut m, "Assisted-by", "gpt-5");
        assert_eq!(
            m.message,
            "Adds two().\n\nRefs: #12\nAssisted-by: Iris (gpt-5)"
        );
        add(&mut m, "assisted-by:", "gpt-5");
        assert_eq!(m.message.matches("Assisted-by").count(), 1);
        let mut bare = GeneratedMessage {
            emoji: None,
            title: "Add two()".into(),
            message: String::new(),
        };
        add(&mut bare, "Generated-by", "local");
        assert_eq!(bare.message, "Generated-by: Iris (local)");
    }
}
