//! Staging through the git layer, checked with the git command line.

use iris_studio_git::GitRepo;
use iris_studio_testkit::TestRepo;

fn cached_names(repo: &TestRepo) -> Vec<String> {
    let mut names: Vec<String> = repo
        .git(&["diff", "--cached", "--name-only"])
        .lines()
        .map(str::to_string)
        .collect();
    names.sort();
    names
}

fn open(repo: &TestRepo) -> GitRepo {
    GitRepo::discover(&repo.path()).expect("repository")
}

#[test]
fn files_are_staged_and_unstaged_like_git_add_and_git_reset() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.write("gone.txt", "bye\n");
    repo.commit_all("base");
    repo.write("a.txt", "changed\n");
    repo.write("new.txt", "new\n");
    std::fs::remove_file(repo.path().join("gone.txt")).unwrap();
    let git = open(&repo);

    git.stage("a.txt").unwrap();
    git.stage("gone.txt").unwrap();
    assert_eq!(cached_names(&repo), ["a.txt", "gone.txt"]);
    git.unstage("a.txt").unwrap();
    assert_eq!(cached_names(&repo), ["gone.txt"]);
    git.stage_all().unwrap();
    assert_eq!(cached_names(&repo), ["a.txt", "gone.txt", "new.txt"]);
    git.unstage_all().unwrap();
    assert!(cached_names(&repo).is_empty());
    assert!(git.stage("../outside").is_err());
}

#[test]
fn unstaging_works_before_the_first_commit() {
    let repo = TestRepo::new();
    repo.write("first.txt", "1\n");
    let git = open(&repo);
    git.stage("first.txt").unwrap();
    assert_eq!(cached_names(&repo), ["first.txt"]);
    git.unstage("first.txt").unwrap();
    assert!(cached_names(&repo).is_empty());
    git.stage_all().unwrap();
    git.unstage_all().unwrap();
    assert!(cached_names(&repo).is_empty());
}

#[test]
fn one_hunk_is_staged_and_the_other_is_not() {
    let repo = TestRepo::new();
    repo.two_hunk_change("f.txt");
    let git = open(&repo);

    git.stage_hunk("f.txt", 1).unwrap();
    let cached = repo.git(&["diff", "--cached"]);
    assert!(cached.contains("+line 28 changed"), "{cached}");
    assert!(!cached.contains("+line 2 changed"));
    let unstaged = repo.git(&["diff"]);
    assert!(unstaged.contains("+line 2 changed"));
    assert!(git.stage_hunk("f.txt", 5).is_err());
}

#[test]
fn one_staged_hunk_is_unstaged_and_the_working_tree_keeps_it() {
    let repo = TestRepo::new();
    let changed = repo.two_hunk_change("f.txt");
    repo.git(&["add", "f.txt"]);
    let git = open(&repo);
    // The hunks are numbered as the staged diff shows them.
    let shown = git
        .diff_files(&iris_studio_git::DiffTarget::Staged, &["f.txt".into()])
        .unwrap();
    assert_eq!(shown[0].hunks.len(), 2);

    git.unstage_hunk("f.txt", 0).unwrap();
    let cached = repo.git(&["diff", "--cached"]);
    assert!(cached.contains("+line 28 changed"), "{cached}");
    assert!(!cached.contains("line 2 changed"), "{cached}");
    let unstaged = repo.git(&["diff"]);
    assert!(unstaged.contains("+line 2 changed"), "{unstaged}");
    assert!(!unstaged.contains("line 28"), "{unstaged}");
    assert_eq!(
        std::fs::read_to_string(repo.path().join("f.txt")).unwrap(),
        changed,
        "the working tree is untouched"
    );
    git.unstage_hunk("f.txt", 0).unwrap();
    assert_eq!(repo.git(&["diff", "--cached"]), "");
    let err = git.unstage_hunk("f.txt", 0).unwrap_err();
    assert!(err.to_string().contains("no staged hunk 1"), "{err}");
}

#[test]
fn a_staged_new_file_is_unstaged_whole_before_the_first_commit() {
    let repo = TestRepo::new();
    repo.write("new.txt", "a\nb\n");
    repo.git(&["add", "new.txt"]);
    let git = open(&repo);
    // A new file is one hunk: unstaging it unstages the file, which stays on disk.
    git.unstage_hunk("new.txt", 0).unwrap();
    assert!(cached_names(&repo).is_empty());
    assert!(repo.path().join("new.txt").exists());
    // And staging its one hunk stages it again; a deleted file's one hunk stages the deletion.
    git.stage_hunk("new.txt", 0).unwrap();
    assert_eq!(cached_names(&repo), ["new.txt"]);
    repo.commit_all("add");
    std::fs::remove_file(repo.path().join("new.txt")).unwrap();
    git.stage_hunk("new.txt", 0).unwrap();
    assert_eq!(
        repo.git(&["diff", "--cached", "--name-status"]),
        "D\tnew.txt\n"
    );
}

#[test]
fn one_path_is_known_untracked_without_a_full_status() {
    let repo = TestRepo::new();
    repo.write("tracked.txt", "t\n");
    repo.commit_all("base");
    repo.write("new.txt", "n\n");
    let git = open(&repo);
    assert!(git.is_untracked("new.txt").unwrap());
    assert!(!git.is_untracked("tracked.txt").unwrap());
    assert!(!git.is_untracked("missing.txt").unwrap());
    assert!(git.is_untracked("../escape").is_err());
}
