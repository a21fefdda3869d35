//! The tools Iris drives beside git: jj in a jj workspace, `gh` for a GitHub remote and `glab`
//! for a GitLab one (publishing, linked issues). A missing tool is a warning only where the
//! repository needs it.

use crate::app::vcs::{JJ_INSTALL as INSTALL, JJ_MIN_VERSION as MIN_VERSION, JjFound};

use super::check::Check;
use crate::publish::{Forge, ToolState};

/// What was learnt of jj.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JjFacts {
    /// jj on PATH (`None`: not there), or why `jj --version` failed.
    pub found: Result<Option<JjFound>, String>,
    /// Whether this is a jj workspace.
    pub needed: bool,
}

/// What was learnt of a forge's tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForgeFacts {
    pub forge: Forge,
    pub state: ToolState,
    /// Whether the repository's remote is on this forge.
    pub needed: bool,
}

pub fn jj(facts: &JjFacts) -> Check {
    const NAME: &str = "jj";
    let found = match &facts.found {
        Ok(Some(found)) => found,
        Ok(None) if facts.needed => {
            return Check::warning(
                NAME,
                "not installed, and this is a jj workspace: Iris asks jj for its changes",
                INSTALL,
            );
        }
        Ok(None) => return Check::ok(NAME, "not installed, not needed (not a jj workspace)"),
        Err(why) if facts.needed => {
            return Check::warning(NAME, why.clone(), format!("check jj, or {INSTALL}"));
        }
        Err(why) => return Check::ok(NAME, format!("{why} (not needed: not a jj workspace)")),
    };
    let at = format!("{} ({})", found.said, found.program.display());
    let (x, y, z) = MIN_VERSION;
    let fit = found.version.is_some_and(|v| v >= MIN_VERSION);
    match (fit, facts.needed) {
        (true, true) => Check::ok(NAME, at),
        (true, false) => Check::ok(NAME, format!("{at}; not needed (not a jj workspace)")),
        (false, true) => Check::warning(
            NAME,
            format!("{at}: Iris needs jj {x}.{y}.{z} or newer"),
            format!("upgrade: {INSTALL}"),
        ),
        (false, false) => Check::ok(
            NAME,
            format!("{at}, older than the {x}.{y}.{z} Iris needs; not needed (not a jj workspace)"),
        ),
    }
}

pub fn forge_tool(facts: &ForgeFacts) -> Check {
    let forge = facts.forge;
    let name = forge.cli();
    let not_needed = format!("not needed (no {} remote)", forge.name());
    let ToolState::Found {
        program,
        version,
        login,
    } = &facts.state
    else {
        return match facts.needed {
            true => Check::warning(
                name,
                format!(
                    "not installed, and the remote is on {}: `iris pr --create`, `iris review \
                     --post` and linked issues need it",
                    forge.name()
                ),
                forge.install_hint(),
            ),
            false => Check::ok(name, format!("not installed, {not_needed}")),
        };
    };
    let said = match version {
        Ok(said) => format!("{said} ({})", program.display()),
        Err(why) => format!("{} ({why})", program.display()),
    };
    match login {
        _ if !facts.needed => Check::ok(name, format!("{said}; {not_needed}")),
        Some(Ok(())) => Check::ok(name, format!("{said}, logged in")),
        Some(Err(why)) => Check::warning(
            name,
            format!("{said}, not logged in: {why}"),
            format!("`{name} auth login`"),
        ),
        None => Check::ok(name, said),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::doctor::check::Status;
    use std::path::PathBuf;

    fn jj_at(version: Option<(u32, u32, u32)>) -> Result<Option<JjFound>, String> {
        Ok(Some(JjFound {
            program: PathBuf::from("/bin/jj"),
            said: "jj 0.45.1".into(),
            version,
        }))
    }

    #[test]
    fn jj_is_wanted_only_where_jj_keeps_the_workspace() {
        let cases = [
            (Ok(None), false, Status::Ok),
            (Ok(None), true, Status::Warning),
            (jj_at(Some((0, 45, 1))), true, Status::Ok),
            (jj_at(Some((0, 29, 0))), true, Status::Warning),
            (jj_at(Some((0, 29, 0))), false, Status::Ok),
            (jj_at(None), true, Status::Warning),
            (
                Err("`jj --version` did not finish".into()),
                false,
                Status::Ok,
            ),
            (
                Err("`jj --version` did not finish".into()),
                true,
                Status::Warning,
            ),
        ];
        for (found, needed, status) in cases {
            let check = jj(&JjFacts {
                found: found.clone(),
                needed,
            });
            assert_eq!(check.status, status, "{found:?} needed={needed}");
        }
    }

    fn gh(state: ToolState, needed: bool) -> Check {
        forge_tool(&ForgeFacts {
            forge: Forge::GitHub,
            state,
            needed,
        })
    }

    fn found(login: Option<Result<(), String>>) -> ToolState {
        ToolState::Found {
            program: PathBuf::from("/bin/gh"),
            version: Ok("gh version 2.60.0".into()),
            login,
        }
    }

    #[test]
    fn gh_missing_or_logged_out_is_a_warning_only_for_a_github_remote() {
        assert_eq!(gh(ToolState::Missing, false).status, Status::Ok);
        let missing = gh(ToolState::Missing, true);
        assert_eq!(missing.status, Status::Warning);
        assert!(missing.fix.unwrap_or_default().contains("cli.github.com"));
        let logged_in = gh(found(Some(Ok(()))), true);
        assert_eq!(logged_in.status, Status::Ok);
        assert_eq!(logged_in.detail, "gh version 2.60.0 (/bin/gh), logged in");
        let out = gh(
            found(Some(Err("You are not logged into any GitHub hosts".into()))),
            true,
        );
        assert_eq!(out.status, Status::Warning);
        assert_eq!(out.fix.as_deref(), Some("`gh auth login`"));
        assert!(
            out.detail
                .contains("not logged in: You are not logged into")
        );
        let unneeded = gh(found(None), false);
        assert_eq!(unneeded.status, Status::Ok);
        assert!(unneeded.detail.ends_with("not needed (no GitHub remote)"));
    }
}
