//! Stacks read from repositories built with the git command line: from history alone, from
//! git-town's and Graphite's records, and the odd ones (an empty layer, two branches above,
//! a record that disagrees with history, a stack on another trunk).

use iris_studio_git::{GitRepo, OnRemote};
use iris_studio_testkit::TestRepo;

fn open(repo: &TestRepo) -> GitRepo {
    GitRepo::discover(&repo.path()).unwrap()
}

/// Each layer as `parent..branch: titles`.
fn layers(repo: &TestRepo, base: &str, branch: &str) -> (Vec<String>, usize, Vec<String>) {
    let stack = open(repo).stack(base, branch).unwrap();
    let shown = stack
        .layers
        .iter()
        .map(|l| format!("{}..{}: {}", l.parent, l.branch, l.titles.join(", ")))
        .collect();
    (shown, stack.current, stack.notes)
}

const WHOLE: [&str; 3] = [
    "main..b1: Add the lexer, Add the parser",
    "b1..b2: Add the evaluator",
    "b2..b3: Add the REPL",
];

#[test]
fn the_stack_is_read_from_history_below_and_above_the_checked_out_branch() {
    let repo = TestRepo::stack();
    let (found, current, notes) = layers(&repo, "main", "b3");
    assert_eq!(found, WHOLE);
    assert_eq!(current, 2);
    assert!(notes.is_empty(), "{notes:?}");
    // From the middle, the branch above is in the stack too.
    let (found, current, _) = layers(&repo, "main", "b2");
    assert_eq!(found, WHOLE);
    assert_eq!(current, 1);
    // A branch that is in no stack is a stack of one.
    let (found, _, _) = layers(&repo, "main", "b1");
    assert_eq!(found, WHOLE);
}

#[test]
fn a_branch_without_commits_is_left_out_and_two_branches_on_one_commit_are_said() {
    let repo = TestRepo::stack();
    repo.git(&["branch", "b2-copy", "b2"]);
    let (found, _, notes) = layers(&repo, "main", "b3");
    assert_eq!(found, WHOLE);
    assert!(
        notes.iter().any(
            |n| n == "b2 and b2-copy point at the same commit: b2 stands for them in the stack"
        ),
        "{notes:?}"
    );
    // A new branch on the top, with nothing committed yet: it stands for the layer.
    repo.git(&["checkout", "-q", "-b", "b4"]);
    let (found, current, notes) = layers(&repo, "main", "b4");
    assert_eq!(found[2], "b2..b4: Add the REPL");
    assert_eq!(current, 2);
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("b3 and b4 point at the same commit")),
        "{notes:?}"
    );
    // Recorded on b3 (git-town's `hack` on a stack), it is a layer without commits.
    repo.git(&["config", "git-town-branch.b4.parent", "b3"]);
    let (found, _, notes) = layers(&repo, "main", "b4");
    assert_eq!(found, WHOLE);
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("b4 has no commits of its own (it points where b3 does)")),
        "{notes:?}"
    );
}

#[test]
fn branches_above_that_fork_end_the_stack_at_the_checked_out_one() {
    let repo = TestRepo::stack();
    repo.git(&["checkout", "-q", "-b", "b3-other", "b2"]);
    repo.write("src/other.rs", "pub fn other() {}\n");
    repo.commit_all("Add another front end");
    let (found, current, notes) = layers(&repo, "main", "b2");
    assert_eq!(found, WHOLE[..2]);
    assert_eq!(current, 1);
    assert!(
        notes.iter().any(|n| n.contains("not one line")),
        "{notes:?}"
    );
}

#[test]
fn git_towns_record_wins_over_history_and_says_so() {
    let repo = TestRepo::stack();
    // b3 recorded directly on b1: b2 is then no layer of b3's stack.
    repo.git(&["config", "git-town-branch.b3.parent", "b1"]);
    repo.git(&["config", "git-town-branch.b1.parent", "main"]);
    let (found, _, notes) = layers(&repo, "main", "b3");
    assert_eq!(
        found,
        [
            "main..b1: Add the lexer, Add the parser",
            "b1..b3: Add the evaluator, Add the REPL"
        ]
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("git-town records b3's parent as b1")),
        "{notes:?}"
    );
}

#[test]
fn graphites_records_are_read_from_its_refs_and_its_cache_file() {
    let repo = TestRepo::stack();
    // The metadata ref names b1 as b3's parent; the cache file says b1 sits on main.
    let meta = repo.path().join(".git/meta.json");
    std::fs::write(
        &meta,
        r#"{"parentBranchName":"b1","parentBranchRevision":"x"}"#,
    )
    .unwrap();
    let blob = repo.git(&["hash-object", "-w", meta.to_str().unwrap()]);
    repo.git(&["update-ref", "refs/branch-metadata/b3", blob.trim()]);
    std::fs::write(
        repo.path().join(".git/.graphite_cache_persist"),
        r#"{"branches":[["main",{"validationResult":"TRUNK"}],["b1",{"parentBranchName":"main"}]]}"#,
    )
    .unwrap();
    let (found, _, notes) = layers(&repo, "main", "b3");
    assert_eq!(found[1], "b1..b3: Add the evaluator, Add the REPL");
    assert!(
        notes.iter().any(|n| n.starts_with("Graphite records")),
        "{notes:?}"
    );
}

#[test]
fn a_stack_on_a_trunk_of_its_own_goes_into_it() {
    let repo = TestRepo::stack();
    // git-town: b1 sits on `develop`, a perennial branch with work of its own.
    repo.git(&["branch", "develop", "main"]);
    repo.git(&["config", "git-town.perennial-branches", "develop qa"]);
    repo.git(&["config", "git-town-branch.b1.parent", "develop"]);
    repo.git(&["config", "git-town-branch.b2.parent", "b1"]);
    repo.git(&["config", "git-town-branch.b3.parent", "b2"]);
    let stack = open(&repo).stack("main", "b3").unwrap();
    assert_eq!(stack.base, "develop");
    assert_eq!(stack.layers[0].parent, "develop");
    assert!(
        stack
            .notes
            .iter()
            .any(|n| n.contains("sits on develop, not on main")),
        "{:?}",
        stack.notes
    );
}

#[test]
fn a_layers_change_id_stays_when_only_its_parent_moved() {
    let repo = TestRepo::stack();
    let git = open(&repo);
    let before = git.layer_change("b2", "b3").unwrap();
    let b2_before = git.layer_change("b1", "b2").unwrap();
    // b1 gains a commit; b2 and b3 are rebased onto it: their changes are the same.
    repo.git(&["checkout", "-q", "b1"]);
    repo.write("src/lexer.rs", "pub fn lex() { /* faster */ }\n");
    repo.commit_all("Speed up the lexer");
    repo.git(&["rebase", "-q", "--update-refs", "b1", "b3"]);
    let git = open(&repo);
    assert_eq!(git.layer_change("b2", "b3").unwrap(), before);
    assert_eq!(git.layer_change("b1", "b2").unwrap(), b2_before);
    // A layer below adds lines far above the ones b3 changes: the hunk's numbers move, the
    // id stays (as `git patch-id`'s would).
    let lines: String = (1..=12).map(|i| format!("line {i}\n")).collect();
    repo.git(&["checkout", "-q", "b1"]);
    repo.write("NOTES.md", format!("{lines}the end\n"));
    repo.commit_all("Notes");
    repo.git(&["rebase", "-q", "--update-refs", "b1", "b3"]);
    repo.write("NOTES.md", format!("{lines}the very end\n"));
    repo.commit_all("Reword the notes' end");
    let b3_before = open(&repo).layer_change("b2", "b3").unwrap();
    repo.git(&["checkout", "-q", "b1"]);
    repo.write("NOTES.md", format!("Intro.\n\n{lines}the end\n"));
    repo.commit_all("Add an intro");
    repo.git(&["rebase", "-q", "--update-refs", "b1", "b3"]);
    assert_eq!(open(&repo).layer_change("b2", "b3").unwrap(), b3_before);
    let before = b3_before;
    // b3's own change changes: its id does.
    repo.write("src/repl.rs", "pub fn repl() { loop {} }\n");
    repo.commit_all("Loop the REPL");
    assert_ne!(open(&repo).layer_change("b2", "b3").unwrap(), before);
}

#[test]
fn a_branch_on_the_remote_is_there_behind_ahead_or_elsewhere() {
    let repo = TestRepo::stack();
    let git = open(&repo);
    let on = |branch: &str, here: &str| git.on_remote("origin", branch, here).unwrap();
    assert_eq!(on("b1", "b1"), OnRemote::Missing);
    repo.git(&["update-ref", "refs/remotes/origin/b1", "b1"]);
    repo.git(&["update-ref", "refs/remotes/origin/b2", "b1"]);
    repo.git(&["update-ref", "refs/remotes/origin/main", "b1"]);
    // b4 is a commit of its own on main; origin has b1 there.
    let own = repo.git(&["commit-tree", "main^{tree}", "-p", "main", "-m", "own"]);
    repo.git(&["branch", "b4", own.trim()]);
    repo.git(&["update-ref", "refs/remotes/origin/b4", "b1"]);
    assert_eq!(on("b1", "b1"), OnRemote::Same);
    assert_eq!(on("b2", "b2"), OnRemote::Behind);
    assert_eq!(on("main", "main"), OnRemote::Ahead);
    assert_eq!(on("main", "origin/main"), OnRemote::Same);
    assert_eq!(on("b4", "b4"), OnRemote::Diverged);
    assert!(git.on_remote("origin", "b1", "no-such-branch").is_err());
}

#[test]
fn the_base_branch_is_in_no_stack() {
    let repo = TestRepo::stack();
    let stack = open(&repo).stack("main", "main").unwrap();
    assert!(stack.layers.is_empty());
    // Nor is a new branch still on the base.
    repo.git(&["branch", "fresh", "main"]);
    assert!(
        open(&repo)
            .stack("main", "fresh")
            .unwrap()
            .layers
            .is_empty()
    );
}

#[test]
fn a_stack_is_read_from_a_branch_only() {
    let repo = TestRepo::stack();
    let err = open(&repo).stack("main", "nope").unwrap_err().to_string();
    assert!(err.contains("'nope' is not a local branch"), "{err}");
}
