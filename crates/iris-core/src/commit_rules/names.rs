//! Every rule commitlint ships, by its name, and the kind of value each one takes.

use std::fmt;

/// The rule enum, the list of all rules and their names, from one table.
macro_rules! rules {
    ($($rule:ident => $name:literal,)*) => {
        /// A commitlint rule. The order is the names' (alphabetical), which is the order
        /// violations are reported in.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RuleName {
            $($rule,)*
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
    BodyCase => "body-case",
    BodyEmpty => "body-empty",
    BodyFullStop => "body-full-stop",
    BodyLeadingBlank => "body-leading-blank",
    BodyMaxLength => "body-max-length",
    BodyMaxLineLength => "body-max-line-length",
    BodyMinLength => "body-min-length",
    BreakingChangeExclamationMark => "breaking-change-exclamation-mark",
    FooterEmpty => "footer-empty",
    FooterLeadingBlank => "footer-leading-blank",
    FooterMaxLength => "footer-max-length",
    FooterMaxLineLength => "footer-max-line-length",
    FooterMinLength => "footer-min-length",
    HeaderCase => "header-case",
    HeaderFullStop => "header-full-stop",
    HeaderMaxLength => "header-max-length",
    HeaderMinLength => "header-min-length",
    HeaderTrim => "header-trim",
    ReferencesEmpty => "references-empty",
    ScopeCase => "scope-case",
    ScopeDelimiterStyle => "scope-delimiter-style",
    ScopeEmpty => "scope-empty",
    ScopeEnum => "scope-enum",
    ScopeMaxLength => "scope-max-length",
    ScopeMinLength => "scope-min-length",
    SignedOffBy => "signed-off-by",
    SubjectCase => "subject-case",
    SubjectEmpty => "subject-empty",
    SubjectExclamationMark => "subject-exclamation-mark",
    SubjectFullStop => "subject-full-stop",
    SubjectMaxLength => "subject-max-length",
    SubjectMinLength => "subject-min-length",
    TrailerExists => "trailer-exists",
    TypeCase => "type-case",
    TypeEmpty => "type-empty",
    TypeEnum => "type-enum",
    TypeMaxLength => "type-max-length",
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
