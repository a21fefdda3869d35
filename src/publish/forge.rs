//! Which forge a remote URL points at (pure).

/// A code forge whose command line tool can publish for us.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forge {
    /// github.com, published to with `gh`.
    GitHub,
    /// gitlab.com or a self-hosted GitLab, published to with `glab`.
    GitLab,
}

impl Forge {
    /// The forge's own command line tool, which carries the user's login.
    pub fn cli(self) -> &'static str {
        match self {
            Forge::GitHub => "gh",
            Forge::GitLab => "glab",
        }
    }

    /// The forge's name, as the user knows it.
    pub fn name(self) -> &'static str {
        match self {
            Forge::GitHub => "GitHub",
            Forge::GitLab => "GitLab",
        }
    }

    /// What the forge calls a pull request.
    pub(crate) fn request_noun(self) -> &'static str {
        match self {
            Forge::GitHub => "pull request",
            Forge::GitLab => "merge request",
        }
    }

    /// Where to get the tool, for the message when it is not installed.
    pub(crate) fn install_hint(self) -> &'static str {
        match self {
            Forge::GitHub => {
                "install the GitHub CLI from https://cli.github.com and run `gh auth login`"
            }
            Forge::GitLab => {
                "install the GitLab CLI from https://gitlab.com/gitlab-org/cli and run `glab auth login`"
            }
        }
    }
}

/// The forge of a remote URL: `https://`, `ssh://` or scp-like `git@host:owner/repo`.
/// github.com (and its subdomains, like ssh.github.com) is GitHub; gitlab.com or any host
/// whose name contains "gitlab" (a self-hosted GitLab) is GitLab; anything else is None.
pub fn forge_of(remote_url: &str) -> Option<Forge> {
    let host = host_of(remote_url)?;
    if host == "github.com" || host.ends_with(".github.com") {
        Some(Forge::GitHub)
    } else if host.contains("gitlab") {
        Some(Forge::GitLab)
    } else {
        None
    }
}

/// The host of a remote URL, lowercased; None for a local path or a URL without one.
pub(crate) fn host_of(remote_url: &str) -> Option<String> {
    let url = remote_url.trim();
    let authority = match url.split_once("://") {
        Some((scheme, _)) if scheme.eq_ignore_ascii_case("file") => return None,
        Some((_, rest)) => rest.split(['/', '?', '#']).next().unwrap_or_default(),
        None => {
            // scp-like `[user@]host:path`: a colon before any slash. A path such as
            // `./a:b` or `/srv/x.git` is local.
            let colon = url.find(':')?;
            if url[..colon].contains('/') {
                return None;
            }
            &url[..colon]
        }
    };
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host_port.starts_with('[') {
        // [IPv6]:port
        host_port.split(']').next()?.trim_start_matches('[')
    } else {
        host_port.split(':').next().unwrap_or_default()
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forges_from_every_url_shape() {
        let cases = [
            ("https://github.com/acme/app.git", Some(Forge::GitHub)),
            ("https://github.com/acme/app", Some(Forge::GitHub)),
            ("http://GitHub.com/acme/app/", Some(Forge::GitHub)),
            ("ssh://git@github.com/acme/app.git", Some(Forge::GitHub)),
            (
                "ssh://git@ssh.github.com:443/acme/app.git",
                Some(Forge::GitHub),
            ),
            ("git@github.com:acme/app.git", Some(Forge::GitHub)),
            ("github.com:acme/app.git", Some(Forge::GitHub)),
            ("https://token@github.com/acme/app.git", Some(Forge::GitHub)),
            ("git@gitlab.com:acme/app.git", Some(Forge::GitLab)),
            ("https://gitlab.com/group/sub/app.git", Some(Forge::GitLab)),
            (
                "ssh://git@gitlab.example.com:2222/group/app.git",
                Some(Forge::GitLab),
            ),
            ("https://gitlab.internal.corp/team/app", Some(Forge::GitLab)),
            ("git@code-gitlab.acme.io:team/app.git", Some(Forge::GitLab)),
            ("https://bitbucket.org/acme/app.git", None),
            ("git@bitbucket.org:acme/app.git", None),
            ("https://git.sr.ht/~acme/app", None),
            ("https://notgithub.com/acme/app.git", None),
            ("https://github.com.evil.example/acme/app.git", None),
            ("/srv/git/app.git", None),
            ("./relative/app.git", None),
            ("file:///srv/git/gitlab/app.git", None),
            ("", None),
        ];
        for (url, expected) in cases {
            assert_eq!(forge_of(url), expected, "{url}");
        }
    }

    #[test]
    fn hosts_lose_their_user_and_port() {
        assert_eq!(
            host_of("ssh://git@gitlab.example.com:2222/g/a.git").as_deref(),
            Some("gitlab.example.com")
        );
        assert_eq!(
            host_of("git@Bitbucket.org:a/b.git").as_deref(),
            Some("bitbucket.org")
        );
        assert_eq!(host_of("https://[::1]:8080/a.git").as_deref(), Some("::1"));
        assert_eq!(host_of("/srv/a.git"), None);
    }

    #[test]
    fn each_forge_names_its_tool() {
        assert_eq!(Forge::GitHub.cli(), "gh");
        assert_eq!(Forge::GitLab.cli(), "glab");
        assert_eq!(Forge::GitHub.name(), "GitHub");
        assert_eq!(Forge::GitLab.name(), "GitLab");
    }
}
