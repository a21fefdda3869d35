//! Splits applied to real temporary repositories, checked with the git command line.

use std::fs;

use iris_studio_core::split::{PlanGroup, SplitPlan, check_plan, unit_ids};
use iris_studio_testkit::TestRepo;

use crate::GitRepo;
use crate::split::{ApplyOptions, Progress};

fn group(message: &str, hunks: &[&str]) -> PlanGroup {
    PlanGroup {
        message: message.into(),
        hunks: hunks.iter().map(|h| h.to_string()).collect(),
        reason: String::new(),
        left_out: false,
    }
}

fn plan(change: &super::SplitChange, groups: Vec<PlanGroup>) -> SplitPlan {
    check_plan(&SplitPlan { groups }, &unit_ids(&change.units)).expect("a valid plan")
}

fn show(repo: &TestRepo, rev_path: &str) -> String {
    repo.git(&["show", rev_path])
}

fn three_groups(change: &super::SplitChange) -> SplitPlan {
    plan(
        change,
        vec![
            group("feat: log the values", &["h1", "h3"]),
            group("fix: omega returns 3", &["h2"]),
            group("docs: a guide", &["h4", "h5"]),
        ],
    )
}

/// The three groups applied whole.
fn apply_three(git: &GitRepo, change: &super::SplitChange) {
    let plan = three_groups(change);
    git.apply_split(change, &plan, ApplyOptions::default(), |_| {})
        .expect("applied");
}

#[test]
fn the_change_is_numbered_in_git_diff_order() {
    let repo = TestRepo::tangled();
    let git = GitRepo::discover(&repo.path()).unwrap();
    let change = git.split_change(false).unwrap();
    let places: Vec<String> = change
        .units
        .iter()
        .map(|u| format!("{} {}", u.id, u.place()))
        .collect();
    assert_eq!(
        places,
        vec![
            "h1 a.rs:1-5",
            "h2 a.rs:11-15",
            "h3 b.txt:1-4",
            "h4 b.txt:10-13",
            "h5 docs/guide.md (new file)",
        ]
    );
    // --staged sees nothing yet.
    assert!(git.split_change(true).unwrap().is_empty());
}

#[test]
fn each_group_is_committed_with_exactly_its_hunks() {
    let repo = TestRepo::tangled();
    let before_a = fs::read(repo.path().join("a.rs")).unwrap();
    let git = GitRepo::discover(&repo.path()).unwrap();
    let change = git.split_change(false).unwrap();
    let mut seen = Vec::new();
    let applied = git
        .apply_split(
            &change,
            &three_groups(&change),
            ApplyOptions::default(),
            |p| seen.push(p),
        )
        .unwrap();
    assert_eq!(applied.commits.len(), 3);
    let log = repo.git(&["log", "--format=%s", "-4"]);
    assert_eq!(
        log,
        "docs: a guide\nfix: omega returns 3\nfeat: log the values\nbase\n"
    );
    // The first commit: logging only.
    let a1 = show(&repo, "HEAD~2:a.rs");
    assert!(a1.contains("log(1)") && a1.contains("    2\n"), "{a1}");
    assert!(show(&repo, "HEAD~2:b.txt").starts_with("one (logged)\n"));
    assert!(!show(&repo, "HEAD~2:b.txt").contains("docs"));
    assert!(
        repo.git_output(&["show", "HEAD~2:docs/guide.md"])
            .status
            .code()
            != Some(0)
    );
    // The second: the fix added.
    assert!(show(&repo, "HEAD~1:a.rs").contains("    3\n"));
    // The last: everything, and the working tree was never written.
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    assert_eq!(fs::read(repo.path().join("a.rs")).unwrap(), before_a);
    assert!(matches!(
        seen.last(),
        Some(Progress::Committed {
            group: 3,
            of: 3,
            ..
        })
    ));
}

#[test]
fn only_the_staged_change_is_split_and_the_rest_stays() {
    let repo = TestRepo::tangled();
    repo.git(&["add", "a.rs"]);
    let git = GitRepo::discover(&repo.path()).unwrap();
    let change = git.split_change(true).unwrap();
    assert_eq!(change.units.len(), 2);
    let plan = plan(
        &change,
        vec![group("fix: omega", &["h2"]), group("feat: log", &["h1"])],
    );
    git.apply_split(&change, &plan, ApplyOptions::default(), |_| {})
        .unwrap();
    assert!(show(&repo, "HEAD~1:a.rs").contains("    3\n"));
    assert!(!show(&repo, "HEAD~1:a.rs").contains("log(1)"));
    let status = repo.git(&["status", "--porcelain"]);
    assert_eq!(status, " M b.txt\n?? docs/\n");
}

#[test]
fn a_failing_check_stops_at_its_group_with_the_rest_intact_and_undo_restores_all() {
    let repo = TestRepo::tangled();
    repo.git(&["add", "b.txt"]);
    let index = repo.path().join(".git/index");
    let index_before = fs::read(&index).unwrap();
    let head_before = repo.git(&["rev-parse", "HEAD"]);
    let git = GitRepo::discover(&repo.path()).unwrap();
    let change = git.split_change(false).unwrap();
    // The check fails once omega returns 3.
    let check = "! grep -q '    3' a.rs";
    let stop = git
        .apply_split(
            &change,
            &three_groups(&change),
            ApplyOptions {
                check: Some(check),
                ..ApplyOptions::default()
            },
            |_| {},
        )
        .unwrap_err();
    assert_eq!(stop.group, Some(2));
    assert_eq!(stop.commits.len(), 1);
    assert!(
        stop.why
            .contains("the check `! grep -q '    3' a.rs` failed: exit status 1"),
        "{}",
        stop.why
    );
    let said = stop.to_string();
    assert!(
        said.contains("stopped at commit 2 of 3") && said.contains("iris split --undo"),
        "{said}"
    );
    assert_eq!(
        repo.git(&["log", "--format=%s", "-1"]),
        "feat: log the values\n"
    );
    // The rest is in the working tree, unstaged.
    assert_eq!(
        repo.git(&["status", "--porcelain"]),
        " M a.rs\n M b.txt\n?? docs/\n"
    );
    assert!(
        repo.git(&["worktree", "list"]).lines().count() == 1,
        "the check's worktree is gone"
    );

    let undone = git.undo_split().unwrap();
    assert_eq!(undone.removed, 1);
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), head_before);
    assert_eq!(
        fs::read(&index).unwrap(),
        index_before,
        "the index, byte for byte"
    );
    assert_eq!(
        repo.git(&["status", "--porcelain"]),
        " M a.rs\nM  b.txt\n?? docs/\n"
    );
    assert!(
        git.undo_split()
            .unwrap_err()
            .to_string()
            .contains("no split to undo")
    );
}

#[test]
fn undo_after_a_whole_split_restores_files_byte_for_byte() {
    let repo = TestRepo::tangled();
    repo.write(
        "b.txt",
        iris_studio_testkit::TANGLED_B
            .replace("one\n", "one (logged)\r\n\u{1}\n")
            .replace("twelve\n", "twelve\ndocs\n"),
    );
    let index = repo.path().join(".git/index");
    repo.git(&["add", "-N", "docs/guide.md"]);
    let index_before = fs::read(&index).unwrap();
    let files: Vec<Vec<u8>> = ["a.rs", "b.txt", "docs/guide.md"]
        .iter()
        .map(|p| fs::read(repo.path().join(p)).unwrap())
        .collect();
    let git = GitRepo::discover(&repo.path()).unwrap();
    let change = git.split_change(false).unwrap();
    apply_three(&git, &change);
    // A hook or a tool changed a file since: undo writes it back.
    repo.write("a.rs", "changed after\n");
    git.undo_split().unwrap();
    let after: Vec<Vec<u8>> = ["a.rs", "b.txt", "docs/guide.md"]
        .iter()
        .map(|p| fs::read(repo.path().join(p)).unwrap())
        .collect();
    assert_eq!(after, files);
    assert_eq!(fs::read(&index).unwrap(), index_before);
    assert_eq!(repo.git(&["log", "--format=%s"]), "base\n");
}

#[test]
fn undo_is_refused_when_commits_were_made_on_top() {
    let repo = TestRepo::tangled();
    let git = GitRepo::discover(&repo.path()).unwrap();
    let change = git.split_change(false).unwrap();
    apply_three(&git, &change);
    repo.write("later.txt", "later\n");
    repo.commit_all("later work");
    let err = git.undo_split().unwrap_err().to_string();
    assert!(
        err.contains("HEAD moved since the split") && err.contains("nothing was changed"),
        "{err}"
    );
    assert!(repo.path().join("later.txt").exists());
}

#[test]
fn a_refusing_hook_stops_the_split_and_loses_nothing() {
    let repo = TestRepo::tangled();
    repo.write_hook(
        "commit-msg",
        "grep -q '^fix' \"$1\" && { echo 'no fixes today' >&2; exit 1; }\nexit 0",
    );
    let git = GitRepo::discover(&repo.path()).unwrap();
    let change = git.split_change(false).unwrap();
    let stop = git
        .apply_split(
            &change,
            &three_groups(&change),
            ApplyOptions::default(),
            |_| {},
        )
        .unwrap_err();
    assert_eq!(stop.group, Some(2));
    assert!(stop.why.contains("no fixes today"), "{}", stop.why);
    assert_eq!(
        repo.git(&["log", "--format=%s", "-1"]),
        "feat: log the values\n"
    );
    assert_eq!(
        repo.git(&["status", "--porcelain"]),
        " M a.rs\n M b.txt\n?? docs/\n"
    );
}

#[test]
fn binary_renamed_and_mode_changed_files_move_whole() {
    let repo = TestRepo::new();
    repo.git(&["config", "user.name", "Test"]);
    repo.git(&["config", "user.email", "test@example.com"]);
    repo.write("logo.bin", [0u8, 1, 2, 3, 0, 255]);
    repo.write("old.txt", "a\nb\nc\nd\ne\n");
    repo.write("run.sh", "echo hi\n");
    repo.commit_all("base");
    repo.write("logo.bin", [0u8, 9, 9, 0, 255]);
    repo.git(&["mv", "old.txt", "new.txt"]);
    repo.git(&["update-index", "--chmod=+x", "run.sh"]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(
            repo.path().join("run.sh"),
            fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    let git = GitRepo::discover(&repo.path()).unwrap();
    let change = git.split_change(true).unwrap();
    let places: Vec<String> = change.units.iter().map(|u| u.place()).collect();
    assert_eq!(
        places,
        vec!["new.txt (renamed file)", "run.sh (mode change)"]
    );
    let change = git.split_change(false).unwrap();
    let places: Vec<String> = change.units.iter().map(|u| u.place()).collect();
    assert_eq!(
        places,
        vec![
            "logo.bin (binary file)",
            "new.txt (renamed file)",
            "run.sh (mode change)"
        ]
    );
    let plan = plan(
        &change,
        vec![
            group("chore: rename", &["h2"]),
            group("chore: logo and mode", &["h1", "h3"]),
        ],
    );
    git.apply_split(&change, &plan, ApplyOptions::default(), |_| {})
        .unwrap();
    let first = repo.git(&["show", "--name-status", "--format=", "HEAD~1"]);
    assert_eq!(first, "R100\told.txt\tnew.txt\n");
    let second = repo.git(&["show", "--summary", "--format=", "HEAD"]);
    assert!(
        second.contains("mode change 100644 => 100755 run.sh"),
        "{second}"
    );
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_refused_with_its_name() {
    use std::os::unix::ffi::OsStrExt;
    let repo = TestRepo::tangled();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    fs::write(repo.path().join(name), "x\n").unwrap();
    let git = GitRepo::discover(&repo.path()).unwrap();
    let err = git.split_change(false).err().unwrap().to_string();
    assert!(
        err.contains("caf\u{fffd}.txt is not a UTF-8 file name"),
        "{err}"
    );
}

#[test]
fn a_file_deleted_and_one_moved_in_the_working_tree_are_whole_units() {
    let repo = TestRepo::tangled();
    repo.write("x.txt", "gone\n");
    repo.write("y.txt", "one\ntwo\nthree\nfour\nfive\n");
    repo.commit_all("more");
    fs::remove_file(repo.path().join("x.txt")).unwrap();
    fs::rename(repo.path().join("y.txt"), repo.path().join("z.txt")).unwrap();
    let git = GitRepo::discover(&repo.path()).unwrap();
    let change = git.split_change(false).unwrap();
    let places: Vec<String> = change.units.iter().map(|u| u.place()).collect();
    assert_eq!(places, vec!["x.txt (deleted file)", "z.txt (renamed file)"]);
    let plan = plan(
        &change,
        vec![
            group("chore: drop x", &["h1"]),
            group("chore: y is z", &["h2"]),
        ],
    );
    git.apply_split(&change, &plan, ApplyOptions::default(), |_| {})
        .unwrap();
    let first = repo.git(&["show", "--name-status", "--format=", "HEAD~1"]);
    assert_eq!(first, "D\tx.txt\n");
    let second = repo.git(&["show", "--name-status", "--format=", "HEAD"]);
    assert_eq!(second, "R100\ty.txt\tz.txt\n");
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
}

#[test]
fn a_file_with_a_filter_driver_is_refused_in_the_working_tree_but_not_when_staged() {
    let repo = TestRepo::tangled();
    repo.write(".gitattributes", "*.bin filter=lfs\n*.txt -filter\n");
    repo.write("big.bin", "version 1\n");
    repo.commit_all("attributes");
    // `-filter` names no driver: split as usual.
    repo.write("b.txt", "changed\n");
    let git = GitRepo::discover(&repo.path()).unwrap();
    assert_eq!(git.split_change(false).unwrap().units.len(), 1);
    repo.write("big.bin", "version 2\n");
    let err = git.split_change(false).err().unwrap().to_string();
    assert!(
        err.contains("big.bin goes through the `lfs` filter") && err.contains("--staged"),
        "{err}"
    );
    repo.git(&["add", "b.txt"]);
    let staged = git.split_change(true).unwrap();
    assert_eq!(staged.units.len(), 1);
}

#[test]
fn odd_states_are_refused() {
    let repo = TestRepo::new();
    let git = GitRepo::discover(&repo.path()).unwrap();
    let err = git.split_change(false).err().unwrap().to_string();
    assert!(err.contains("no commit yet"), "{err}");
    let _ = repo.conflicting_merge("x.txt");
    let err = git.split_change(false).err().unwrap().to_string();
    assert!(err.contains("in progress"), "{err}");
}
