//! Rewriting history's prose (reword) and absorbing staged hunks into the commits they fix,
//! checked against what the git command line says of the same repository.

use iris_studio_git::GitRepo;
use iris_studio_git::split::{AbsorbPlan, SplitChange};
use iris_studio_testkit::TestRepo;

/// What is staged, and the absorb plan for it against the default base.
fn staged_plan(git: &GitRepo) -> (SplitChange, AbsorbPlan) {
    let change = git.split_change(true).expect("change");
    let (base, name) = git.absorb_base(None).expect("base");
    let plan = git.absorb_plan(&change, base, &name).expect("plan");
    (change, plan)
}

fn open(repo: &TestRepo) -> GitRepo {
    GitRepo::discover(&repo.path()).expect("repository")
}

/// Each commit of HEAD's first-parent line, newest first: (tree, author line, message).
fn line_of(repo: &TestRepo) -> Vec<(String, String, String)> {
    repo.git(&[
        "log",
        "--first-parent",
        "--format=%T%x00%an <%ae> %ad%x00%B%x01",
    ])
    .split('\x01')
    .filter(|c| !c.trim().is_empty())
    .map(|c| {
        let mut parts = c.trim_start_matches('\n').splitn(3, '\0');
        let mut next = || parts.next().unwrap_or_default().to_string();
        (next(), next(), next().trim().to_string())
    })
    .collect()
}

/// a-b-c-d, each by its own author on its own day.
fn four_commits() -> (TestRepo, Vec<String>) {
    let repo = TestRepo::new();
    let mut ids = Vec::new();
    for (i, name) in ["a", "b", "c", "d"].iter().enumerate() {
        repo.write(&format!("{name}.txt"), format!("{name}\n"));
        repo.git(&["add", "-A"]);
        let date = format!("2024-01-0{} 10:00:00 +0200", i + 1);
        let out = repo.git_in(
            &repo.path(),
            &[
                "-c",
                &format!("user.name=Author {name}"),
                "commit",
                "-q",
                "-m",
                &format!("add {name}"),
                &format!("--date={date}"),
            ],
        );
        assert!(out.status.success(), "{out:?}");
        ids.push(repo.git(&["rev-parse", "HEAD"]).trim().to_string());
    }
    (repo, ids)
}

#[test]
fn a_reword_changes_the_messages_and_nothing_else() {
    let (repo, ids) = four_commits();
    let before = line_of(&repo);
    let git = open(&repo);
    let done = git
        .reword(
            &[
                (ids[1].clone(), "Add b, the second letter".into()),
                (ids[3].clone(), "Add d\n\nThe last one.".into()),
            ],
            None,
        )
        .expect("reword");
    assert_eq!((done.reworded, done.rewritten), (2, 3));
    let after = line_of(&repo);
    assert_eq!(after.len(), 4);
    for (old, new) in before.iter().zip(&after) {
        assert_eq!(old.0, new.0, "trees stay");
        assert_eq!(old.1, new.1, "authors and author dates stay");
    }
    let messages: Vec<&str> = after.iter().map(|c| c.2.as_str()).collect();
    assert_eq!(
        messages,
        [
            "Add d\n\nThe last one.",
            "add c",
            "Add b, the second letter",
            "add a"
        ]
    );
    // The commit below the first reworded one is the same commit.
    assert_eq!(repo.git(&["rev-parse", "HEAD~3"]).trim(), ids[0]);
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim(), done.head);
    assert!(repo.git(&["status", "--porcelain"]).trim().is_empty());
    // Undo puts the branch back.
    assert_eq!(git.undo_reword().expect("undo"), ids[3]);
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim(), ids[3]);
    assert!(git.undo_reword().is_err(), "nothing left to undo");
}

#[test]
fn a_merge_after_the_reworded_commit_stays_a_merge() {
    let repo = TestRepo::new();
    repo.write("base.txt", "base\n");
    let base = repo.commit_all("base");
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write("side.txt", "side\n");
    let side = repo.commit_all("side work");
    repo.git(&["checkout", "-q", "-"]);
    repo.write("main.txt", "main\n");
    let main = repo.commit_all("main work");
    repo.git(&["merge", "-q", "--no-ff", "-m", "merge side", "side"]);
    repo.write("top.txt", "top\n");
    repo.commit_all("top");
    let tree = repo.git(&["rev-parse", "HEAD^{tree}"]);
    let git = open(&repo);
    let range = git.reword_range(&format!("{base}..HEAD")).expect("range");
    let merges: Vec<bool> = range.iter().map(|c| c.merge).collect();
    assert_eq!(merges.iter().filter(|m| **m).count(), 1, "{range:?}");
    git.reword(&[(main, "Main work, reworded".into())], None)
        .expect("reword");
    assert_eq!(repo.git(&["rev-parse", "HEAD^{tree}"]), tree);
    assert_eq!(
        repo.git(&["rev-list", "--merges", "HEAD"]).lines().count(),
        1
    );
    // The merge's second parent is the side branch, untouched.
    assert_eq!(repo.git(&["rev-parse", "HEAD~1^2"]).trim(), side);
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s", "HEAD~1^1"]).trim(),
        "Main work, reworded"
    );
}

#[test]
fn ranges_off_the_line_of_head_are_refused_with_why() {
    let (repo, ids) = four_commits();
    let git = open(&repo);
    let root = git.reword_range(&ids[0]).unwrap_err().to_string();
    assert!(root.contains("root commit"), "{root}");
    let all = git
        .reword_range(&format!("{}..HEAD", ids[0]))
        .expect("range");
    assert_eq!(
        all.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        &ids[1..]
    );
    let backwards = git
        .reword_range(&format!("{}..{}", ids[3], ids[1]))
        .unwrap_err()
        .to_string();
    assert!(backwards.contains("not a line of history"), "{backwards}");
    repo.git(&["checkout", "-q", "-b", "other", &ids[1]]);
    repo.write("other.txt", "x\n");
    let other = repo.commit_all("elsewhere");
    repo.git(&["checkout", "-q", "-"]);
    let off = open(&repo).reword_range(&other).unwrap_err().to_string();
    assert!(off.contains("not on HEAD's history"), "{off}");
    assert!(git.reword_range("nope").is_err());
}

#[test]
fn commits_a_remote_has_are_named_with_the_remote_branch() {
    let (repo, ids) = four_commits();
    repo.git(&["update-ref", "refs/remotes/origin/main", &ids[1]]);
    let git = open(&repo);
    let published = git.published(&ids).expect("published");
    let shown: Vec<&str> = published.iter().map(|(_, b)| b.as_str()).collect();
    assert_eq!(shown, ["origin/main", "origin/main"]);
    assert_eq!(
        published[1].0,
        repo.git(&["rev-parse", "--short", &ids[1]]).trim()
    );
}

#[test]
fn an_undo_after_head_moved_changes_nothing() {
    let (repo, ids) = four_commits();
    let git = open(&repo);
    git.reword(&[(ids[2].clone(), "Add c".into())], None)
        .expect("reword");
    repo.write("e.txt", "e\n");
    let moved = repo.commit_all("add e");
    let err = git.undo_reword().unwrap_err().to_string();
    assert!(err.contains("HEAD moved"), "{err}");
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim(), moved);
}

#[test]
fn an_interrupted_reword_leaves_the_branch_where_it_was() {
    let (repo, ids) = four_commits();
    let stop = std::sync::atomic::AtomicBool::new(true);
    let err = open(&repo)
        .reword(&[(ids[1].clone(), "x".into())], Some(&stop))
        .unwrap_err()
        .to_string();
    assert!(err.contains("nothing was changed"), "{err}");
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim(), ids[3]);
}

fn staged_names(repo: &TestRepo) -> String {
    repo.git(&["diff", "--cached", "--name-only"])
}

#[test]
fn each_staged_hunk_goes_to_the_commit_that_last_touched_its_lines() {
    let repo = TestRepo::two_commit_feature();
    let a = repo.git(&["show", "HEAD:a.txt"]);
    repo.write(
        "a.txt",
        a.replace("a3 (x)\n", "a3 (x, fixed)\n")
            .replace("a15\n", "a15 (old line)\n"),
    );
    let b = repo.git(&["show", "HEAD:b.txt"]);
    repo.write("b.txt", b.replace("b5 (y)\n", "b5 (y, fixed)\n"));
    repo.write("c.txt", "new\n");
    repo.git(&["add", "-A"]);
    let x = repo.git(&["rev-parse", "HEAD~1"]).trim().to_string();
    let y = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    let git = open(&repo);
    let change = git.split_change(true).expect("change");
    let (base, name) = git.absorb_base(None).expect("base");
    assert_eq!(name, "main, the default branch");
    assert_eq!(base.to_string(), repo.git(&["rev-parse", "main"]).trim());
    let plan = git.absorb_plan(&change, base, &name).expect("plan");
    let targets: Vec<(&str, &str)> = plan
        .targets
        .iter()
        .map(|t| (t.id.as_str(), t.title.as_str()))
        .collect();
    assert_eq!(
        targets,
        [(x.as_str(), "X: change a3"), (y.as_str(), "Y: change b5")]
    );
    let left: Vec<(&str, bool)> = plan
        .left
        .iter()
        .map(|l| {
            (
                l.place.as_str(),
                l.why.contains("before the branch") || l.why.contains("new file"),
            )
        })
        .collect();
    assert_eq!(
        left,
        [("a.txt:12-18", true), ("c.txt (new file)", true)],
        "{:?}",
        plan.left
    );

    git.absorb_fixups(&change, &plan, None, |_| {})
        .expect("fixups");
    assert_eq!(
        repo.git(&["log", "--format=%s", "main..HEAD"]),
        "fixup! Y: change b5\nfixup! X: change a3\nY: change b5\nX: change a3\n"
    );
    // What no commit took is still staged, and only that.
    assert_eq!(staged_names(&repo), "a.txt\nc.txt\n");
    let staged = repo.git(&["diff", "--cached"]);
    assert!(
        staged.contains("+a15 (old line)") && !staged.contains("a3 (x, fixed)"),
        "{staged}"
    );
    assert!(
        repo.git(&["show", "HEAD~1:a.txt"])
            .contains("a3 (x, fixed)")
    );

    // Undo: the branch, the index and the files as they were.
    let undone = git.undo_absorb().expect("undo");
    assert_eq!(undone.removed, 2);
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim(), y);
    assert_eq!(staged_names(&repo), "a.txt\nb.txt\nc.txt\n");
}

#[test]
fn squashed_fixups_fold_into_their_targets_as_git_autosquash_does() {
    let repo = TestRepo::two_commit_feature();
    let a = repo.git(&["show", "HEAD:a.txt"]);
    repo.write("a.txt", a.replace("a3 (x)\n", "a3 (x, fixed)\n"));
    repo.git(&["add", "-A"]);
    let tree = repo.git(&["write-tree"]);
    let git = open(&repo);
    let (change, plan) = staged_plan(&git);
    assert!(plan.left.is_empty(), "{:?}", plan.left);
    git.absorb_fixups(&change, &plan, None, |_| {})
        .expect("fixups");
    git.squash_fixups(&plan.base).expect("squash");
    assert_eq!(
        repo.git(&["log", "--format=%s", "main..HEAD"]),
        "Y: change b5\nX: change a3\n"
    );
    assert_eq!(repo.git(&["rev-parse", "HEAD^{tree}"]), tree);
    assert!(
        repo.git(&["show", "HEAD~1:a.txt"])
            .contains("a3 (x, fixed)")
    );
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    // Undo after a squash: the branch back, the fix staged again.
    git.undo_absorb().expect("undo");
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s"]).trim(),
        "Y: change b5"
    );
    assert_eq!(staged_names(&repo), "a.txt\n");
}

#[test]
fn a_branch_with_no_commit_of_its_own_has_nothing_to_absorb_into() {
    let repo = TestRepo::two_commit_feature();
    repo.git(&["checkout", "-q", "main"]);
    let err = open(&repo).absorb_base(None).unwrap_err().to_string();
    assert!(err.contains("no commit of its own"), "{err}");
    assert!(open(&repo).absorb_base(Some("HEAD")).is_err());
}

#[test]
fn the_branch_starts_at_its_upstream_when_it_has_one() {
    let repo = TestRepo::two_commit_feature();
    let x = repo.git(&["rev-parse", "HEAD~1"]).trim().to_string();
    repo.git(&[
        "remote",
        "add",
        "origin",
        "https://example.invalid/demo.git",
    ]);
    repo.git(&["update-ref", "refs/remotes/origin/feature", &x]);
    repo.git(&["config", "branch.feature.remote", "origin"]);
    repo.git(&["config", "branch.feature.merge", "refs/heads/feature"]);
    let a = repo.git(&["show", "HEAD:a.txt"]);
    repo.write("a.txt", a.replace("a3 (x)\n", "a3 (x, fixed)\n"));
    repo.git(&["add", "-A"]);
    let git = open(&repo);
    let (base, name) = git.absorb_base(None).expect("base");
    assert_eq!(
        (base.to_string(), name.as_str()),
        (x, "origin/feature, the upstream")
    );
    let change = git.split_change(true).expect("change");
    let plan = git.absorb_plan(&change, base, &name).expect("plan");
    assert!(plan.targets.is_empty());
    assert!(
        plan.left[0].why.contains("before the branch"),
        "{:?}",
        plan.left
    );
}

/// A stand-in for gpg: git asks it to sign, it answers with a signature block and the status
/// line git waits for.
fn fake_gpg(repo: &TestRepo) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = repo.home().join("fake-gpg");
    let script = "#!/bin/sh\ncat >/dev/null\necho '[GNUPG:] SIG_CREATED D 1 8 00 0 0 0' >&2\n\
                  printf -- '-----BEGIN PGP SIGNATURE-----\\n\\nZmFrZQ==\\n-----END PGP SIGNATURE-----\\n'\n";
    let temp = path.with_extension("tmp");
    std::fs::write(&temp, script).unwrap();
    std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::rename(&temp, &path).unwrap();
    path
}

#[test]
fn signed_commits_are_signed_again_when_commit_gpgsign_says_so_and_named_when_not() {
    let (repo, ids) = four_commits();
    let gpg = fake_gpg(&repo);
    repo.git(&["config", "gpg.program", gpg.to_str().unwrap()]);
    repo.git(&["config", "user.signingkey", "TEST"]);
    repo.git(&["config", "commit.gpgsign", "true"]);
    let git = open(&repo);
    let done = git
        .reword(&[(ids[2].clone(), "Add c, signed".into())], None)
        .expect("reword");
    assert!(done.unsigned.is_empty());
    for rev in ["HEAD", "HEAD~1"] {
        let raw = repo.git(&["cat-file", "commit", rev]);
        assert!(
            raw.contains("gpgsig -----BEGIN PGP SIGNATURE-----"),
            "{raw}"
        );
    }
    // Without commit.gpgsign the signatures go, and the reword says which.
    repo.git(&["config", "commit.gpgsign", "false"]);
    let done = git
        .reword(&[(done.head.clone(), "Add d, unsigned".into())], None)
        .expect("reword");
    assert_eq!(
        done.unsigned,
        [repo.git(&["rev-parse", "--short", "HEAD@{1}"]).trim()]
    );
    assert!(!repo.git(&["cat-file", "commit", "HEAD"]).contains("gpgsig"));
}

#[test]
fn nothing_is_reworded_while_a_merge_is_in_progress() {
    let repo = TestRepo::new();
    let out = repo.conflicting_merge("f.txt");
    assert!(!out.status.success());
    let git = open(&repo);
    let err = git.reword_range("HEAD").unwrap_err().to_string();
    assert!(err.contains("in progress"), "{err}");
}

#[test]
fn a_title_two_commits_share_is_fixed_up_by_id_so_autosquash_finds_the_right_one() {
    let repo = TestRepo::two_commit_feature();
    // A second commit titled like X.
    let b = repo.git(&["show", "HEAD:b.txt"]);
    repo.write("b.txt", b.replace("b15\n", "b15 (z)\n"));
    repo.commit_all("X: change a3");
    let z = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    let b = repo.git(&["show", "HEAD:b.txt"]);
    repo.write("b.txt", b.replace("b15 (z)\n", "b15 (z, fixed)\n"));
    repo.git(&["add", "-A"]);
    let git = open(&repo);
    let (change, plan) = staged_plan(&git);
    assert_eq!(plan.fixups().groups[0].message, format!("fixup! {z}"));
    git.absorb_fixups(&change, &plan, None, |_| {})
        .expect("fixups");
    git.squash_fixups(&plan.base).expect("squash");
    assert_eq!(
        repo.git(&["log", "--format=%s", "main.."]),
        "X: change a3\nY: change b5\nX: change a3\n"
    );
    assert!(repo.git(&["show", "HEAD:b.txt"]).contains("b15 (z, fixed)"));
    assert!(!repo.git(&["show", "HEAD~2:b.txt"]).contains("b15 (z"));
}

#[test]
fn undoing_an_absorb_keeps_what_was_edited_in_the_working_tree_since() {
    let repo = TestRepo::two_commit_feature();
    let a = repo.git(&["show", "HEAD:a.txt"]);
    repo.write("a.txt", a.replace("a3 (x)\n", "a3 (x, fixed)\n"));
    repo.git(&["add", "-A"]);
    let git = open(&repo);
    let (change, plan) = staged_plan(&git);
    git.absorb_fixups(&change, &plan, None, |_| {})
        .expect("fixups");
    let edited = a
        .replace("a3 (x)\n", "a3 (x, fixed)\n")
        .replace("a20\n", "a20 (later)\n");
    repo.write("a.txt", &edited);
    git.undo_absorb().expect("undo");
    assert_eq!(
        std::fs::read_to_string(repo.path().join("a.txt")).unwrap(),
        edited
    );
    assert_eq!(repo.git(&["diff", "--cached", "--name-only"]), "a.txt\n");
}

#[test]
fn a_line_added_at_the_end_of_a_block_the_branch_wrote_goes_to_that_commit() {
    let repo = TestRepo::two_commit_feature();
    // Z adds two lines after a10; the fix adds a third after them, before the base's a11.
    let block = |lines: &str| {
        iris_studio_testkit::numbered("a")
            .replace("a3\n", "a3 (x)\n")
            .replace("a10\n", &format!("a10\n{lines}"))
    };
    repo.write("a.txt", block("z1\nz2\n"));
    let z = repo.commit_all("Z: add a block");
    repo.write("a.txt", block("z1\nz2\nz3\n"));
    repo.git(&["add", "-A"]);
    let git = open(&repo);
    let (_, plan) = staged_plan(&git);
    assert!(plan.left.is_empty(), "{:?}", plan.left);
    assert_eq!(plan.targets.len(), 1);
    assert_eq!(plan.targets[0].id, z);
}

#[test]
fn a_detached_head_is_reworded_and_undone_in_place() {
    let (repo, ids) = four_commits();
    repo.git(&["checkout", "-q", "--detach", &ids[3]]);
    let git = open(&repo);
    let done = git
        .reword(&[(ids[3].clone(), "Add d, detached".into())], None)
        .expect("reword");
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim(), done.head);
    let symbolic = repo.git_output(&["symbolic-ref", "-q", "HEAD"]);
    assert!(!symbolic.status.success(), "still detached");
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s"]).trim(),
        "Add d, detached"
    );
    git.undo_reword().expect("undo");
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim(), ids[3]);
}
