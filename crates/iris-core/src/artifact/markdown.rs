//! Small helpers the artifacts share to write markdown.

/// Appends `## heading` and the items as a bullet list, or nothing when every item is blank.
pub fn push_list(out: &mut String, heading: &str, items: &[String]) {
    let items: Vec<&str> = items
        .iter()
        .map(|i| i.trim())
        .filter(|i| !i.is_empty())
        .collect();
    if items.is_empty() {
        return;
    }
    out.push_str(&format!("## {heading}\n\n"));
    for item in items {
        push_bullet(out, item);
    }
    out.push('\n');
}

/// Appends `- item`, indenting the item's further lines under the bullet and dropping a
/// bullet marker the model already wrote.
pub fn push_bullet(out: &mut String, item: &str) {
    let item = item
        .trim()
        .strip_prefix("- ")
        .or_else(|| item.trim().strip_prefix("* "))
        .unwrap_or(item.trim());
    let mut lines = item.lines();
    out.push_str("- ");
    out.push_str(lines.next().unwrap_or_default());
    out.push('\n');
    for line in lines {
        if !line.trim().is_empty() {
            out.push_str("  ");
        }
        out.push_str(line);
        out.push('\n');
    }
}

/// Appends `## heading` and a paragraph, or nothing when the text is blank.
pub fn push_section(out: &mut String, heading: &str, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    out.push_str(&format!("## {heading}\n\n{text}\n\n"));
}

/// The text with one trailing newline.
pub fn finish(mut out: String) -> String {
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_skip_blank_items_and_existing_bullets() {
        let mut out = String::new();
        push_list(
            &mut out,
            "Changes",
            &["- one".into(), " ".into(), "two\nmore".into()],
        );
        assert_eq!(out, "## Changes\n\n- one\n- two\n  more\n\n");
        let mut empty = String::new();
        push_list(&mut empty, "Changes", &["".into()]);
        assert!(empty.is_empty());
    }

    #[test]
    fn sections_skip_blank_text_and_finish_trims() {
        let mut out = String::new();
        push_section(&mut out, "Summary", "  ");
        assert!(out.is_empty());
        push_section(&mut out, "Summary", "Text.");
        assert_eq!(finish(out), "## Summary\n\nText.\n");
    }
}
