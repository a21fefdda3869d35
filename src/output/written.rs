//! What a written artifact tells its reader beyond its text, the same from every face: the
//! warnings it carries, and a review cut to the findings the reviewer is sure of.

use anyhow::Result;

use iris_studio_agent::capability::write::Written;
use iris_studio_core::artifact::Review;

/// What a written artifact warns about, a sentence each.
pub fn warnings_of(written: &Written) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Some(warning) = &written.critic_warning {
        warnings.push(format!(
            "the critic could not check the draft ({warning}); keeping it as written"
        ));
    }
    if let Some(source) = &written.rules_source {
        for v in &written.rule_violations {
            let level = if v.error { "" } else { ", a warning" };
            warnings.push(format!(
                "the message breaks {} ({source}{level}): {}",
                v.rule, v.message
            ));
        }
    }
    warnings
}

/// The review as printed: without the findings the reviewer is less sure of than `min`
/// percent, and a closing line saying how many were left out and how to see them.
pub fn confident(mut written: Written, min: u8) -> Result<Written> {
    let review: Review = serde_json::from_value(written.json.clone())?;
    let (kept, left_out) = review.confident(min);
    if left_out > 0 {
        written.text = review.to_markdown_confident(min, "`iris review --min-confidence 0`");
        written.json = serde_json::to_value(&kept)?;
    }
    Ok(written)
}
