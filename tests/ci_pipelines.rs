//! The ready-made pipelines of assets/ci: every job's shell lines that call Iris (a GitHub
//! step's `run`, a GitLab job's `script`) are run as the CI would run them, on a temporary
//! repository, against the fake provider and fake `gh` and `glab`. A renamed flag breaks
//! this test, not a user's pipeline.

use std::path::{Path, PathBuf};

use crate::common::agent::Wire;
use crate::common::fake_provider::FAKE_API_KEY;
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{IRIS, Iris, TestRepo, fake_bin, stderr, stdout};
use serde_json::{Value, json};
use yaml_rust2::{Yaml, YamlLoader};

/// One CI job: where it comes from, its environment, and the shell blocks it runs.
struct Job {
    name: String,
    env: Vec<(String, String)>,
    blocks: Vec<String>,
}

fn pipelines(forge: &str) -> Vec<(PathBuf, Yaml)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/ci")
        .join(forge);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("assets/ci")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("read");
            let mut docs = YamlLoader::load_from_str(&text).expect("YAML");
            (path, docs.remove(0))
        })
        .collect()
}

/// A value of a workflow's `env`, with the expressions the pipelines use filled in as CI
/// would; an expression this test does not know fails it (so a new one is looked at).
fn github_value(value: &str) -> String {
    let known = [
        ("${{ github.base_ref }}", "main"),
        ("${{ github.ref_name }}", "v0.2.0"),
        ("${{ github.token }}", "github-token"),
        ("${{ secrets.ANTHROPIC_API_KEY }}", FAKE_API_KEY),
    ];
    let mut filled = value.to_string();
    for (expression, with) in known {
        filled = filled.replace(expression, with);
    }
    assert!(!filled.contains("${{"), "an unknown expression: {value}");
    filled
}

fn text(yaml: &Yaml) -> String {
    match yaml {
        Yaml::String(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        other => panic!("not a scalar: {other:?}"),
    }
}

fn pairs(yaml: &Yaml) -> Vec<(String, String)> {
    yaml.as_hash()
        .map(|hash| hash.iter().map(|(k, v)| (text(k), text(v))).collect())
        .unwrap_or_default()
}

/// Whether a shell line installs something (the CI image's business, not Iris').
fn installs(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("cargo install") || line.starts_with("apt-get")
}

fn github_jobs() -> Vec<Job> {
    let mut jobs = Vec::new();
    for (path, doc) in pipelines("github") {
        let file = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        for (name, job) in doc["jobs"].as_hash().expect("jobs") {
            let mut env = Vec::new();
            let mut blocks = Vec::new();
            for step in job["steps"].as_vec().expect("steps") {
                let Some(run) = step["run"].as_str() else {
                    continue;
                };
                if installs(run) {
                    continue;
                }
                for (key, value) in pairs(&step["env"]) {
                    env.push((key, github_value(&value)));
                }
                blocks.push(run.to_string());
            }
            jobs.push(Job {
                name: format!("{file}: {}", text(name)),
                env,
                blocks,
            });
        }
    }
    jobs
}

fn gitlab_jobs() -> Vec<Job> {
    let mut jobs = Vec::new();
    for (path, doc) in pipelines("gitlab") {
        let file = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        for (name, job) in doc.as_hash().expect("jobs") {
            let script: Vec<String> = job["script"]
                .as_vec()
                .expect("script")
                .iter()
                .map(text)
                .filter(|line| !installs(line))
                .collect();
            jobs.push(Job {
                name: format!("{file}: {}", text(name)),
                env: pairs(&job["variables"]),
                blocks: vec![script.join("\n")],
            });
        }
    }
    jobs
}

/// `main` with the commit rules and a tag v0.1.0, and `feature` two conventional commits
/// ahead (tagged v0.2.0), with `origin/main` as CI fetches it and the forge's remote.
fn repo(remote: &str) -> TestRepo {
    let repo = TestRepo::new();
    repo.write(
        ".commitlintrc.json",
        r#"{"extends": ["@commitlint/config-conventional"]}"#,
    );
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.write(".irisconfig", "critic_enabled = false\n");
    repo.commit_all("chore: start");
    repo.git(&["tag", "v0.1.0"]);
    repo.git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    repo.commit_all("feat: add two()");
    repo.write("README.md", "# Numbers\n");
    repo.commit_all("docs: add a readme");
    repo.git(&["tag", "v0.2.0"]);
    repo.git(&["remote", "add", "origin", remote]);
    repo
}

/// `gh` and `glab` that answer as the forges do for pull request 7 / merge request 3 and
/// log every call.
fn forge_tools() -> tempfile::TempDir {
    let log = r#"LOG=$(dirname "$0")
echo "$(basename "$0") $*" >> "$LOG/calls"
cat > /dev/null"#;
    let gh = format!(
        r##"{log}
case "$*" in
'pr view'*) echo "{{\"number\":7,\"headRefOid\":\"$(git rev-parse HEAD)\",\"url\":\"https://github.com/acme/app/pull/7\",\"state\":\"OPEN\"}}" ;;
'pr diff'*) git diff main HEAD ;;
*'--paginate') echo '[]' ;;
*'--method=POST'*) echo '{{"html_url":"https://github.com/acme/app/pull/7#pullrequestreview-1"}}' ;;
esac"##
    );
    let glab = format!(
        r##"{log}
case "$*" in
'mr view'*) echo "{{\"iid\":3,\"web_url\":\"https://gitlab.com/acme/app/-/merge_requests/3\",\"diff_refs\":{{\"base_sha\":\"$(git rev-parse main)\",\"start_sha\":\"$(git rev-parse main)\",\"head_sha\":\"$(git rev-parse HEAD)\"}}}}" ;;
'mr diff'*) git diff main HEAD ;;
*'--paginate') echo '[]' ;;
*) echo '{{}}' ;;
esac"##
    );
    fake_bin(&[("gh", &gh), ("glab", &glab)])
}

/// What the model answers in a job: a review and its second look, or release notes.
fn replies(job: &str) -> Vec<Step> {
    if job.contains("review") {
        let review = json!({
            "summary": "Adds two().", "strengths": [],
            "findings": [{"severity": "medium", "file": "src/lib.rs", "line": 5,
                          "title": "two() is untested", "body": "No test calls it.",
                          "confidence": 90, "category": "tests", "quote": "pub fn two() -> u32 {"}]
        });
        let look = json!({"verdicts": [{"id": "f1", "keep": true, "reason": "No test."}]});
        vec![Step::text(review.to_string()), Step::text(look.to_string())]
    } else if job.contains("release") {
        let notes = json!({"version": null, "title": "", "summary": "Two is here.",
            "highlights": [{"title": "two()", "description": "A second constant."}],
            "sections": [], "breaking_changes": [], "upgrade_notes": [], "contributors": []});
        vec![Step::text(notes.to_string())]
    } else {
        Vec::new()
    }
}

/// Runs every job of `jobs` as CI would; returns the repository and the tools' directory.
fn run_jobs(
    jobs: Vec<Job>,
    remote: &str,
    ci_env: &[(&str, &str)],
) -> Vec<(String, TestRepo, tempfile::TempDir)> {
    assert!(!jobs.is_empty());
    let iris_dir = Path::new(IRIS).parent().expect("the binary's directory");
    let mut ran = Vec::new();
    for job in jobs {
        let repo = repo(remote);
        let tools = forge_tools();
        let fake = FakeProvider::start(replies(&job.name));
        let path = format!(
            "{}:{}:/usr/bin:/bin",
            iris_dir.display(),
            tools.path().display()
        );
        let mut env: Vec<(String, String)> = ci_env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        env.extend(job.env.iter().cloned());
        // The provider the pipeline names, pointed at the fake.
        env.extend(
            Wire::Anthropic
                .env(&fake)
                .into_iter()
                .filter(|(k, _)| *k != "IRIS_PROVIDER")
                .map(|(k, v)| (k.to_string(), v)),
        );
        env.push(("PATH".into(), path));
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert!(!job.blocks.is_empty(), "{}: nothing runs", job.name);
        for block in &job.blocks {
            for line in block.lines().filter(|l| l.contains("iris ")) {
                assert!(
                    !line.contains("${{"),
                    "{}: an expression in a command line: {line}",
                    job.name
                );
            }
            let out = repo.iris_bin_env(Path::new("/bin/sh"), &["-ec", block], &env);
            assert!(
                out.status.success(),
                "{}: `{block}` exited {:?}\nstdout: {}\nstderr: {}",
                job.name,
                out.status.code(),
                stdout(&out),
                stderr(&out)
            );
            let said = format!("{}{}", stdout(&out), stderr(&out));
            assert!(
                !said.contains(FAKE_API_KEY),
                "{}: the key is in the log",
                job.name
            );
        }
        ran.push((job.name, repo, tools));
    }
    ran
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn the_github_workflows_run_against_the_fake() {
    let jobs = github_jobs();
    let names: Vec<String> = jobs.iter().map(|j| j.name.clone()).collect();
    assert_eq!(
        names,
        [
            "iris-commit-messages.yml: messages",
            "iris-release-notes.yml: notes",
            "iris-review.yml: review",
        ]
    );
    let ran = run_jobs(
        jobs,
        "https://github.com/acme/app.git",
        &[("GITHUB_ACTIONS", "true")],
    );
    let (_, notes_repo, notes_tools) = &ran[1];
    assert!(read(&notes_repo.path(), "notes.md").contains("Two is here."));
    assert!(
        read(notes_tools.path(), "calls")
            .contains("gh release create v0.2.0 --title v0.2.0 --notes-file notes.md")
    );
    let (_, review_repo, review_tools) = &ran[2];
    let sarif: Value =
        serde_json::from_str(&read(&review_repo.path(), "iris.sarif")).expect("SARIF");
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "iris/tests");
    let calls = read(review_tools.path(), "calls");
    assert!(
        calls.contains("gh api repos/{owner}/{repo}/pulls/7/reviews --method=POST"),
        "{calls}"
    );
}

#[test]
fn the_gitlab_jobs_run_against_the_fake() {
    let jobs = gitlab_jobs();
    let names: Vec<String> = jobs.iter().map(|j| j.name.clone()).collect();
    assert_eq!(
        names,
        [
            "iris-commit-messages.yml: iris-commit-messages",
            "iris-release-notes.yml: iris-release-notes",
            "iris-review.yml: iris-review",
        ]
    );
    let ci = [
        ("GITLAB_CI", "true"),
        ("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main"),
        ("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "feature"),
        ("CI_COMMIT_TAG", "v0.2.0"),
        ("GITLAB_TOKEN", "gitlab-token"),
    ];
    let ran = run_jobs(jobs, "https://gitlab.com/acme/app.git", &ci);
    let (_, notes_repo, notes_tools) = &ran[1];
    assert!(read(&notes_repo.path(), "notes.md").contains("Two is here."));
    assert!(
        read(notes_tools.path(), "calls")
            .contains("glab release create v0.2.0 --name v0.2.0 --notes-file notes.md")
    );
    let (_, review_repo, review_tools) = &ran[2];
    let report: Value =
        serde_json::from_str(&read(&review_repo.path(), "gl-code-quality-report.json"))
            .expect("JSON");
    assert_eq!(report[0]["check_name"], "iris/tests");
    let calls = read(review_tools.path(), "calls");
    assert!(
        calls.contains("glab api projects/:id/merge_requests/3/discussions --method=POST"),
        "{calls}"
    );
}
