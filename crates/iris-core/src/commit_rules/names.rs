//! Every rule commitlint ships, by its name, and the kind of value each one takes.

use std::fmt;

/// The rule enum, the list of all rules and their names, from one table.
macro_rules! rules {
    ($($(#[$doc:meta])* $rule:ident => $name:literal,)*) => {
        /// A commitlint rule. The order is the names' (alphabetical), which is the order
        /// violations are reported in. Each rule says what `always` asks; `never` asks the
        /// opposite.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RuleName {
            $($(#[$doc])* $rule,)*
        }

        /// Every rule, in name order.
        pub const ALL: &[RuleName] = &[$(RuleName::$rule,)*];

        impl RuleName {
            /// commitlint's name: `type-enum`, `header-max-length`, ...
            pub fn name(self) -> &'static str {
                match self {
                    $(RuleName::$rule => $name,)*
                }
            }
        }
    };
}

rules! {
    /// The body is in the configured case.
    BodyCase => "body-case",
    /// The body is empty.
    BodyEmpty => "body-empty",
    /// The body ends with the configured full stop.
    BodyFullStop => "body-full-stop",
    /// A blank line comes between the header and the body.
    BodyLeadingBlank => "body-leading-blank",
    /// The body is at most the configured length.
    BodyMaxLength => "body-max-length",
    /// Each line of the body is at most the configured length.
    BodyMaxLineLength => "body-max-line-length",
    /// The body is at least the configured length.
    BodyMinLength => "body-min-length",
    /// A `!` before the header's colon comes with a `BREAKING CHANGE:` footer, and the other
    /// way round.
    BreakingChangeExclamationMark => "breaking-change-exclamation-mark",
    /// The footer is empty.
    FooterEmpty => "footer-empty",
    /// A blank line comes before the footer.
    FooterLeadingBlank => "footer-leading-blank",
    /// The footer is at most the configured length.
    FooterMaxLength => "footer-max-length",
    /// Each line of the footer is at most the configured length.
    FooterMaxLineLength => "footer-max-line-length",
    /// The footer is at least the configured length.
    FooterMinLength => "footer-min-length",
    /// The header is in the configured case.
    HeaderCase => "header-case",
    /// The header ends with the configured full stop.
    HeaderFullStop => "header-full-stop",
    /// The header is at most the configured length.
    HeaderMaxLength => "header-max-length",
    /// The header is at least the configured length.
    HeaderMinLength => "header-min-length",
    /// The header has no blank space before or after it.
    HeaderTrim => "header-trim",
    /// The message names no issue (`#123`, or the parser's issue prefixes).
    ReferencesEmpty => "references-empty",
    /// The scope (each of several) is in the configured case.
    ScopeCase => "scope-case",
    /// Several scopes are separated only by the configured delimiters.
    ScopeDelimiterStyle => "scope-delimiter-style",
    /// The header has no scope.
    ScopeEmpty => "scope-empty",
    /// The scope (each of several) is one of the configured names.
    ScopeEnum => "scope-enum",
    /// The scope is at most the configured length.
    ScopeMaxLength => "scope-max-length",
    /// The scope is at least the configured length.
    ScopeMinLength => "scope-min-length",
    /// The message's last line starts with the configured text (`Signed-off-by:`).
    SignedOffBy => "signed-off-by",
    /// The subject is in the configured case.
    SubjectCase => "subject-case",
    /// The header has no subject.
    SubjectEmpty => "subject-empty",
    /// The header has a `!` before its colon (a breaking change).
    SubjectExclamationMark => "subject-exclamation-mark",
    /// The subject ends with the configured full stop.
    SubjectFullStop => "subject-full-stop",
    /// The subject is at most the configured length.
    SubjectMaxLength => "subject-max-length",
    /// The subject is at least the configured length.
    SubjectMinLength => "subject-min-length",
    /// The message has a trailer starting with the configured text.
    TrailerExists => "trailer-exists",
    /// The type is in the configured case.
    TypeCase => "type-case",
    /// The header has no type.
    TypeEmpty => "type-empty",
    /// The type is one of the configured names.
    TypeEnum => "type-enum",
    /// The type is at most the configured length.
    TypeMaxLength => "type-max-length",
    /// The type is at least the configured length.
    TypeMinLength => "type-min-length",
}

/// What a rule's third item (its value) holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// No value: the rule is only `always` or `never`.
    Flag,
    /// A length in UTF-16 code units, as JavaScript counts (0 when none is given).
    Length,
    /// One character the text ends with (`.` when none is given).
    Stop,
    /// A text a line starts with (signed-off-by, trailer-exists; empty when none is given).
    Prefix,
    /// A list of names (type-enum).
    Names,
    /// A list of names, or `{scopes, delimiters}` (scope-enum).
    ScopeNames,
    /// A case, a list of them, or `{when, case}` checks.
    Cases,
    /// Cases, or `{cases, delimiters}` (scope-case).
    ScopeCases,
    /// A list of delimiters (scope-delimiter-style).
    Delimiters,
}

impl RuleName {
    /// The rule `name` names, or `None` for a name commitlint does not ship.
    pub fn from_name(name: &str) -> Option<RuleName> {
        ALL.iter().copied().find(|r| r.name() == name)
    }

    /// What the rule's value (its third item) holds.
    pub fn value_kind(self) -> ValueKind {
        use RuleName::*;
        match self {
            BodyEmpty
            | BodyLeadingBlank
            | BreakingChangeExclamationMark
            | FooterEmpty
            | FooterLeadingBlank
            | HeaderTrim
            | ReferencesEmpty
            | ScopeEmpty
            | SubjectEmpty
            | SubjectExclamationMark
            | TypeEmpty => ValueKind::Flag,
            BodyMaxLength | BodyMaxLineLength | BodyMinLength | FooterMaxLength
            | FooterMaxLineLength | FooterMinLength | HeaderMaxLength | HeaderMinLength
            | ScopeMaxLength | ScopeMinLength | SubjectMaxLength | SubjectMinLength
            | TypeMaxLength | TypeMinLength => ValueKind::Length,
            BodyFullStop | HeaderFullStop | SubjectFullStop => ValueKind::Stop,
            SignedOffBy | TrailerExists => ValueKind::Prefix,
            TypeEnum => ValueKind::Names,
            ScopeEnum => ValueKind::ScopeNames,
            BodyCase | HeaderCase | SubjectCase | TypeCase => ValueKind::Cases,
            ScopeCase => ValueKind::ScopeCases,
            ScopeDelimiterStyle => ValueKind::Delimiters,
        }
    }
}

impl fmt::Display for RuleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_sorted_and_read_back() {
        for pair in ALL.windows(2) {
            assert!(pair[0].name() < pair[1].name(), "{} {}", pair[0], pair[1]);
        }
        assert_eq!(ALL.len(), 38);
        for &rule in ALL {
            assert_eq!(RuleName::from_name(rule.name()), Some(rule));
        }
        assert_eq!(RuleName::from_name("subject-tense"), None);
    }
}
