//! "Did you mean ...?": the known name closest to a misspelt one.

/// The candidate closest to `name`, if it is close enough to be a typo of it (at most two
/// edits, or a quarter of the candidate's length for longer names).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 4))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// " (did you mean 'x'?)" for the candidate closest to `name`, or nothing: the hint every
/// misspelt name gets (a revision, a provider, a preset).
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, candidates).map_or_else(String::new, hint)
}

/// " (did you mean 'x'?)" for a name found otherwise.
pub fn hint(meant: &str) -> String {
    format!(" (did you mean '{meant}'?)")
}

/// Levenshtein distance in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    levenshtein(&a, &b)
}

/// Levenshtein distance between two sequences (of characters, of words): insertions,
/// deletions and substitutions of one item, two rows at a time.
pub fn levenshtein<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, item) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, other) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(item != other);
            current[j + 1] = substitute.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_gets_the_name_it_is_likeliest_to_mean() {
        let providers = ["openai", "openrouter", "anthropic"];
        assert_eq!(
            did_you_mean("openruoter", providers),
            " (did you mean 'openrouter'?)"
        );
        assert_eq!(did_you_mean("mistral", providers), "");
    }

    #[test]
    fn typos_find_their_name_and_strangers_find_none() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        let names = ["main", "develop", "v1.2.0", "release/2.0"];
        assert_eq!(closest("mian", names), Some("main"));
        assert_eq!(closest("v1.2", names), Some("v1.2.0"));
        assert_eq!(closest("relase/2.0", names), Some("release/2.0"));
        assert_eq!(closest("nosuch", names), None);
        // A long name allows a quarter of its length: three edits in twenty characters.
        assert_eq!(
            closest("cnvntional-comits", ["conventional-commits"]),
            Some("conventional-commits")
        );
        assert_eq!(
            closest("cnvntonal-comits", ["conventional-commits"]),
            Some("conventional-commits")
        );
        assert_eq!(closest("cvnonal-cmits", ["conventional-commits"]), None);
        assert_eq!(
            closest("main", names),
            None,
            "an exact name is no suggestion"
        );
    }
}
