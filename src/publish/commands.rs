//! The forge tools' command lines and what their answers mean (pure). The flags are those of
//! `gh` (GitHub CLI) and `glab` (GitLab CLI); every value goes as `--flag=value`, so a title
//! starting with `-` is never read as a flag, and everything a prompt would ask is given.

use serde_json::Value;

use super::Forge;
use super::text::PrText;

/// One run of a forge tool: its arguments and what it reads on stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Invocation {
    pub args: Vec<String>,
    pub stdin: Option<String>,
    /// What the run does, for an error ("gh pr create").
    pub what: String,
}

impl Invocation {
    fn new(forge: Forge, args: &[&str]) -> Self {
        let what = std::iter::once(forge.cli())
            .chain(args.iter().copied().take_while(|a| !a.starts_with('-')))
            .collect::<Vec<_>>()
            .join(" ");
        Self {
            args: args.iter().map(|a| a.to_string()).collect(),
            stdin: None,
            what,
        }
    }

    fn arg(mut self, flag: &str, value: &str) -> Self {
        self.args.push(format!("{flag}={value}"));
        self
    }

    fn flag(mut self, flag: &str) -> Self {
        self.args.push(flag.to_string());
        self
    }

    fn stdin(mut self, text: &str) -> Self {
        self.stdin = Some(text.to_string());
        self
    }
}

/// The tool's version (`gh --version`).
pub(crate) fn version(forge: Forge) -> Invocation {
    let mut run = Invocation::new(forge, &["--version"]);
    run.what = format!("{} --version", forge.cli());
    run
}

/// Whether the tool is logged in: `auth status` fails when it is not.
pub(crate) fn auth_status(forge: Forge) -> Invocation {
    Invocation::new(forge, &["auth", "status"])
}

/// Opens a PR/MR for the current branch into `base` (the default branch when None).
pub(crate) fn create(forge: Forge, text: &PrText, base: Option<&str>) -> Invocation {
    describe(forge, true, text, base)
}

/// Replaces the title and body of the current branch's PR/MR (and its base when given).
pub(crate) fn update(forge: Forge, text: &PrText, base: Option<&str>) -> Invocation {
    describe(forge, false, text, base)
}

/// A PR/MR created (`create`) or edited with the title and body, into `base` when given.
fn describe(forge: Forge, create: bool, text: &PrText, base: Option<&str>) -> Invocation {
    let run = match forge {
        Forge::GitHub => Invocation::new(forge, &["pr", if create { "create" } else { "edit" }])
            .arg("--title", &text.title)
            .arg("--body-file", "-")
            .stdin(&text.body),
        // `glab mr create --description -` opens an editor: the body goes as the argument.
        Forge::GitLab => {
            let run = Invocation::new(forge, &["mr", if create { "create" } else { "update" }])
                .arg("--title", &text.title)
                .arg("--description", &text.body);
            if create { run.flag("--yes") } else { run }
        }
    };
    with_base(run, forge, base)
}

/// Opens a PR/MR from `head` (a stack's layer) into `base`.
pub(crate) fn create_from(forge: Forge, text: &PrText, base: &str, head: &str) -> Invocation {
    let run = describe(forge, true, text, Some(base));
    match forge {
        Forge::GitHub => run.arg("--head", head),
        Forge::GitLab => run.arg("--source-branch", head),
    }
}

/// Edits PR/MR `number`: its body, and its title and base when given.
pub(crate) fn edit_number(
    forge: Forge,
    number: u64,
    title: Option<&str>,
    body: &str,
    base: Option<&str>,
) -> Invocation {
    let number = number.to_string();
    let run = match forge {
        Forge::GitHub => Invocation::new(forge, &["pr", "edit", &number])
            .arg("--body-file", "-")
            .stdin(body),
        Forge::GitLab => {
            Invocation::new(forge, &["mr", "update", &number]).arg("--description", body)
        }
    };
    let run = match title {
        Some(title) => run.arg("--title", title),
        None => run,
    };
    with_base(run, forge, base)
}

/// Lists the PRs/MRs from `head` in every state (newest first) as JSON, with what a stack
/// needs of each.
pub(crate) fn list_from(forge: Forge, head: &str) -> Invocation {
    match forge {
        Forge::GitHub => Invocation::new(forge, &["pr", "list"])
            .arg("--head", head)
            .arg("--state", "all")
            .arg("--json", "number,url,title,body,baseRefName,state"),
        Forge::GitLab => Invocation::new(forge, &["mr", "list"])
            .arg("--source-branch", head)
            .flag("--all")
            .arg("--output", "json"),
    }
}

/// Where a PR/MR stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestState {
    /// Open (or a draft): it can be edited.
    Open,
    /// Merged: its layer is done.
    Merged,
    /// Closed without merging.
    Closed,
}

/// An open PR/MR as `list_from` answers: gh's `number`, `url`, `body`, `baseRefName`; glab's
/// `iid`, `web_url`, `description`, `target_branch`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The PR's number (the MR's iid).
    pub number: u64,
    /// Its page.
    pub url: Option<String>,
    /// Its title.
    pub title: String,
    /// Its body, as it is on the forge now.
    pub body: String,
    /// The branch it goes into.
    pub base: String,
    /// Open, merged or closed (gh's `OPEN`/`MERGED`/`CLOSED`, glab's `opened`/`merged`/...).
    pub state: RequestState,
}

/// The first PR/MR of a `list_from` answer, None when the list is empty; an answer that is
/// no JSON list is an error (its start, to quote).
pub(crate) fn first_listed(stdout: &str) -> Result<Option<Listed>, String> {
    match serde_json::from_str::<Value>(stdout.trim()) {
        Ok(Value::Array(items)) => Ok(items.into_iter().next().and_then(listed_item)),
        _ if stdout.trim().is_empty() => Ok(None),
        _ => Err(iris_studio_core::text::clip(stdout.trim(), 80)),
    }
}

/// One PR/MR of a list, when it has a number.
fn listed_item(item: Value) -> Option<Listed> {
    let text = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| item.get(*k).and_then(Value::as_str))
            .unwrap_or_default()
            .to_string()
    };
    let number = ["number", "iid"]
        .iter()
        .find_map(|k| item.get(*k).and_then(Value::as_u64))?;
    let url = Some(text(&["url", "web_url"])).filter(|u| !u.is_empty());
    Some(Listed {
        number,
        url,
        title: text(&["title"]),
        body: text(&["body", "description"]),
        base: text(&["baseRefName", "target_branch"]),
        state: match text(&["state"]).to_ascii_lowercase().as_str() {
            "merged" => RequestState::Merged,
            "closed" | "locked" => RequestState::Closed,
            _ => RequestState::Open,
        },
    })
}

/// `run` naming the branch the PR/MR goes into, when given (`--base` / `--target-branch`).
fn with_base(run: Invocation, forge: Forge, base: Option<&str>) -> Invocation {
    match (base, forge) {
        (Some(base), Forge::GitHub) => run.arg("--base", base),
        (Some(base), Forge::GitLab) => run.arg("--target-branch", base),
        (None, _) => run,
    }
}

/// Asks for the current branch's PR/MR as JSON (it fails when there is none).
pub(crate) fn view(forge: Forge) -> Invocation {
    match forge {
        Forge::GitHub => Invocation::new(forge, &["pr", "view"]).arg("--json", "url,state"),
        Forge::GitLab => Invocation::new(forge, &["mr", "view"]).arg("--output", "json"),
    }
}

/// Comments `body` on the current branch's PR/MR.
pub(crate) fn comment(forge: Forge, body: &str) -> Invocation {
    match forge {
        Forge::GitHub => Invocation::new(forge, &["pr", "comment"])
            .arg("--body-file", "-")
            .stdin(body),
        Forge::GitLab => Invocation::new(forge, &["mr", "note"]).arg("--message", body),
    }
}

/// Asks for the current branch's PR/MR with what inline comments are pinned to: its number
/// and head commit (GitHub), or its iid and diff refs (GitLab, whose `view` has them).
pub(crate) fn view_pinned(forge: Forge) -> Invocation {
    match forge {
        Forge::GitHub => {
            Invocation::new(forge, &["pr", "view"]).arg("--json", "number,headRefOid,url,state")
        }
        Forge::GitLab => view(forge),
    }
}

/// The current branch's PR/MR diff, as the forge shows it.
pub(crate) fn request_diff(forge: Forge) -> Invocation {
    let run = match forge {
        Forge::GitHub => Invocation::new(forge, &["pr", "diff"]),
        Forge::GitLab => Invocation::new(forge, &["mr", "diff"]),
    };
    run.arg("--color", "never")
}

/// A GET of the forge's API, every page (`{owner}/{repo}` and `:id` are filled in by the
/// tools from the repository).
pub(crate) fn api_list(forge: Forge, endpoint: &str) -> Invocation {
    Invocation::new(forge, &["api", endpoint]).flag("--paginate")
}

/// A call of the forge's API with `method`, and `body` as JSON when given.
pub(crate) fn api_send(
    forge: Forge,
    method: &str,
    endpoint: &str,
    body: Option<&Value>,
) -> Invocation {
    let run = Invocation::new(forge, &["api", endpoint]).arg("--method", method);
    match body {
        Some(body) => run
            .arg("--header", "Content-Type: application/json")
            .arg("--input", "-")
            .stdin(&body.to_string()),
        None => run,
    }
}

/// A query of GitHub's GraphQL API about pull request `number` of the repository (`gh`
/// fills in `{owner}` and `{repo}` in a field's value).
pub(crate) fn graphql(query: &str, number: u64) -> Invocation {
    Invocation::new(Forge::GitHub, &["api", "graphql"])
        .arg("--field", "owner={owner}")
        .arg("--field", "name={repo}")
        .arg("--field", &format!("number={number}"))
        .arg("--raw-field", &format!("query={query}"))
}

/// Asks for issue `number` as JSON: its title, body and state.
pub(crate) fn issue_view(forge: Forge, number: u64) -> Invocation {
    let number = number.to_string();
    match forge {
        Forge::GitHub => Invocation::new(forge, &["issue", "view", &number])
            .arg("--json", "number,title,body,state"),
        Forge::GitLab => {
            Invocation::new(forge, &["issue", "view", &number]).arg("--output", "json")
        }
    }
}

/// The tags of GitHub repository `repo` (`owner/name`) whose names hold `prefix` (up to a
/// hundred, the newest commits first), each with its target and an annotated tag's commit,
/// in one GraphQL query; `None` for a `repo` that is no `owner/name`.
pub(crate) fn tags(repo: &str, prefix: Option<&str>) -> Option<Invocation> {
    const QUERY: &str = "query($owner: String!, $name: String!, $prefix: String!) { \
        repository(owner: $owner, name: $name) { refs(refPrefix: \"refs/tags/\", query: \
        $prefix, first: 100, orderBy: {field: TAG_COMMIT_DATE, direction: DESC}) { nodes { \
        name target { oid ... on Tag { target { oid } } } } } } }";
    let (owner, name) = repo.split_once('/')?;
    let plain = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    if !plain(owner) || !plain(name) {
        return None;
    }
    Some(
        Invocation::new(Forge::GitHub, &["api", "graphql"])
            .arg("--raw-field", &format!("owner={owner}"))
            .arg("--raw-field", &format!("name={name}"))
            .arg(
                "--raw-field",
                &format!("prefix={}", prefix.unwrap_or_default()),
            )
            .arg("--raw-field", &format!("query={QUERY}")),
    )
}

/// What `tags` answered: each tag's name with the commit it points at (through an annotated
/// tag to its commit).
pub(crate) fn tags_listed(stdout: &str) -> Result<Vec<(String, String)>, String> {
    let answer: Value =
        serde_json::from_str(stdout.trim()).map_err(|e| format!("no JSON from gh: {e}"))?;
    let nodes = answer
        .pointer("/data/repository/refs/nodes")
        .and_then(Value::as_array)
        .ok_or_else(|| "no tags in gh's answer".to_string())?;
    Ok(nodes
        .iter()
        .filter_map(|node| {
            let name = node.get("name")?.as_str()?;
            let target = node.get("target")?;
            let commit = target
                .pointer("/target/oid")
                .or_else(|| target.get("oid"))?
                .as_str()?;
            Some((name.to_string(), commit.to_string()))
        })
        .collect())
}

/// The values of what `api_list` printed: one JSON array a page (or one value), the items of
/// every page in order; nothing for an answer that is not JSON.
pub(crate) fn listed(stdout: &str) -> Vec<Value> {
    serde_json::Deserializer::from_str(stdout)
        .into_iter::<Value>()
        .map_while(Result::ok)
        .flat_map(|page| match page {
            Value::Array(items) => items,
            other => vec![other],
        })
        .collect()
}

/// The PR/MR a `view` answered with: its URL, and whether it is still open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Viewed {
    pub url: Option<String>,
    pub open: bool,
}

/// Reads `view`'s JSON: gh's `{"url", "state": "OPEN"}`, glab's `{"web_url", "state":
/// "opened"}`. An answer that is not JSON counts as an open request (the tool succeeded, so
/// there is one), with the URL it printed if any.
pub(crate) fn viewed(stdout: &str) -> Viewed {
    match serde_json::from_str::<Value>(stdout.trim()) {
        Ok(json) => {
            let url = ["url", "web_url"]
                .iter()
                .find_map(|k| json.get(k).and_then(Value::as_str))
                .map(str::to_string);
            let open = json
                .get("state")
                .and_then(Value::as_str)
                .is_none_or(|s| s.eq_ignore_ascii_case("open") || s == "opened");
            Viewed { url, open }
        }
        Err(_) => Viewed {
            url: url_in(stdout),
            open: true,
        },
    }
}

/// The last line of a tool's output that is a URL.
pub(crate) fn url_in(stdout: &str) -> Option<String> {
    stdout
        .lines()
        .map(str::trim)
        .rfind(|l| l.starts_with("https://") || l.starts_with("http://"))
        .map(|l| l.split_whitespace().next().unwrap_or(l).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_one_graphql_query_and_annotated_tags_name_their_commit() {
        let run = tags("actions/checkout", Some("v4")).expect("a repository");
        assert_eq!(run.what, "gh api graphql");
        assert_eq!(
            &run.args[2..5],
            [
                "--raw-field=owner=actions",
                "--raw-field=name=checkout",
                "--raw-field=prefix=v4"
            ]
        );
        assert!(
            run.args[5].starts_with("--raw-field=query=query($owner"),
            "{:?}",
            run.args
        );
        assert!(tags("not a repo", None).is_none());
        assert!(tags("a/b c", None).is_none());
        let answer = r#"{"data":{"repository":{"refs":{"nodes":[
            {"name":"v4.2.2","target":{"oid":"aaa"}},
            {"name":"v4.2.1","target":{"oid":"ttt","target":{"oid":"bbb"}}}
        ]}}}}"#;
        assert_eq!(
            tags_listed(answer),
            Ok(vec![
                ("v4.2.2".to_string(), "aaa".to_string()),
                ("v4.2.1".to_string(), "bbb".to_string())
            ])
        );
        assert!(tags_listed(r#"{"errors":[{"message":"Could not resolve"}]}"#).is_err());
    }

    fn text() -> PrText {
        PrText {
            title: "-Add two()".into(),
            body: "## Summary\n\nAdds two().".into(),
        }
    }

    #[test]
    fn github_takes_the_body_on_stdin() {
        let run = create(Forge::GitHub, &text(), Some("main"));
        assert_eq!(
            run.args,
            [
                "pr",
                "create",
                "--title=-Add two()",
                "--body-file=-",
                "--base=main"
            ]
        );
        assert_eq!(run.stdin.as_deref(), Some("## Summary\n\nAdds two()."));
        assert_eq!(run.what, "gh pr create");
        let run = update(Forge::GitHub, &text(), None);
        assert_eq!(
            run.args,
            ["pr", "edit", "--title=-Add two()", "--body-file=-"]
        );
        assert_eq!(run.stdin.as_deref(), Some("## Summary\n\nAdds two()."));
        let run = comment(Forge::GitHub, "# Code review");
        assert_eq!(run.args, ["pr", "comment", "--body-file=-"]);
        assert_eq!(run.stdin.as_deref(), Some("# Code review"));
        assert_eq!(view(Forge::GitHub).args, ["pr", "view", "--json=url,state"]);
    }

    #[test]
    fn gitlab_takes_the_body_as_an_argument_and_never_asks() {
        let run = create(Forge::GitLab, &text(), Some("develop"));
        assert_eq!(
            run.args,
            [
                "mr",
                "create",
                "--title=-Add two()",
                "--description=## Summary\n\nAdds two().",
                "--yes",
                "--target-branch=develop"
            ]
        );
        assert_eq!(run.stdin, None);
        let run = update(Forge::GitLab, &text(), Some("main"));
        assert_eq!(
            run.args,
            [
                "mr",
                "update",
                "--title=-Add two()",
                "--description=## Summary\n\nAdds two().",
                "--target-branch=main"
            ]
        );
        let run = comment(Forge::GitLab, "# Code review");
        assert_eq!(run.args, ["mr", "note", "--message=# Code review"]);
        assert_eq!(run.what, "glab mr note");
        assert_eq!(view(Forge::GitLab).args, ["mr", "view", "--output=json"]);
    }

    #[test]
    fn api_calls_send_json_on_stdin_and_lists_read_every_page() {
        let body = serde_json::json!({"body": "x"});
        let run = api_send(
            Forge::GitHub,
            "POST",
            "repos/{owner}/{repo}/pulls/7/reviews",
            Some(&body),
        );
        assert_eq!(
            run.args,
            [
                "api",
                "repos/{owner}/{repo}/pulls/7/reviews",
                "--method=POST",
                "--header=Content-Type: application/json",
                "--input=-"
            ]
        );
        assert_eq!(run.stdin.as_deref(), Some(r#"{"body":"x"}"#));
        assert_eq!(run.what, "gh api repos/{owner}/{repo}/pulls/7/reviews");
        let run = api_send(
            Forge::GitLab,
            "DELETE",
            "projects/:id/merge_requests/3/notes/9",
            None,
        );
        assert_eq!(
            run.args,
            [
                "api",
                "projects/:id/merge_requests/3/notes/9",
                "--method=DELETE"
            ]
        );
        assert_eq!(run.stdin, None);
        assert_eq!(
            api_list(Forge::GitHub, "repos/{owner}/{repo}/pulls/7/reviews").args,
            ["api", "repos/{owner}/{repo}/pulls/7/reviews", "--paginate"]
        );
        assert_eq!(
            request_diff(Forge::GitLab).args,
            ["mr", "diff", "--color=never"]
        );
        let items = listed("[{\"id\":1},{\"id\":2}]\n[{\"id\":3}]");
        let ids: Vec<i64> = items.iter().filter_map(|v| v["id"].as_i64()).collect();
        assert_eq!(ids, [1, 2, 3]);
        assert!(listed("not json").is_empty());
    }

    #[test]
    fn a_stacks_layers_name_their_head_and_are_edited_by_number() {
        let run = create_from(Forge::GitHub, &text(), "b1", "b2");
        assert_eq!(
            run.args,
            [
                "pr",
                "create",
                "--title=-Add two()",
                "--body-file=-",
                "--base=b1",
                "--head=b2"
            ]
        );
        let run = create_from(Forge::GitLab, &text(), "b1", "b2");
        assert!(run.args.ends_with(&[
            "--yes".to_string(),
            "--target-branch=b1".to_string(),
            "--source-branch=b2".to_string()
        ]));
        let run = edit_number(Forge::GitHub, 12, None, "Body", Some("b1"));
        assert_eq!(run.args, ["pr", "edit", "12", "--body-file=-", "--base=b1"]);
        assert_eq!(run.stdin.as_deref(), Some("Body"));
        assert_eq!(run.what, "gh pr edit 12");
        let run = edit_number(Forge::GitLab, 3, Some("T"), "Body", None);
        assert_eq!(
            run.args,
            ["mr", "update", "3", "--description=Body", "--title=T"]
        );
        assert_eq!(
            list_from(Forge::GitHub, "b2").args,
            [
                "pr",
                "list",
                "--head=b2",
                "--state=all",
                "--json=number,url,title,body,baseRefName,state"
            ]
        );
        assert_eq!(
            list_from(Forge::GitLab, "b2").args,
            ["mr", "list", "--source-branch=b2", "--all", "--output=json"]
        );
    }

    #[test]
    fn a_listed_request_reads_as_gh_and_glab_answer() {
        let gh = r#"[{"number":12,"url":"https://github.com/o/r/pull/12","title":"T","body":"B","baseRefName":"b1","state":"OPEN"}]"#;
        assert_eq!(
            first_listed(gh).unwrap(),
            Some(Listed {
                number: 12,
                url: Some("https://github.com/o/r/pull/12".into()),
                title: "T".into(),
                body: "B".into(),
                base: "b1".into(),
                state: RequestState::Open,
            })
        );
        let glab = r#"[{"iid":3,"web_url":"https://gitlab.com/g/r/-/merge_requests/3","title":"T","description":"D","target_branch":"main","state":"merged"}]"#;
        let found = first_listed(glab).unwrap().unwrap();
        assert_eq!(found.state, RequestState::Merged);
        assert_eq!(
            (found.number, found.body.as_str(), found.base.as_str()),
            (3, "D", "main")
        );
        assert_eq!(first_listed("[]"), Ok(None));
        assert_eq!(first_listed(""), Ok(None));
        assert_eq!(
            first_listed("no open merge requests"),
            Err("no open merge requests".to_string())
        );
    }

    #[test]
    fn the_url_is_the_last_line_that_is_one() {
        let out = "Creating pull request for feature into main\n\nhttps://github.com/o/r/pull/6\nhttps://github.com/o/r/pull/7\n";
        assert_eq!(
            url_in(out).as_deref(),
            Some("https://github.com/o/r/pull/7")
        );
        assert_eq!(
            url_in("!3 Add two (feature)\n http://gitlab.local/g/r/-/merge_requests/3 \n")
                .as_deref(),
            Some("http://gitlab.local/g/r/-/merge_requests/3")
        );
        assert_eq!(url_in("done\nsee ftp://x\n"), None);
    }

    #[test]
    fn a_view_says_whether_the_request_is_open() {
        let gh = viewed(r#"{"state":"OPEN","url":"https://github.com/o/r/pull/7"}"#);
        assert_eq!(
            gh,
            Viewed {
                url: Some("https://github.com/o/r/pull/7".into()),
                open: true
            }
        );
        assert!(!viewed(r#"{"state":"MERGED","url":"u"}"#).open);
        let glab = viewed(
            r#"{"iid":3,"state":"opened","web_url":"https://gitlab.com/g/r/-/merge_requests/3"}"#,
        );
        assert!(glab.open);
        assert_eq!(
            glab.url.as_deref(),
            Some("https://gitlab.com/g/r/-/merge_requests/3")
        );
        assert!(!viewed(r#"{"state":"closed","web_url":"u"}"#).open);
        let plain = viewed("title: x\nhttps://gitlab.com/g/r/-/merge_requests/4\n");
        assert!(plain.open);
        assert_eq!(
            plain.url.as_deref(),
            Some("https://gitlab.com/g/r/-/merge_requests/4")
        );
    }
}
