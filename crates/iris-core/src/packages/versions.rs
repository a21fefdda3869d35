//! Versions ordered as people read them (`0.10` after `0.9`), and the versions a change
//! removed paired with those it brought, so that one package's move reads as one update.

use std::cmp::Ordering;

/// `a` against `b`: runs of digits compare as numbers, everything else as text.
pub(super) fn compare(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (chunks(a), chunks(b));
    loop {
        match (a.next(), b.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let order = match (x.parse::<u128>(), y.parse::<u128>()) {
                    (Ok(x), Ok(y)) => x.cmp(&y),
                    _ => x.cmp(y),
                };
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

/// `text` cut where it turns from digits to other characters or back.
fn chunks(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let digits = first.is_ascii_digit();
        let end = rest
            .find(|c: char| c.is_ascii_digit() != digits)
            .unwrap_or(rest.len());
        let (chunk, after) = rest.split_at(end);
        rest = after;
        Some(chunk)
    })
}

/// What moved between the versions only the old side had (`gone`) and those only the new
/// side has (`came`): pairs (old, new) matched from the highest down, then the versions
/// left over on each side (removed, added). Both lists are sorted here.
pub(super) fn pair(mut gone: Vec<String>, mut came: Vec<String>) -> Moved {
    gone.sort_by(|a, b| compare(a, b));
    came.sort_by(|a, b| compare(a, b));
    let paired = gone.len().min(came.len());
    let old = gone.split_off(gone.len() - paired);
    let new = came.split_off(came.len() - paired);
    Moved {
        updated: old.into_iter().zip(new).collect(),
        removed: gone,
        added: came,
    }
}

/// The outcome of [`pair`].
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Moved {
    /// (old, new), lowest first.
    pub updated: Vec<(String, String)>,
    /// Versions only the old side had, unpaired.
    pub removed: Vec<String>,
    /// Versions only the new side has, unpaired.
    pub added: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn versions_order_by_their_numbers() {
        assert_eq!(compare("0.9.1", "0.10.0"), Ordering::Less);
        assert_eq!(compare("1.2.3", "1.2.3"), Ordering::Equal);
        assert_eq!(compare("v2", "v10"), Ordering::Less);
        assert_eq!(compare("1.0.0-beta", "1.0.0"), Ordering::Greater);
    }

    #[test]
    fn the_highest_versions_pair_first_and_the_rest_are_added_or_removed() {
        let moved = pair(strings(&["2.0.0", "1.0.0"]), strings(&["2.1.0"]));
        assert_eq!(moved.updated, [("2.0.0".to_string(), "2.1.0".to_string())]);
        assert_eq!(moved.removed, ["1.0.0"]);
        assert!(moved.added.is_empty());
        let moved = pair(Vec::new(), strings(&["0.10.0", "0.9.0"]));
        assert_eq!(moved.added, ["0.9.0", "0.10.0"]);
    }
}
