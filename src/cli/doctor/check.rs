//! One check's verdict (ok, warning or problem, what was found and what to do), the verdict of
//! all of them, and how they are printed: a line each, or JSON.

use serde::Serialize;

/// How a check came out, from best to worst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Nothing to do.
    Ok,
    /// Works, or not needed now, but worth doing something about.
    Warning,
    /// Something Iris needs does not work.
    Problem,
}

impl Status {
    /// The marker that opens the check's line.
    fn marker(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warning => "warning",
            Status::Problem => "problem",
        }
    }
}

/// One check: its name, its status, what was found and, unless it is ok, what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What was checked: `git`, `provider`, `gh`, ...
    pub check: &'static str,
    /// How it came out.
    pub status: Status,
    /// What was found.
    pub detail: String,
    /// What to do; `None` when the check is ok.
    pub fix: Option<String>,
}

impl Check {
    pub fn ok(check: &'static str, detail: impl Into<String>) -> Self {
        Self {
            check,
            status: Status::Ok,
            detail: detail.into(),
            fix: None,
        }
    }

    pub fn warning(check: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Self {
        Self::not_ok(check, Status::Warning, detail.into(), fix.into())
    }

    pub fn problem(check: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Self {
        Self::not_ok(check, Status::Problem, detail.into(), fix.into())
    }

    fn not_ok(check: &'static str, status: Status, detail: String, fix: String) -> Self {
        Self {
            check,
            status,
            detail,
            fix: Some(fix),
        }
    }
}

/// The worst status among `checks` (ok when there are none).
pub fn worst(checks: &[Check]) -> Status {
    checks.iter().map(|c| c.status).max().unwrap_or(Status::Ok)
}

/// The exit code the checks give: 1 with a problem among them, else 0 (warnings included).
pub fn exit_code(checks: &[Check]) -> u8 {
    match worst(checks) {
        Status::Problem => crate::output::exit::GENERAL,
        Status::Ok | Status::Warning => 0,
    }
}

/// The checks as lines: the marker, the check and what was found; what to do below it; then
/// a count of each status.
pub fn text(checks: &[Check]) -> String {
    let width = checks.iter().map(|c| c.check.len()).max().unwrap_or(0);
    let mut out = String::new();
    for check in checks {
        out.push_str(&format!(
            "{:<8}{:<width$}  {}\n",
            check.status.marker(),
            check.check,
            check.detail
        ));
        if let Some(fix) = &check.fix {
            out.push_str(&format!("{:<8}{:<width$}  fix: {fix}\n", "", ""));
        }
    }
    out.push_str(&summary(checks));
    out.push('\n');
    out
}

/// "14 ok, 2 warnings, 1 problem".
fn summary(checks: &[Check]) -> String {
    let count = |status| checks.iter().filter(|c| c.status == status).count();
    let plural = |n: usize, one: &str| match n {
        1 => format!("1 {one}"),
        n => format!("{n} {one}s"),
    };
    format!(
        "{} ok, {}, {}",
        count(Status::Ok),
        plural(count(Status::Warning), "warning"),
        plural(count(Status::Problem), "problem")
    )
}

/// The checks as a JSON list of `{check, status, detail, fix}`.
pub fn json(checks: &[Check]) -> String {
    serde_json::to_string_pretty(checks).unwrap_or_else(|_| "[]".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checks(statuses: &[Status]) -> Vec<Check> {
        statuses
            .iter()
            .map(|&status| match status {
                Status::Ok => Check::ok("a", "fine"),
                Status::Warning => Check::warning("b", "meh", "do this"),
                Status::Problem => Check::problem("c", "broken", "do that"),
            })
            .collect()
    }

    #[test]
    fn a_problem_fails_the_run_and_warnings_do_not() {
        use Status::*;
        for (statuses, worst_status, code) in [
            (vec![], Ok, 0),
            (vec![Ok, Ok], Ok, 0),
            (vec![Ok, Warning, Ok], Warning, 0),
            (vec![Warning, Problem, Ok], Problem, 1),
            (vec![Problem], Problem, 1),
        ] {
            let checks = checks(&statuses);
            assert_eq!(worst(&checks), worst_status, "{statuses:?}");
            assert_eq!(exit_code(&checks), code, "{statuses:?}");
        }
    }

    #[test]
    fn each_check_is_a_line_with_its_fix_below_and_a_count_at_the_end() {
        let checks = vec![
            Check::ok("git", "git version 2.47.3"),
            Check::problem("api key", "none for anthropic", "set ANTHROPIC_API_KEY"),
        ];
        let under = " ".repeat("problem api key  ".len());
        assert_eq!(
            text(&checks),
            format!(
                "ok      git      git version 2.47.3\n\
                 problem api key  none for anthropic\n\
                 {under}fix: set ANTHROPIC_API_KEY\n\
                 1 ok, 0 warnings, 1 problem\n"
            )
        );
    }

    #[test]
    fn json_lists_every_check_with_its_fix_or_null() {
        let listed: serde_json::Value =
            serde_json::from_str(&json(&checks(&[Status::Ok, Status::Warning]))).unwrap();
        assert_eq!(
            listed,
            serde_json::json!([
                {"check": "a", "status": "ok", "detail": "fine", "fix": null},
                {"check": "b", "status": "warning", "detail": "meh", "fix": "do this"},
            ])
        );
    }
}
