//! The size bucket of a change and the advice that goes with it.

/// How big a change is, which decides how the writer should read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SizeBucket {
    /// At most 3 files and under 100 lines.
    Small,
    /// At most 10 files and under 500 lines.
    Medium,
    /// Anything bigger.
    Large,
    /// The caller asked for specific files only.
    Filtered,
}

impl SizeBucket {
    /// The lowercase name the diff tool's `Size:` line shows.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Small => "small",
            Self::Medium => "medium",
            Self::Large => "large",
            Self::Filtered => "filtered",
        }
    }
}

/// Small: at most 3 files and under 100 lines; Medium: at most 10 files and under 500 lines;
/// anything bigger is Large. A filtered request is always Filtered.
pub fn size_bucket(files: usize, lines: usize, filtered: bool) -> SizeBucket {
    if filtered {
        SizeBucket::Filtered
    } else if files <= 3 && lines < 100 {
        SizeBucket::Small
    } else if files <= 10 && lines < 500 {
        SizeBucket::Medium
    } else {
        SizeBucket::Large
    }
}

/// Above either limit a Large change is worth splitting across subagents.
const SPLIT_FILES: usize = 20;
const SPLIT_LINES: usize = 1000;

/// How to approach a change of this size, addressed to the writing agent.
pub fn guidance(bucket: SizeBucket, files: usize, lines: usize) -> String {
    let size = format!(
        "{files} {}, {lines} changed {}",
        plural(files, "file", "files"),
        plural(lines, "line", "lines")
    );
    match bucket {
        SizeBucket::Small => format!(
            "Small change ({size}): read the full diff (detail=standard) and write from it."
        ),
        SizeBucket::Medium => format!(
            "Medium change ({size}): focus on the top-ranked files and request full diffs for those."
        ),
        SizeBucket::Large => {
            let mut text = format!(
                "Large change ({size}): work from this summary and request diffs only for the \
                 highest-relevance files with `files`."
            );
            if files > SPLIT_FILES || lines > SPLIT_LINES {
                text.push_str(
                    " Split the analysis across parallel subagents (the `parallel_analyze` tool), \
                     grouping related files.",
                );
            }
            text
        }
        SizeBucket::Filtered => {
            format!("Filtered change ({size}): read the full diffs of the requested files only.")
        }
    }
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn advice(files: usize, lines: usize) -> String {
        guidance(size_bucket(files, lines, false), files, lines)
    }

    #[test]
    fn bucket_boundaries() {
        assert_eq!(size_bucket(3, 99, false), SizeBucket::Small);
        assert_eq!(size_bucket(0, 0, false), SizeBucket::Small);
        assert_eq!(size_bucket(3, 100, false), SizeBucket::Medium);
        assert_eq!(size_bucket(4, 1, false), SizeBucket::Medium);
        assert_eq!(size_bucket(10, 499, false), SizeBucket::Medium);
        assert_eq!(size_bucket(10, 500, false), SizeBucket::Large);
        assert_eq!(size_bucket(11, 1, false), SizeBucket::Large);
        assert_eq!(size_bucket(1, 1, true), SizeBucket::Filtered);
        assert_eq!(size_bucket(500, 50_000, true), SizeBucket::Filtered);
    }

    #[test]
    fn names() {
        assert_eq!(SizeBucket::Small.name(), "small");
        assert_eq!(SizeBucket::Medium.name(), "medium");
        assert_eq!(SizeBucket::Large.name(), "large");
        assert_eq!(SizeBucket::Filtered.name(), "filtered");
    }

    #[test]
    fn guidance_per_bucket() {
        let small = advice(1, 12);
        assert!(small.contains("1 file, 12 changed lines"), "{small}");
        assert!(small.contains("full diff (detail=standard)"), "{small}");
        let medium = advice(5, 200);
        assert!(medium.contains("top-ranked files"), "{medium}");
        let large = advice(11, 10);
        assert!(
            large.contains("highest-relevance files with `files`"),
            "{large}"
        );
        assert!(!large.contains("subagents"), "{large}");
        let filtered = guidance(SizeBucket::Filtered, 2, 40);
        assert!(filtered.contains("requested files only"), "{filtered}");
    }

    #[test]
    fn subagents_only_past_the_split_limits() {
        assert!(advice(21, 10).contains("subagents"));
        assert!(advice(21, 10).contains("`parallel_analyze`"));
        assert!(advice(5, 1001).contains("subagents"));
        assert!(!advice(20, 1000).contains("subagents"));
        assert!(!guidance(SizeBucket::Filtered, 50, 5000).contains("subagents"));
    }
}
