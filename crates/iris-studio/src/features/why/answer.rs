//! Iris' answer about the selected lines as screen rows: her explanation wrapped to the pane's
//! width, then the commits behind the lines, one row each. Drawing shows a window of these
//! rows, and the reducer scrolls them and keeps the chosen commit in view, so both measure
//! the answer the same way.

use crate::state::WhyView;
use iris_studio_core::text::clip;

/// One screen row of the answer pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// A wrapped line of Iris' explanation (or of what she has streamed so far).
    Text(String),
    /// An empty row between the explanation and the commits.
    Blank,
    /// The title over the list of commits.
    Heading(&'static str),
    /// A commit behind the lines: its index in the answer, its row, whether Iris cited it.
    Commit {
        /// Its position in the answer's commits, which the chosen commit is compared to.
        index: usize,
        /// Short id, date, author and summary, clipped to the pane's width.
        text: String,
        /// Whether Iris named this commit in her explanation (it gets a star).
        cited: bool,
    },
}

/// The pane's rows at `width` cells: the answer, or while Iris writes it, what she has
/// streamed so far (`streamed`).
pub fn rows(why: &WhyView, streamed: &str, width: usize) -> Vec<Row> {
    let Some(answer) = &why.answer else {
        return crate::conversation::wrap_message(streamed, width)
            .into_iter()
            .map(Row::Text)
            .collect();
    };
    let mut rows: Vec<Row> = crate::conversation::wrap_message(&answer.explanation, width)
        .into_iter()
        .map(Row::Text)
        .collect();
    if answer.commits.is_empty() {
        return rows;
    }
    rows.push(Row::Blank);
    rows.push(Row::Heading("Commits behind the lines (enter: diff)"));
    for (index, commit) in answer.commits.iter().enumerate() {
        let text = format!(
            "{} {} {}: {}",
            commit.short_id, commit.date, commit.author, commit.summary
        );
        rows.push(Row::Commit {
            index,
            text: clip(&text, width.saturating_sub(2)),
            cited: answer.cited.contains(&commit.short_id),
        });
    }
    rows
}

/// The row of commit `index`, if the answer lists it.
pub fn commit_row(rows: &[Row], index: usize) -> Option<usize> {
    rows.iter()
        .position(|row| matches!(row, Row::Commit { index: i, .. } if *i == index))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::WhyKey;
    use iris_studio_core::protocol::{BlamedCommit, Explained};

    fn commit(short: &str) -> BlamedCommit {
        BlamedCommit {
            id: format!("{short}0000000000000000000000000000000000"),
            short_id: short.to_string(),
            author: "Ada".into(),
            time: 0,
            date: "2026-11-23".into(),
            summary: "Add the parser".into(),
            lines: 2,
        }
    }

    #[test]
    fn the_answer_wraps_and_lists_its_commits_with_the_cited_ones_marked() {
        let why = WhyView {
            key: WhyKey {
                path: "a.rs".into(),
                digest: 1,
                head: "h".into(),
                start: 1,
                end: 2,
            },
            answer: Some(Explained {
                path: "a.rs".into(),
                start_line: 1,
                end_line: 2,
                explanation: "It parses the input since abc1234 added it.".into(),
                commits: vec![commit("abc1234"), commit("def5678")],
                cited: vec!["abc1234".into()],
            }),
            scroll: 0,
            commit: 0,
        };
        let rows = rows(&why, "", 30);
        assert_eq!(rows[0], Row::Text("It parses the input since".into()));
        assert!(
            matches!(&rows[rows.len() - 2], Row::Commit { index: 0, cited: true, text }
            if text.starts_with("abc1234 2026-11-23"))
        );
        assert!(matches!(
            &rows[rows.len() - 1],
            Row::Commit {
                index: 1,
                cited: false,
                ..
            }
        ));
        assert_eq!(commit_row(&rows, 1), Some(rows.len() - 1));
        // While Iris writes, the pane shows what she has streamed.
        let asking = WhyView {
            answer: None,
            ..why
        };
        assert_eq!(
            super::rows(&asking, "It parses", 20),
            vec![Row::Text("It parses".into())]
        );
    }
}
