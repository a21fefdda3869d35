//! A commit message read as commitlint reads it (conventional-commits-parser 6, the one
//! commitlint 20 ships, with the options a configuration sets): the header and its parts by
//! the header pattern, then a body, then a footer that starts at the first note
//! (`BREAKING CHANGE: ...`) or the first line with an issue reference (`Closes #12`). Lines
//! starting with `#` are comments and a scissors line ends the message, as for
//! `commitlint --edit`.

use fancy_regex::{Captures, Regex};

use super::pattern::{self, JsPattern};

/// git's scissors line (`git commit -v`): it and everything below it is not the message.
const SCISSORS: &str = "# ------------------------ >8 ------------------------";

/// The parser options a configuration may set (`parserPreset.parserOpts`). Keyword lists
/// hold patterns: a configuration's plain words are escaped when read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParserOptions {
    /// Splits the header into the fields `header_correspondence` names (`headerPattern`).
    pub header_pattern: Option<JsPattern>,
    /// Tried before the header pattern (conventional commits' `type!: subject`).
    pub breaking_header_pattern: Option<JsPattern>,
    /// The fields the header pattern's groups fill, in order (`type`, `scope`, `subject`).
    pub header_correspondence: Vec<String>,
    /// A merge line, read before the header (`Merge pull request #12 from ...`); `None`: no
    /// line is one.
    pub merge_pattern: Option<JsPattern>,
    /// The fields the merge pattern's groups fill, in order.
    pub merge_correspondence: Vec<String>,
    /// `None`: no line is a note (`BREAKING CHANGE: ...`).
    pub note_keywords: Option<Vec<String>>,
    /// `None`: nothing is an issue reference.
    pub issue_prefixes: Option<Vec<String>>,
    /// Whether issue prefixes match only in the case written (`issuePrefixesCaseSensitive`).
    pub issue_prefixes_case_sensitive: bool,
    /// `None`: every reference counts, with or without an action word.
    pub reference_actions: Option<Vec<String>>,
}

impl Default for ParserOptions {
    /// commitlint's own defaults (conventional-changelog-angular's options over the
    /// parser's): no `!` in the header pattern, `BREAKING CHANGE` notes, `#` references.
    fn default() -> Self {
        let words = |list: &[&str]| Some(list.iter().map(|w| pattern::escape(w)).collect());
        Self {
            header_pattern: Some(JsPattern::new(r"^(\w*)(?:\((.*)\))?: (.*)$")),
            breaking_header_pattern: None,
            header_correspondence: vec!["type".into(), "scope".into(), "subject".into()],
            merge_pattern: None,
            merge_correspondence: Vec::new(),
            note_keywords: words(&["BREAKING CHANGE"]),
            issue_prefixes: words(&["#"]),
            issue_prefixes_case_sensitive: false,
            reference_actions: words(&[
                "close", "closes", "closed", "fix", "fixes", "fixed", "resolve", "resolves",
                "resolved",
            ]),
        }
    }
}

impl ParserOptions {
    /// conventional-changelog-conventionalcommits' options (`parserPreset` of
    /// config-conventional): `type!: subject` headers, both breaking change keywords.
    pub fn conventional_commits() -> Self {
        Self {
            header_pattern: Some(JsPattern::new(r"^(\w*)(?:\((.*)\))?!?: (.*)$")),
            breaking_header_pattern: Some(JsPattern::new(r"^(\w*)(?:\((.*)\))?!: (.*)$")),
            note_keywords: Some(vec!["BREAKING CHANGE".into(), "BREAKING-CHANGE".into()]),
            ..Self::default()
        }
    }

    /// The options' patterns compiled; `Err` names the one that cannot be.
    pub fn compile(&self) -> Result<Parser, String> {
        Parser::new(self)
    }
}

/// One issue reference (`Closes #12`, `org/repo#3`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub action: Option<String>,
    pub prefix: String,
    pub issue: String,
    raw: String,
}

/// A message in commitlint's parts. `None` is a part the message does not have.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Commit {
    /// The message as given.
    pub raw: String,
    pub header: Option<String>,
    pub kind: Option<String>,
    pub scope: Option<String>,
    pub subject: Option<String>,
    pub body: Option<String>,
    pub footer: Option<String>,
    pub references: Vec<Reference>,
}

/// The options' patterns, compiled.
pub struct Parser {
    header: Option<Regex>,
    breaking_header: Option<Regex>,
    header_correspondence: Vec<String>,
    merge: Option<Regex>,
    merge_correspondence: Vec<String>,
    notes: Option<Regex>,
    reference_parts: Option<Regex>,
    /// `None`: the whole line is one sentence without an action.
    references: Option<Regex>,
    url: Regex,
}

fn join_or(words: &[String]) -> String {
    words
        .iter()
        .filter(|w| !w.is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join("|")
}

impl Parser {
    fn new(options: &ParserOptions) -> Result<Self, String> {
        let compile = |p: &Option<JsPattern>| p.as_ref().map(JsPattern::compile).transpose();
        let notes = options
            .note_keywords
            .as_ref()
            .map(|k| pattern::compile(&format!(r"^[\s|*]*({})[:\s]+(.*)", join_or(k)), "i"))
            .transpose()?;
        let reference_parts = options
            .issue_prefixes
            .as_ref()
            .map(|p| {
                let flags = if options.issue_prefixes_case_sensitive {
                    ""
                } else {
                    "i"
                };
                pattern::compile(
                    &format!(
                        r"(?:.*?)??\s*([\w-\.\/]*?)??({})([\w-]+)(?=\s|$|[,;)\]])",
                        join_or(p)
                    ),
                    flags,
                )
            })
            .transpose()?;
        let references = options
            .reference_actions
            .as_ref()
            .map(|a| {
                let joined = join_or(a);
                pattern::compile(&format!(r"({joined})(?:\s+(.*?))(?=(?:{joined})|$)"), "i")
            })
            .transpose()?;
        let url = pattern::compile(
            r"\b(?:https?):\/\/(?:www\.)?([-a-zA-Z0-9@:%_+.~#?&//=])+\b",
            "",
        )?;
        Ok(Self {
            header: compile(&options.header_pattern)?,
            breaking_header: compile(&options.breaking_header_pattern)?,
            header_correspondence: options.header_correspondence.clone(),
            merge: compile(&options.merge_pattern)?,
            merge_correspondence: options.merge_correspondence.clone(),
            notes,
            reference_parts,
            references,
            url,
        })
    }

    /// `message` in its parts; `None` for a message with nothing but blank space (which
    /// commitlint does not lint).
    pub fn parse(&self, message: &str) -> Option<Commit> {
        if message.trim().is_empty() {
            return None;
        }
        let mut lines = self::lines(trim_new_lines(message));
        if let Some(cut) = lines.iter().position(|l| *l == SCISSORS) {
            lines.truncate(cut);
        }
        lines.retain(|l| !l.starts_with('#') && !is_gpg(l));
        let mut commit = Commit {
            raw: message.to_string(),
            ..Commit::default()
        };
        let mut at = 0;
        // A merge line (when the options name a pattern for it) comes before the header.
        let merged = self.merge.as_ref().and_then(|re| {
            let caps = captures(re, lines.first()?)?;
            assign(&mut commit, re, &caps, &self.merge_correspondence);
            Some(())
        });
        if merged.is_some() {
            at = 1;
            while lines.get(at).is_some_and(|l| l.trim().is_empty()) {
                at += 1;
            }
        }
        if commit.header.is_none()
            && let Some(header) = lines.get(at).copied()
        {
            at += 1;
            if !header.is_empty() {
                commit.header = Some(header.to_string());
                let found = [&self.breaking_header, &self.header]
                    .into_iter()
                    .flatten()
                    .find_map(|re| captures(re, header).map(|caps| (re, caps)));
                if let Some((re, caps)) = found {
                    assign(&mut commit, re, &caps, &self.header_correspondence);
                }
            }
        }
        if let Some(header) = commit.header.clone() {
            commit.references = self.references_of(&header);
        }
        let mut reader = Reader {
            parser: self,
            lines: &lines,
            at,
            commit,
        };
        reader.body_and_footer();
        let mut commit = reader.commit;
        commit.body = commit.body.map(|b| trim_new_lines(&b).to_string());
        commit.footer = commit.footer.map(|f| trim_new_lines(&f).to_string());
        let mut seen = std::collections::HashSet::new();
        commit.references.retain(|r| {
            let action = r.action.as_deref().unwrap_or("null");
            seen.insert(format!("{action} {}", r.raw).to_lowercase())
        });
        Some(commit)
    }

    /// The references of one line: each sentence after an action word (`Closes #1, #2`),
    /// or the whole line when it has none; a sentence holding a URL has none.
    fn references_of(&self, line: &str) -> Vec<Reference> {
        let mut out = Vec::new();
        let Some(parts) = &self.reference_parts else {
            return out;
        };
        let mut sentences: Vec<(Option<String>, String)> = Vec::new();
        match &self.references {
            Some(re) if re.is_match(line).unwrap_or(false) => {
                for caps in all_captures(re, line) {
                    let action = caps.get(1).map(|m| m.as_str().to_string());
                    let sentence = caps.get(2).map_or("", |m| m.as_str()).to_string();
                    sentences.push((action.filter(|a| !a.is_empty()), sentence));
                }
            }
            _ => sentences.push((None, line.to_string())),
        }
        for (action, sentence) in sentences {
            if self.url.is_match(&sentence).unwrap_or(false) {
                continue;
            }
            for caps in all_captures(parts, &sentence) {
                out.push(Reference {
                    action: action.clone(),
                    raw: caps.get(0).map_or("", |m| m.as_str()).to_string(),
                    prefix: caps.get(2).map_or("", |m| m.as_str()).to_string(),
                    issue: caps.get(3).map_or("", |m| m.as_str()).to_string(),
                });
            }
        }
        out
    }

    fn is_note(&self, line: &str) -> bool {
        self.notes
            .as_ref()
            .is_some_and(|re| re.is_match(line).unwrap_or(false))
    }
}

/// The walk over the lines after the header, as the parser's state machine takes them.
struct Reader<'a> {
    parser: &'a Parser,
    lines: &'a [&'a str],
    at: usize,
    commit: Commit,
}

impl<'a> Reader<'a> {
    fn current(&self) -> Option<&'a str> {
        self.lines.get(self.at).copied()
    }

    fn body_and_footer(&mut self) {
        let mut is_body = true;
        while self.current().is_some() {
            if self.notes() {
                is_body = false;
            }
            if !self.body_or_footer_line(is_body) {
                is_body = false;
            }
        }
    }

    /// A note (`BREAKING CHANGE: ...`) and the lines that continue it, up to a line with an
    /// issue reference; false when the current line starts no note.
    /// (The parser recurses into the next note; this loops, so a message of many notes
    /// cannot exhaust the stack.)
    fn notes(&mut self) -> bool {
        if !self.current().is_some_and(|line| self.parser.is_note(line)) {
            return false;
        }
        'note: loop {
            // The current line starts a note.
            if let Some(line) = self.current() {
                append(&mut self.commit.footer, line);
                self.at += 1;
            }
            while let Some(line) = self.current() {
                if self.parser.is_note(line) {
                    continue 'note;
                }
                let refs = self.parser.references_of(line);
                let referenced = !refs.is_empty();
                self.commit.references.extend(refs);
                append(&mut self.commit.footer, line);
                self.at += 1;
                if referenced {
                    break;
                }
            }
            return true;
        }
    }

    /// One line into the body (while it lasts) or the footer; whether the body goes on.
    fn body_or_footer_line(&mut self, is_body: bool) -> bool {
        let Some(line) = self.current() else {
            return is_body;
        };
        let refs = self.parser.references_of(line);
        let still_body = is_body && refs.is_empty();
        self.commit.references.extend(refs);
        let part = if still_body {
            &mut self.commit.body
        } else {
            &mut self.commit.footer
        };
        append(part, line);
        self.at += 1;
        still_body
    }
}

/// The parser's `appendLine`: an empty part takes the line as it is.
fn append(part: &mut Option<String>, line: &str) {
    match part {
        Some(text) if !text.is_empty() => {
            text.push('\n');
            text.push_str(line);
        }
        _ => *part = Some(line.to_string()),
    }
}

/// Sets the fields a pattern's groups fill (by group name when it names them); an empty
/// group is no value.
fn assign(commit: &mut Commit, re: &Regex, caps: &Captures, correspondence: &[String]) {
    let named = re.capture_names().any(|n| n.is_some());
    for (i, key) in correspondence.iter().enumerate() {
        let value = if named {
            caps.name(key)
        } else {
            caps.get(i + 1)
        }
        .map(|m| m.as_str().to_string())
        .filter(|v| !v.is_empty());
        match key.as_str() {
            "type" => commit.kind = value,
            "scope" => commit.scope = value,
            "subject" => commit.subject = value,
            "header" => commit.header = value,
            _ => {}
        }
    }
}

fn captures<'t>(re: &Regex, text: &'t str) -> Option<Captures<'t>> {
    re.captures(text).ok().flatten()
}

/// Every match of `re` in `text`, each search starting where the last match ended, as a
/// JavaScript global pattern's `exec` loop finds them.
fn all_captures<'t>(re: &Regex, text: &'t str) -> Vec<Captures<'t>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos <= text.len() {
        let Ok(Some(caps)) = re.captures_from_pos(text, pos) else {
            break;
        };
        let whole = caps.get(0).map_or(pos..pos, |m| m.range());
        pos = if whole.is_empty() {
            next_boundary(text, whole.end)
        } else {
            whole.end
        };
        out.push(caps);
    }
    out
}

fn next_boundary(text: &str, at: usize) -> usize {
    text[at..]
        .chars()
        .next()
        .map_or(text.len() + 1, |c| at + c.len_utf8())
}

/// A line gpg writes into a signed commit's output.
fn is_gpg(line: &str) -> bool {
    line.trim_start().starts_with("gpg:")
}

/// `text` without line breaks at its start and end (blank space inside lines stays).
pub fn trim_new_lines(text: &str) -> &str {
    text.trim_matches(['\r', '\n'])
}

/// The lines of a text, split where commitlint splits them (`\n` or `\r\n`).
pub fn lines(text: &str) -> Vec<&str> {
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(options: &ParserOptions, message: &str) -> Commit {
        options.compile().unwrap().parse(message).unwrap()
    }

    #[test]
    fn a_full_conventional_message() {
        let c = parse(
            &ParserOptions::conventional_commits(),
            "feat(parser)!: add arrays\n\nThe body line.\nSecond line.\n\nBREAKING CHANGE: arrays\nCloses #12\n",
        );
        assert_eq!(c.kind.as_deref(), Some("feat"));
        assert_eq!(c.scope.as_deref(), Some("parser"));
        assert_eq!(c.subject.as_deref(), Some("add arrays"));
        assert_eq!(c.body.as_deref(), Some("The body line.\nSecond line."));
        assert_eq!(
            c.footer.as_deref(),
            Some("BREAKING CHANGE: arrays\nCloses #12")
        );
        assert_eq!(c.references.len(), 1);
        assert_eq!(c.references[0].action.as_deref(), Some("Closes"));
        assert_eq!(c.references[0].issue, "12");
    }

    #[test]
    fn the_default_pattern_has_no_exclamation_mark_and_empty_groups_are_none() {
        let c = parse(&ParserOptions::default(), "feat!: x");
        assert_eq!(c.kind, None);
        let c = parse(&ParserOptions::default(), "(): x");
        assert_eq!((c.kind, c.scope), (None, None));
        let c = parse(&ParserOptions::default(), "a(): ");
        assert_eq!(c.header.as_deref(), Some("a(): "));
        assert_eq!((c.kind.as_deref(), c.subject), (Some("a"), None));
    }

    #[test]
    fn a_reference_starts_the_footer_and_trailers_stay_in_the_body() {
        let c = parse(
            &ParserOptions::default(),
            "fix: x\n\nbody\nSigned-off-by: A\nRefs #4\nmore\n",
        );
        assert_eq!(c.body.as_deref(), Some("body\nSigned-off-by: A"));
        assert_eq!(c.footer.as_deref(), Some("Refs #4\nmore"));
    }

    #[test]
    fn references_skip_urls_and_need_a_boundary() {
        let options = ParserOptions::default();
        let parser = options.compile().unwrap();
        assert_eq!(parser.references_of("fixes #12, #13").len(), 2);
        assert!(parser.references_of("see https://x.org/a#12").is_empty());
        assert!(parser.references_of("#12abc!").is_empty());
        assert!(parser.references_of("see #12.").is_empty());
        assert_eq!(parser.references_of("org/repo#3").len(), 1);
    }

    #[test]
    fn many_notes_in_a_row_do_not_exhaust_the_stack() {
        let message = format!("fix: x\n\n{}", "BREAKING CHANGE: a\n".repeat(50_000));
        let c = parse(&ParserOptions::conventional_commits(), &message);
        assert_eq!(c.footer.map(|f| f.lines().count()), Some(50_000));
    }

    #[test]
    fn comments_scissors_and_line_breaks() {
        let c = parse(
            &ParserOptions::default(),
            "\r\n# comment\r\nfix: x\r\n\r\nbody\r\n# ------------------------ >8 ------------------------\r\ndiff\r\n",
        );
        assert_eq!(c.header.as_deref(), Some("fix: x"));
        assert_eq!(c.body.as_deref(), Some("body"));
        assert!(
            ParserOptions::default()
                .compile()
                .unwrap()
                .parse(" \n")
                .is_none()
        );
    }
}
