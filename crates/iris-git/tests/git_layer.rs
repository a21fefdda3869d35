//! The git layer's diff text against `git diff` on the same repository: the same files, hunks
//! and lines (git's `index` and `similarity` lines aside, which the layer does not print).

use iris_studio_core::change::parse_unified_diff;
use iris_studio_git::{DiffTarget, GitRepo};
use iris_studio_testkit::TestRepo;

fn without_index_lines(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("index ") && !l.starts_with("similarity index "))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn ours(repo: &TestRepo, target: DiffTarget) -> String {
    let git = GitRepo::discover(&repo.path()).expect("repository");
    git.diff_text(&target, &[]).expect("diff")
}

/// A change with every kind of file event git prints differently.
fn varied_change(repo: &TestRepo) {
    let body: String = (0..30)
        .map(|i| format!("fn f{i}() -> u32 {{ {i} }}\n"))
        .collect();
    repo.write("src/lib.rs", &body);
    repo.write("moved.txt", "a\nb\nc\nd\ne\nf\ng\nh\n");
    repo.write("gone.txt", "bye\nfor now\n");
    repo.write("no_newline.txt", "last line has no newline");
    repo.write("crlf.txt", "one\r\ntwo\r\n");
    repo.write("script.sh", "echo hi\n");
    repo.write("café.txt", "accent\n");
    repo.write("blob.bin", [0u8, 1, 2, 3]);
    repo.commit_all("base");

    let changed = body
        .replace("f7() -> u32 { 7 }", "f7() -> u32 { 70 }")
        .replace("fn f20", "fn g20");
    repo.write(
        "src/lib.rs",
        format!("// header\n{changed}fn added() {{}}\n"),
    );
    repo.git(&["mv", "moved.txt", "renamed.txt"]);
    repo.git(&["rm", "-q", "gone.txt"]);
    repo.write("no_newline.txt", "last line still has no newline");
    repo.write("crlf.txt", "one\r\nTWO\r\n");
    repo.git(&["update-index", "--chmod=+x", "script.sh"]);
    repo.write("café.txt", "accent changed\n");
    repo.write("blob.bin", [0u8, 9, 9]);
    repo.write("new dir/new file.rs", "pub fn fresh() {}\n");
    repo.write("empty.txt", "");
    repo.git(&["add", "-A"]);
}

#[test]
fn staged_diff_text_matches_git_diff_cached() {
    let repo = TestRepo::new();
    varied_change(&repo);
    let git = repo.git(&["diff", "--cached", "--no-color", "--no-ext-diff"]);
    let text = ours(&repo, DiffTarget::Staged);
    assert_eq!(without_index_lines(&text), without_index_lines(&git));

    // And the parsed model agrees with `git diff --numstat` on names and counts.
    let files = iris_studio_core::change::parse_unified_diff(&text);
    // Rendered back, it is the same text: modes, renames, binary files and quoted names too.
    let mut rendered = String::new();
    for file in &files {
        file.render(&mut rendered);
    }
    assert_eq!(rendered, text);
    let numstat = repo.git(&["diff", "--cached", "--numstat", "-z"]);
    let mut expected: Vec<String> = numstat
        .split('\0')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    expected.sort();
    let mut got: Vec<String> = Vec::new();
    for f in &files {
        let counts = if f.binary {
            "-\t-\t".to_string()
        } else {
            format!("{}\t{}\t", f.additions, f.deletions)
        };
        match &f.old_path {
            // -z prints a rename as "a\td\t" then the two names as separate fields.
            Some(old) => {
                got.push(counts);
                got.push(old.clone());
                got.push(f.path.clone());
            }
            None => got.push(format!("{counts}{}", f.path)),
        }
    }
    got.sort();
    assert_eq!(got, expected);
}

#[test]
fn working_tree_and_unstaged_diffs_match_git() {
    let repo = TestRepo::new();
    varied_change(&repo);
    repo.write("src/lib.rs", "// rewritten in the working tree\n");
    repo.write("renamed.txt", "a\nb\nc\nchanged\ne\nf\ng\nh\n");
    let git = repo.git(&["diff", "--no-color"]);
    assert_eq!(
        without_index_lines(&ours(&repo, DiffTarget::Unstaged)),
        without_index_lines(&git)
    );
    let git = repo.git(&["diff", "HEAD", "--no-color"]);
    assert_eq!(
        without_index_lines(&ours(&repo, DiffTarget::WorkingTree)),
        without_index_lines(&git)
    );
}

#[test]
fn range_and_commit_diffs_match_git() {
    let repo = TestRepo::new();
    varied_change(&repo);
    repo.git(&["commit", "-q", "-m", "change"]);
    repo.write("src/lib.rs", "fn only() {}\n");
    repo.commit_all("rewrite");
    let range = DiffTarget::Range {
        from: "HEAD~2".into(),
        to: "HEAD".into(),
    };
    let git = repo.git(&["diff", "--no-color", "HEAD~2", "HEAD"]);
    assert_eq!(
        without_index_lines(&ours(&repo, range)),
        without_index_lines(&git)
    );
    let git = repo.git(&["diff", "--no-color", "HEAD~2", "HEAD~1"]);
    assert_eq!(
        without_index_lines(&ours(&repo, DiffTarget::Commit("HEAD~1".into()))),
        without_index_lines(&git)
    );
}

#[test]
fn a_change_large_enough_to_be_split_across_threads_matches_git() {
    let repo = TestRepo::new();
    for i in 0..300 {
        repo.write(
            &format!("src/m{i:03}.rs"),
            format!("fn f{i}() {{}}\nfn keep() {{}}\n"),
        );
    }
    repo.commit_all("base");
    for i in (0..300).step_by(2) {
        repo.write(
            &format!("src/m{i:03}.rs"),
            format!("fn f{i}() {{ work(); }}\nfn keep() {{}}\n"),
        );
    }
    repo.write("src/zz_new.rs", "fn new() {}\n");
    repo.git(&["add", "-A"]);
    let git = repo.git(&["diff", "--cached", "--no-color"]);
    let text = ours(&repo, DiffTarget::Staged);
    assert_eq!(without_index_lines(&text), without_index_lines(&git));
    assert_eq!(text.matches("diff --git").count(), 151);
}

#[test]
fn an_untracked_file_reads_as_git_shows_it_after_add_intent() {
    let repo = TestRepo::new();
    repo.write("base.txt", "x\n");
    repo.commit_all("base");
    repo.write("new dir/fresh.rs", "fn fresh() {}\n\tindented\n");
    let ours = GitRepo::discover(&repo.path())
        .expect("repository")
        .untracked_file_patch("new dir/fresh.rs")
        .expect("patch");
    repo.git(&["add", "-N", "new dir/fresh.rs"]);
    let git = repo.git(&["diff", "--no-color", "--", "new dir/fresh.rs"]);
    assert_eq!(without_index_lines(&ours), without_index_lines(&git));
}

/// Each file's added and removed lines, read without writing patch text (what the studio's
/// ranking uses), are the lines the parsed diff holds.
#[test]
fn changed_lines_are_the_lines_of_the_parsed_diff() {
    let repo = TestRepo::new();
    varied_change(&repo);
    repo.write("src/lib.rs", "// rewritten in the working tree\n");
    for i in 0..70 {
        // Enough files for the work to be split across threads.
        repo.write(&format!("many/f{i:02}.txt"), format!("line {i}\n"));
    }
    repo.git(&["add", "many"]);
    let git = GitRepo::discover(&repo.path()).expect("repository");
    for target in [DiffTarget::Staged, DiffTarget::WorkingTree] {
        let list = git.change_list(&target, &[]).expect("list");
        let mut fast = git
            .map_changed_lines(&list, |file, lines| {
                let text = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
                let (added, removed) = (text(lines.added), text(lines.removed));
                (file.path.clone(), file.kind, lines.binary, added, removed)
            })
            .expect("lines");
        let mut parsed: Vec<_> = git
            .diff_files(&target, &[])
            .expect("diff")
            .iter()
            .map(|f| {
                let lines = |l: Vec<&str>| l.into_iter().map(str::to_string).collect::<Vec<_>>();
                let (added, removed) = (f.added_lines().collect(), f.removed_lines().collect());
                (
                    f.path.clone(),
                    f.kind,
                    f.binary,
                    lines(added),
                    lines(removed),
                )
            })
            .collect();
        fast.sort_by(|a, b| a.0.cmp(&b.0));
        parsed.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(fast, parsed, "{target:?}");
        assert!(fast.len() > 70, "{target:?}: {}", fast.len());
        let crlf = fast.iter().find(|f| f.0 == "crlf.txt").expect("crlf.txt");
        assert_eq!(crlf.3, vec!["TWO\r"]);
        assert!(fast.iter().any(|f| f.0 == "blob.bin" && f.2), "{target:?}");
    }
}

/// Each file's changed lines, as the ranking reads them, are those `git diff -U0` prints,
/// in order. (Where a change could sit elsewhere, the lines read the same here either way:
/// this does not test the slider heuristic.)
#[test]
fn changed_lines_are_git_s() {
    let repo = TestRepo::new();
    // A function added between two like it, and lines that repeat.
    let slide = |fns: &[&str]| -> String {
        fns.iter()
            .map(|name| format!("fn {name}() {{\n    work();\n}}\n\n"))
            .collect()
    };
    repo.write("slide.rs", slide(&["a", "b", "c"]));
    repo.write("repeat.txt", "x\ny\nx\ny\nx\n");
    varied_change(&repo);
    repo.write("slide.rs", slide(&["a", "b", "new", "c"]));
    repo.write("repeat.txt", "x\nx\ny\ny\nx\nz\n");
    repo.git(&["add", "-A"]);
    let git = GitRepo::discover(&repo.path()).expect("repository");
    let list = git.change_list(&DiffTarget::Staged, &[]).expect("list");
    let text = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    let ours = git
        .map_changed_lines(&list, |file, lines| {
            (file.path.clone(), text(lines.added), text(lines.removed))
        })
        .expect("lines");
    let theirs: Vec<_> = parse_unified_diff(&repo.git(&["diff", "--cached", "-U0"]))
        .iter()
        .map(|f| {
            let (added, removed): (Vec<&str>, Vec<&str>) =
                (f.added_lines().collect(), f.removed_lines().collect());
            (f.path.clone(), text(&added), text(&removed))
        })
        .collect();
    assert!(ours.len() > 10, "{ours:?}");
    assert_eq!(ours, theirs);
}

#[test]
fn line_times_match_git_blame_of_the_working_copy() {
    let repo = TestRepo::new();
    repo.write("a.txt", "one\ntwo\nthree\n");
    repo.commit_all("first");
    repo.write("a.txt", "one\n2\nthree\nfour\n");
    repo.commit_all("second");
    // A line not committed yet, before the others.
    repo.write("a.txt", "zero\none\n2\nthree\nfour\n");
    let git = GitRepo::discover(&repo.path()).expect("repo");
    let content = std::fs::read(repo.path().join("a.txt")).expect("read");
    let ours = git.line_times("a.txt", &content).expect("line times");

    // What `git blame --porcelain` says of the working copy: each line's commit, and each
    // commit's author time the first time it appears.
    let porcelain = repo.git(&["blame", "--porcelain", "a.txt"]);
    let mut times = std::collections::HashMap::new();
    let mut order = Vec::new();
    let mut current = String::new();
    for line in porcelain.lines() {
        let first = line.split(' ').next().unwrap_or_default();
        if first.len() == 40 && first.chars().all(|c| c.is_ascii_hexdigit()) {
            current = first.to_string();
            order.push(current.clone());
        } else if let Some(time) = line.strip_prefix("author-time ") {
            times.insert(current.clone(), time.parse::<i64>().expect("a time"));
        }
    }
    let theirs: Vec<Option<i64>> = order
        .iter()
        .map(|sha| (!sha.chars().all(|c| c == '0')).then(|| times[sha]))
        .collect();
    assert_eq!(ours, theirs);
    assert_eq!(ours[0], None);
    assert!(
        ours[2] > ours[1],
        "line 2 changed in the second commit: {ours:?}"
    );
    // The same blame, line by line, numbered as in the working copy.
    let lines = git
        .blame_working_copy("a.txt", &content, 1, Some(4))
        .expect("blame");
    assert!(lines[0].is_uncommitted());
    let commits: Vec<&str> = lines[1..].iter().map(|l| l.commit.as_str()).collect();
    assert_eq!(commits, order[1..4].to_vec());
    assert_eq!(
        (lines[2].line, lines[2].content.as_str()),
        (3, "2"),
        "the working copy's line 3"
    );

    // A file with no history: nothing committed.
    repo.write("new.txt", "a\nb\n");
    assert_eq!(
        git.line_times("new.txt", b"a\nb\n").expect("new"),
        vec![None, None]
    );
}
