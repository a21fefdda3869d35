//! Word-level edit distance.

/// Words compared at most per message: a longer one is cut here, which keeps a run's cost
/// bounded whatever a model writes (the distance is quadratic in words).
const MAX_WORDS: usize = 2_000;

/// The edit distance between `a` and `b` in words (insertions, deletions and substitutions
/// of whole words), divided by the longer one's word count: 0 for the same words in the same
/// order, 1 for nothing in common. Two empty texts are the same.
pub fn word_distance(a: &str, b: &str) -> f64 {
    let a: Vec<&str> = a.split_whitespace().take(MAX_WORDS).collect();
    let b: Vec<&str> = b.split_whitespace().take(MAX_WORDS).collect();
    let longer = a.len().max(b.len());
    if longer == 0 {
        return 0.0;
    }
    crate::suggest::levenshtein(&a, &b) as f64 / longer as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_whole_word_edits_over_the_longer_message() {
        assert_eq!(word_distance("fix the parser", "fix the parser"), 0.0);
        // One substitution in three words.
        assert!((word_distance("fix the parser", "fix a parser") - 1.0 / 3.0).abs() < 1e-9);
        // "add" inserted, "now" inserted: 2 edits over 5 words.
        assert!((word_distance("fix the parser", "add fix the parser now") - 0.4).abs() < 1e-9);
        assert_eq!(word_distance("alpha beta", "gamma delta"), 1.0);
        assert_eq!(word_distance("", ""), 0.0);
        assert_eq!(word_distance("", "one two"), 1.0);
    }

    #[test]
    fn blank_space_and_line_breaks_are_no_words() {
        assert_eq!(word_distance("fix  the\nparser\n", "fix the parser"), 0.0);
    }

    #[test]
    fn is_symmetric_and_case_sensitive() {
        let (a, b) = ("Fix the lexer and the parser", "fix the parser");
        assert_eq!(word_distance(a, b), word_distance(b, a));
        // "Fix"/"fix" differ, "lexer", "and", "the" deleted: 4 of 6.
        assert!((word_distance(a, b) - 4.0 / 6.0).abs() < 1e-9);
    }

    #[test]
    fn a_huge_reply_stays_bounded() {
        let huge = "word ".repeat(100_000);
        let d = word_distance(&huge, "word");
        assert!((d - (MAX_WORDS - 1) as f64 / MAX_WORDS as f64).abs() < 1e-9);
    }
}
