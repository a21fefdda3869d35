//! The scope a change's files suggest: the workspace member (a Cargo crate, an npm package, a
//! Go module, a `packages/*` or `apps/*` folder) they belong to, said to Iris when the
//! project's commit rules ask for scopes or its history writes them, and checked against the
//! rules' `scope-enum`.

/// A member of the repository's workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Its name as its manifest gives it (`iris-agent`, `web` for `@acme/web`).
    pub name: String,
    /// Its folder, relative to the repository root, `/`-separated, no trailing slash.
    pub dir: String,
}

/// What the change's `files` suggest as its scope, as a section of the request; `None` when
/// the workspace has no members or no file is in one. `allowed`: the rules' `scope-enum`.
pub fn section(files: &[String], members: &[Member], allowed: Option<&[String]>) -> Option<String> {
    let mut touched: Vec<&Member> = Vec::new();
    let mut outside = 0;
    for file in files {
        let owner = members
            .iter()
            .filter(|m| file.starts_with(&format!("{}/", m.dir)))
            .max_by_key(|m| m.dir.len());
        match owner {
            Some(member) if !touched.contains(&member) => touched.push(member),
            Some(_) => {}
            None => outside += 1,
        }
    }
    let named = |m: &Member| format!("`{}` ({})", m.name, m.dir);
    let text = match touched.as_slice() {
        [] => return None,
        [one] if outside == 0 => match allowed_name(one, allowed) {
            Some(scope) => format!(
                "The change's files are all in the workspace member {}: its scope is `{scope}`.",
                named(one)
            ),
            // Only `scope-enum` can refuse a member's names.
            None => format!(
                "The change's files are all in the workspace member {}, which is not one of the \
                 scopes the rules allow ({}): take the closest of those, or none.",
                named(one),
                allowed.unwrap_or_default().join(", ")
            ),
        },
        several => {
            let list: Vec<String> = several.iter().map(|m| named(m)).collect();
            let rest = if outside > 0 {
                format!(" and {outside} file(s) outside them")
            } else {
                String::new()
            };
            format!(
                "The change spans the workspace members {}{rest}: scope it by the member it is \
                 mostly about, or leave the scope out.",
                list.join(", ")
            )
        }
    };
    Some(format!("## Scope\n{text}"))
}

/// The member's scope among `allowed`: its name, else its folder's name; any name without
/// `scope-enum`.
fn allowed_name<'a>(member: &'a Member, allowed: Option<&[String]>) -> Option<&'a str> {
    let folder = member.dir.rsplit('/').next().unwrap_or(&member.dir);
    match allowed {
        None => Some(member.name.as_str()),
        Some(names) => [member.name.as_str(), folder]
            .into_iter()
            .find(|candidate| names.iter().any(|n| n == candidate)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members() -> Vec<Member> {
        vec![
            Member {
                name: "iris-agent".into(),
                dir: "crates/iris-agent".into(),
            },
            Member {
                name: "web".into(),
                dir: "packages/web-app".into(),
            },
        ]
    }

    fn files(paths: &[&str]) -> Vec<String> {
        paths.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn one_member_is_the_scope_and_several_are_said() {
        let one = section(&files(&["crates/iris-agent/src/lib.rs"]), &members(), None).unwrap();
        assert!(one.contains("its scope is `iris-agent`"), "{one}");
        let both = section(
            &files(&[
                "crates/iris-agent/src/a.rs",
                "packages/web-app/x.ts",
                "README.md",
            ]),
            &members(),
            None,
        )
        .unwrap();
        assert!(
            both.contains("spans the workspace members `iris-agent` (crates/iris-agent), `web` (packages/web-app) and 1 file(s) outside them"),
            "{both}"
        );
        assert_eq!(section(&files(&["README.md"]), &members(), None), None);
        assert_eq!(section(&files(&["crates/iris-agent/x"]), &[], None), None);
    }

    #[test]
    fn many_files_of_one_member_are_that_member_and_a_file_outside_makes_it_several() {
        let one = section(
            &files(&["crates/iris-agent/a.rs", "crates/iris-agent/b.rs"]),
            &members(),
            None,
        )
        .unwrap();
        assert!(one.contains("its scope is `iris-agent`"), "{one}");
        let with_readme = section(
            &files(&["crates/iris-agent/a.rs", "README.md"]),
            &members(),
            None,
        )
        .unwrap();
        assert!(
            with_readme.contains(
                "spans the workspace members `iris-agent` (crates/iris-agent) and 1 file(s) \
                 outside them"
            ),
            "{with_readme}"
        );
        let two = section(
            &files(&["crates/iris-agent/a.rs", "packages/web-app/x.ts"]),
            &members(),
            None,
        )
        .unwrap();
        assert!(
            two.contains("(packages/web-app): scope it by the member"),
            "no count of files outside when there are none: {two}"
        );
    }

    #[test]
    fn scope_enum_decides_between_the_name_and_the_folder() {
        let allowed = vec!["web-app".to_string(), "agent".to_string()];
        let web = section(
            &files(&["packages/web-app/x.ts"]),
            &members(),
            Some(&allowed),
        )
        .unwrap();
        assert!(web.contains("its scope is `web-app`"), "{web}");
        let agent = section(
            &files(&["crates/iris-agent/x.rs"]),
            &members(),
            Some(&allowed),
        )
        .unwrap();
        assert!(
            agent.contains("not one of the scopes the rules allow (web-app, agent)"),
            "{agent}"
        );
    }
}
