//! The hooks: Iris' prepare-commit-msg hook installed or not, and as this `iris` writes it;
//! the commit-msg step that remembers the message still in place (a tool that rewrites the
//! hook drops it, and nothing says so until a message turned down does not come back).

use super::super::hook::{
    HOOK, HookFacts, STEP_MARKER, STEP_NEEDLES, called_binary, step_fix, step_lost,
};
use super::check::Check;

const PREPARE: &str = "prepare-commit-msg hook";
const STEP: &str = "commit-msg step";

/// The hook's check and the step's.
pub fn checks(facts: &HookFacts) -> Vec<Check> {
    let (path, text) = &facts.prepare;
    let ours = text.as_deref().filter(|text| HOOK.is_in(text));
    let Some(installed) = ours else {
        let detail = match text {
            None => "not installed (`iris hook install` has `git commit` open with Iris' message)"
                .to_string(),
            Some(_) => format!(
                "{} is another tool's; Iris' is not installed",
                path.display()
            ),
        };
        return vec![
            Check::ok(PREPARE, detail),
            Check::ok(STEP, "not installed (it comes with the hook)"),
        ];
    };
    vec![prepare(facts, installed), step(facts)]
}

/// The checks where hooks are not used (a jj workspace runs none), and why.
pub fn not_used(why: &str) -> Vec<Check> {
    vec![
        Check::ok(PREPARE, format!("not used: {why}")),
        Check::ok(STEP, "not used"),
    ]
}

/// The checks when the hooks could not be read, and why.
pub fn unreadable(why: &str) -> Vec<Check> {
    vec![Check::warning(
        PREPARE,
        format!("the hooks could not be read: {why}"),
        "`git rev-parse --git-path hooks` says where git looks for them",
    )]
}

fn prepare(facts: &HookFacts, installed: &str) -> Check {
    let path = facts.prepare.0.display();
    if installed == facts.script {
        return Check::ok(PREPARE, format!("installed at {path}"));
    }
    if !facts.calls_runnable {
        let called = called_binary(installed).unwrap_or_else(|| "no iris".to_string());
        return Check::problem(
            PREPARE,
            format!(
                "{path} calls {called}, which is not there to run: `git commit` gets no message \
                 from it, and says nothing"
            ),
            "`iris hook install` points it at this iris",
        );
    }
    Check::warning(
        PREPARE,
        format!(
            "{path} is Iris' hook, but not as this iris writes it (edited, from another \
             version, or calling another iris)"
        ),
        "`iris hook install` writes it anew",
    )
}

fn step(facts: &HookFacts) -> Check {
    let (path, text) = &facts.commit_msg;
    let text = text.as_deref().unwrap_or_default();
    let mut lines = text.lines().map(str::trim_end);
    if lines.any(|line| line == STEP_MARKER) {
        // The step is the line under the marker.
        return match lines.next() {
            Some(line) if line == facts.step => Check::ok(
                STEP,
                format!("{} remembers the message you commit with", path.display()),
            ),
            _ => Check::warning(
                STEP,
                format!(
                    "Iris' line in {} is not the one this iris writes (edited, or calling \
                     another iris)",
                    path.display()
                ),
                "`iris hook install` writes it anew",
            ),
        };
    }
    if text
        .lines()
        .any(|line| STEP_NEEDLES.iter().any(|n| line.contains(n)))
    {
        return Check::ok(
            STEP,
            format!(
                "{} runs `iris hook commit-msg` (added by hand)",
                path.display()
            ),
        );
    }
    Check::problem(STEP, step_lost(path), step_fix(facts.commit_msg_tracked))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::doctor::check::Status;
    use std::path::PathBuf;

    const SCRIPT: &str = "#!/bin/sh\n@M@\niris='/bin/iris'\n";
    const STEP_LINE: &str = "[ -x '/bin/iris' ] && '/bin/iris' hook commit-msg \"$1\" || :";

    fn facts(prepare: Option<&str>, commit_msg: Option<&str>) -> HookFacts {
        let script = SCRIPT.replace("@M@", HOOK.marker);
        HookFacts {
            prepare: (
                PathBuf::from("/r/.git/hooks/prepare-commit-msg"),
                prepare.map(|p| p.replace("@M@", HOOK.marker)),
            ),
            script,
            calls_runnable: true,
            commit_msg: (
                PathBuf::from("/r/.git/hooks/commit-msg"),
                commit_msg.map(|c| c.replace("@S@", STEP_MARKER)),
            ),
            commit_msg_tracked: false,
            step: STEP_LINE.to_string(),
        }
    }

    fn statuses(checks: &[Check]) -> Vec<(&'static str, Status)> {
        checks.iter().map(|c| (c.check, c.status)).collect()
    }

    #[test]
    fn no_hook_or_another_tools_hook_is_ok() {
        for prepare in [None, Some("#!/bin/sh\nhusky\n")] {
            let checks = checks(&facts(prepare, None));
            assert_eq!(
                statuses(&checks),
                [(PREPARE, Status::Ok), (STEP, Status::Ok)]
            );
        }
    }

    #[test]
    fn the_hook_and_its_step_as_installed_are_ok() {
        let step = format!("#!/bin/sh\n@S@\n{STEP_LINE}\nnpx commitlint\n");
        let checks = checks(&facts(Some(SCRIPT), Some(&step)));
        assert_eq!(
            statuses(&checks),
            [(PREPARE, Status::Ok), (STEP, Status::Ok)]
        );
    }

    #[test]
    fn a_lost_step_is_a_problem_with_what_puts_it_back() {
        for commit_msg in [None, Some("#!/bin/sh\nnpx commitlint\n")] {
            let mut facts = facts(Some(SCRIPT), commit_msg);
            let lost = step(&facts);
            assert_eq!(lost.status, Status::Problem);
            assert!(lost.detail.contains("lacks Iris' line"), "{}", lost.detail);
            assert_eq!(
                lost.fix.as_deref(),
                Some("`iris hook install` puts it back")
            );
            facts.commit_msg_tracked = true;
            let by_hand = step(&facts).fix.unwrap_or_default();
            assert!(by_hand.starts_with("add this line at its top: command -v iris"));
        }
        // Added by hand to a tracked hook: fine.
        let by_hand = "#!/bin/sh\ncommand -v iris && iris hook commit-msg \"$1\" || :\n";
        assert_eq!(step(&facts(Some(SCRIPT), Some(by_hand))).status, Status::Ok);
    }

    #[test]
    fn an_edited_hook_or_step_is_a_warning_and_a_missing_binary_a_problem() {
        let edited = format!("{SCRIPT}echo mine\n");
        let mut facts = facts(
            Some(&edited),
            Some("#!/bin/sh\n@S@\n'/old/iris' hook commit-msg\n"),
        );
        let prepare_check = prepare(&facts, facts.prepare.1.as_deref().unwrap_or_default());
        assert_eq!(prepare_check.status, Status::Warning);
        assert_eq!(step(&facts).status, Status::Warning);
        facts.calls_runnable = false;
        let gone = prepare(&facts, facts.prepare.1.as_deref().unwrap_or_default());
        assert_eq!(gone.status, Status::Problem);
        assert!(
            gone.detail.contains("calls /bin/iris, which is not there"),
            "{}",
            gone.detail
        );
    }
}
