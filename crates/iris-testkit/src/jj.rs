//! jj (Jujutsu) workspaces for tests, made with the real `jj` command line: colocated with
//! git or not, as `jj git init` makes them.

use std::path::Path;
use std::process::{Command, Output};

use crate::TestRepo;

/// The jj the tests drive; a test that needs jj fails saying how to get it, never passes
/// without it.
pub fn require_jj() {
    jj_dir();
}

/// The folder on PATH that holds jj (for a test that sets PATH itself).
pub fn jj_dir() -> std::path::PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path).find(|d| d.join("jj").is_file());
    found.unwrap_or_else(|| {
        panic!(
            "jj is not installed, and this test needs it: `cargo install jj-cli --locked \
             --version 0.45.1` (which .ci/run does), with ~/.cargo/bin on PATH"
        )
    })
}

impl TestRepo {
    /// A jj workspace made with `jj git init` (`colocated`: with a `.git` beside `.jj`, else
    /// with `--no-colocate`), jj's user set in the test's own configuration.
    pub fn jj_workspace(colocated: bool) -> TestRepo {
        require_jj();
        let repo = TestRepo::new();
        std::fs::remove_dir_all(repo.path().join(".git")).expect("remove the git repository");
        let config = repo.home().join("xdg").join("jj");
        std::fs::create_dir_all(&config).expect("jj config dir");
        std::fs::write(
            config.join("config.toml"),
            "[user]\nname = \"Test Author\"\nemail = \"author@example.com\"\n\
             [ui]\npaginate = \"never\"\n",
        )
        .expect("jj config");
        let how = if colocated {
            "--colocate"
        } else {
            "--no-colocate"
        };
        repo.jj(&["git", "init", how]);
        // In the repository's own configuration too, for the jj a test process runs itself
        // (with the developer's HOME).
        for (name, value) in [
            ("user.name", "Test Author"),
            ("user.email", "author@example.com"),
        ] {
            repo.jj(&["config", "set", "--repo", name, value]);
        }
        repo
    }

    /// Runs jj in the repository with the test's configuration; panics with its stderr if
    /// it fails.
    pub fn jj(&self, args: &[&str]) -> String {
        let out = self.jj_output(args);
        assert!(
            out.status.success(),
            "jj {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Runs jj and returns whatever happened.
    pub fn jj_output(&self, args: &[&str]) -> Output {
        self.jj_command(&self.path())
            .args(args)
            .output()
            .expect("run jj")
    }

    /// jj in `dir` with the test's HOME and configuration (never the developer's).
    fn jj_command(&self, dir: &Path) -> Command {
        let mut command = Command::new("jj");
        self.in_env(&mut command, dir);
        command.env_remove("JJ_CONFIG").arg("--no-pager");
        command
    }

    /// `rev`'s description as jj has it.
    pub fn jj_description(&self, rev: &str) -> String {
        self.jj_field(rev, "description")
    }

    /// What jj's `template` says of the one change `rev` names (`commit_id`, `empty`).
    pub fn jj_field(&self, rev: &str, template: &str) -> String {
        self.jj(&["log", "--no-graph", "-r", rev, "-T", template])
    }

    /// A jj workspace with one described change (`Add one()`, `src/lib.rs` with `one()`) and
    /// `@` on it adding `two()`.
    pub fn jj_adding_two(colocated: bool) -> TestRepo {
        let repo = TestRepo::jj_workspace(colocated);
        repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
        repo.jj(&["commit", "-m", "Add one()"]);
        repo.write(
            "src/lib.rs",
            "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
        );
        repo
    }

    /// Makes `@` a conflicted change: a merge of two changes (`left`, `right`) that each
    /// rewrite `a.txt`'s one line from `base`.
    pub fn jj_conflict(&self) {
        self.write("a.txt", "base\n");
        self.jj(&["commit", "-m", "base"]);
        self.write("a.txt", "left\n");
        self.jj(&["commit", "-m", "left"]);
        self.jj(&["new", "@--"]);
        self.write("a.txt", "right\n");
        self.jj(&["commit", "-m", "right"]);
        self.jj(&[
            "new",
            "description(substring:left)",
            "description(substring:right)",
        ]);
    }

    /// A jj workspace whose `@` is tangled: on `Count to twenty` (`f.txt`, the numbers 1 to
    /// 20 a line each), it names lines 2 and 18 (two hunks, `h1` and `h2`) and adds
    /// `new.txt` (`h3`).
    pub fn jj_tangled(colocated: bool) -> TestRepo {
        let repo = TestRepo::jj_workspace(colocated);
        let lines = |name: fn(u32) -> String| (1..=20).map(name).collect::<Vec<_>>().join("\n");
        repo.write("f.txt", format!("{}\n", lines(|n| n.to_string())));
        repo.jj(&["commit", "-m", "Count to twenty"]);
        let named = lines(|n| match n {
            2 => "two".to_string(),
            18 => "eighteen".to_string(),
            n => n.to_string(),
        });
        repo.write("f.txt", format!("{named}\n"));
        repo.write("new.txt", "new\n");
        repo
    }
}
