//! A stack of pull requests (main <- b1 <- b2 <- b3): its layers, what the model is told of
//! the stack when it writes one layer, and the section every layer's description carries.
//! That section sits in a marked block, so refreshing it never touches the text around it
//! (pure).

/// One layer of a stack: a branch and the branch below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    /// The layer's branch.
    pub branch: String,
    /// The branch its pull request goes into: the layer below's, or the stack's base.
    pub parent: String,
    /// The commit the branch points at.
    pub tip: String,
    /// The titles of its own commits (`parent..branch`), oldest first.
    pub titles: Vec<String>,
}

/// The stack a branch is part of, bottom layer first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stack {
    /// The branch the bottom layer goes into (the default branch, or what the stack sits on).
    pub base: String,
    /// The layers, bottom first.
    pub layers: Vec<Layer>,
    /// The layer of the branch the stack was read from (the checked-out one).
    pub current: usize,
    /// What was odd about it and what Iris does about it: a branch with two recorded
    /// parents, a layer without commits, a base that is not the default branch.
    pub notes: Vec<String>,
}

impl Stack {
    /// The index of `branch`'s layer.
    pub fn position(&self, branch: &str) -> Option<usize> {
        self.layers.iter().position(|l| l.branch == branch)
    }

    /// The stack as `iris pr --stack` prints it before writing: one line a layer, bottom
    /// first, the checked-out one marked, then the notes.
    pub fn listing(&self) -> String {
        let mut out = format!(
            "the stack on {} ({} layer{}, bottom first):\n",
            self.base,
            self.layers.len(),
            if self.layers.len() == 1 { "" } else { "s" }
        );
        for (i, layer) in self.layers.iter().enumerate() {
            let count = layer.titles.len();
            let here = if i == self.current { "  <- HEAD" } else { "" };
            out.push_str(&format!(
                "  {}. {} ({}..{}, {count} commit{}){here}\n",
                i + 1,
                layer.branch,
                layer.parent,
                layer.branch,
                if count == 1 { "" } else { "s" }
            ));
        }
        for note in &self.notes {
            out.push_str(&format!("note: {note}\n"));
        }
        out
    }
}

/// How a layer is shown in the stack section: its description's title (else its newest
/// commit's), linked to its pull request once there is one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shown {
    /// The description's title, when it was written.
    pub title: Option<String>,
    /// The pull request's page, once it exists.
    pub url: Option<String>,
}

/// Opens the marked block (`<!-- iris:stack change=... -->`).
const OPEN: &str = "<!-- iris:stack";
/// Closes the marked block.
const CLOSE: &str = "<!-- /iris:stack -->";

/// The stack section of layer `index`'s description: the stack's pull requests bottom
/// first, linked where they exist, this one marked; `change` (the layer's change id) is kept
/// in the block's opening marker, so a later update can tell whether the layer moved.
pub fn section(stack: &Stack, shown: &[Shown], index: usize, change: &str) -> String {
    let mut out = format!(
        "{OPEN} change={change} -->\n---\n**Stack** (into `{}`, bottom first):\n\n",
        one_line(&stack.base)
    );
    for (i, layer) in stack.layers.iter().enumerate() {
        let shown = shown.get(i).cloned().unwrap_or_default();
        let label = shown
            .title
            .or_else(|| layer.titles.last().cloned())
            .unwrap_or_else(|| layer.branch.clone());
        let label = one_line(&label).replace(['[', ']'], "");
        let label = match (&shown.url, i == index) {
            (_, true) => format!("**{label}**"),
            (Some(url), false) => format!("[{label}]({url})"),
            (None, false) => label,
        };
        let here = if i == index {
            " ← this pull request"
        } else {
            ""
        };
        out.push_str(&format!(
            "{}. {label} (`{}`){here}\n",
            i + 1,
            one_line(&layer.branch)
        ));
    }
    out.push_str(CLOSE);
    out
}

/// `body` with its stack block replaced by `section`, or `section` added at its end when it
/// has none. The text outside the block is kept as it is.
pub fn with_section(body: &str, section: &str) -> String {
    match block(body) {
        Some((start, end)) => format!("{}{section}{}", &body[..start], &body[end..]),
        None if body.trim().is_empty() => section.to_string(),
        None => format!("{}\n\n{section}", body.trim_end()),
    }
}

/// `body` without its stack block (and the blank lines it leaves).
pub fn without_section(body: &str) -> String {
    match block(body) {
        Some((start, end)) => {
            let before = body[..start].trim_end();
            let after = body[end..].trim_start();
            match (before.is_empty(), after.is_empty()) {
                (_, true) => before.to_string(),
                (true, false) => after.to_string(),
                (false, false) => format!("{before}\n\n{after}"),
            }
        }
        None => body.trim_end().to_string(),
    }
}

/// The change id recorded in `body`'s stack block, when it has one.
pub fn recorded_change(body: &str) -> Option<&str> {
    let (start, _) = block(body)?;
    let marker = body[start..].lines().next()?;
    let value = marker.split_once("change=")?.1;
    let value = value.split_whitespace().next()?.trim_end_matches("-->");
    (!value.is_empty()).then_some(value)
}

/// Where the stack block is: from the last opening marker before the first closing one to
/// the end of that closing marker. A block whose closing marker was deleted is no block (a
/// fresh one is added after the text, and the stray marker is left to the user).
fn block(body: &str) -> Option<(usize, usize)> {
    let close = body.find(CLOSE)?;
    let open = body[..close].rfind(OPEN)?;
    Some((open, close + CLOSE.len()))
}

/// One layer of a stack, as a request written for it carries it: the stack, and which of
/// its layers (counted from the bottom).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InStack {
    /// The whole stack.
    pub stack: Stack,
    /// The layer the request is for.
    pub index: usize,
}

impl InStack {
    /// The request's section on the layer's place in the stack (see [`request_section`]).
    pub fn section(&self) -> String {
        request_section(&self.stack, self.index)
    }
}

/// The section of the request for layer `index`: what this pull request is, and the layers
/// below it by their commits' titles (their changes are not in the evidence).
pub fn request_section(stack: &Stack, index: usize) -> String {
    let Some(layer) = stack.layers.get(index) else {
        return String::new();
    };
    let (parent, base) = (one_line(&layer.parent), one_line(&stack.base));
    let goes = if parent == base {
        format!("It is the bottom layer: it goes into `{base}`")
    } else {
        format!("It goes into `{parent}`, not into `{base}`")
    };
    let mut out = format!(
        "## This pull request is one layer of a stack\n\n\
         {goes}: describe only the change of `{parent}..{branch}` (the evidence holds it). The \
         layers below and above have pull requests of their own; do not describe their \
         changes. A list of the stack is added to the description for you: do not write one.",
        branch = one_line(&layer.branch),
    );
    let below = &stack.layers[..index];
    if !below.is_empty() {
        out.push_str(
            "\n\nThe layers below, which this one builds on (name one by its title where that \
             helps a reviewer):\n",
        );
        for (i, lower) in below.iter().enumerate() {
            let titles: Vec<String> = lower
                .titles
                .iter()
                .rev()
                .take(3)
                .map(|t| one_line(t))
                .collect();
            out.push_str(&format!(
                "{}. `{}`: {}\n",
                i + 1,
                one_line(&lower.branch),
                titles.join("; ")
            ));
        }
    }
    out.trim_end().to_string()
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(branch: &str, parent: &str, titles: &[&str]) -> Layer {
        Layer {
            branch: branch.into(),
            parent: parent.into(),
            tip: format!("{branch}-tip"),
            titles: titles.iter().map(|t| t.to_string()).collect(),
        }
    }

    fn stack() -> Stack {
        Stack {
            base: "main".into(),
            layers: vec![
                layer("b1", "main", &["Add the lexer", "Add the parser"]),
                layer("b2", "b1", &["Add the evaluator"]),
                layer("b3", "b2", &["Add the REPL"]),
            ],
            current: 1,
            notes: vec!["b0 has no commits of its own: left out".into()],
        }
    }

    #[test]
    fn the_section_lists_the_stack_links_what_exists_and_marks_this_one() {
        let shown = [
            Shown {
                title: Some("Parse [expressions]".into()),
                url: Some("https://github.com/o/r/pull/1".into()),
            },
            Shown {
                title: Some("Evaluate expressions".into()),
                url: Some("https://github.com/o/r/pull/2".into()),
            },
        ];
        let text = section(&stack(), &shown, 1, "abc123");
        assert_eq!(
            text,
            "<!-- iris:stack change=abc123 -->\n---\n**Stack** (into `main`, bottom first):\n\n\
             1. [Parse expressions](https://github.com/o/r/pull/1) (`b1`)\n\
             2. **Evaluate expressions** (`b2`) ← this pull request\n\
             3. Add the REPL (`b3`)\n\
             <!-- /iris:stack -->"
        );
        assert_eq!(recorded_change(&text), Some("abc123"));
    }

    #[test]
    fn replacing_the_section_keeps_the_text_around_it() {
        let old = section(&stack(), &[], 0, "old");
        let body = format!("Intro by hand.\n\n{old}\n\nA note below, by hand.");
        let new = section(&stack(), &[], 0, "new");
        let replaced = with_section(&body, &new);
        assert_eq!(
            replaced,
            format!("Intro by hand.\n\n{new}\n\nA note below, by hand.")
        );
        assert_eq!(recorded_change(&replaced), Some("new"));
        assert_eq!(
            without_section(&replaced),
            "Intro by hand.\n\nA note below, by hand."
        );
        // A body without one gets it at its end; an empty one is only the section.
        assert_eq!(with_section("Body.\n", &new), format!("Body.\n\n{new}"));
        assert_eq!(with_section("", &new), new);
        assert_eq!(without_section("Body.\n"), "Body.");
        assert_eq!(recorded_change("Body."), None);
    }

    #[test]
    fn a_block_whose_end_was_deleted_is_not_replaced_through_the_text_after_it() {
        let new = section(&stack(), &[], 0, "new");
        let body = "Intro.\n<!-- iris:stack change=old -->\nstale list\n\nUser text.";
        let replaced = with_section(body, &new);
        assert!(replaced.starts_with(body), "{replaced}");
        assert!(replaced.ends_with(&new));
        // The next refresh replaces only the new block.
        let newer = section(&stack(), &[], 0, "newer");
        let again = with_section(&replaced, &newer);
        assert!(
            again.starts_with(body) && again.ends_with(&newer),
            "{again}"
        );
    }

    #[test]
    fn the_request_names_the_layers_below_by_their_titles_only() {
        let text = request_section(&stack(), 2);
        assert!(
            text.contains("It goes into `b2`, not into `main`"),
            "{text}"
        );
        assert!(text.contains("`b2..b3`"), "{text}");
        assert!(
            text.contains("1. `b1`: Add the parser; Add the lexer"),
            "{text}"
        );
        assert!(text.contains("2. `b2`: Add the evaluator"), "{text}");
        assert!(!text.contains("REPL"), "{text}");
        let bottom = request_section(&stack(), 0);
        assert!(!bottom.contains("layers below, which"), "{bottom}");
        assert!(
            bottom.contains("It is the bottom layer: it goes into `main`: describe only"),
            "{bottom}"
        );
        assert_eq!(request_section(&stack(), 9), "");
    }

    #[test]
    fn the_listing_marks_head_and_says_the_notes() {
        let listing = stack().listing();
        assert_eq!(
            listing,
            "the stack on main (3 layers, bottom first):\n\
             \x20 1. b1 (main..b1, 2 commits)\n\
             \x20 2. b2 (b1..b2, 1 commit)  <- HEAD\n\
             \x20 3. b3 (b2..b3, 1 commit)\n\
             note: b0 has no commits of its own: left out\n"
        );
        assert_eq!(stack().position("b3"), Some(2));
        assert_eq!(stack().position("b9"), None);
    }
}
