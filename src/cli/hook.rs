//! `iris hook install|uninstall`: the `prepare-commit-msg` hook that writes the message when
//! you run `git commit`, and the `commit-msg` step that remembers the message you commit with
//! before the project's own `commit-msg` hook (which it runs next) can turn it down.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::app::stores::{ChangeKey, IrisDir, hook_steps, last_message};
use crate::app::vcs::GitOnly;
use crate::output::exit::UsageError;
use anyhow::{Context, Result, bail};
use clap::Subcommand;

use super::exit;
use iris_studio_git::{BACKUP_SUFFIX, HookInstall, HookRemoval, ManagedHook, StepInstall};

use super::current_repo;

pub(super) const HOOK: ManagedHook<'static> = ManagedHook {
    name: "prepare-commit-msg",
    marker: "# iris-studio: prepare-commit-msg hook (iris hook install / iris hook uninstall)",
};

/// The commit-msg step's marker: the line above the step in a commit-msg hook.
pub(super) const STEP_MARKER: &str =
    "# iris-studio: remembers the message (iris hook install / iris hook uninstall)";

/// The commit-msg step: remembers the message the user commits with, so that a commit the
/// project's hook (which runs after it, unchanged) turns down is offered again. Never fails.
fn commit_msg_step(iris: &str) -> String {
    format!("[ -x {iris} ] && {iris} hook commit-msg \"$1\" </dev/null >/dev/null 2>&1 || :")
}

/// What to add by hand to a commit-msg hook Iris leaves alone (it finds `iris` on PATH, and
/// does nothing where there is none, so it can be shared).
const STEP_BY_HAND: &str = "command -v iris >/dev/null 2>&1 && iris hook commit-msg \"$1\" </dev/null >/dev/null 2>&1 || :";

/// What a commit-msg hook holding Iris' step holds: her marker, or the line added by hand.
pub(super) const STEP_NEEDLES: [&str; 2] = [STEP_MARKER, "iris hook commit-msg"];

/// The hooks as they are and as `iris hook install` would write them now (`iris doctor`
/// compares them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct HookFacts {
    /// The prepare-commit-msg hook's path and text (`None`: no hook).
    pub prepare: (PathBuf, Option<String>),
    /// The script this binary would install.
    pub script: String,
    /// Whether the binary an installed hook calls is there to run.
    pub calls_runnable: bool,
    /// The commit-msg hook's path and text.
    pub commit_msg: (PathBuf, Option<String>),
    /// Whether the repository tracks the commit-msg hook (husky's): edited by hand, then.
    pub commit_msg_tracked: bool,
    /// The step line this binary would put under [`STEP_MARKER`].
    pub step: String,
}

/// The hooks of `repo`, read, and what this binary would write.
pub(super) fn hook_facts(repo: &iris_studio_git::GitRepo) -> Result<HookFacts> {
    let exe = std::env::current_exe().context("cannot find the iris binary")?;
    let prepare = repo.hook_text(HOOK.name)?;
    let calls_runnable = prepare
        .1
        .as_deref()
        .and_then(called_binary)
        .is_some_and(|called| iris_studio_process::is_executable(Path::new(&called)));
    let commit_msg = repo.hook_text("commit-msg")?;
    let commit_msg_tracked = repo.tracks(&commit_msg.0);
    Ok(HookFacts {
        prepare,
        script: script(&exe)?,
        calls_runnable,
        commit_msg,
        commit_msg_tracked,
        step: commit_msg_step(&shell_quote(utf8(&exe)?)),
    })
}

/// The binary Iris' hook script calls (its `iris=` line, unquoted).
pub(super) fn called_binary(script: &str) -> Option<String> {
    let quoted = script.lines().find_map(|l| l.strip_prefix("iris="))?;
    shell_unquote(quoted.trim())
}

/// What puts a lost commit-msg step back: `iris hook install`, or for a hook the project
/// tracks the line to add by hand.
pub(super) fn step_fix(tracked: bool) -> String {
    match tracked {
        true => format!("add this line at its top: {STEP_BY_HAND}"),
        false => "`iris hook install` puts it back".to_string(),
    }
}

/// The script, with `@MARKER@` and `@IRIS@` (the shell-quoted binary) to fill in.
const SCRIPT: &str = r#"#!/bin/sh
@MARKER@
#
# Writes the commit message with `iris gen` when `git commit` opens the editor. Skips messages
# given with -m/-F, merges, squashes and -c/-C; an amend keeps its message unless
# `hook_on_amend = true`, then Iris writes one from the amended change. A commit.template's
# text is replaced by a message written in its shape (its comment lines stay). Never reads input;
# never blocks the commit: when Iris fails the message stays as git prepared it
# (iris-hook.log, next to the message file, says why). IRIS_HOOK_TIMEOUT: seconds to wait for
# Iris (default 60).

msg_file=$1
amend=
replace=
# --hook: after a commit turned down, the message last tried for the same change comes back
# (edits kept, no new request) unless IRIS_FRESH=1.
mode=--hook
case $2 in
message | merge | squash) exit 0 ;;
template) replace=1 ;;
commit)
	# -c/-C name another commit; --amend --no-edit (and -C HEAD) open no editor (git sets
	# GIT_EDITOR to ":" then): the message is kept as given.
	[ "$3" = HEAD ] && [ "${GIT_EDITOR-}" != : ] || exit 0
	amend=1
	replace=1
	mode='--amend --hook-amend'
	;;
esac
[ -f "$msg_file" ] || exit 0
# A message is already there (more than git's comments and a verbose diff): keep it.
if [ -z "$replace" ] && sed -e '/^# -* >8 -*$/,$d' -e '/^#/d' "$msg_file" | grep -q '[^[:space:]]'; then
	exit 0
fi

iris=@IRIS@
[ -x "$iris" ] || exit 0
# Says once (to the terminal) when another tool rewrote the commit-msg hook without Iris' line.
"$iris" hook check-commit-msg </dev/null >/dev/null || :
limit=${IRIS_HOOK_TIMEOUT:-60}
case $limit in
'' | *[!0-9]*) limit=60 ;;
esac
log=$(dirname -- "$msg_file")/iris-hook.log
out=$msg_file.iris.$$
pid=
watchdog=
trap 'rm -f -- "$out" "$out.new"' EXIT
trap 'kill $pid $watchdog 2>/dev/null; exit 0' HUP INT TERM

# Iris runs in the background so that the time limit and Ctrl-C can stop it.
# shellcheck disable=SC2086
"$iris" gen --print --no-stream $mode </dev/null >"$out" 2>"$log" &
pid=$!
(
	trap 'kill "$nap" 2>/dev/null; wait "$nap"; exit 0' TERM
	sleep "$limit" &
	nap=$!
	wait "$nap" && kill "$pid" 2>/dev/null
) </dev/null >/dev/null 2>&1 &
watchdog=$!
wait "$pid" 2>/dev/null
rc=$?
kill "$watchdog" 2>/dev/null
wait "$watchdog"
if [ "$rc" -eq 0 ] && [ -n "$replace" ]; then
	# The amended commit's message (or the template's text) goes; git's comments (and a
	# verbose diff) stay.
	grep -q '[^[:space:]]' "$out" || exit 0
	{ cat -- "$out" && echo && awk 'cut || /^# -+ >8 -+$/ { cut = 1; print; next } /^#/' "$msg_file"; } >"$out.new" &&
		mv -f -- "$out.new" "$msg_file"
	exit 0
fi
if [ "$rc" -eq 0 ] && grep -q '[^[:space:]]' "$out" &&
	cat -- "$out" "$msg_file" >"$out.new" && mv -f -- "$out.new" "$msg_file"; then
	exit 0
fi
if [ "$rc" -eq 143 ]; then
	echo "iris: no commit message after ${limit}s (IRIS_HOOK_TIMEOUT); committing as usual" >&2
else
	echo "iris: no commit message was generated (see $log); committing as usual" >&2
fi
exit 0
"#;

#[derive(Debug, clap::Args)]
pub struct HookArgs {
    #[command(subcommand)]
    pub action: HookAction,
}

#[derive(Debug, Subcommand)]
pub enum HookAction {
    /// Install the prepare-commit-msg hook: `git commit` then opens with Iris' message.
    Install {
        /// Replace a hook that is not Iris', keeping it as prepare-commit-msg.iris-backup.
        #[arg(long)]
        force: bool,
    },
    /// Remove Iris' hook, putting back the hook it replaced.
    Uninstall,
    /// Remember the message in FILE for the change staged, to be offered again if the commit
    /// is turned down (Iris' commit-msg step runs it; a project's own commit-msg hook can too).
    CommitMsg {
        /// The message file git gives the hook.
        file: std::path::PathBuf,
    },
    /// Say once (on stderr) that the commit-msg hook lost Iris' step, and how to put it back
    /// (Iris' prepare-commit-msg hook runs it).
    #[command(hide = true)]
    CheckCommitMsg,
}

pub fn run(args: HookArgs) -> Result<ExitCode> {
    let repo = current_repo()?;
    if matches!(args.action, HookAction::Install { .. })
        && let Some(why) = crate::app::vcs::open(&repo).refuses(GitOnly::Hooks)
    {
        return Err(UsageError(why).into());
    }
    match args.action {
        HookAction::Install { force } => {
            let exe = std::env::current_exe().context("cannot find the iris binary")?;
            let outcome = repo.install_hook(HOOK, &script(&exe)?, force)?;
            let code = report_install(&outcome);
            if matches!(
                outcome,
                HookInstall::Installed { .. } | HookInstall::Updated { .. }
            ) {
                install_commit_msg(&repo, &exe)?;
            }
            Ok(code)
        }
        HookAction::Uninstall => {
            let code = report_removal(&repo.uninstall_hook(HOOK)?);
            if repo.remove_hook_step("commit-msg", STEP_MARKER)? {
                println!("removed the commit-msg step that remembers the message");
            }
            Ok(code)
        }
        HookAction::CommitMsg { file } => {
            // Never in the way of the commit: a message that cannot be read is not remembered.
            if let (Ok(text), Ok(change)) = (std::fs::read(&file), ChangeKey::staged(&repo, false))
            {
                let text = String::from_utf8_lossy(&text);
                let stores = IrisDir::of(&repo.state_dir());
                last_message::remember(&stores, &change, &text, true);
            }
            Ok(ExitCode::SUCCESS)
        }
        HookAction::CheckCommitMsg => {
            if let Some(said) = lost_step(&repo) {
                eprintln!("{said}");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The line that says the commit-msg hook lost Iris' step (a tool such as husky or pre-commit
/// rewrote it), with what puts it back; None when it holds the step or this was said before
/// for that hook (recorded under `.git/iris/`).
fn lost_step(repo: &iris_studio_git::GitRepo) -> Option<String> {
    let (path, holds) = repo.hook_holds("commit-msg", &STEP_NEEDLES).ok()?;
    let stores = IrisDir::of(&repo.state_dir());
    if holds || hook_steps::said(&stores, &path) {
        return None;
    }
    hook_steps::remember_said(&stores, &path);
    Some(format!(
        "iris: {}: {}",
        step_lost(&path),
        step_fix(repo.tracks(&path))
    ))
}

/// What a commit-msg hook without Iris' step means.
pub(super) fn step_lost(path: &Path) -> String {
    format!(
        "the commit-msg hook {} lacks Iris' line (was it rewritten?), so a message it turns \
         down will not come back",
        path.display()
    )
}

/// Puts the commit-msg step at the top of the commit-msg hook (written if there is none); a
/// hook the repository tracks (husky's), or one that is not a shell script, is left alone,
/// with the line to add to it.
fn install_commit_msg(repo: &iris_studio_git::GitRepo, exe: &Path) -> Result<()> {
    let step = commit_msg_step(&shell_quote(utf8(exe)?));
    let by_hand = |path: &Path, why: &str| {
        println!(
            "{} {why}: left alone; a message it turns down is offered again once it starts with\n  {STEP_BY_HAND}",
            path.display()
        )
    };
    let installed = repo.add_hook_step("commit-msg", STEP_MARKER, &step)?;
    if !matches!(
        installed,
        StepInstall::Tracked { .. } | StepInstall::Unfit { .. }
    ) {
        // A later loss of the step is said again.
        hook_steps::forget(&IrisDir::of(&repo.state_dir()));
    }
    match installed {
        StepInstall::Created { path } => println!(
            "installed the commit-msg step that remembers the message you commit with: {}",
            path.display()
        ),
        StepInstall::Added { path } => println!(
            "the commit-msg hook {} now first remembers the message you commit with (one line at its top; `iris hook uninstall` takes it out)",
            path.display()
        ),
        StepInstall::Updated { .. } => {}
        StepInstall::Tracked { path } => by_hand(&path, "belongs to the project"),
        StepInstall::Unfit { path } => by_hand(&path, "is not an executable shell script"),
    }
    Ok(())
}

fn report_install(outcome: &HookInstall) -> ExitCode {
    match outcome {
        HookInstall::Installed { path, backup } => {
            println!("installed the prepare-commit-msg hook: {}", path.display());
            if let Some(backup) = backup {
                println!(
                    "the hook it replaced is kept as {} (`iris hook uninstall` puts it back)",
                    backup.display()
                );
            }
            ExitCode::SUCCESS
        }
        HookInstall::Updated { path } => {
            println!(
                "the prepare-commit-msg hook was already installed; updated {}",
                path.display()
            );
            ExitCode::SUCCESS
        }
        HookInstall::Foreign { path } => {
            eprintln!(
                "error: {} is not Iris' hook; left it alone (--force replaces it, keeping it as {}{BACKUP_SUFFIX})",
                path.display(),
                HOOK.name
            );
            ExitCode::from(exit::GENERAL)
        }
        HookInstall::BackupExists { path, backup } => {
            eprintln!(
                "error: {} is not Iris' hook and {} already exists; left both alone (move the backup away first)",
                path.display(),
                backup.display()
            );
            ExitCode::from(exit::GENERAL)
        }
    }
}

fn report_removal(outcome: &HookRemoval) -> ExitCode {
    match outcome {
        HookRemoval::Removed { path, restored } => {
            println!("removed the prepare-commit-msg hook: {}", path.display());
            if *restored {
                println!("restored the hook it had replaced");
            }
        }
        HookRemoval::Missing { path } => {
            println!(
                "no prepare-commit-msg hook at {}; nothing to remove",
                path.display()
            );
        }
        HookRemoval::Foreign { path } => {
            println!(
                "{} is not Iris' hook; left it alone (Iris' hook is not installed)",
                path.display()
            );
        }
    }
    ExitCode::SUCCESS
}

/// The hook script calling this binary by its absolute path.
fn script(exe: &Path) -> Result<String> {
    Ok(SCRIPT
        .replace("@MARKER@", HOOK.marker)
        .replace("@IRIS@", &shell_quote(utf8(exe)?)))
}

fn utf8(exe: &Path) -> Result<&str> {
    match exe.to_str() {
        Some(exe) => Ok(exe),
        None => bail!(
            "the path of the iris binary is not UTF-8: {}",
            exe.display()
        ),
    }
}

/// Single-quotes `text` for a POSIX shell.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The text [`shell_quote`] quoted; `None` for anything it would not have written.
fn shell_unquote(quoted: &str) -> Option<String> {
    let inner = quoted.strip_prefix('\'')?.strip_suffix('\'')?;
    let text = inner.replace(r"'\''", "'");
    (shell_quote(&text) == quoted).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_survives_quotes_and_spaces() {
        assert_eq!(shell_quote("/usr/bin/iris"), "'/usr/bin/iris'");
        assert_eq!(shell_quote("/o'k dir/iris"), r"'/o'\''k dir/iris'");
        for text in ["/usr/bin/iris", "/o'k dir/iris", "''", ""] {
            assert_eq!(shell_unquote(&shell_quote(text)).as_deref(), Some(text));
        }
        for not_quoted in ["/usr/bin/iris", "'a'b'", "'open", "\"/a\""] {
            assert_eq!(shell_unquote(not_quoted), None, "{not_quoted}");
        }
    }

    #[test]
    fn the_script_is_marked_and_calls_this_binary() {
        let text = script(Path::new("/opt/my tools/iris")).unwrap_or_default();
        assert!(text.starts_with("#!/bin/sh\n"));
        assert!(text.lines().any(|l| l == HOOK.marker));
        assert!(text.contains("iris='/opt/my tools/iris'\n"));
        assert_eq!(called_binary(&text).as_deref(), Some("/opt/my tools/iris"));
        assert!(!text.contains('@'));
        let step = commit_msg_step(&shell_quote("/opt/my tools/iris"));
        assert!(
            step.starts_with("[ -x '/opt/my tools/iris' ] && '/opt/my tools/iris' hook commit-msg")
        );
        assert!(step.ends_with("|| :"));
    }
}
