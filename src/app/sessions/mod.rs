//! The coding agent's sessions of the change in front of the user: whether their words go in
//! the request ([`Consent`]: off until the user says yes), the change's time ([`window`]),
//! and the few turns of the sessions of this working tree that fall in it ([`chosen`]),
//! found on this machine ([`find`]) and chosen by `iris_studio_core::sessions`.

mod find;

use std::path::{Path, PathBuf};

use iris_studio_agent::capability::requests::Scope;
use iris_studio_config::{Config, Source};
use iris_studio_core::sessions::Window;
use iris_studio_core::sessions::choose::{self, Chosen};
use iris_studio_git::GitRepo;

use super::stores::{IrisDir, agent_sessions};

/// How far back a change's time reaches at most, in days: an older session is another
/// change's.
pub const MAX_SPAN_DAYS: i64 = 14;
/// What a window's end is widened by, in seconds: a commit's time has whole seconds, and a
/// turn logged as the commit is made may come a moment after it.
const SLACK: i64 = 60;

/// Where this machine's coding agents keep their sessions, and whether it runs unattended.
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// Claude Code's folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub claude: Option<PathBuf>,
    /// Codex's: `$CODEX_HOME`, else `~/.codex`.
    pub codex: Option<PathBuf>,
    /// Gemini CLI's: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`.
    pub gemini: Option<PathBuf>,
    /// A continuous integration run (`CI` set): nobody is there to have said yes.
    pub ci: bool,
}

impl Env {
    /// As this process's environment says.
    pub fn from_process() -> Self {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let home = var("HOME")
            .or_else(|| var("USERPROFILE"))
            .map(PathBuf::from);
        let under_home = |dir: &str| home.as_ref().map(|h| h.join(dir));
        let ci = std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"));
        Self {
            claude: var("CLAUDE_CONFIG_DIR")
                .map(PathBuf::from)
                .or_else(|| under_home(".claude")),
            codex: var("CODEX_HOME")
                .map(PathBuf::from)
                .or_else(|| under_home(".codex")),
            gemini: var("GEMINI_CLI_HOME")
                .map(|h| PathBuf::from(h).join(".gemini"))
                .or_else(|| under_home(".gemini")),
            ci,
        }
    }

    /// The agents' default folders under `home` (a test's), attended.
    pub fn under(home: &Path) -> Self {
        Self {
            claude: Some(home.join(".claude")),
            codex: Some(home.join(".codex")),
            gemini: Some(home.join(".gemini")),
            ci: false,
        }
    }
}

/// What runs Iris: the sessions never turn themselves on where the user is not asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    /// A command the user typed, or the studio.
    User,
    /// The git hook (`iris gen --hook`), or a coding agent over MCP.
    Unattended,
}

/// Whether the user's words to their coding agent go in the requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consent {
    /// Yes: `--sessions`, `agent_sessions = true`, or the studio's question answered so.
    Yes,
    /// No: the flag, the setting or the answer said so, or nobody is there to ask.
    No,
    /// Nobody said: off, and the user may be told or asked.
    Unasked,
}

/// The consent here: the flag for one run; else nothing unattended (`face`, CI); else the
/// setting when a file sets it; else the user's answer remembered in `stores`.
pub fn consent(config: &Config, stores: &IrisDir, env: &Env, face: Face) -> Consent {
    let said = |yes: bool| if yes { Consent::Yes } else { Consent::No };
    match config.agent_sessions_source() {
        Source::Flag(_) => said(config.agent_sessions),
        _ if face == Face::Unattended || env.ci => Consent::No,
        Source::Default => agent_sessions::answer(stores).map_or(Consent::Unasked, said),
        _ => said(config.agent_sessions),
    }
}

/// The time the change of `scope` was made in: from its parent commit's time (HEAD's, for
/// what is staged; the range's first commit's parent, for a range) to now or the scope's last
/// commit, [`MAX_SPAN_DAYS`] at most. Blocking.
pub fn window(repo: &GitRepo, scope: &Scope, now: i64) -> Window {
    let time = |rev: &str| repo.commit_info(rev).ok().map(|c| c.time);
    let (from, to) = match scope {
        Scope::Staged | Scope::Uncommitted => (time("HEAD"), now),
        Scope::Amend => (time("HEAD~1"), now),
        Scope::Commit(rev) => (time(&format!("{rev}~1")), time(rev).unwrap_or(now)),
        Scope::Range { from, to, .. } => {
            let commits = repo.log_range(from, to, 1000).unwrap_or_default();
            let first = commits.iter().min_by_key(|c| c.time);
            let before = first.and_then(|c| time(&format!("{}~1", c.id)));
            let start = [before, first.map(|c| c.time), time(from)]
                .into_iter()
                .flatten()
                .min();
            let end = commits.iter().map(|c| c.time).max();
            (start, end.or_else(|| time(to)).unwrap_or(now))
        }
    };
    let earliest = to - MAX_SPAN_DAYS * 86_400;
    Window {
        from: from.unwrap_or(earliest).max(earliest),
        to: to + SLACK,
    }
}

/// The paths `scope` changes, relative to the root. Blocking.
fn changed(repo: &GitRepo, scope: &Scope) -> Vec<String> {
    scope
        .diff_targets()
        .iter()
        .filter_map(|target| repo.changed_files(target).ok())
        .flatten()
        .map(|f| f.path)
        .collect()
}

/// What a write over `scope` gets of the sessions, as `consent` allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Look {
    /// The user said yes: the request's section (`None`: no turn of the change's time).
    Send(Option<String>),
    /// Nobody said, and sessions of the change were found: their agents (to tell or ask).
    Found(Vec<&'static str>),
    /// Nothing to send or say.
    Nothing,
}

/// The sessions of `scope`'s change as `consent` allows: read only when it is not no.
/// Blocking: reads the agents' files.
pub fn look(consent: Consent, repo: &GitRepo, root: &Path, scope: &Scope, env: &Env) -> Look {
    if consent == Consent::No {
        return Look::Nothing;
    }
    let chosen = chosen(repo, root, scope, env);
    match consent {
        Consent::Yes => Look::Send(choose::section(&chosen)),
        _ if chosen.is_empty() => Look::Nothing,
        _ => Look::Found(choose::agents(&chosen)),
    }
}

/// The turns of this working tree's sessions in the time of `scope`'s change, chosen and
/// bounded. Blocking: reads the agents' files.
fn chosen(repo: &GitRepo, root: &Path, scope: &Scope, env: &Env) -> Vec<Chosen> {
    let window = window(repo, scope, now());
    let found = find::found(env, root, window);
    if found.is_empty() {
        return Vec::new();
    }
    choose::choose(
        &found,
        window,
        &root.to_string_lossy(),
        &changed(repo, scope),
    )
}

/// Seconds since the epoch.
fn now() -> i64 {
    super::stores::now()
}

/// What the command line says, once per repository, when a session exists but nobody said
/// whether to send it.
pub const HINT: &str = "iris: your coding agent's session of this change is on this machine; \
                        --sessions sends what you asked it (for the why), or \
                        `agent_sessions = true` in your config always does";

#[cfg(test)]
mod tests {
    use super::*;

    fn config(user: &str, flag: Option<bool>) -> Config {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        std::fs::write(&file, user).unwrap();
        let overrides = iris_studio_config::Overrides {
            agent_sessions: flag,
            ..Default::default()
        };
        Config::load_from(Some(&file), None, &|_| None, &overrides).unwrap()
    }

    #[test]
    fn the_flag_wins_then_nothing_unattended_then_the_setting_then_the_answer() {
        let dir = tempfile::tempdir().unwrap();
        let stores = IrisDir::of(dir.path());
        let env = Env::default();
        let ci = Env {
            ci: true,
            ..Env::default()
        };
        let unset = config("", None);
        assert_eq!(consent(&unset, &stores, &env, Face::User), Consent::Unasked);
        agent_sessions::remember_answer(&stores, true);
        assert_eq!(consent(&unset, &stores, &env, Face::User), Consent::Yes);
        assert_eq!(consent(&unset, &stores, &ci, Face::User), Consent::No);
        assert_eq!(
            consent(&unset, &stores, &env, Face::Unattended),
            Consent::No
        );
        let off = config("agent_sessions = false\n", None);
        assert_eq!(consent(&off, &stores, &env, Face::User), Consent::No);
        let on = config("agent_sessions = true\n", None);
        assert_eq!(consent(&on, &stores, &env, Face::User), Consent::Yes);
        assert_eq!(consent(&on, &stores, &ci, Face::User), Consent::No);
        assert_eq!(consent(&on, &stores, &env, Face::Unattended), Consent::No);
        let flag = config("agent_sessions = false\n", Some(true));
        assert_eq!(consent(&flag, &stores, &ci, Face::User), Consent::Yes);
        let no_flag = config("agent_sessions = true\n", Some(false));
        assert_eq!(consent(&no_flag, &stores, &env, Face::User), Consent::No);
    }

    #[test]
    fn the_window_runs_from_the_last_commit_to_now_and_at_most_two_weeks() {
        let repo = iris_studio_testkit::TestRepo::new();
        repo.write("a.txt", "1\n");
        repo.commit_all("first");
        repo.write("a.txt", "2\n");
        repo.commit_all("second");
        let git = GitRepo::discover(&repo.path()).unwrap();
        let head = git.commit_info("HEAD").unwrap().time;
        let parent = git.commit_info("HEAD~1").unwrap().time;
        let staged = window(&git, &Scope::Staged, head + 100);
        assert_eq!((staged.from, staged.to), (head, head + 100 + SLACK));
        let amend = window(&git, &Scope::Amend, head + 100);
        assert_eq!(amend.from, parent);
        let commit = window(&git, &Scope::Commit("HEAD".into()), head + 100);
        assert_eq!((commit.from, commit.to), (parent, head + SLACK));
        let range = window(&git, &Scope::range("HEAD~1", "HEAD"), head + 100);
        assert_eq!((range.from, range.to), (parent, head + SLACK));
        let later = head + 30 * 86_400;
        let old = window(&git, &Scope::Staged, later);
        assert_eq!(old.from, later - MAX_SPAN_DAYS * 86_400);
    }
}
