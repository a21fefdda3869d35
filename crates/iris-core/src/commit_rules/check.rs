//! A message checked against the rules, each rule as commitlint's implementation decides
//! it, on the parts commitlint's parser reads.

use std::sync::{Arc, LazyLock, Mutex};

use regex::Regex;

use super::parser::{self, Commit, Parser, ParserOptions};
use super::pattern::is_js_space;
use super::{
    CaseCheck, CommitRules, MAX_INPUT_BYTES, Rule, RuleName, Value, Violation, When, built_in,
    ignores, trailers,
};

pub fn check(rules: &CommitRules, message: &str) -> Vec<Violation> {
    if message.len() > MAX_INPUT_BYTES {
        return vec![Violation {
            rule: "message-size".into(),
            message: format!(
                "the message is {} bytes, more than the {MAX_INPUT_BYTES} checked",
                message.len()
            ),
            error: true,
        }];
    }
    if rules.default_ignores && ignores::is_ignored(message) {
        return Vec::new();
    }
    let parser = match compiled(&rules.parser) {
        Ok(parser) => parser,
        // Configurations are refused when a pattern does not compile; this is a safety net.
        Err(why) => {
            return vec![Violation {
                rule: "parser".into(),
                message: why,
                error: true,
            }];
        }
    };
    let Some(commit) = parser.parse(message) else {
        return Vec::new();
    };
    if commit.header.is_none() && commit.body.is_none() && commit.footer.is_none() {
        return Vec::new();
    }
    let mut out: Vec<Violation> = rules
        .rules
        .iter()
        .filter_map(|(&name, rule)| {
            decide(name, rule, &commit).err().map(|message| Violation {
                rule: name.name().to_string(),
                message,
                error: rule.level == super::Level::Error,
            })
        })
        .collect();
    // An empty type or subject is usually the header not having the `type: subject` shape.
    if commit.kind.is_none()
        && let Some(v) = out.iter_mut().find(|v| {
            v.rule == RuleName::TypeEmpty.name() || v.rule == RuleName::SubjectEmpty.name()
        })
    {
        let header = commit.header.as_deref().unwrap_or_default();
        v.message.push_str(&format!(
            " (the header '{}' is not 'type(scope): subject')",
            short(header)
        ));
    }
    out
}

/// The parser for `options`, compiled once while the same options come back (the studio
/// checks the message on every edit).
fn compiled(options: &ParserOptions) -> Result<Arc<Parser>, String> {
    static LAST: Mutex<Option<(ParserOptions, Arc<Parser>)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((cached, parser)) = last.as_ref()
        && cached == options
    {
        return Ok(parser.clone());
    }
    let parser = Arc::new(options.compile()?);
    *last = Some((options.clone(), parser.clone()));
    Ok(parser)
}

/// Whether `commit` passes one rule; `Err` says what is wrong.
fn decide(name: RuleName, rule: &Rule<Value>, c: &Commit) -> Result<(), String> {
    use RuleName::*;
    let when = rule.when;
    let header = c.header.as_deref();
    let body = c.body.as_deref().filter(|b| !b.is_empty());
    let footer = c.footer.as_deref().filter(|f| !f.is_empty());
    let scope = c.scope.as_deref().filter(|s| !s.is_empty());
    let subject = c.subject.as_deref().filter(|s| !s.is_empty());
    let kind = c.kind.as_deref().filter(|k| !k.is_empty());
    match name {
        BodyCase => cases("body", body, &rule.value, when),
        HeaderCase => cases(
            "header",
            header.filter(|h| h.starts_with(|c: char| c.is_ascii_alphabetic())),
            &rule.value,
            when,
        ),
        SubjectCase => cases(
            "subject",
            subject.filter(|s| STARTS_CASED.is_match(s)),
            &rule.value,
            when,
        ),
        TypeCase => cases("type", kind, &rule.value, when),
        ScopeCase => scope_case(scope, &rule.value, when),
        BodyEmpty => emptiness("body", body.is_some(), when),
        FooterEmpty => emptiness("footer", footer.is_some(), when),
        SubjectEmpty => emptiness("subject", subject.is_some(), when),
        TypeEmpty => emptiness("type", kind.is_some(), when),
        ScopeEmpty => emptiness("scope", scope.is_some(), when),
        ReferencesEmpty => emptiness("references", !c.references.is_empty(), when),
        BodyFullStop => match body {
            None => Ok(()),
            Some(body) => full_stop("body", ends_with_stop(body, &text(&rule.value)), when),
        },
        HeaderFullStop => full_stop(
            "header",
            header.is_some_and(|h| ends_with_stop(h, &text(&rule.value))),
            when,
        ),
        SubjectFullStop => {
            let header = header.unwrap_or_default();
            // A header that ends at its first colon has no subject to end.
            if header.len() > 1 && header.find(':') == Some(header.len() - 1) {
                return Ok(());
            }
            let stop = !header.ends_with("...") && ends_with_stop(header, &text(&rule.value));
            full_stop("subject", stop, when)
        }
        BodyLeadingBlank => match body {
            None => Ok(()),
            Some(_) => {
                let lines = parser::lines(&c.raw);
                leading_blank("body", lines.get(1) == Some(&""), when)
            }
        },
        FooterLeadingBlank => match footer {
            None => Ok(()),
            Some(footer) => {
                let lines = parser::lines(&c.raw);
                let first = parser::lines(footer)[0];
                // commitlint looks for the footer's first line among the message's lines
                // (JavaScript's `slice` counts a negative start from the end).
                let at = lines
                    .iter()
                    .position(|l| *l == first)
                    .map_or(-1, |i| i as i64);
                let mut start = at - 1;
                if start < 0 {
                    start = (lines.len() as i64 + start).max(0);
                }
                let blank = lines.get(start as usize) == Some(&"");
                leading_blank("footer", blank, when)
            }
        },
        BodyMaxLength => max_length("body", body, &rule.value),
        FooterMaxLength => max_length("footer", footer, &rule.value),
        ScopeMaxLength => max_length("scope", scope, &rule.value),
        SubjectMaxLength => max_length("subject", subject, &rule.value),
        TypeMaxLength => max_length("type", kind, &rule.value),
        BodyMinLength => min_length("body", body, &rule.value),
        FooterMinLength => min_length("footer", footer, &rule.value),
        ScopeMinLength => min_length("scope", scope, &rule.value),
        SubjectMinLength => min_length("subject", subject, &rule.value),
        TypeMinLength => min_length("type", kind, &rule.value),
        HeaderMaxLength => {
            let limit = length(&rule.value);
            match header {
                Some(h) if utf16_len(h) <= limit => Ok(()),
                _ => Err(format!(
                    "the header is {} characters, at most {limit}",
                    header.map_or(0, utf16_len)
                )),
            }
        }
        HeaderMinLength => {
            let limit = length(&rule.value);
            match header {
                Some(h) if utf16_len(h) >= limit => Ok(()),
                _ => Err(format!(
                    "the header is {} characters, at least {limit}",
                    header.map_or(0, utf16_len)
                )),
            }
        }
        BodyMaxLineLength => max_line_length("body", body, &rule.value),
        FooterMaxLineLength => max_line_length("footer", footer, &rule.value),
        HeaderTrim => {
            let Some(h) = header.filter(|h| !h.is_empty()) else {
                return Ok(());
            };
            let starts = h.starts_with(is_js_space);
            let ends = h.ends_with(is_js_space);
            match (starts, ends) {
                (true, true) => Err("the header must not be surrounded by blank space".into()),
                (true, false) => Err("the header must not start with blank space".into()),
                (false, true) => Err("the header must not end with blank space".into()),
                (false, false) => Ok(()),
            }
        }
        BreakingChangeExclamationMark => {
            if header.is_none_or(str::is_empty) && footer.is_none() {
                return Ok(());
            }
            let mark = header.is_some_and(|h| BANG_HEADER.is_match(h));
            let note = footer.is_some_and(|f| BREAKING_NOTE.is_match(f));
            holds(when, mark == note, || {
                match when {
                When::Always => "a breaking change needs both a '!' before the header's colon and a BREAKING CHANGE note in the footer".into(),
                When::Never => "a breaking change may not have both a '!' in the header and a BREAKING CHANGE note".into(),
            }
            })
        }
        SubjectExclamationMark => {
            let Some(h) = header.filter(|h| !h.is_empty()) else {
                return Ok(());
            };
            holds(when, BANG_HEADER.is_match(h), || match when {
                When::Always => {
                    "the header must have a '!' before the colon (a breaking change)".into()
                }
                When::Never => "the header may not have a '!' before the colon".into(),
            })
        }
        ScopeDelimiterStyle => {
            let Some(scope) = scope else {
                return Ok(());
            };
            let allowed = delimiters_or_default(match &rule.value {
                Value::Delimiters(d) => d,
                _ => &[],
            });
            let used: Vec<String> = NOT_SCOPE_WORD
                .find_iter(scope)
                .map(|m| {
                    let d = m.as_str();
                    if d.trim_matches(is_js_space) == "," {
                        ",".into()
                    } else {
                        d.to_string()
                    }
                })
                .collect();
            let all_allowed = used.iter().all(|d| allowed.contains(d));
            holds(when, all_allowed, || {
                format!(
                    "the scope's delimiters must {}be one of: {}",
                    if when == When::Never { "not " } else { "" },
                    allowed.join(" ")
                )
            })
        }
        ScopeEnum => {
            let (names, delimiters) = match &rule.value {
                Value::Names { names, delimiters } => (names.as_slice(), delimiters.as_slice()),
                _ => (&[][..], &[][..]),
            };
            let Some(scope) = scope.filter(|_| !names.is_empty()) else {
                return Ok(());
            };
            let parts = split_scope(scope, delimiters);
            let known = |s: &str| names.iter().any(|n| n == s);
            let ok = match when {
                When::Always => parts.iter().all(|p| known(p)) || known(scope),
                When::Never => !parts.iter().any(|p| known(p)) && !known(scope),
            };
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "the scope '{}' is {}one of: {}",
                    short(scope),
                    if when == When::Never { "" } else { "not " },
                    names.join(", ")
                ))
            }
        }
        TypeEnum => {
            let Some(kind) = kind else {
                return Ok(());
            };
            let names = match &rule.value {
                Value::Names { names, .. } => names.as_slice(),
                _ => &[],
            };
            let known = names.iter().any(|n| n == kind);
            holds(when, known, || match when {
                When::Always => format!("the type '{kind}' is not one of: {}", names.join(", ")),
                When::Never => format!(
                    "the type '{kind}' is one of the forbidden: {}",
                    names.join(", ")
                ),
            })
        }
        SignedOffBy => {
            let prefix = text(&rule.value);
            let last = parser::lines(&c.raw).into_iter().rfind(|l| {
                !l.starts_with('#')
                    && !l.is_empty()
                    && !CHERRY_PICK.is_match(l.trim_matches(is_js_space))
            });
            let signed = last.is_some_and(|l| l.starts_with(prefix.as_str()));
            holds(when, signed, || match when {
                When::Always => {
                    format!("the message's last line must start with '{prefix}' (sign it off)")
                }
                When::Never => format!("the message's last line may not start with '{prefix}'"),
            })
        }
        TrailerExists => {
            let prefix = text(&rule.value);
            // git prints a last empty line, which any empty prefix matches.
            let found = prefix.is_empty()
                || trailers::parse(&c.raw)
                    .iter()
                    .any(|t| t.starts_with(prefix.as_str()));
            holds(when, found, || match when {
                When::Always => format!("the message must have a '{prefix}' trailer"),
                When::Never => format!("the message may not have a '{prefix}' trailer"),
            })
        }
    }
}

/// commitlint's `^(\w*)(?:\((.*)\))?!: (.*)$`: a header marked as a breaking change.
static BANG_HEADER: LazyLock<Regex> =
    LazyLock::new(|| built_in(r"^([0-9A-Za-z_]*)(?:\((.*)\))?!: (.*)$"));
static BREAKING_NOTE: LazyLock<Regex> = LazyLock::new(|| built_in(r"(?m)^BREAKING[ -]CHANGE:"));
static STARTS_CASED: LazyLock<Regex> = LazyLock::new(|| built_in(r"(?i)^[\p{Ll}\p{Lu}\p{Lt}]"));
static NOT_SCOPE_WORD: LazyLock<Regex> = LazyLock::new(|| built_in(r"[^A-Za-z0-9\-_]+"));
static CHERRY_PICK: LazyLock<Regex> =
    LazyLock::new(|| built_in(r"(?i)^\(cherry picked from commit [0-9a-f]{7,64}\)$"));
/// ensure's exception for long lines: one holding a URL may run past the limit.
static URL: LazyLock<Regex> = LazyLock::new(|| built_in(r"(?-u:\b)https?://\S+"));

/// JavaScript's `.length`: UTF-16 code units.
fn utf16_len(text: &str) -> usize {
    text.encode_utf16().count()
}

/// Whether a rule whose property holds (`holds`) passes under `when`, and why not.
fn holds(when: When, property: bool, why: impl FnOnce() -> String) -> Result<(), String> {
    if (when == When::Always) == property {
        Ok(())
    } else {
        Err(why())
    }
}

fn text(value: &Value) -> String {
    match value {
        Value::Text(t) => t.clone(),
        _ => String::new(),
    }
}

fn length(value: &Value) -> usize {
    match value {
        Value::Length(n) => *n,
        _ => 0,
    }
}

/// The `-empty` rules: `always` asks for the part to be empty, `never` for it to be there.
fn emptiness(part: &str, present: bool, when: When) -> Result<(), String> {
    holds(when, !present, || match when {
        When::Always => format!("the {part} must be empty"),
        When::Never => format!("the {part} may not be empty"),
    })
}

/// Whether `text` ends with `stop`, compared as JavaScript compares its last UTF-16 unit.
fn ends_with_stop(text: &str, stop: &str) -> bool {
    let mut units = stop.encode_utf16();
    let (Some(unit), None) = (units.next(), units.next()) else {
        return false;
    };
    text.encode_utf16().last() == Some(unit)
}

fn full_stop(part: &str, stop: bool, when: When) -> Result<(), String> {
    holds(when, stop, || match when {
        When::Never => format!("the {part} may not end with a full stop; drop it"),
        When::Always => format!("the {part} must end with a full stop"),
    })
}

fn leading_blank(part: &str, blank: bool, when: When) -> Result<(), String> {
    holds(when, blank, || match when {
        When::Always => format!("the {part} must follow a blank line"),
        When::Never => format!("the {part} may not follow a blank line"),
    })
}

fn max_length(part: &str, text: Option<&str>, value: &Value) -> Result<(), String> {
    let limit = length(value);
    match text {
        Some(t) if utf16_len(t) > limit => Err(format!(
            "the {part} is {} characters, at most {limit}",
            utf16_len(t)
        )),
        _ => Ok(()),
    }
}

fn min_length(part: &str, text: Option<&str>, value: &Value) -> Result<(), String> {
    let limit = length(value);
    match text {
        Some(t) if utf16_len(t) < limit => Err(format!(
            "the {part} is {} characters, at least {limit}",
            utf16_len(t)
        )),
        _ => Ok(()),
    }
}

/// Every line within the limit, a line holding a URL aside.
fn max_line_length(part: &str, text: Option<&str>, value: &Value) -> Result<(), String> {
    let limit = length(value);
    let Some(text) = text else {
        return Ok(());
    };
    let longest = parser::lines(text)
        .into_iter()
        .filter(|l| !URL.is_match(l))
        .map(utf16_len)
        .max()
        .unwrap_or(0);
    if longest > limit {
        Err(format!(
            "a {part} line is {longest} characters, at most {limit}"
        ))
    } else {
        Ok(())
    }
}

/// A case rule on `text` (absent: nothing to check): some check must pass for `always`,
/// none for `never`.
fn cases(part: &str, text: Option<&str>, value: &Value, when: When) -> Result<(), String> {
    let Some(text) = text else {
        return Ok(());
    };
    let checks = match value {
        Value::Cases { checks, .. } => checks.as_slice(),
        _ => &[],
    };
    let passing: Vec<&CaseCheck> = checks.iter().filter(|c| c.passes(text)).collect();
    case_verdict(part, text, checks, &passing, when)
}

fn case_verdict(
    part: &str,
    text: &str,
    checks: &[CaseCheck],
    passing: &[&CaseCheck],
    when: When,
) -> Result<(), String> {
    holds(when, !passing.is_empty(), || {
        let names = |list: &mut dyn Iterator<Item = &CaseCheck>| {
            list.map(|c| c.case.name()).collect::<Vec<_>>()
        };
        match when {
            When::Always => format!(
                "the {part} '{}' must be {}",
                short(text),
                names(&mut checks.iter()).join(" or ")
            ),
            When::Never => format!(
                "the {part} '{}' may not be {}",
                short(text),
                names(&mut passing.iter().copied()).join(", ")
            ),
        }
    })
}

/// scope-case: every part of a scope that names several (`a/b`, `a, b`) is checked.
fn scope_case(scope: Option<&str>, value: &Value, when: When) -> Result<(), String> {
    let Some(scope) = scope else {
        return Ok(());
    };
    let (checks, delimiters) = match value {
        Value::Cases { checks, delimiters } => (checks.as_slice(), delimiters.as_slice()),
        _ => (&[][..], &[][..]),
    };
    let parts = split_scope(scope, delimiters);
    let passing: Vec<&CaseCheck> = checks
        .iter()
        .filter(|c| {
            let all = parts.iter().all(|p| c.case.matches(p));
            all == (c.when == When::Always)
        })
        .collect();
    case_verdict("scope", scope, checks, &passing, when)
}

fn delimiters_or_default(delimiters: &[String]) -> Vec<String> {
    if delimiters.is_empty() {
        vec!["/".into(), "\\".into(), ",".into()]
    } else {
        delimiters.to_vec()
    }
}

/// A scope's parts, split at its delimiters (`,` with the space after it).
fn split_scope<'a>(scope: &'a str, delimiters: &[String]) -> Vec<&'a str> {
    let pattern = delimiters_or_default(delimiters)
        .iter()
        .map(|d| {
            if d == "," {
                ", ?".to_string()
            } else {
                regex::escape(d)
            }
        })
        .collect::<Vec<_>>()
        .join("|");
    match Regex::new(&pattern) {
        Ok(re) => re.split(scope).collect(),
        Err(_) => vec![scope],
    }
}

/// A text cut for a message.
fn short(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(MAX).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    fn conventional() -> CommitRules {
        parse(
            ".commitlintrc.json",
            r#"{"extends": ["@commitlint/config-conventional"]}"#,
        )
        .unwrap()
    }

    fn broken(rules: &CommitRules, message: &str) -> Vec<String> {
        rules.check(message).into_iter().map(|v| v.rule).collect()
    }

    #[test]
    fn a_subject_in_a_script_without_case_passes_subject_case() {
        let rules = conventional();
        for subject in ["添加搜索功能", "検索を追加", "إضافة البحث", "הוספת חיפוש"]
        {
            assert_eq!(
                broken(&rules, &format!("feat: {subject}")),
                Vec::<String>::new()
            );
        }
        assert_eq!(broken(&rules, "feat: Add search"), vec!["subject-case"]);
    }

    #[test]
    fn a_body_line_holding_a_url_may_run_past_the_limit() {
        let rules = conventional();
        let url = format!("See https://example.com/{}", "a".repeat(120));
        assert_eq!(
            broken(&rules, &format!("fix: x\n\n{url}")),
            Vec::<String>::new()
        );
        let prose = "word ".repeat(30);
        assert_eq!(
            broken(&rules, &format!("fix: x\n\n{prose}")),
            vec!["body-max-line-length"]
        );
    }

    #[test]
    fn a_header_with_a_trailing_space_keeps_its_type() {
        let rules = conventional();
        assert_eq!(
            broken(&rules, "a(): "),
            vec!["header-trim", "subject-empty", "type-enum"]
        );
    }

    #[test]
    fn leading_blank_lines_are_part_of_the_message() {
        let rules = conventional();
        // A version after a blank line is not a release commit to commitlint.
        assert_eq!(broken(&rules, "1.2.3"), Vec::<String>::new());
        assert_eq!(
            broken(&rules, "\n1.2.3"),
            vec!["subject-empty", "type-empty"]
        );
        // The blank line before the header is the raw message's second line no more.
        assert_eq!(
            broken(&rules, "\nfix: x\nbody right under the header"),
            vec!["body-leading-blank"]
        );
    }

    #[test]
    fn bitbuckets_merge_message_is_ignored() {
        let rules = conventional();
        assert_eq!(
            broken(&rules, "Merged in feature/paging (pull request #42)"),
            Vec::<String>::new()
        );
    }
}
