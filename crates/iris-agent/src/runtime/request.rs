//! A request to the model as typed sections: what is asked, the project's rules and
//! templates, the evidence, the history sample, and the rest. Capabilities build it, retries
//! drop a section by its kind, and the runtime renders it to text once, at its edge; nothing
//! searches a request's text for a heading.

/// What a section of a request is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// What to write, over what (the capability's request, a chat message, a task).
    Ask,
    /// The project's commit rules.
    Rules,
    /// The pull request template to fill in.
    Template,
    /// The ticket the branch names.
    Ticket,
    /// What the user asked their coding agent while making the change, in their own words:
    /// the reason for it, when they gave one.
    Sessions,
    /// The issues the change is for, read from the forge: titles and openings.
    LinkedIssues,
    /// One layer's place in a stack of pull requests.
    Stack,
    /// The scope the staged files suggest.
    Scope,
    /// For a review: the findings the project dismissed on the files under review, and why.
    Dismissals,
    /// For a re-review of a pull request: the findings already posted on it.
    Earlier,
    /// A merge, cherry-pick, revert or rebase the commit concludes.
    Operation,
    /// The shape of the project's `commit.template`.
    CommitTemplate,
    /// How this candidate differs from the others.
    Angle,
    /// The change, gathered up front (the ranked diff, its commits).
    Evidence,
    /// The packages the change moves: each lock file's packages with their old and new
    /// versions, those added and removed, and the GitHub Actions pins moved, read from both
    /// versions of the files whether or not their diffs are shown. Small and bounded, so a
    /// retry without the evidence keeps it.
    Packages,
    /// How the repository's people write their messages: the sample of their history.
    History,
    /// An earlier answer and what to change in it (a revision, a retry, a follow-up).
    Revision,
}

impl Section {
    /// The sources of the reason for a change a request may carry beside its diff, each of
    /// which `iris eval --evidence` weighs by the recall without it.
    pub const SOURCES: [Section; 4] = [
        Section::Ticket,
        Section::LinkedIssues,
        Section::Sessions,
        Section::Packages,
    ];

    /// A source's name, as `iris eval --evidence` reports it.
    pub fn name(self) -> &'static str {
        match self {
            Section::Ticket => "ticket",
            Section::LinkedIssues => "linked issues",
            Section::Packages => "packages",
            Section::Sessions => "agent sessions",
            _ => self.part(),
        }
    }

    /// The part of a request a dry run counts it as: `evidence`, `history` or `request`.
    pub fn part(self) -> &'static str {
        match self {
            Section::Evidence | Section::Packages => "evidence",
            Section::History => "history",
            _ => "request",
        }
    }
}

/// A request: its sections in the order they are sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    sections: Vec<(Section, String)>,
}

impl Request {
    /// A request of one [`Section::Ask`].
    pub fn ask(text: impl Into<String>) -> Self {
        Self::default().with(Section::Ask, text)
    }

    /// The request with `text` as a section of `kind` after the others (nothing when it is
    /// empty).
    pub fn with(mut self, kind: Section, text: impl Into<String>) -> Self {
        self.push(kind, text);
        self
    }

    /// Adds `text` as a section of `kind` after the others (nothing when it is empty).
    pub fn push(&mut self, kind: Section, text: impl Into<String>) {
        let text = text.into();
        if !text.trim().is_empty() {
            self.sections.push((kind, text));
        }
    }

    /// The request with `more`'s sections after its own.
    pub fn then(mut self, more: &Request) -> Self {
        self.sections.extend(more.sections.iter().cloned());
        self
    }

    /// The request without its sections of the `dropped` kinds (a retry that must fit a
    /// smaller context, a follow-up that needs no evidence).
    pub fn without(&self, dropped: &[Section]) -> Self {
        Self {
            sections: self
                .sections
                .iter()
                .filter(|(kind, _)| !dropped.contains(kind))
                .cloned()
                .collect(),
        }
    }

    /// The text of the sections of `kind`, joined as they are rendered.
    pub fn text_of(&self, kind: Section) -> String {
        self.sections
            .iter()
            .filter(|(k, _)| *k == kind)
            .map(|(_, text)| text.as_str())
            .collect::<Vec<_>>()
            .join(SEPARATOR)
    }

    /// The sections, in order.
    pub fn sections(&self) -> impl Iterator<Item = (Section, &str)> {
        self.sections
            .iter()
            .map(|(kind, text)| (*kind, text.as_str()))
    }

    /// The text the model reads: the sections, a blank line between two.
    pub fn render(&self) -> String {
        self.sections
            .iter()
            .map(|(_, text)| text.as_str())
            .collect::<Vec<_>>()
            .join(SEPARATOR)
    }
}

/// What stands between two sections.
const SEPARATOR: &str = "\n\n";

impl From<&str> for Request {
    fn from(text: &str) -> Self {
        Self::ask(text)
    }
}

impl From<String> for Request {
    fn from(text: String) -> Self {
        Self::ask(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_renders_its_sections_in_order_and_drops_them_by_kind() {
        let request = Request::ask("Write the commit message.")
            .with(Section::Rules, "## Rules\n- one")
            .with(Section::Scope, "  ")
            .with(Section::Evidence, "## Evidence\ndiff --git a b")
            .with(Section::History, "How this repository writes");
        assert_eq!(
            request.render(),
            "Write the commit message.\n\n## Rules\n- one\n\n## Evidence\ndiff --git a b\n\nHow \
             this repository writes"
        );
        assert_eq!(request.sections().count(), 4, "an empty section is none");
        let lean = request.without(&[Section::Evidence, Section::History]);
        assert_eq!(
            lean.render(),
            "Write the commit message.\n\n## Rules\n- one"
        );
        assert_eq!(
            request.text_of(Section::History),
            "How this repository writes"
        );
        assert_eq!(request.text_of(Section::Angle), "");
        let parts: Vec<&str> = request.sections().map(|(kind, _)| kind.part()).collect();
        assert_eq!(parts, ["request", "request", "evidence", "history"]);
        assert_eq!(
            Section::Packages.part(),
            "evidence",
            "counted with the evidence"
        );
    }
}
