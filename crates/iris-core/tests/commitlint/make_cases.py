#!/usr/bin/env python3
"""Builds the commitlint agreement corpus (cases.jsonl next to this file).

The cases below are data written for Iris: a name, a commitlint configuration and a commit
message. Running this script pipes every case through the real commitlint (an oracle script
that reads `{"config", "message"}` JSON lines and prints one verdict line each) and writes
`cases.jsonl` with the oracle's verdict as `expect`:

    {"valid": bool, "errors": [rule names, sorted], "warnings": [sorted]}
    {"refused": "first line of commitlint's error"}   (configuration refused)

The oracle (oracle.mjs beside this file) lints as `commitlint --edit` does: lines starting
with `#` are comments. It imports commitlint, so it runs from a directory holding it:

    mkdir -p /tmp/cl && cd /tmp/cl && npm init -y && npm i @commitlint/load@20 \
        @commitlint/lint@20 @commitlint/config-conventional@20 @commitlint/config-angular@20 \
        conventional-changelog-conventionalcommits
    cp oracle.mjs /tmp/cl/ && ORACLE=/tmp/cl/oracle.mjs python3 make_cases.py

Names are "<rule or topic>: <what the case tests>"; the part before the first colon groups
the cases in the summary printed at the end. Standard library only.
"""

import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "cases.jsonl")
ORACLE = os.environ.get("ORACLE", "/tmp/cl/oracle.mjs")

CASES = []


def add(name, config, message):
    CASES.append({"name": name, "config": config, "message": message})


def r(rule, *entry):
    """A configuration with the one rule `rule` set to `entry` (level, when[, value])."""
    return {"rules": {rule: list(entry)}}


def rules(**kw):
    """A configuration with several rules; keyword names use _ for -."""
    return {"rules": {k.replace("_", "-"): v for k, v in kw.items()}}


def u16(s):
    """Length as JavaScript counts it (UTF-16 code units)."""
    return len(s.encode("utf-16-le")) // 2


CONV = "conventional-changelog-conventionalcommits"


def with_preset(config, preset=CONV):
    c = dict(config)
    c["parserPreset"] = preset
    return c


def with_opts(config, **opts):
    c = dict(config)
    c["parserPreset"] = {"parserOpts": opts}
    return c


# ---------------------------------------------------------------------------------------
# body-case
# ---------------------------------------------------------------------------------------
def body_case():
    n = "body-case"
    lower = "fix(sync): retry uploads on timeout\n\nuploads now back off before retrying"
    sentence = "fix(sync): retry uploads on timeout\n\nUploads now back off before retrying"
    upper = "chore: pin the toolchain\n\nDO NOT BUMP UNTIL THE MIRROR IS FIXED"
    start = "docs: describe flags\n\nEvery Flag Gets A Paragraph"
    nobody = "perf: cache decoded thumbnails"
    add(f"{n}: always lower-case, lower-case body", r(n, 2, "always", "lower-case"), lower)
    add(f"{n}: always lower-case, sentence-case body", r(n, 2, "always", "lower-case"), sentence)
    add(f"{n}: never lower-case, lower-case body", r(n, 2, "never", "lower-case"), lower)
    add(f"{n}: never lower-case, sentence-case body", r(n, 2, "never", "lower-case"), sentence)
    add(f"{n}: always upper-case, upper-case body", r(n, 2, "always", "upper-case"), upper)
    add(f"{n}: never upper-case, upper-case body", r(n, 2, "never", "upper-case"), upper)
    add(f"{n}: always upper-case, no body", r(n, 2, "always", "upper-case"), nobody)
    add(f"{n}: always sentence-case, sentence-case body", r(n, 2, "always", "sentence-case"), sentence)
    add(f"{n}: always start-case, start-case body", r(n, 2, "always", "start-case"), start)
    add(f"{n}: always list [upper-case, lower-case], start-case body",
        r(n, 2, "always", ["upper-case", "lower-case"]), start)
    add(f"{n}: never list [sentence-case, start-case], upper-case body (sentence-case matches)",
        r(n, 2, "never", ["sentence-case", "start-case"]), upper)
    add(f"{n}: never list [pascal-case, kebab-case], upper-case body (none match)",
        r(n, 2, "never", ["pascal-case", "kebab-case"]), upper)
    add(f"{n}: always object {{when never, case upper-case}}, lower-case body",
        r(n, 2, "always", [{"when": "never", "case": "upper-case"}]), lower)
    add(f"{n}: always object {{when never, case upper-case}}, upper-case body",
        r(n, 2, "always", [{"when": "never", "case": "upper-case"}]), upper)
    add(f"{n}: always single object (not in a list) {{when always, case lower-case}}, sentence body",
        r(n, 2, "always", {"when": "always", "case": "lower-case"}), sentence)
    add(f"{n}: always lower-case, upper-case word in backticks is not checked",
        r(n, 2, "always", "lower-case"),
        "refactor: split the lexer\n\nuse `TokenStream` rather than raw chars")
    add(f"{n}: always lower-case, double-quoted upper-case words are not checked",
        r(n, 2, "always", "lower-case"),
        "refactor: split the lexer\n\nthe \"Legacy Mode\" switch stays for now")
    add(f"{n}: always lower-case, second body line capitalised",
        r(n, 2, "always", "lower-case"),
        "refactor: split the lexer\n\nfirst pass only tokenizes\nSecond pass builds the tree")
    add(f"{n}: always upper-case, body starting with a digit",
        r(n, 2, "always", "upper-case"), "build: raise parallelism\n\n4 workers fit in memory now")
    add(f"{n}: always upper-case, only a reference footer (no body)",
        r(n, 2, "always", "upper-case"), "fix: close the socket leak\n\nResolves #88")
    add(f"{n}: warning level, always lower-case, sentence-case body",
        r(n, 1, "always", "lower-case"), sentence)


# ---------------------------------------------------------------------------------------
# body-empty
# ---------------------------------------------------------------------------------------
def body_empty():
    n = "body-empty"
    withb = "feat(editor): soft wrap long lines\n\nwrapping follows the viewport width"
    nob = "feat(editor): soft wrap long lines"
    add(f"{n}: always, no body", r(n, 2, "always"), nob)
    add(f"{n}: always, body", r(n, 2, "always"), withb)
    add(f"{n}: never, no body", r(n, 2, "never"), nob)
    add(f"{n}: never, body", r(n, 2, "never"), withb)
    add(f"{n}: never, body right under the header (no blank line)", r(n, 2, "never"),
        "feat(editor): soft wrap long lines\nwrapping follows the viewport width")
    add(f"{n}: never, only a reference line (it is footer, not body)", r(n, 2, "never"),
        "fix(editor): keep the caret visible\n\nFixes #301")
    add(f"{n}: never, only trailing blank lines after the header", r(n, 2, "never"),
        "feat(editor): soft wrap long lines\n\n\n\n")
    add(f"{n}: never, body is only spaces", r(n, 2, "never"),
        "feat(editor): soft wrap long lines\n\n   ")
    add(f"{n}: never, body made only of comment lines", r(n, 2, "never"),
        "feat(editor): soft wrap long lines\n\n# Describe the change above this line\n# (these lines are dropped)")
    add(f"{n}: always, body after a comment line", r(n, 2, "always"),
        "feat(editor): soft wrap long lines\n# a comment line\n\nthe body text")
    add(f"{n}: never, Signed-off-by trailer only (default parser keeps it in the body)",
        r(n, 2, "never"), "feat(editor): soft wrap long lines\n\nSigned-off-by: Ada Lovelace <ada@example.org>")
    add(f"{n}: never, warning level, no body", r(n, 1, "never"), nob)


# ---------------------------------------------------------------------------------------
# body-full-stop
# ---------------------------------------------------------------------------------------
def body_full_stop():
    n = "body-full-stop"
    dot = "docs(readme): add install steps\n\nthe steps cover linux and macos."
    nodot = "docs(readme): add install steps\n\nthe steps cover linux and macos"
    add(f"{n}: always '.', body ends with '.'", r(n, 2, "always", "."), dot)
    add(f"{n}: always '.', body without stop", r(n, 2, "always", "."), nodot)
    add(f"{n}: never '.', body ends with '.'", r(n, 2, "never", "."), dot)
    add(f"{n}: never '.', body without stop", r(n, 2, "never", "."), nodot)
    add(f"{n}: always '.', no body", r(n, 2, "always", "."), "docs(readme): add install steps")
    add(f"{n}: never '.', empty subject and no body", r(n, 2, "never", "."), "docs:\n")
    add(f"{n}: never '.', body ends with '...' (no ellipsis exception for the body)",
        r(n, 2, "never", "."), "docs(readme): add install steps\n\nmore platforms later...")
    add(f"{n}: always '!', body ends with '!'", r(n, 2, "always", "!"),
        "docs(readme): add install steps\n\nfinally documented!")
    add(f"{n}: never '!', body ends with '!'", r(n, 2, "never", "!"),
        "docs(readme): add install steps\n\nfinally documented!")
    add(f"{n}: never '.', only the first body line ends with '.'", r(n, 2, "never", "."),
        "docs(readme): add install steps\n\nlinux is covered.\nmacos comes next")
    add(f"{n}: never '.', body with '.' followed by trailing whitespace", r(n, 2, "never", "."),
        "docs(readme): add install steps\n\nthe steps cover linux. ")
    add(f"{n}: always '.', body ends with '.', then a reference footer", r(n, 2, "always", "."),
        "docs(readme): add install steps\n\nthe steps cover linux.\n\nRefs #14")
    add(f"{n}: always '。', body ends with an ideographic full stop", r(n, 2, "always", "。"),
        "docs: 更新安装说明\n\n安装步骤已经更新。")
    add(f"{n}: never '.', CRLF body ending with '.'", r(n, 2, "never", "."),
        "docs(readme): add install steps\r\n\r\nthe steps cover linux.\r\n")


# ---------------------------------------------------------------------------------------
# body-leading-blank
# ---------------------------------------------------------------------------------------
def body_leading_blank():
    n = "body-leading-blank"
    withb = "style(css): align the toolbar icons\n\nicons were two pixels off"
    without = "style(css): align the toolbar icons\nicons were two pixels off"
    nob = "style(css): align the toolbar icons"
    add(f"{n}: always, blank line before the body", r(n, 2, "always"), withb)
    add(f"{n}: always, no blank line before the body", r(n, 2, "always"), without)
    add(f"{n}: never, blank line before the body", r(n, 2, "never"), withb)
    add(f"{n}: never, no blank line before the body", r(n, 2, "never"), without)
    add(f"{n}: always, header only", r(n, 2, "always"), nob)
    add(f"{n}: never, header only", r(n, 2, "never"), nob)
    add(f"{n}: warning level, no blank line", r(n, 1, "always"), without)
    add(f"{n}: always, CRLF with blank line", r(n, 2, "always"),
        "style(css): align the toolbar icons\r\n\r\nicons were two pixels off\r\n")
    add(f"{n}: always, CRLF without blank line", r(n, 2, "always"),
        "style(css): align the toolbar icons\r\nicons were two pixels off\r\n")
    add(f"{n}: always, leading blank line before the header shifts the raw lines", r(n, 2, "always"),
        "\nstyle(css): align the toolbar icons\n\nicons were two pixels off")
    add(f"{n}: always, comment line right under the header, then blank, then body",
        r(n, 2, "always"), "style(css): align the toolbar icons\n# not part of the message\n\nicons were off")
    add(f"{n}: always, no blank line but the second line is a reference (footer, no body)",
        r(n, 2, "always"), "style(css): align the toolbar icons\nCloses #77")
    add(f"{n}: always, second line is whitespace only", r(n, 2, "always"),
        "style(css): align the toolbar icons\n  \nicons were two pixels off")
    add(f"{n}: always, two blank lines before the body", r(n, 2, "always"),
        "style(css): align the toolbar icons\n\n\nicons were two pixels off")


# ---------------------------------------------------------------------------------------
# body-max-length
# ---------------------------------------------------------------------------------------
def body_max_length():
    n = "body-max-length"
    head = "perf(db): batch inserts\n\n"
    body = "inserts go out in chunks of 500"
    add(f"{n}: body exactly at the limit", r(n, 2, "always", len(body)), head + body)
    add(f"{n}: body one over the limit", r(n, 2, "always", len(body) - 1), head + body)
    add(f"{n}: limit 0 with a body", r(n, 2, "always", 0), head + body)
    add(f"{n}: limit 0 without a body", r(n, 2, "always", 0), "perf(db): batch inserts")
    two = "first line here\nsecond line"
    add(f"{n}: two-line body counts the newline (at limit)", r(n, 2, "always", len(two)), head + two)
    add(f"{n}: two-line body counts the newline (limit = length without it)",
        r(n, 2, "always", len(two) - 1), head + two)
    crlf = "perf(db): batch inserts\r\n\r\nfirst line here\r\nsecond line"
    add(f"{n}: CRLF body counts one character per line break (at limit)",
        r(n, 2, "always", len(two)), crlf)
    emo = "ship it \U0001F680 now"
    add(f"{n}: emoji counts two (UTF-16), limit = UTF-16 length", r(n, 2, "always", u16(emo)), head + emo)
    add(f"{n}: emoji counts two (UTF-16), limit = code point count", r(n, 2, "always", len(emo)), head + emo)
    url = "see https://example.org/a/very/long/path/that/goes/on/and/on/for/a/while"
    add(f"{n}: a URL does not exempt the whole-body length", r(n, 2, "always", 20), head + url)
    add(f"{n}: body stops where the reference footer starts", r(n, 2, "always", len(body)),
        head + body + "\n\nCloses #4 and a long tail of words after it")
    add(f"{n}: warning level, over the limit", r(n, 1, "always", 5), head + body)


# ---------------------------------------------------------------------------------------
# body-max-line-length
# ---------------------------------------------------------------------------------------
def body_max_line_length():
    n = "body-max-line-length"
    head = "ci: cache cargo registry\n\n"
    add(f"{n}: single line exactly at the limit", r(n, 2, "always", 17), head + "keyed by lockfile")
    add(f"{n}: single line one over the limit", r(n, 2, "always", 16), head + "keyed by lockfile")
    add(f"{n}: one long line among short ones", r(n, 2, "always", 12),
        head + "keyed by\nthe lockfile hash only\nhash")
    add(f"{n}: no body", r(n, 2, "always", 5), "ci: cache cargo registry")
    add(f"{n}: limit 0 with a body", r(n, 2, "always", 0), head + "x")
    add(f"{n}: a long line holding a bare https URL is exempt", r(n, 2, "always", 10),
        head + "short\nhttps://ci.example.com/pipelines/12345/jobs/67890/artifacts\nshort")
    add(f"{n}: a long line with a URL inside a markdown link is exempt", r(n, 2, "always", 25),
        head + "Details are in the [pipeline log](https://ci.example.com/pipelines/12345) for this run.")
    add(f"{n}: a long line with a URL in a list item is exempt", r(n, 2, "always", 12),
        head + "Sources:\n\n- https://docs.example.net/caching/cargo-registry-and-git")
    add(f"{n}: a markdown reference-style link definition line is exempt", r(n, 2, "always", 20),
        head + "See [docs][1].\n\n[1]: https://docs.example.net/caching/cargo-registry")
    add(f"{n}: http (not https) URL is exempt too", r(n, 2, "always", 12),
        head + "mirror at http://mirror.internal.example/cargo/index")
    add(f"{n}: ftp URL is not exempt", r(n, 2, "always", 12),
        head + "mirror at ftp://mirror.internal.example/cargo/index")
    add(f"{n}: the exemption is per line: a long line without URL still fails", r(n, 2, "always", 20),
        head + "https://ci.example.com/pipelines/12345/jobs/67890\nthis other line is far too long for the limit")
    line = "deploy \U0001F680\U0001F680"
    add(f"{n}: emoji count two each (UTF-16), limit = UTF-16 length", r(n, 2, "always", u16(line)), head + line)
    add(f"{n}: emoji count two each (UTF-16), limit = code point count", r(n, 2, "always", len(line)), head + line)
    cjk = "缓存注册表以加快构建"
    add(f"{n}: CJK line counts one per character", r(n, 2, "always", len(cjk)), head + cjk)
    add(f"{n}: CRLF lines are measured without the CR", r(n, 2, "always", 8),
        "ci: cache cargo registry\r\n\r\nkeyed by\r\nlockfile\r\n")
    add(f"{n}: warning level, long line", r(n, 1, "always", 5), head + "keyed by lockfile")


# ---------------------------------------------------------------------------------------
# body-min-length
# ---------------------------------------------------------------------------------------
def body_min_length():
    n = "body-min-length"
    head = "fix(auth): refresh tokens early\n\n"
    body = "refresh at 80% of ttl"
    add(f"{n}: no body passes any minimum", r(n, 2, "always", 100), "fix(auth): refresh tokens early")
    add(f"{n}: body shorter than the minimum", r(n, 2, "always", len(body) + 1), head + body)
    add(f"{n}: body exactly the minimum", r(n, 2, "always", len(body)), head + body)
    add(f"{n}: body longer than the minimum", r(n, 2, "always", 5), head + body)
    add(f"{n}: minimum 0 with a body", r(n, 2, "always", 0), head + body)
    add(f"{n}: one-character body against 2", r(n, 2, "always", 2), head + "y")
    emo = "\U0001F512 ok"
    add(f"{n}: emoji counts two (UTF-16) towards the minimum", r(n, 2, "always", u16(emo)), head + emo)
    add(f"{n}: multi-line body counts its newlines", r(n, 2, "always", 5), head + "ab\ncd")
    add(f"{n}: body only in the footer (reference) does not count", r(n, 2, "always", 50),
        "fix(auth): refresh tokens early\n\nCloses #5")
    add(f"{n}: warning level, too short", r(n, 1, "always", 100), head + body)


# ---------------------------------------------------------------------------------------
# breaking-change-exclamation-mark
# ---------------------------------------------------------------------------------------
def breaking_change_exclamation_mark():
    n = "breaking-change-exclamation-mark"
    c = with_preset(r(n, 2, "always"))
    cn = with_preset(r(n, 2, "never"))
    plain = "feat(api): add paging to search"
    bang = "feat(api)!: remove the v1 search route"
    bc = "\n\nBREAKING CHANGE: callers must move to /v2/search"
    bch = "\n\nBREAKING-CHANGE: callers must move to /v2/search"
    other = "\n\nRefs #812"
    add(f"{n}: plain header, no footer", c, plain)
    add(f"{n}: '!' header, no footer", c, bang)
    add(f"{n}: plain header, BREAKING CHANGE footer", c, plain + bc)
    add(f"{n}: '!' header, BREAKING CHANGE footer", c, bang + bc)
    add(f"{n}: '!' header, BREAKING-CHANGE (hyphen) footer", c, bang + bch)
    add(f"{n}: plain header, BREAKING-CHANGE (hyphen) footer", c, plain + bch)
    add(f"{n}: plain header, unrelated reference footer", c, plain + other)
    add(f"{n}: '!' header, unrelated reference footer", c, bang + other)
    add(f"{n}: header that is not conventional, BREAKING CHANGE footer", c,
        "remove the v1 search route" + bc)
    add(f"{n}: never, plain header, no footer (neither marker: still 'both agree')", cn, plain)
    add(f"{n}: never, '!' header and BREAKING CHANGE footer", cn, bang + bc)
    add(f"{n}: never, '!' header only", cn, bang)
    add(f"{n}: never, BREAKING CHANGE footer only", cn, plain + bc)
    add(f"{n}: lower-case 'breaking change:' note is not a marker for the rule", c,
        bang + "\n\nbreaking change: callers must move to /v2/search")
    add(f"{n}: BREAKING CHANGE line right under body text starts the footer", c,
        bang + "\n\nsome context first\nBREAKING CHANGE: callers must move\nCloses #9")
    add(f"{n}: default parser: '!' header, BREAKING-CHANGE is body, not a note",
        r(n, 2, "always"), bang + bch)
    add(f"{n}: default parser: plain header, BREAKING CHANGE footer", r(n, 2, "always"), plain + bc)
    add(f"{n}: '!:' with empty type, BREAKING CHANGE footer", c, "!: drop the v1 route" + bc)
    add(f"{n}: '!' followed by no space is not a marker", c, "feat(api)!:remove the v1 route" + bc)
    add(f"{n}: warning level, '!' header only", with_preset(r(n, 1, "always")), bang)


# ---------------------------------------------------------------------------------------
# footer-empty
# ---------------------------------------------------------------------------------------
def footer_empty():
    n = "footer-empty"
    nof = "refactor(io): merge the reader types"
    body = "refactor(io): merge the reader types\n\nboth readers shared most code"
    bcf = "refactor(io): merge the reader types\n\nBREAKING CHANGE: BufReader2 is gone"
    ref = "refactor(io): merge the reader types\n\nbody text\n\nCloses #230"
    add(f"{n}: always, header only", r(n, 2, "always"), nof)
    add(f"{n}: never, header only", r(n, 2, "never"), nof)
    add(f"{n}: always, body but no footer", r(n, 2, "always"), body)
    add(f"{n}: never, body but no footer", r(n, 2, "never"), body)
    add(f"{n}: always, BREAKING CHANGE footer", r(n, 2, "always"), bcf)
    add(f"{n}: never, BREAKING CHANGE footer", r(n, 2, "never"), bcf)
    add(f"{n}: always, reference footer", r(n, 2, "always"), ref)
    add(f"{n}: never, reference footer", r(n, 2, "never"), ref)
    add(f"{n}: never, reference only in the header (no footer)", r(n, 2, "never"),
        "refactor(io): merge the reader types (#230)")
    add(f"{n}: never, git trailers only (default parser: body)", r(n, 2, "never"),
        "refactor(io): merge the reader types\n\nReviewed-by: Grace Hopper <grace@example.org>")
    add(f"{n}: never, reference in a body line makes it footer", r(n, 2, "never"),
        "refactor(io): merge the reader types\n\nthis supersedes #199 entirely")
    add(f"{n}: always, BREAKING-CHANGE with the conventionalcommits preset",
        with_preset(r(n, 2, "always")),
        "refactor(io)!: merge the reader types\n\nBREAKING-CHANGE: BufReader2 is gone")
    add(f"{n}: always, BREAKING-CHANGE with the default parser (not a note)", r(n, 2, "always"),
        "refactor(io): merge the reader types\n\nBREAKING-CHANGE: BufReader2 is gone")
    add(f"{n}: never, lower-case 'breaking change:' is a note (case-insensitive keyword)",
        r(n, 2, "never"), "refactor(io): merge the reader types\n\nbreaking change: BufReader2 is gone")
    add(f"{n}: warning level, always, reference footer", r(n, 1, "always"), ref)


# ---------------------------------------------------------------------------------------
# footer-leading-blank
# ---------------------------------------------------------------------------------------
def footer_leading_blank():
    n = "footer-leading-blank"
    nof = "feat(cli): add --dry-run"
    bodyonly = "feat(cli): add --dry-run\nprints the plan without running it"
    trailing = "feat(cli): add --dry-run\nprints the plan\n\n"
    nob_blank = "feat(cli): add --dry-run\n\nBREAKING CHANGE: --plan is removed"
    nob_tight = "feat(cli): add --dry-run\nBREAKING CHANGE: --plan is removed"
    tight = "feat(cli): add --dry-run\n\nprints the plan\nBREAKING CHANGE: --plan is removed"
    blank = "feat(cli): add --dry-run\n\nprints the plan\n\nBREAKING CHANGE: --plan is removed"
    multi = "feat(cli): add --dry-run\n\nprints the plan\nin plain text\nfor review\n\nBREAKING CHANGE: --plan is removed"
    refs = "fix(cli): exit non-zero on failure\n\nscripts relied on it\n\n\nFixes #64"
    add(f"{n}: always, header only", r(n, 2, "always"), nof)
    add(f"{n}: always, body without footer", r(n, 2, "always"), bodyonly)
    add(f"{n}: never, body then trailing blank lines", r(n, 2, "never"), trailing)
    for when in ("always", "never"):
        add(f"{n}: {when}, no body, blank line before footer", r(n, 2, when), nob_blank)
        add(f"{n}: {when}, no body, footer right under the header", r(n, 2, when), nob_tight)
        add(f"{n}: {when}, body then footer without blank line", r(n, 2, when), tight)
        add(f"{n}: {when}, body then blank line then footer", r(n, 2, when), blank)
        add(f"{n}: {when}, two blank lines before a reference footer", r(n, 2, when), refs)
    add(f"{n}: never, multi-line body then blank line then footer", r(n, 2, "never"), multi)
    add(f"{n}: always, body containing a comment line, blank line before footer", r(n, 2, "always"),
        "feat(cli): add --dry-run\n\nprints the plan\n# editor hint\nwithout running it\n\nBREAKING CHANGE: --plan is removed")
    add(f"{n}: always, comment line between the blank line and the footer", r(n, 2, "always"),
        "feat(cli): add --dry-run\n\nprints the plan\n\n# editor hint\nBREAKING CHANGE: --plan is removed")
    add(f"{n}: always, reference footer right after body", r(n, 2, "always"),
        "fix(cli): exit non-zero on failure\n\nscripts relied on it\nCloses #64")
    add(f"{n}: always, CRLF with blank line before footer", r(n, 2, "always"),
        "feat(cli): add --dry-run\r\n\r\nprints the plan\r\n\r\nBREAKING CHANGE: --plan is removed\r\n")
    add(f"{n}: always, footer text also appears earlier as the header line", r(n, 2, "always"),
        "Closes #70\n\nbody line\n\nCloses #70")
    add(f"{n}: warning level, footer without blank line", r(n, 1, "always"), tight)


# ---------------------------------------------------------------------------------------
# footer-max-length / footer-max-line-length / footer-min-length
# ---------------------------------------------------------------------------------------
def footer_lengths():
    n = "footer-max-length"
    head = "fix(net): honour proxy settings\n\nthe env vars were ignored\n\n"
    foot = "Closes #4021"
    add(f"{n}: header only", r(n, 2, "always", 3), "fix(net): honour proxy settings")
    add(f"{n}: body without footer", r(n, 2, "always", 3), "fix(net): honour proxy settings\n\nbody words")
    add(f"{n}: footer exactly at the limit", r(n, 2, "always", len(foot)), head + foot)
    add(f"{n}: footer one over the limit", r(n, 2, "always", len(foot) - 1), head + foot)
    add(f"{n}: limit 0 with a footer", r(n, 2, "always", 0), head + foot)
    two = "Closes #4021\nRefs #4000"
    add(f"{n}: two footer lines count the newline (at limit)", r(n, 2, "always", len(two)), head + two)
    add(f"{n}: two footer lines count the newline (limit without it)", r(n, 2, "always", len(two) - 1),
        head + two)
    bc = "BREAKING CHANGE: \U0001F9E8 proxies now need a scheme"
    add(f"{n}: emoji in the footer counts two (UTF-16)", r(n, 2, "always", u16(bc)), head + bc)
    add(f"{n}: emoji in the footer: limit = code points fails", r(n, 2, "always", len(bc)), head + bc)
    add(f"{n}: lines after the first footer line are footer too", r(n, 2, "always", len(foot)),
        head + foot + "\nthanks to the reporter")
    add(f"{n}: warning level, over", r(n, 1, "always", 5), head + foot)

    n = "footer-max-line-length"
    add(f"{n}: header only", r(n, 2, "always", 3), "fix(net): honour proxy settings")
    add(f"{n}: body without footer", r(n, 2, "always", 3), "fix(net): honour proxy settings\n\nbody words")
    add(f"{n}: footer line at the limit", r(n, 2, "always", len(foot)), head + foot)
    add(f"{n}: footer line one over", r(n, 2, "always", len(foot) - 1), head + foot)
    add(f"{n}: several short footer lines", r(n, 2, "always", 12), head + "Closes #4021\nRefs #4000\nRefs #3999")
    add(f"{n}: one long footer line among short", r(n, 2, "always", 12),
        head + "Closes #4021\nRefs #4000 and #3999\nRefs #3")
    add(f"{n}: limit 0 with a footer", r(n, 2, "always", 0), head + foot)
    add(f"{n}: a footer line with a URL is exempt", r(n, 2, "always", 20),
        head + "Closes #4021\nSee: https://tracker.example.com/browse/NET-4021/comments")
    add(f"{n}: a footer BREAKING CHANGE line with a long text fails", r(n, 2, "always", 30),
        head + "BREAKING CHANGE: proxy URLs without a scheme are rejected now")
    add(f"{n}: footer under a body without blank line", r(n, 2, "always", 12),
        "fix(net): honour proxy settings\nthe env vars\nCloses #4021")
    add(f"{n}: CRLF footer lines measured without CR", r(n, 2, "always", len(foot)),
        "fix(net): honour proxy settings\r\n\r\nbody\r\n\r\nCloses #4021\r\n")
    add(f"{n}: warning level, over", r(n, 1, "always", 5), head + foot)

    n = "footer-min-length"
    add(f"{n}: header only passes any minimum", r(n, 2, "always", 50), "fix(net): honour proxy settings")
    add(f"{n}: body without footer passes", r(n, 2, "always", 50),
        "fix(net): honour proxy settings\n\nbody words")
    add(f"{n}: footer shorter than the minimum", r(n, 2, "always", len(foot) + 1), head + foot)
    add(f"{n}: footer exactly the minimum", r(n, 2, "always", len(foot)), head + foot)
    add(f"{n}: footer longer than the minimum", r(n, 2, "always", 4), head + foot)
    add(f"{n}: minimum 0", r(n, 2, "always", 0), head + foot)
    add(f"{n}: multi-line footer counts its newline", r(n, 2, "always", len(two)), head + two)
    add(f"{n}: footer under a body without blank line", r(n, 2, "always", len(foot) + 1),
        "fix(net): honour proxy settings\nthe env vars\n" + foot)
    add(f"{n}: BREAKING CHANGE footer length", r(n, 2, "always", 200),
        head + "BREAKING CHANGE: proxies need a scheme")
    add(f"{n}: warning level, too short", r(n, 1, "always", 99), head + foot)


# ---------------------------------------------------------------------------------------
# header-case
# ---------------------------------------------------------------------------------------
def header_case():
    n = "header-case"
    lower = "fix: trim trailing spaces in names"
    sent = "Fix: trim trailing spaces in names"
    upper = "FIX: TRIM TRAILING SPACES"
    add(f"{n}: always lower-case, lower-case header", r(n, 2, "always", "lower-case"), lower)
    add(f"{n}: always lower-case, sentence-case header", r(n, 2, "always", "lower-case"), sent)
    add(f"{n}: never lower-case, lower-case header", r(n, 2, "never", "lower-case"), lower)
    add(f"{n}: never lower-case, sentence-case header", r(n, 2, "never", "lower-case"), sent)
    add(f"{n}: always upper-case, upper-case header", r(n, 2, "always", "upper-case"), upper)
    add(f"{n}: always upper-case, lower-case header", r(n, 2, "always", "upper-case"), lower)
    add(f"{n}: never upper-case, upper-case header", r(n, 2, "never", "upper-case"), upper)
    add(f"{n}: always sentence-case, sentence-case header", r(n, 2, "always", "sentence-case"), sent)
    add(f"{n}: always start-case, start-case header", r(n, 2, "always", "start-case"), "Trim Trailing Spaces")
    add(f"{n}: always camel-case, camelCase header", r(n, 2, "always", "camel-case"), "trimTrailingSpaces")
    add(f"{n}: always pascal-case, PascalCase header", r(n, 2, "always", "pascal-case"), "TrimTrailingSpaces")
    add(f"{n}: always kebab-case, kebab-case header", r(n, 2, "always", "kebab-case"), "trim-trailing-spaces")
    add(f"{n}: always snake-case, snake_case header", r(n, 2, "always", "snake-case"), "trim_trailing_spaces")
    add(f"{n}: always kebab-case, conventional header with colon and spaces", r(n, 2, "always", "kebab-case"), lower)
    add(f"{n}: always upper-case, header starting with a digit is skipped", r(n, 2, "always", "upper-case"),
        "2024 roadmap draft")
    add(f"{n}: always lower-case, header starting with an emoji is skipped", r(n, 2, "always", "lower-case"),
        "\u2728 Feat: Sparkle Everything")
    add(f"{n}: always upper-case, header starting with CJK is skipped", r(n, 2, "always", "upper-case"),
        "修复：上传崩溃")
    add(f"{n}: always lower-case, header starting with a non-ASCII cased letter is skipped",
        r(n, 2, "always", "lower-case"), "Éviter les doublons")
    add(f"{n}: always lower-case, backticked upper-case part is ignored", r(n, 2, "always", "lower-case"),
        "fix: handle `CTRL_C` in the prompt")
    add(f"{n}: always list [upper-case, lower-case], mixed header", r(n, 2, "always", ["upper-case", "lower-case"]),
        "fIx: TrIm")
    add(f"{n}: always list [upper-case, lower-case, camel-case], camelCase header",
        r(n, 2, "always", ["upper-case", "lower-case", "camel-case"]), "trimTrailingSpaces")
    add(f"{n}: never list [sentence-case, start-case], PascalCase header",
        r(n, 2, "never", ["sentence-case", "start-case"]), "TrimTrailingSpaces")
    add(f"{n}: always object {{when never, case lower-case}}, lower-case header",
        r(n, 2, "always", [{"when": "never", "case": "lower-case"}]), lower)
    add(f"{n}: warning level, always lower-case, sentence-case header", r(n, 1, "always", "lower-case"), sent)


# ---------------------------------------------------------------------------------------
# header-full-stop
# ---------------------------------------------------------------------------------------
def header_full_stop():
    n = "header-full-stop"
    dot = "docs: refresh the changelog."
    nodot = "docs: refresh the changelog"
    add(f"{n}: always '.', header ends with '.'", r(n, 2, "always", "."), dot)
    add(f"{n}: always '.', header without stop", r(n, 2, "always", "."), nodot)
    add(f"{n}: never '.', header ends with '.'", r(n, 2, "never", "."), dot)
    add(f"{n}: never '.', header without stop", r(n, 2, "never", "."), nodot)
    add(f"{n}: never '.', header ends with '...' (no ellipsis exception)", r(n, 2, "never", "."),
        "docs: refresh the changelog...")
    add(f"{n}: always '!', header ends with '!'", r(n, 2, "always", "!"), "feat: it ships!")
    add(f"{n}: never '!', header ends with '!'", r(n, 2, "never", "!"), "feat: it ships!")
    add(f"{n}: never '.', '.' then trailing space", r(n, 2, "never", "."), "docs: refresh the changelog. ")
    add(f"{n}: always '。', CJK header", r(n, 2, "always", "。"), "docs: 更新变更日志。")
    add(f"{n}: never '.', CRLF header with '.'", r(n, 2, "never", "."), "docs: refresh the changelog.\r\n\r\nbody\r\n")
    add(f"{n}: never '.', non-conventional header with '.'", r(n, 2, "never", "."), "Refresh the changelog.")
    add(f"{n}: always '..' (two chars never equal one last char)", r(n, 2, "always", ".."), "docs: wait..")
    add(f"{n}: never '.', header only a colon-ended type", r(n, 2, "never", "."), "docs:")
    add(f"{n}: warning level, never '.', header with '.'", r(n, 1, "never", "."), dot)


# ---------------------------------------------------------------------------------------
# header-max-length / header-min-length
# ---------------------------------------------------------------------------------------
def header_lengths():
    n = "header-max-length"
    h = "build(deps): bump tokio to 1.38"
    add(f"{n}: header exactly at the limit", r(n, 2, "always", len(h)), h)
    add(f"{n}: header one over the limit", r(n, 2, "always", len(h) - 1), h)
    add(f"{n}: limit 0", r(n, 2, "always", 0), h)
    e = "feat: \U0001F680 launch the beta"
    add(f"{n}: emoji header, limit = UTF-16 length", r(n, 2, "always", u16(e)), e)
    add(f"{n}: emoji header, limit = code point count", r(n, 2, "always", len(e)), e)
    zwj = "docs: \U0001F468\u200D\U0001F469\u200D\U0001F467 family sharing"
    add(f"{n}: ZWJ emoji sequence counts every code unit (at limit)", r(n, 2, "always", u16(zwj)), zwj)
    add(f"{n}: ZWJ emoji sequence counts every code unit (one under)", r(n, 2, "always", u16(zwj) - 1), zwj)
    c = "fix(上传): 修复大文件上传失败的问题"
    add(f"{n}: CJK header counts one per character", r(n, 2, "always", len(c)), c)
    u = "docs: link https://example.org/guides/setup/for/new/contributors"
    add(f"{n}: a URL in the header is not exempt", r(n, 2, "always", 40), u)
    add(f"{n}: CRLF header measured without CR", r(n, 2, "always", len(h)), h + "\r\n\r\nbody\r\n")
    add(f"{n}: leading whitespace counts", r(n, 2, "always", len(h)), "  " + h)
    add(f"{n}: leading blank lines before the header are not part of it", r(n, 2, "always", len(h)),
        "\n\n" + h + "\n\nbody")
    add(f"{n}: comment lines before the header are skipped", r(n, 2, "always", len(h)),
        "# Type the summary on the next line\n" + h)
    add(f"{n}: warning level, over", r(n, 1, "always", 10), h)

    n = "header-min-length"
    add(f"{n}: header shorter than the minimum", r(n, 2, "always", len(h) + 1), h)
    add(f"{n}: header exactly the minimum", r(n, 2, "always", len(h)), h)
    add(f"{n}: minimum 0", r(n, 2, "always", 0), h)
    add(f"{n}: short non-conventional header", r(n, 2, "always", 5), "wip")
    add(f"{n}: emoji header, minimum = UTF-16 length", r(n, 2, "always", u16(e)), e)
    add(f"{n}: emoji header, minimum = UTF-16 length + 1", r(n, 2, "always", u16(e) + 1), e)
    add(f"{n}: trailing whitespace counts", r(n, 2, "always", len(h) + 2), h + "  ")
    add(f"{n}: CRLF header measured without CR", r(n, 2, "always", len(h) + 1), h + "\r\n")
    add(f"{n}: warning level, too short", r(n, 1, "always", 100), h)


# ---------------------------------------------------------------------------------------
# header-trim
# ---------------------------------------------------------------------------------------
def header_trim():
    n = "header-trim"
    c = r(n, 2, "always")
    h = "test(parser): cover nested arrays"
    add(f"{n}: clean header", c, h)
    add(f"{n}: leading space", c, " " + h)
    add(f"{n}: trailing spaces", c, h + "  ")
    add(f"{n}: surrounded by spaces", c, " " + h + " ")
    add(f"{n}: leading tabs", c, "\t\t" + h)
    add(f"{n}: trailing tab", c, h + "\t")
    add(f"{n}: surrounded by mixed whitespace", c, " \t" + h + "\t  ")
    add(f"{n}: empty subject leaves a trailing space ('x(): ' style)", c, "test(): ")
    add(f"{n}: leading blank line before the header (parser drops it)", c, "\n" + h + "\n\nbody")
    add(f"{n}: trailing whitespace on a body line does not matter", c, h + "\n\nbody line   ")
    add(f"{n}: CRLF header is not trailing whitespace", c, h + "\r\n\r\nbody\r\n")
    add(f"{n}: no-break space at the start", c, "\u00a0" + h)
    add(f"{n}: byte order mark at the start (JS trim removes U+FEFF)", c, "\ufeff" + h)
    add(f"{n}: ideographic space at the end", c, h + "\u3000")
    add(f"{n}: 'never' is ignored: leading space", r(n, 2, "never"), " " + h)
    add(f"{n}: warning level, trailing space", r(n, 1, "always"), h + " ")


# ---------------------------------------------------------------------------------------
# references-empty
# ---------------------------------------------------------------------------------------
def references_empty():
    n = "references-empty"
    nv = r(n, 2, "never")
    al = r(n, 2, "always")
    plain = "perf(img): decode lazily"
    closes = "perf(img): decode lazily\n\nCloses #12"
    add(f"{n}: never, no references", nv, plain)
    add(f"{n}: always, no references", al, plain)
    add(f"{n}: never, 'Closes #12' footer", nv, closes)
    add(f"{n}: always, 'Closes #12' footer", al, closes)
    add(f"{n}: never, reference in the header", nv, "perf(img): decode lazily (#12)")
    add(f"{n}: always, reference in the header", al, "perf(img): decode lazily (#12)")
    add(f"{n}: never, header without type holding a reference", nv, "decode images lazily #12")
    add(f"{n}: never, owner/repo reference 'fix org/repo#3'", nv, "perf(img): decode lazily\n\nfix acme/viewer#3")
    add(f"{n}: never, reference after a comment line", nv,
        "# comment before the header\nperf(img): decode lazily \n\nCloses #12")
    add(f"{n}: never, comment line that looks like an issue is not a reference", nv,
        "perf(img): decode lazily\n#12 this line is a comment")
    add(f"{n}: never, reference with a trailing '.' is not recognised", nv,
        "perf(img): decode lazily\n\nCloses #12.")
    add(f"{n}: never, word after '#' counts as an issue", nv, "perf(img): decode lazily\n\nsee #abc")
    add(f"{n}: never, '#' inside a URL line is not a reference", nv,
        "perf(img): decode lazily\n\nsee https://example.org/notes#12")
    add(f"{n}: never, reference before an action keyword is lost", nv,
        "perf(img): decode lazily\n\nPart of #12, closes nothing yet")
    add(f"{n}: never, reference after an action keyword", nv,
        "perf(img): decode lazily\n\nthis closes #12 for good")
    add(f"{n}: never, custom issue prefix 'JIRA-' with a JIRA key",
        with_opts(nv, issuePrefixes=["JIRA-"]), "perf(img): decode lazily\n\nRefs JIRA-451")
    add(f"{n}: never, custom issue prefix 'JIRA-', '#' no longer counts",
        with_opts(nv, issuePrefixes=["JIRA-"]), "perf(img): decode lazily\n\nRefs #451")
    add(f"{n}: never, custom issue prefix matched case-insensitively",
        with_opts(nv, issuePrefixes=["JIRA-"]), "perf(img): decode lazily\n\nRefs jira-451")
    add(f"{n}: never, two custom prefixes, second one used",
        with_opts(nv, issuePrefixes=["JIRA-", "gh-"]), "perf(img): decode lazily\n\nCloses gh-77")
    add(f"{n}: warning level, never, no references", r(n, 1, "never"), plain)


# ---------------------------------------------------------------------------------------
# scope-case
# ---------------------------------------------------------------------------------------
def scope_case():
    n = "scope-case"
    def m(scope):
        return f"feat({scope}): add export button"
    add(f"{n}: always lower-case, no scope", r(n, 2, "always", "lower-case"), "feat: add export button")
    add(f"{n}: always upper-case, empty parentheses", r(n, 2, "always", "upper-case"), m(""))
    add(f"{n}: always lower-case, lower-case scope", r(n, 2, "always", "lower-case"), m("toolbar"))
    add(f"{n}: never lower-case, lower-case scope", r(n, 2, "never", "lower-case"), m("toolbar"))
    add(f"{n}: always lower-case, mixed scope", r(n, 2, "always", "lower-case"), m("TooLBar"))
    add(f"{n}: always upper-case, upper-case scope", r(n, 2, "always", "upper-case"), m("UI"))
    add(f"{n}: never upper-case, upper-case scope", r(n, 2, "never", "upper-case"), m("UI"))
    add(f"{n}: always kebab-case, kebab scope", r(n, 2, "always", "kebab-case"), m("tool-bar"))
    add(f"{n}: always camel-case, camel scope", r(n, 2, "always", "camel-case"), m("toolBar"))
    add(f"{n}: always pascal-case, pascal scope", r(n, 2, "always", "pascal-case"), m("ToolBar"))
    add(f"{n}: always start-case, start-case scope with a space", r(n, 2, "always", "start-case"), m("Tool Bar"))
    add(f"{n}: always upper-case, scope starting with a digit", r(n, 2, "always", "upper-case"), m("3d-view"))
    add(f"{n}: always list [upper-case, lower-case], mixed scope", r(n, 2, "always", ["upper-case", "lower-case"]), m("TooLBar"))
    add(f"{n}: never list [sentence-case, start-case], pascal scope", r(n, 2, "never", ["sentence-case", "start-case"]), m("ToolBar"))
    add(f"{n}: always pascal-case, '/' separated pascal segments", r(n, 2, "always", "pascal-case"), m("Editor/Toolbar"))
    add(f"{n}: always lower-case, '/' segments, one upper", r(n, 2, "always", "lower-case"), m("editor/API"))
    add(f"{n}: always kebab-case, '\\' separated segments", r(n, 2, "always", "kebab-case"), m("tool-bar\\side-panel"))
    add(f"{n}: always kebab-case, ',' separated segments", r(n, 2, "always", "kebab-case"), m("tool-bar,side-panel"))
    add(f"{n}: always kebab-case, ', ' separated segments", r(n, 2, "always", "kebab-case"), m("tool-bar, side-panel"))
    add(f"{n}: always sentence-case, no scope but '/' in the subject", r(n, 2, "always", "sentence-case"),
        "chore: Bump @tauri-apps/cli")
    add(f"{n}: object {{cases}} uses the default delimiters", r(n, 2, "always", {"cases": ["kebab-case"]}),
        m("tool-bar/side-panel, status-line"))
    add(f"{n}: object {{cases, delimiters ['|']}}", r(n, 2, "always", {"cases": ["kebab-case"], "delimiters": ["|"]}),
        m("tool-bar|side-panel"))
    add(f"{n}: object {{delimiters ['|']}} no longer splits on '/'",
        r(n, 2, "always", {"cases": ["kebab-case"], "delimiters": ["|"]}), m("tool-bar/side-panel"))
    add(f"{n}: object several custom delimiters", r(n, 2, "always", {"cases": ["kebab-case"], "delimiters": ["|", "/", ","]}),
        m("tool-bar|side-panel/status-line,menu"))
    add(f"{n}: object empty delimiters fall back to defaults", r(n, 2, "always", {"cases": ["kebab-case"], "delimiters": []}),
        m("tool-bar/side-panel"))
    add(f"{n}: object regex-special delimiter '*'", r(n, 2, "always", {"cases": ["kebab-case"], "delimiters": ["*"]}),
        m("tool-bar*side-panel"))
    add(f"{n}: object never with custom delimiter", r(n, 2, "never", {"cases": ["kebab-case"], "delimiters": ["|"]}),
        m("tool-bar|side-panel"))
    add(f"{n}: object cases with {{when never}} entries",
        r(n, 2, "always", {"cases": [{"when": "never", "case": "upper-case"}]}), m("toolbar"))
    add(f"{n}: always lower-case, CJK scope (caseless)", r(n, 2, "always", "lower-case"), "fix(面试评价): 修复评分")
    add(f"{n}: warning level, always lower-case, upper scope", r(n, 1, "always", "lower-case"), m("UI"))


# ---------------------------------------------------------------------------------------
# scope-delimiter-style
# ---------------------------------------------------------------------------------------
def scope_delimiter_style():
    n = "scope-delimiter-style"
    def m(scope):
        return f"refactor({scope}): share the config loader"
    a = r(n, 2, "always")
    nv = r(n, 2, "never")
    add(f"{n}: always, no scope", a, "refactor: share the config loader")
    add(f"{n}: never, no scope", nv, "refactor: share the config loader")
    add(f"{n}: always, kebab scope has no delimiter", a, m("config-loader"))
    add(f"{n}: always, '/' delimiter", a, m("server/cli"))
    add(f"{n}: always, ',' delimiter", a, m("server,cli"))
    add(f"{n}: always, ', ' normalised to ','", a, m("server, cli"))
    add(f"{n}: always, '\\' delimiter", a, m("server\\cli"))
    add(f"{n}: always, '|' is not a default delimiter", a, m("server|cli"))
    add(f"{n}: always, space as delimiter", a, m("server cli"))
    add(f"{n}: always, ' /' is not normalised", a, m("server /cli"))
    add(f"{n}: always, '//' is one two-character delimiter", a, m("server//cli"))
    add(f"{n}: always, '.' inside a version-like scope", a, m("v1.2"))
    add(f"{n}: always, CJK scope counts as a delimiter run", a, "fix(面试): 修复评分")
    add(f"{n}: never, '/' (a default) is used", nv, m("server/cli"))
    add(f"{n}: never, '|' only", nv, m("server|cli"))
    add(f"{n}: never, kebab scope without delimiter", nv, m("config-loader"))
    add(f"{n}: never, '|' and '/' mixed", nv, m("server|cli/tui"))
    add(f"{n}: custom ['*'], '*' used", r(n, 2, "always", ["*"]), m("server*cli"))
    add(f"{n}: custom ['/'], ',' used", r(n, 2, "always", ["/"]), m("server,cli"))
    add(f"{n}: custom ['/', '|'], both used", r(n, 2, "always", ["/", "|"]), m("server|cli/tui"))
    add(f"{n}: never custom ['|'], '|' used", r(n, 2, "never", ["|"]), m("server|cli"))
    add(f"{n}: custom [', '] does not match the normalised ','", r(n, 2, "always", [", "]), m("server, cli"))
    add(f"{n}: warning level, '|' used", r(n, 1, "always"), m("server|cli"))


# ---------------------------------------------------------------------------------------
# scope-empty
# ---------------------------------------------------------------------------------------
def scope_empty():
    n = "scope-empty"
    with_s = "chore(release): tag the nightly build"
    empty_p = "chore(): tag the nightly build"
    none = "chore: tag the nightly build"
    for when in ("never", "always"):
        add(f"{n}: {when}, scope present", r(n, 2, when), with_s)
        add(f"{n}: {when}, empty parentheses", r(n, 2, when), empty_p)
        add(f"{n}: {when}, no parentheses", r(n, 2, when), none)
        add(f"{n}: {when}, non-conventional header", r(n, 2, when), "tag the nightly build")
    add(f"{n}: never, scope of a single space", r(n, 2, "never"), "chore( ): tag the nightly build")
    add(f"{n}: never, '!' header with the conventionalcommits preset", with_preset(r(n, 2, "never")),
        "chore(release)!: tag the nightly build")
    add(f"{n}: never, '!' header with the default parser (does not parse)", r(n, 2, "never"),
        "chore(release)!: tag the nightly build")
    add(f"{n}: never, CJK scope", r(n, 2, "never"), "chore(发布): 标记夜间构建")
    add(f"{n}: warning level, never, no scope", r(n, 1, "never"), none)


# ---------------------------------------------------------------------------------------
# scope-enum
# ---------------------------------------------------------------------------------------
def scope_enum():
    n = "scope-enum"
    def m(scope):
        return f"fix({scope}): guard against empty payloads"
    none = "fix: guard against empty payloads"
    for when in ("always", "never"):
        add(f"{n}: {when}, empty enum, scope present", r(n, 2, when, []), m("parser"))
        add(f"{n}: {when}, no scope, single-item enum", r(n, 2, when, ["parser"]), none)
        add(f"{n}: {when}, scope in a single-item enum", r(n, 2, when, ["parser"]), m("parser"))
        add(f"{n}: {when}, scope not in the enum", r(n, 2, when, ["codegen"]), m("parser"))
        add(f"{n}: {when}, ',' scopes all in the enum", r(n, 2, when, ["parser", "lexer"]), m("parser,lexer"))
        add(f"{n}: {when}, '/' scopes all in the enum", r(n, 2, when, ["parser", "lexer"]), m("parser/lexer"))
        add(f"{n}: {when}, ',' scopes only one in the enum", r(n, 2, when, ["parser"]), m("parser,lexer"))
        add(f"{n}: {when}, ',' scopes none in the enum", r(n, 2, when, ["codegen"]), m("parser,lexer"))
        add(f"{n}: {when}, whole '/' scope listed as one entry", r(n, 2, when, ["parser/lexer"]), m("parser/lexer"))
    add(f"{n}: always, empty parentheses, two-item enum", r(n, 2, "always", ["parser", "lexer"]), m(""))
    add(f"{n}: always, ', ' scopes all in the enum", r(n, 2, "always", ["parser", "lexer"]), m("parser, lexer"))
    add(f"{n}: always, '\\' scopes all in the enum", r(n, 2, "always", ["parser", "lexer"]), m("parser\\lexer"))
    add(f"{n}: always, enum is case-sensitive", r(n, 2, "always", ["parser"]), m("Parser"))
    add(f"{n}: always, '|' is not a default delimiter", r(n, 2, "always", ["parser", "lexer"]), m("parser|lexer"))
    add(f"{n}: object {{scopes}} uses default delimiters", r(n, 2, "always", {"scopes": ["parser", "lexer"]}),
        m("parser, lexer"))
    add(f"{n}: object {{scopes, delimiters ['|']}}", r(n, 2, "always", {"scopes": ["parser", "lexer"], "delimiters": ["|"]}),
        m("parser|lexer"))
    add(f"{n}: object delimiters ['|'] no longer split ','",
        r(n, 2, "always", {"scopes": ["parser", "lexer"], "delimiters": ["|"]}), m("parser,lexer"))
    add(f"{n}: object several custom delimiters",
        r(n, 2, "always", {"scopes": ["parser", "lexer", "ast", "vm"], "delimiters": ["|", "/", "*"]}),
        m("parser|lexer/ast*vm"))
    add(f"{n}: object custom delimiter, one segment outside the enum",
        r(n, 2, "always", {"scopes": ["parser", "ast"], "delimiters": ["|"]}), m("parser|lexer"))
    add(f"{n}: object empty delimiters fall back to defaults",
        r(n, 2, "always", {"scopes": ["parser", "lexer"], "delimiters": []}), m("parser/lexer"))
    add(f"{n}: object never with custom delimiter",
        r(n, 2, "never", {"scopes": ["parser", "lexer"], "delimiters": ["|"]}), m("parser|lexer"))
    add(f"{n}: object regex-special delimiter '*'",
        r(n, 2, "always", {"scopes": ["parser", "lexer"], "delimiters": ["*"]}), m("parser*lexer"))
    add(f"{n}: object with an empty scopes list", r(n, 2, "always", {"scopes": []}), m("anything"))
    add(f"{n}: always, ',' with two spaces leaves a leading space on the segment",
        r(n, 2, "always", ["parser", "lexer"]), m("parser,  lexer"))
    add(f"{n}: warning level, scope not in the enum", r(n, 1, "always", ["codegen"]), m("parser"))


# ---------------------------------------------------------------------------------------
# scope-max-length / scope-min-length
# ---------------------------------------------------------------------------------------
def scope_lengths():
    n = "scope-max-length"
    s = "renderer"
    m = f"perf({s}): skip offscreen layers"
    add(f"{n}: no scope", r(n, 2, "always", 2), "perf: skip offscreen layers")
    add(f"{n}: empty parentheses", r(n, 2, "always", 0), "perf(): skip offscreen layers")
    add(f"{n}: scope exactly at the limit", r(n, 2, "always", len(s)), m)
    add(f"{n}: scope one over the limit", r(n, 2, "always", len(s) - 1), m)
    add(f"{n}: limit 0 with a scope", r(n, 2, "always", 0), m)
    add(f"{n}: multi scope counts the whole string with delimiters", r(n, 2, "always", 9),
        "perf(gpu,cpu,io): skip offscreen layers")
    add(f"{n}: CJK scope counts one per character", r(n, 2, "always", 2), "perf(渲染): 跳过屏幕外图层")
    e = "\U0001F3A8ui"
    add(f"{n}: emoji scope, limit = code point count (UTF-16 counts two)", r(n, 2, "always", len(e)), f"perf({e}): skip offscreen layers")
    add(f"{n}: non-conventional header has no scope", r(n, 2, "always", 1), "renderer: skip offscreen layers!")
    add(f"{n}: warning level, over", r(n, 1, "always", 3), m)

    n = "scope-min-length"
    add(f"{n}: no scope", r(n, 2, "always", 50), "perf: skip offscreen layers")
    add(f"{n}: empty parentheses", r(n, 2, "always", 3), "perf(): skip offscreen layers")
    add(f"{n}: scope shorter than the minimum", r(n, 2, "always", len(s) + 1), m)
    add(f"{n}: scope exactly the minimum", r(n, 2, "always", len(s)), m)
    add(f"{n}: scope longer than the minimum", r(n, 2, "always", 2), m)
    add(f"{n}: minimum 0", r(n, 2, "always", 0), m)
    add(f"{n}: two-letter scope against 3", r(n, 2, "always", 3), "perf(io): skip offscreen layers")
    add(f"{n}: multi scope of short names counts the whole string", r(n, 2, "always", 6), "perf(io,ui): skip offscreen layers")
    add(f"{n}: emoji scope reaches the minimum in UTF-16", r(n, 2, "always", u16(e)), f"perf({e}): skip offscreen layers")
    add(f"{n}: warning level, too short", r(n, 1, "always", 30), m)


# ---------------------------------------------------------------------------------------
# signed-off-by
# ---------------------------------------------------------------------------------------
def signed_off_by():
    n = "signed-off-by"
    v = "Signed-off-by:"
    a = r(n, 2, "always", v)
    nv = r(n, 2, "never", v)
    so = "Signed-off-by: Ada Lovelace <ada@example.org>"
    withso = f"fix(ci): quote the matrix values\n\nyaml treated 3.10 as a float\n\n{so}\n"
    without = "fix(ci): quote the matrix values\n\nyaml treated 3.10 as a float\n"
    add(f"{n}: always, last line signs off", a, withso)
    add(f"{n}: never, last line signs off", nv, withso)
    add(f"{n}: always, no sign-off", a, without)
    add(f"{n}: never, no sign-off", nv, without)
    add(f"{n}: always, empty subject and nothing else", a, "fix:\n")
    add(f"{n}: always, sign-off text inside the subject", a, f"fix(ci): quote values {v}\n\nbody line\n")
    add(f"{n}: always, sign-off in the middle of a body line", a, f"fix(ci): quote values\n\nbody {so}\nlast line\n")
    add(f"{n}: always, sign-off not on the last line", a, f"fix(ci): quote values\n\n{so}\nmore text\n")
    add(f"{n}: always, sign-off right under the header", a, f"fix(ci): quote values\n{so}")
    add(f"{n}: always, sign-off followed by trailing blank lines", a, withso + "\n\n\n")
    add(f"{n}: always, sign-off followed by comment lines", a,
        withso + "# On branch ci-matrix\n# Changes to be committed:\n#\tmodified:   .github/workflows/ci.yml\n")
    add(f"{n}: always, sign-off followed by a cherry-pick line", a,
        withso + "(cherry picked from commit 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567)\n")
    add(f"{n}: never, sign-off followed by a cherry-pick line", nv,
        withso + "(cherry picked from commit 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567)\n")
    add(f"{n}: always, cherry-pick line with upper-case short hash", a, withso + "(cherry picked from commit 9ABCDEF)\n")
    add(f"{n}: always, cherry-pick line with a six-digit hash is not skipped", a,
        withso + "(cherry picked from commit 9abcde)\n")
    add(f"{n}: always, lower-case 'signed-off-by:' does not match", a,
        "fix(ci): quote values\n\nsigned-off-by: Ada Lovelace <ada@example.org>")
    add(f"{n}: always, indented sign-off does not match", a, "fix(ci): quote values\n\n  " + so)
    add(f"{n}: always, whitespace-only line after the sign-off", a, withso + "   \n")
    add(f"{n}: always, diff below the scissors line is still read", a,
        withso + "# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n")
    add(f"{n}: always, custom value 'Co-authored-by:'", r(n, 2, "always", "Co-authored-by:"),
        "fix(ci): quote values\n\nCo-authored-by: Grace Hopper <grace@example.org>")
    add(f"{n}: always, empty value matches any last line", r(n, 2, "always", ""), without)
    add(f"{n}: always, no value given (defaults to empty)", r(n, 2, "always"), without)
    add(f"{n}: warning level, no sign-off", r(n, 1, "always", v), without)


# ---------------------------------------------------------------------------------------
# subject-case
# ---------------------------------------------------------------------------------------
def subject_case():
    n = "subject-case"
    def m(subject):
        return f"feat(search): {subject}"
    conv = ["sentence-case", "start-case", "pascal-case", "upper-case"]
    add(f"{n}: always lower-case, empty subject", r(n, 2, "always", "lower-case"), "feat:\n")
    add(f"{n}: always lower-case, lower-case subject", r(n, 2, "always", "lower-case"), m("add fuzzy matching"))
    add(f"{n}: never lower-case, lower-case subject", r(n, 2, "never", "lower-case"), m("add fuzzy matching"))
    add(f"{n}: always lower-case, mixed subject", r(n, 2, "always", "lower-case"), m("aDd FuZzY"))
    add(f"{n}: always upper-case, upper-case subject", r(n, 2, "always", "upper-case"), m("ADD FUZZY MATCHING"))
    add(f"{n}: never upper-case, upper-case subject", r(n, 2, "never", "upper-case"), m("ADD FUZZY MATCHING"))
    add(f"{n}: always sentence-case, sentence-case subject", r(n, 2, "always", "sentence-case"), m("Add fuzzy matching"))
    add(f"{n}: never sentence-case, sentence-case subject", r(n, 2, "never", "sentence-case"), m("Add fuzzy matching"))
    add(f"{n}: always start-case, start-case subject", r(n, 2, "always", "start-case"), m("Add Fuzzy Matching"))
    add(f"{n}: always camel-case, camelCase subject", r(n, 2, "always", "camel-case"), m("fuzzyMatching"))
    add(f"{n}: always pascal-case, PascalCase subject", r(n, 2, "always", "pascal-case"), m("FuzzyMatching"))
    add(f"{n}: always kebab-case, kebab-case subject", r(n, 2, "always", "kebab-case"), m("fuzzy-matching"))
    add(f"{n}: always lower-case, version subject (digits first)", r(n, 2, "always", "upper-case"), m("2.0.1 rollout"))
    add(f"{n}: always upper-case, Cyrillic lower-case subject", r(n, 2, "always", "upper-case"), m("добавить поиск"))
    add(f"{n}: always lower-case, Cyrillic upper-case subject", r(n, 2, "always", "lower-case"), m("ДОБАВИТЬ ПОИСК"))
    add(f"{n}: never conventional list, Cyrillic lower-case subject", r(n, 2, "never", conv), m("добавить поиск"))
    add(f"{n}: never conventional list, Cyrillic upper-case subject", r(n, 2, "never", conv), m("ДОБАВИТЬ ПОИСК"))
    add(f"{n}: always sentence-case, Greek camel-like subject", r(n, 2, "always", "sentence-case"), m("αναζήΤηση"))
    add(f"{n}: always upper-case, Chinese subject (caseless, skipped)", r(n, 2, "always", "upper-case"), m("添加模糊匹配"))
    add(f"{n}: never conventional list, Chinese scope and subject", r(n, 2, "never", conv), "fix(搜索): 修复模糊匹配")
    add(f"{n}: always upper-case, Arabic subject (skipped)", r(n, 2, "always", "upper-case"), "feat(بحث): إضافة البحث")
    add(f"{n}: always upper-case, Hebrew subject (skipped)", r(n, 2, "always", "upper-case"), "fix(חיפוש): תיקון החיפוש")
    add(f"{n}: always lower-case, subject starting with a double quote (skipped)",
        r(n, 2, "always", "lower-case"), m("\"Search\" Button Label"))
    add(f"{n}: always lower-case, upper-case words in backticks", r(n, 2, "always", "lower-case"),
        m("read `MAX_RESULTS` from env"))
    add(f"{n}: always lower-case, unclosed backtick is not stripped", r(n, 2, "always", "lower-case"),
        m("rename `Search box"))
    add(f"{n}: always lower-case, subject starting with an emoji (skipped)", r(n, 2, "always", "lower-case"),
        m("\u2728 Add Fuzzy Matching"))
    add(f"{n}: never conventional list, subject starting with an acronym", r(n, 2, "never", conv), m("README wording"))
    add(f"{n}: never conventional list, subject 'iOS ...' (not sentence-case)", r(n, 2, "never", conv), m("iOS keyboard fix"))
    add(f"{n}: always list [upper-case, lower-case], mixed subject", r(n, 2, "always", ["upper-case", "lower-case"]),
        m("aDd FuZzY"))
    add(f"{n}: always list [upper-case, lower-case, camel-case], one mixed word",
        r(n, 2, "always", ["upper-case", "lower-case", "camel-case"]), m("fUzZy"))
    add(f"{n}: never list [sentence-case, pascal-case, start-case], PascalCase subject",
        r(n, 2, "never", ["sentence-case", "pascal-case", "start-case"]), m("FuzzyMatching"))
    add(f"{n}: always object {{when never, case upper-case}}, lower-case subject",
        r(n, 2, "always", [{"when": "never", "case": "upper-case"}]), m("add fuzzy matching"))
    add(f"{n}: always object {{when never, case upper-case}}, upper-case subject",
        r(n, 2, "always", [{"when": "never", "case": "upper-case"}]), m("ADD FUZZY MATCHING"))
    add(f"{n}: never object list mixing strings and {{when never}}",
        r(n, 2, "never", ["upper-case", {"when": "never", "case": "lower-case"}]), m("add fuzzy matching"))
    add(f"{n}: alias 'lowercase' (no hyphen) rejects a sentence-case subject", r(n, 2, "always", "lowercase"), m("Add fuzzy matching"))
    add(f"{n}: alias 'lowerCase' (old angular spelling) accepts a lower-case subject", r(n, 2, "always", "lowerCase"), m("add fuzzy matching"))
    add(f"{n}: alias 'uppercase' accepts an upper-case subject", r(n, 2, "always", "uppercase"), m("ADD FUZZY"))
    add(f"{n}: unknown case name with a letter-first subject", r(n, 2, "always", "title-case"), m("add fuzzy matching"))
    add(f"{n}: unknown case name with a digit-first subject (never evaluated)",
        r(n, 2, "always", "title-case"), m("2 new matchers"))
    add(f"{n}: header that does not parse has no subject", r(n, 2, "always", "lower-case"), "Add Fuzzy Matching")
    add(f"{n}: warning level, always lower-case, upper-case subject", r(n, 1, "always", "lower-case"), m("ADD FUZZY"))


# ---------------------------------------------------------------------------------------
# subject-empty
# ---------------------------------------------------------------------------------------
def subject_empty():
    n = "subject-empty"
    filled = "docs(api): document the rate limits\nlimits are per token"
    empty = "docs(api): \nlimits are per token"
    for when in ("never", "always"):
        add(f"{n}: {when}, subject present", r(n, 2, when), filled)
        add(f"{n}: {when}, header ends after ': '", r(n, 2, when), empty)
        add(f"{n}: {when}, header ends with ':' (no space, does not parse)", r(n, 2, when), "docs:")
        add(f"{n}: {when}, non-conventional header", r(n, 2, when), "document the rate limits")
    add(f"{n}: never, subject of spaces only", r(n, 2, "never"), "docs(api):    ")
    add(f"{n}: never, '!' header, conventionalcommits preset", with_preset(r(n, 2, "never")),
        "docs(api)!: document the rate limits")
    add(f"{n}: never, '!' header, default parser", r(n, 2, "never"), "docs(api)!: document the rate limits")
    add(f"{n}: never, CJK subject", r(n, 2, "never"), "docs(api): 记录速率限制")
    add(f"{n}: warning level, never, empty subject", r(n, 1, "never"), "docs(api): ")


# ---------------------------------------------------------------------------------------
# subject-exclamation-mark
# ---------------------------------------------------------------------------------------
def subject_exclamation_mark():
    n = "subject-exclamation-mark"
    for when in ("always", "never"):
        c = with_preset(r(n, 2, when))
        add(f"{n}: {when}, empty subject", c, "build:\n")
        add(f"{n}: {when}, '!' after the type", c, "build!: require node 20\n")
        add(f"{n}: {when}, no '!'", c, "build: require node 20\n")
        add(f"{n}: {when}, '!' after the scope", c, "build(deps)!: require node 20")
    add(f"{n}: always, '!' inside the subject text", with_preset(r(n, 2, "always")), "build: require node 20!")
    add(f"{n}: always, '!:' without the following space", with_preset(r(n, 2, "always")), "build!:require node 20")
    add(f"{n}: always, '!' before the scope", with_preset(r(n, 2, "always")), "build!(deps): require node 20")
    add(f"{n}: always, default parser still sees the '!' in the header", r(n, 2, "always"),
        "build(deps)!: require node 20")
    add(f"{n}: never, default parser, '!' header", r(n, 2, "never"), "build(deps)!: require node 20")
    add(f"{n}: always, '!' with empty type", with_preset(r(n, 2, "always")), "!: require node 20")
    add(f"{n}: warning level, never, '!' header", with_preset(r(n, 1, "never")), "build!: require node 20")


# ---------------------------------------------------------------------------------------
# subject-full-stop
# ---------------------------------------------------------------------------------------
def subject_full_stop():
    n = "subject-full-stop"
    dot = "chore(lint): enable the unused-imports check.\n"
    nodot = "chore(lint): enable the unused-imports check\n"
    for when in ("always", "never"):
        add(f"{n}: {when} '.', empty subject ('x:')", r(n, 2, when, "."), "chore:\n")
        add(f"{n}: {when} '.', subject ends with '.'", r(n, 2, when, "."), dot)
        add(f"{n}: {when} '.', subject without stop", r(n, 2, when, "."), nodot)
        add(f"{n}: {when} '.', subject ends with '...'", r(n, 2, when, "."), "chore(lint): more checks to come...")
    add(f"{n}: never '.', non-standard 'type.scope:' header with '.'", r(n, 2, "never", "."), "chore.lint: enable it.\n")
    add(f"{n}: never '.', non-conventional header with '.'", r(n, 2, "never", "."), "Enable the unused imports check.")
    add(f"{n}: never '.', '..' ending", r(n, 2, "never", "."), "chore(lint): enable it..")
    add(f"{n}: never '.', '....' ending (ends with '...')", r(n, 2, "never", "."), "chore(lint): enable it....")
    add(f"{n}: never '.', '.' then a trailing space", r(n, 2, "never", "."), "chore(lint): enable it. ")
    add(f"{n}: never '!', subject ends with '!'", r(n, 2, "never", "!"), "chore(lint): enable it!")
    add(f"{n}: always '。', CJK subject", r(n, 2, "always", "。"), "chore(lint): 启用未使用导入检查。")
    add(f"{n}: never '.', header 'x(scope):' ends with its only colon", r(n, 2, "never", "."), "chore(lint):")
    add(f"{n}: always '.', header 'x(scope):' ends with its only colon", r(n, 2, "always", "."), "chore(lint):")
    add(f"{n}: always ':', header ends with a second colon", r(n, 2, "always", ":"), "docs: usage:")
    add(f"{n}: never '.', CRLF header ending with '.'", r(n, 2, "never", "."), "chore(lint): enable it.\r\n\r\nbody\r\n")
    add(f"{n}: never '.', body ending with '.' does not matter", r(n, 2, "never", "."),
        "chore(lint): enable it\n\nthe check runs in ci.")
    add(f"{n}: warning level, never '.', subject with '.'", r(n, 1, "never", "."), dot)


# ---------------------------------------------------------------------------------------
# subject-max-length / subject-min-length
# ---------------------------------------------------------------------------------------
def subject_lengths():
    n = "subject-max-length"
    s = "speed up cold start"
    m = f"perf(boot): {s}"
    add(f"{n}: no subject (empty)", r(n, 2, "always", 2), "perf(boot): ")
    add(f"{n}: non-conventional header has no subject", r(n, 2, "always", 2), "speed up cold start")
    add(f"{n}: subject exactly at the limit", r(n, 2, "always", len(s)), m)
    add(f"{n}: subject one over the limit", r(n, 2, "always", len(s) - 1), m)
    add(f"{n}: limit 0", r(n, 2, "always", 0), m)
    e = "speed up \U0001F680 cold start"
    add(f"{n}: emoji subject, limit = UTF-16 length", r(n, 2, "always", u16(e)), f"perf(boot): {e}")
    add(f"{n}: emoji subject, limit = code point count", r(n, 2, "always", len(e)), f"perf(boot): {e}")
    c = "加快冷启动"
    add(f"{n}: CJK subject counts one per character", r(n, 2, "always", len(c)), f"perf(boot): {c}")
    add(f"{n}: type and scope do not count", r(n, 2, "always", len(s)), f"perf(a-very-long-scope-name): {s}")
    add(f"{n}: '!' header with the conventionalcommits preset", with_preset(r(n, 2, "always", len(s) - 1)),
        f"perf(boot)!: {s}")
    add(f"{n}: warning level, over", r(n, 1, "always", 3), m)

    n = "subject-min-length"
    add(f"{n}: no subject (empty)", r(n, 2, "always", 10), "perf(boot): ")
    add(f"{n}: non-conventional header has no subject", r(n, 2, "always", 100), "speed up cold start")
    add(f"{n}: subject shorter than the minimum", r(n, 2, "always", len(s) + 1), m)
    add(f"{n}: subject exactly the minimum", r(n, 2, "always", len(s)), m)
    add(f"{n}: subject longer than the minimum", r(n, 2, "always", 3), m)
    add(f"{n}: minimum 0", r(n, 2, "always", 0), m)
    add(f"{n}: emoji subject, minimum = UTF-16 length", r(n, 2, "always", u16(e)), f"perf(boot): {e}")
    add(f"{n}: emoji subject, minimum = UTF-16 length + 1", r(n, 2, "always", u16(e) + 1), f"perf(boot): {e}")
    add(f"{n}: leading spaces in the subject count", r(n, 2, "always", len(s) + 2), f"perf(boot):   {s}")
    add(f"{n}: warning level, too short", r(n, 1, "always", 50), m)


# ---------------------------------------------------------------------------------------
# trailer-exists
# ---------------------------------------------------------------------------------------
def trailer_exists():
    n = "trailer-exists"
    v = "Signed-off-by:"
    a = r(n, 2, "always", v)
    nv = r(n, 2, "never", v)
    so = "Signed-off-by: Ada Lovelace <ada@example.org>"
    withso = f"test(io): cover partial reads\n\nshort reads were untested\n\nmore detail here\n\n{so}\n\n"
    without = "test(io): cover partial reads\n\nshort reads were untested\n\nmore detail here\n\n"
    for when, c in (("always", a), ("never", nv)):
        add(f"{n}: {when}, empty subject", c, "test:\n")
        add(f"{n}: {when}, trailer in the last paragraph", c, withso)
        add(f"{n}: {when}, no trailer", c, without)
    add(f"{n}: always, trailer text in the subject", a, f"test(io): cover partial reads {v}\n\nbody\n\nmore\n\n")
    add(f"{n}: always, trailer text inside a body line", a, f"test(io): cover partial reads\n\nwe never write {v} by hand\n\nmore\n\n")
    add(f"{n}: always, trailer among other trailers and comments", a,
        "test(io): cover partial reads\n\nbody text\n\nReviewed-by: Grace Hopper <grace@example.org>\n" + so +
        "\nAcked-by: Alan Turing <alan@example.org>\n# On branch io-tests\n")
    add(f"{n}: always, trailer in a middle paragraph only", a,
        f"test(io): cover partial reads\n\n{so}\n\nclosing words of the body\n")
    add(f"{n}: always, trailer right under the header, no blank line", a, f"test(io): cover partial reads\n{so}")
    add(f"{n}: always, trailer paragraph directly after the header", a, f"test(io): cover partial reads\n\n{so}")
    add(f"{n}: always, lower-case trailer key", a, "test(io): cover partial reads\n\nsigned-off-by: Ada <ada@example.org>")
    add(f"{n}: always, space before the trailer colon", a, "test(io): cover partial reads\n\nSigned-off-by : Ada <ada@example.org>")
    add(f"{n}: always, last paragraph mixes a trailer and prose", a,
        "test(io): cover partial reads\n\nbody\n\n" + so + "\nthis line is not a trailer")
    add(f"{n}: always, custom key 'Change-Id:'", r(n, 2, "always", "Change-Id:"),
        "test(io): cover partial reads\n\nbody\n\nChange-Id: I2a4b6c8d0e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b")
    add(f"{n}: always, CRLF trailer", a, "test(io): cover partial reads\r\n\r\nbody\r\n\r\n" + so + "\r\n")
    add(f"{n}: warning level, no trailer", r(n, 1, "always", v), without)


# ---------------------------------------------------------------------------------------
# type-case
# ---------------------------------------------------------------------------------------
def type_case():
    n = "type-case"
    anyp = {"headerPattern": "^(.*): (.*)$", "headerCorrespondence": ["type", "subject"]}
    def m(t):
        return f"{t}: tidy the module graph"
    def cp(config):
        c = dict(config)
        c["parserPreset"] = {"parserOpts": anyp}
        return c
    add(f"{n}: always lower-case, no type", r(n, 2, "always", "lower-case"), "(graph): tidy the module graph")
    add(f"{n}: always lower-case, lower-case type", r(n, 2, "always", "lower-case"), m("refactor"))
    add(f"{n}: never lower-case, lower-case type", r(n, 2, "never", "lower-case"), m("refactor"))
    add(f"{n}: always lower-case, mixed type", r(n, 2, "always", "lower-case"), m("ReFaCtOr"))
    add(f"{n}: always upper-case, upper-case type", r(n, 2, "always", "upper-case"), m("REFACTOR"))
    add(f"{n}: never upper-case, upper-case type", r(n, 2, "never", "upper-case"), m("REFACTOR"))
    add(f"{n}: always camel-case, camelCase type", r(n, 2, "always", "camel-case"), m("quickFix"))
    add(f"{n}: always pascal-case, camelCase type", r(n, 2, "always", "pascal-case"), m("quickFix"))
    add(f"{n}: always pascal-case, PascalCase type", r(n, 2, "always", "pascal-case"), m("QuickFix"))
    add(f"{n}: always snake-case, snake_case type", r(n, 2, "always", "snake-case"), m("quick_fix"))
    add(f"{n}: always sentence-case, sentence-case type", r(n, 2, "always", "sentence-case"), m("Refactor"))
    add(f"{n}: always lower-case, kebab type does not parse with the default pattern",
        r(n, 2, "always", "upper-case"), m("quick-fix"))
    add(f"{n}: always kebab-case, kebab type with a permissive header pattern",
        cp(r(n, 2, "always", "kebab-case")), m("quick-fix"))
    add(f"{n}: always start-case, start-case type with a permissive header pattern",
        cp(r(n, 2, "always", "start-case")), m("Quick Fix"))
    add(f"{n}: always lower-case, start-case type with a permissive header pattern",
        cp(r(n, 2, "always", "lower-case")), m("Quick Fix"))
    add(f"{n}: always list [upper-case, lower-case], mixed type", r(n, 2, "always", ["upper-case", "lower-case"]), m("ReFaCtOr"))
    add(f"{n}: never list [upper-case, lower-case], mixed type", r(n, 2, "never", ["upper-case", "lower-case"]), m("ReFaCtOr"))
    add(f"{n}: never list [upper-case, lower-case], lower type", r(n, 2, "never", ["upper-case", "lower-case"]), m("refactor"))
    add(f"{n}: always object {{when never, case upper-case}}, lower type",
        r(n, 2, "always", [{"when": "never", "case": "upper-case"}]), m("refactor"))
    add(f"{n}: warning level, always lower-case, upper type", r(n, 1, "always", "lower-case"), m("REFACTOR"))


# ---------------------------------------------------------------------------------------
# type-empty
# ---------------------------------------------------------------------------------------
def type_empty():
    n = "type-empty"
    for when in ("never", "always"):
        add(f"{n}: {when}, scope but no type", r(n, 2, when), "(router):")
        add(f"{n}: {when}, type present", r(n, 2, when), "style: reorder imports")
        add(f"{n}: {when}, non-conventional header", r(n, 2, when), "reorder imports")
        add(f"{n}: {when}, header ': subject' (empty type)", r(n, 2, when), ": reorder imports")
    add(f"{n}: never, '!' header, default parser", r(n, 2, "never"), "style!: reorder imports")
    add(f"{n}: never, '!' header, conventionalcommits preset", with_preset(r(n, 2, "never")), "style!: reorder imports")
    add(f"{n}: never, type with a hyphen does not parse", r(n, 2, "never"), "code-style: reorder imports")
    add(f"{n}: never, leading space before the type", r(n, 2, "never"), " style: reorder imports")
    add(f"{n}: never, CJK type is not \\w", r(n, 2, "never"), "样式: 重新排序导入")
    add(f"{n}: never, digits-only type", r(n, 2, "never"), "42: reorder imports")
    add(f"{n}: warning level, never, no type", r(n, 1, "never"), "reorder imports")


# ---------------------------------------------------------------------------------------
# type-enum
# ---------------------------------------------------------------------------------------
def type_enum():
    n = "type-enum"
    add(f"{n}: always, empty type and scope ('(): ')", r(n, 2, "always", ["ops"]), "(): \n")
    add(f"{n}: never, empty type and scope ('(): ')", r(n, 2, "never", ["ops"]), "(): \n")
    add(f"{n}: always, type in enum ('x(): ' style)", r(n, 2, "always", ["ops"]), "ops(): \n")
    add(f"{n}: never, type in enum ('x(): ' style)", r(n, 2, "never", ["ops"]), "ops(): \n")
    add(f"{n}: always two-item enum, second type", r(n, 2, "always", ["ops", "sec"]), "sec(): \n")
    add(f"{n}: never two-item enum, second type", r(n, 2, "never", ["ops", "sec"]), "sec(): \n")
    add(f"{n}: always, type in enum", r(n, 2, "always", ["ops", "sec"]), "ops: rotate the signing keys")
    add(f"{n}: always, type not in enum", r(n, 2, "always", ["ops", "sec"]), "feat: rotate the signing keys")
    add(f"{n}: never, type not in enum", r(n, 2, "never", ["ops", "sec"]), "feat: rotate the signing keys")
    add(f"{n}: always, enum is case-sensitive", r(n, 2, "always", ["ops"]), "Ops: rotate the signing keys")
    add(f"{n}: always, empty enum rejects any type", r(n, 2, "always", []), "ops: rotate the signing keys")
    add(f"{n}: never, empty enum accepts any type", r(n, 2, "never", []), "ops: rotate the signing keys")
    add(f"{n}: always, non-conventional header has no type", r(n, 2, "always", ["ops"]), "rotate the signing keys")
    add(f"{n}: always, '!' type with the conventionalcommits preset",
        with_preset(r(n, 2, "always", ["ops"])), "ops!: rotate the signing keys")
    add(f"{n}: always, enum entry with a trailing space does not match", r(n, 2, "always", ["ops "]),
        "ops: rotate the signing keys")
    add(f"{n}: warning level, type not in enum", r(n, 1, "always", ["sec"]), "ops: rotate the signing keys")


# ---------------------------------------------------------------------------------------
# type-max-length / type-min-length
# ---------------------------------------------------------------------------------------
def type_lengths():
    n = "type-max-length"
    t = "security"
    m = f"{t}: patch the zip slip"
    add(f"{n}: no type", r(n, 2, "always", 1), "(zip): patch the zip slip")
    add(f"{n}: non-conventional header", r(n, 2, "always", 1), "patch the zip slip")
    add(f"{n}: type exactly at the limit", r(n, 2, "always", len(t)), m)
    add(f"{n}: type one over the limit", r(n, 2, "always", len(t) - 1), m)
    add(f"{n}: limit 0 with a type", r(n, 2, "always", 0), m)
    add(f"{n}: scope does not count", r(n, 2, "always", len(t)), f"{t}(archive-extraction): patch the zip slip")
    add(f"{n}: type of digits", r(n, 2, "always", 2), "1234: patch the zip slip")
    add(f"{n}: '!' is not part of the type (conventionalcommits preset)",
        with_preset(r(n, 2, "always", len(t))), f"{t}!: patch the zip slip")
    add(f"{n}: hyphenated type from a permissive header pattern counts the hyphen",
        with_opts(r(n, 2, "always", 6), headerPattern="^([\\w-]+): (.*)$", headerCorrespondence=["type", "subject"]),
        "hot-fix: patch the zip slip")
    add(f"{n}: warning level, over", r(n, 1, "always", 3), m)

    n = "type-min-length"
    add(f"{n}: no type", r(n, 2, "always", 20), "(zip): patch the zip slip")
    add(f"{n}: non-conventional header", r(n, 2, "always", 20), "patch the zip slip")
    add(f"{n}: type shorter than the minimum", r(n, 2, "always", len(t) + 1), m)
    add(f"{n}: type exactly the minimum", r(n, 2, "always", len(t)), m)
    add(f"{n}: type longer than the minimum", r(n, 2, "always", 2), m)
    add(f"{n}: minimum 0", r(n, 2, "always", 0), m)
    add(f"{n}: one-letter type against 2", r(n, 2, "always", 2), "x: patch the zip slip")
    add(f"{n}: '!' header with the default parser has no type to measure", r(n, 2, "always", 20),
        f"{t}!: patch the zip slip")
    add(f"{n}: '!' header with the conventionalcommits preset", with_preset(r(n, 2, "always", 20)),
        f"{t}!: patch the zip slip")
    add(f"{n}: warning level, too short", r(n, 1, "always", 20), m)


# ---------------------------------------------------------------------------------------
# full presets
# ---------------------------------------------------------------------------------------
def presets():
    t = "preset conventional"
    c = {"extends": ["@commitlint/config-conventional"]}
    long_line = "x" * 60 + " " + "y" * 45
    good = [
        ("type only", "feat: resume interrupted uploads"),
        ("type and scope", "fix(player): stop audio when the tab is hidden"),
        ("proper noun inside a lower-case subject", "docs(readme): mention GitHub Actions setup"),
        ("'!' with a BREAKING CHANGE footer",
         "feat(api)!: remove the v1 routes\n\nclients have had a year to move\n\nBREAKING CHANGE: /v1 answers 410 now"),
        ("'!' without footer", "refactor(core)!: rename Config to Settings"),
        ("BREAKING-CHANGE footer", "perf(db): drop the legacy index\n\nBREAKING-CHANGE: migrations must run first"),
        ("body and reference footer",
         "fix(sync): retry on 503\n\nthe server sheds load with 503 under pressure\n\nCloses #1203"),
        ("revert type with colon", "revert: feat(player): autoplay next episode"),
        ("subject with CJK text", "fix(上传): 修复大文件上传失败"),
        ("subject starting with an emoji", "feat(ui): \u2728 add a dark theme"),
        ("subject starting with a quote", "fix(ui): \"Save\" button keeps focus"),
        ("subject ending with an ellipsis", "test(e2e): stabilise the flaky login spec..."),
        ("long body line holding a URL",
         "docs: link the design doc\n\nsee https://wiki.example.com/display/ENG/" + "a" * 120),
        ("header exactly 100 characters", "feat: " + "a" * 94),
        ("body line exactly 100 characters", "docs: explain retries\n\n" + "b" * 100),
        ("CRLF message", "fix(win): use CRLF in generated scripts\r\n\r\nbatch files need them\r\n"),
        ("leading blank line before the header", "\nfeat: accept leading blank lines\n"),
    ]
    for what, msg in good:
        add(f"{t}: {what}", c, msg)
    bad = [
        ("unknown type", "feature: resume interrupted uploads"),
        ("upper-case type", "FIX: stop audio when hidden"),
        ("empty type", ": stop audio when hidden"),
        ("no type at all", "stop audio when the tab is hidden"),
        ("sentence-case subject", "fix(player): Stop audio when hidden"),
        ("upper-case subject", "fix(player): STOP AUDIO"),
        ("subject starting with an acronym", "docs: API keys section"),
        ("upper-case Cyrillic subject", "fix: ИСПРАВИТЬ ОШИБКУ"),
        ("empty subject 'fix:'", "fix:"),
        ("empty subject 'fix: ' (trailing space)", "fix: "),
        ("subject full stop", "fix(player): stop audio when hidden."),
        ("header of 101 characters", "feat: " + "a" * 95),
        ("leading space before the header", " fix: stop audio when hidden"),
        ("trailing space after the header", "fix: stop audio when hidden "),
        ("body without a blank line (warning)", "fix: stop audio\nthe tab was hidden"),
        ("footer without a blank line (warning)", "fix: stop audio\n\nthe tab was hidden\nCloses #55"),
        ("long footer line", "docs: explain retries\n\nbody\n\nBREAKING CHANGE: " + long_line),
        ("body line of 101 characters", "docs: explain retries\n\n" + "b" * 101),
        ("merge-like but not ignored text", "merge branch 'dev' into main"),
        ("several problems at once", "Feature(Player): Stop audio."),
    ]
    for what, msg in bad:
        add(f"{t}: {what}", c, msg)
    add(f"{t}: rules override the preset type-enum",
        {"extends": ["@commitlint/config-conventional"], "rules": {"type-enum": [2, "always", ["feat", "fix", "wip"]]}},
        "wip: half of the exporter")
    add(f"{t}: rule turned off with [0]",
        {"extends": ["@commitlint/config-conventional"], "rules": {"subject-case": [0]}},
        "fix(player): Stop audio when hidden")
    add(f"{t}: preset rule lowered to a warning",
        {"extends": ["@commitlint/config-conventional"], "rules": {"subject-full-stop": [1, "never", "."]}},
        "fix(player): stop audio when hidden.")
    add(f"{t}: extra rule on top of the preset",
        {"extends": ["@commitlint/config-conventional"], "rules": {"scope-empty": [2, "never"]}},
        "fix: stop audio when hidden")

    t = "preset angular"
    a = {"extends": ["@commitlint/config-angular"]}
    good = [
        ("type and scope", "perf(render): skip hidden layers"),
        ("body after a blank line", "fix(router): keep query params\n\nthey were dropped on redirect"),
        ("BREAKING CHANGE footer without '!'", "feat(forms): drop the old validators\n\nBREAKING CHANGE: use the new API"),
        ("header exactly 72 characters", "docs: " + "d" * 66),
        ("multi-segment lower-case scope", "build(bazel/rules): pin the toolchain"),
        ("revert type", "revert: perf(render): skip hidden layers"),
    ]
    for what, msg in good:
        add(f"{t}: {what}", a, msg)
    bad = [
        ("chore is not an angular type", "chore: bump dependencies"),
        ("'!' after the type", "feat!: drop the old validators"),
        ("'!' after the scope with a BREAKING CHANGE footer",
         "feat(forms)!: drop the old validators\n\nBREAKING CHANGE: use the new API"),
        ("upper-case scope", "fix(HTTP): retry idempotent requests"),
        ("pascal-case scope segments", "fix(Forms/Validators): allow empty strings"),
        ("header of 73 characters", "docs: " + "d" * 67),
        ("sentence-case subject", "fix(router): Keep query params"),
        ("subject full stop", "fix(router): keep query params."),
        ("body without a blank line (warning)", "fix(router): keep query params\nthey were dropped"),
        ("footer without a blank line (warning)", "fix(router): keep query params\n\nbody\nFixes #301"),
        ("empty subject", "fix(router): "),
        ("no type", "keep query params on redirect"),
        ("unknown type", "improvement(router): keep query params"),
    ]
    for what, msg in bad:
        add(f"{t}: {what}", a, msg)


# ---------------------------------------------------------------------------------------
# default ignores
# ---------------------------------------------------------------------------------------
def ignores():
    t = "ignores"
    base = rules(type_enum=[2, "always", ["feat", "fix"]], type_empty=[2, "never"], subject_empty=[2, "never"])
    off = dict(base, defaultIgnores=False)
    ignored = [
        ("merge of a branch", "Merge branch 'feature/upload-retry'"),
        ("merge of a branch with trailing newlines", "Merge branch 'hotfix'\n\n\n"),
        ("merge of a branch with CRLF", "Merge branch 'hotfix'\r\n"),
        ("merge of a branch then a comment", "Merge branch 'hotfix'\n# Conflicts resolved by hand"),
        ("merge 'X into Y' wording", "Merge release/2.4 into main"),
        ("merge of a pull request", "Merge pull request #412 from acme/fix-typo"),
        ("merge of a tag", "Merge tag 'v3.1.0'"),
        ("merge of a remote-tracking branch", "Merge remote-tracking branch 'origin/main'"),
        ("bitbucket 'Merged in <branch> (pull request #N)'", "Merged in bugfix/crash-on-start (pull request #57)"),
        ("bitbucket 'Merged X into Y'", "Merged develop into release/2.4"),
        ("azure devops 'Merged PR N: ...'", "Merged PR 981: Bump the image tag"),
        ("'Automatic merge ...'", "Automatic merge from release/2.4 -> main"),
        ("'Auto-merged X into Y'", "Auto-merged hotfix/login into main"),
        ("git revert", "Revert \"feat(player): autoplay next episode\"\n\nThis reverts commit 4f2a9c1e8b7d6a5c4b3a29181706f5e4d3c2b1a0."),
        ("lower-case revert", "revert \"feat(player): autoplay next episode\""),
        ("git reapply", "Reapply \"feat(player): autoplay next episode\"\n\nThis reverts commit 0f1e2d3c."),
        ("fixup!", "fixup! feat(player): autoplay next episode"),
        ("squash!", "squash! feat(player): autoplay next episode"),
        ("amend!", "amend! feat(player): autoplay next episode"),
        ("fixup! without a space", "fixup!feat(player): autoplay"),
        ("bare version", "4.2.0"),
        ("bare version with v prefix", "v4.2.0"),
        ("bare prerelease version", "4.2.0-rc.1"),
        ("version with a leading space", " v4.2.0"),
        ("version with [skip ci]", "4.2.0 [skip ci]"),
        ("version with (ci skip)", "4.2.0-beta.3 (ci skip)"),
        ("chore(release): v1.2.3", "chore(release): v1.2.3"),
        ("chore(release): version [skip ci]", "chore(release): 4.2.0 [skip ci]"),
        ("chore(deps): version (any scope)", "chore(deps): 4.2.0"),
        ("version with a sign-off footer", "4.2.0\n\nSigned-off-by: Release Bot <bot@example.org>"),
        ("'Merge branch' on a body line (multiline match)", "wip on exporter\n\nMerge branch 'main' of github.com:acme/app"),
        ("'Merge pull request' on a later line", "notes for later\nMerge pull request review comments"),
        ("'Merged ... in ...' matches 'in' inside a word", "Merged fixes for the login flow"),
    ]
    for what, msg in ignored:
        add(f"{t}: {what}", base, msg)
    not_ignored = [
        ("lower-case 'merge branch'", "merge branch 'feature/upload-retry'"),
        ("text before 'Merge branch' on the first line", "wip: Merge branch 'feature/upload-retry'"),
        ("indented 'Merge branch'", "  Merge branch 'feature/upload-retry'"),
        ("'Revert:' with a colon", "Revert: the autoplay change"),
        ("'Reverted' is not 'Revert '", "Reverted the autoplay change"),
        ("capitalised 'Fixup!'", "Fixup! feat(player): autoplay next episode"),
        ("two-part version", "4.2"),
        ("version after a blank line", "\n4.2.0\n"),
        ("version after words", "release 4.2.0"),
        ("build type with a version", "build: 4.2.0"),
    ]
    for what, msg in not_ignored:
        add(f"{t}: not ignored: {what}", base, msg)
    for what, msg in [
        ("merge of a branch", "Merge branch 'feature/upload-retry'"),
        ("bitbucket 'Merged in <branch> (pull request #N)'", "Merged in bugfix/crash-on-start (pull request #57)"),
        ("git revert", "Revert \"feat(player): autoplay next episode\""),
        ("fixup!", "fixup! feat(player): autoplay next episode"),
        ("bare version", "4.2.0"),
        ("chore(release): v1.2.3", "chore(release): v1.2.3"),
        ("'Merge branch' on a body line", "wip on exporter\n\nMerge branch 'main' of github.com:acme/app"),
    ]:
        add(f"{t}: defaultIgnores false: {what}", off, msg)
    add(f"{t}: body-empty always would fail but the merge line in the body ignores the message",
        r("body-empty", 2, "always"), "feat(export): add csv\n\nsome notes\nMerge branch 'main'")
    add(f"{t}: ignored message with the conventional preset (revert)",
        {"extends": ["@commitlint/config-conventional"]}, "Revert \"Feat: Shiny Thing.\"")
    add(f"{t}: ignored message with a refused configuration is still valid",
        r("no-such-rule", 2, "always"), "Merge branch 'feature/upload-retry'")


# ---------------------------------------------------------------------------------------
# parser options
# ---------------------------------------------------------------------------------------
def parser_options():
    t = "parser"
    bracket = {"headerPattern": "^(\\w+) \\[([\\w-]+)\\] (.+)$", "headerCorrespondence": ["type", "scope", "subject"]}
    cfg = {"rules": {"type-enum": [2, "always", ["fix", "feat"]], "scope-enum": [2, "always", ["auth", "billing"]],
                     "type-empty": [2, "never"], "subject-empty": [2, "never"]}}
    def p(config, **opts):
        c = dict(config)
        c["parserPreset"] = {"parserOpts": opts}
        return c
    add(f"{t}: custom headerPattern 'type [scope] subject', allowed values",
        p(cfg, **bracket), "fix [auth] reject expired tokens")
    add(f"{t}: custom headerPattern 'type [scope] subject', scope outside the enum",
        p(cfg, **bracket), "fix [search] reject expired tokens")
    add(f"{t}: custom headerPattern, conventional header no longer parses",
        p(cfg, **bracket), "fix(auth): reject expired tokens")
    add(f"{t}: custom headerPattern with ' - ' separator",
        p(rules(type_enum=[2, "always", ["feat"]], type_empty=[2, "never"]),
          headerPattern="^(\\w*)(?:\\((.*)\\))? - (.*)$"), "feat(auth) - add passkeys")
    add(f"{t}: headerCorrespondence reordered (scope before type)",
        p(rules(type_enum=[2, "always", ["feat"]], scope_enum=[2, "always", ["ui"]]),
          headerPattern="^(\\w+)/(\\w+): (.*)$", headerCorrespondence=["scope", "type", "subject"]),
        "ui/feat: add a compact layout")
    add(f"{t}: headerCorrespondence reordered, values swapped in the message",
        p(rules(type_enum=[2, "always", ["feat"]], scope_enum=[2, "always", ["ui"]]),
          headerPattern="^(\\w+)/(\\w+): (.*)$", headerCorrespondence=["scope", "type", "subject"]),
        "feat/ui: add a compact layout")
    add(f"{t}: headerCorrespondence without scope leaves scope empty",
        p(rules(scope_empty=[2, "never"], type_empty=[2, "never"]),
          headerPattern="^(\\w+): (.*)$", headerCorrespondence=["type", "subject"]),
        "feat: add a compact layout")
    add(f"{t}: named groups in headerPattern are read by name",
        p(rules(type_enum=[2, "always", ["fix"]], subject_case=[2, "always", "lower-case"]),
          headerPattern="^(?<subject>.+) \\((?<type>\\w+)\\)$", headerCorrespondence=["type", "subject"]),
        "handle empty carts (fix)")
    add(f"{t}: restrictive scope pattern rejects a multi scope",
        p(rules(type_empty=[2, "never"], subject_empty=[2, "never"]),
          headerPattern="^(\\w*)(?:\\(([a-z]*)\\))?: (.*)$"), "chore(api,web): bump deps")
    add(f"{t}: issuePrefixes ['PROJ-'] finds a key in the footer",
        p(r("references-empty", 2, "never"), issuePrefixes=["PROJ-"]), "fix: guard a null user\n\nRefs PROJ-88")
    add(f"{t}: issuePrefixes ['PROJ-'] ignores '#'",
        p(r("references-empty", 2, "never"), issuePrefixes=["PROJ-"]), "fix: guard a null user\n\nCloses #88")
    add(f"{t}: issuePrefixes ['PROJ-'] turns a key line into footer",
        p(r("footer-empty", 2, "always"), issuePrefixes=["PROJ-"]), "fix: guard a null user\n\nRefs PROJ-88")
    add(f"{t}: default prefixes leave a 'PROJ-88' line in the body",
        r("footer-empty", 2, "always"), "fix: guard a null user\n\nRefs PROJ-88")
    add(f"{t}: noteKeywords ['DEPRECATED'] makes a footer",
        p(r("footer-empty", 2, "never"), noteKeywords=["DEPRECATED"]), "feat: new flag parser\n\nDEPRECATED: --old-flags")
    add(f"{t}: default noteKeywords leave 'DEPRECATED:' in the body",
        r("footer-empty", 2, "never"), "feat: new flag parser\n\nDEPRECATED: --old-flags")
    add(f"{t}: noteKeywords without 'BREAKING CHANGE' hide the breaking footer",
        p(r("breaking-change-exclamation-mark", 2, "always"),
          headerPattern="^(\\w*)(?:\\((.*)\\))?!?: (.*)$", noteKeywords=["DEPRECATED"]),
        "feat!: new flag parser\n\nBREAKING CHANGE: old flags are gone")
    add(f"{t}: noteKeywords with regex characters are literal",
        p(r("footer-empty", 2, "never"), noteKeywords=["[note]"]), "feat: new flag parser\n\nbody\n[note]: keep both for now")
    add(f"{t}: referenceActions ['resolves'] keep a reference before 'closes'",
        p(r("references-empty", 2, "never"), referenceActions=["resolves"]),
        "fix: guard a null user\n\nPart of #12, closes nothing yet")
    add(f"{t}: conventionalcommits preset parses '!' headers",
        with_preset(rules(type_enum=[2, "always", ["feat"]], scope_enum=[2, "always", ["api"]], type_empty=[2, "never"])),
        "feat(api)!: drop the v1 routes")
    add(f"{t}: default parser does not parse '!' headers",
        rules(type_enum=[2, "always", ["feat"]], scope_enum=[2, "always", ["api"]], type_empty=[2, "never"]),
        "feat(api)!: drop the v1 routes")
    add(f"{t}: conventionalcommits preset, BREAKING-CHANGE is a footer note",
        with_preset(r("footer-leading-blank", 2, "always")),
        "feat(api): drop v1\n\nsome body\nBREAKING-CHANGE: v1 is gone")
    add(f"{t}: default parser, BREAKING-CHANGE without blank line stays in the body",
        r("footer-leading-blank", 2, "always"), "feat(api): drop v1\n\nsome body\nBREAKING-CHANGE: v1 is gone")
    add(f"{t}: gpg signature lines are dropped from the body",
        r("body-empty", 2, "always"),
        "feat(api): drop v1\n\ngpg: Signature made Tue 04 Jun 2024\ngpg: Good signature from \"Ada\"")
    add(f"{t}: text after the scissors line is not body",
        r("body-empty", 2, "always"),
        "feat(api): drop v1\n# ------------------------ >8 ------------------------\nDo not modify or remove the line above.\ndiff --git a/x b/x")
    add(f"{t}: a '-field-' line is not special (fieldPattern is off)",
        r("body-max-line-length", 2, "always", 10), "feat(api): drop v1\n\n-hash-\nthis line is long enough")


# ---------------------------------------------------------------------------------------
# lint-level behaviour: empty messages, comments, levels
# ---------------------------------------------------------------------------------------
def lint_topics():
    t = "lint"
    strict = rules(type_empty=[2, "never"], subject_empty=[2, "never"])
    add(f"{t}: empty message is valid", strict, "")
    add(f"{t}: message of comment lines only is valid", strict, "# Nothing written yet\n# (an empty message aborts)\n")
    add(f"{t}: comment line before a bad header does not hide it", strict, "# hint\nno type here")
    add(f"{t}: level 0 turns a rule off", r("type-enum", 0, "always", ["feat"]), "docs: tidy")
    add(f"{t}: level 0 shorthand [0]", r("type-enum", 0), "docs: tidy")
    add(f"{t}: level 1 reports a warning and stays valid", r("type-enum", 1, "always", ["feat"]), "docs: tidy")
    add(f"{t}: fractional level 1.5 is accepted and reports nothing", r("type-enum", 1.5, "always", ["feat"]), "docs: tidy")
    add(f"{t}: errors and warnings together",
        rules(type_enum=[2, "always", ["feat"]], subject_full_stop=[1, "never", "."], header_max_length=[2, "always", 200]),
        "docs: tidy the index.")
    add(f"{t}: no rules at all", {"rules": {}}, "anything goes here")
    add(f"{t}: rule value omitted uses the rule's default", r("body-max-line-length", 2, "always"),
        "docs: tidy\n\nx")


# ---------------------------------------------------------------------------------------
# configurations commitlint refuses
# ---------------------------------------------------------------------------------------
def refused():
    t = "config refused"
    msg = "feat(api): add paging"
    add(f"{t}: unknown rule name", r("subject-lowercase", 2, "always"), msg)
    add(f"{t}: two unknown rule names", {"rules": {"type-required": [2, "always"], "scope-style": [1, "never"]}}, msg)
    add(f"{t}: unknown rule next to a known one",
        {"rules": {"type-enum": [2, "always", ["feat"]], "type-enumeration": [2, "always", ["feat"]]}}, msg)
    add(f"{t}: entry is a number", {"rules": {"type-enum": 2}}, msg)
    add(f"{t}: entry is a string", {"rules": {"header-max-length": "72"}}, msg)
    add(f"{t}: entry is an object", {"rules": {"scope-enum": {"level": 2, "when": "always", "value": ["api"]}}}, msg)
    add(f"{t}: entry is null", {"rules": {"body-leading-blank": None}}, msg)
    add(f"{t}: entry is an empty array", {"rules": {"body-leading-blank": []}}, msg)
    add(f"{t}: level 3", r("type-enum", 3, "always", ["feat"]), msg)
    add(f"{t}: level -1", r("type-enum", -1, "always", ["feat"]), msg)
    add(f"{t}: level 2.5", r("type-enum", 2.5, "always", ["feat"]), msg)
    add(f"{t}: level as the string \"2\"", r("type-enum", "2", "always", ["feat"]), msg)
    add(f"{t}: level as an object", r("header-max-length", {}, "always", 72), msg)
    add(f"{t}: condition \"sometimes\"", r("type-enum", 2, "sometimes", ["feat"]), msg)
    add(f"{t}: condition \"Always\" (case matters)", r("type-enum", 2, "Always", ["feat"]), msg)
    add(f"{t}: condition is a number", r("type-enum", 1, 2), msg)
    add(f"{t}: condition missing ([2])", r("body-leading-blank", 2), msg)
    add(f"{t}: level 0 with an invalid condition", r("type-enum", 0, "sometimes"), msg)
    add(f"{t}: 4-item entry", r("scope-enum", 2, "always", ["api"], "extra"), msg)
    add(f"{t}: 4-item entry of numbers", r("scope-enum", 1, 2, 3, 4), msg)
    add(f"{t}: refused even when the rule would pass", r("type-enum", 3, "always", ["feat"]), "feat: add paging")
    add(f"{t}: not refused for an empty message", r("subject-lowercase", 2, "always"), "")
    add(f"{t}: unknown case name in scope-case with a scope", r("scope-case", 2, "always", "dot-case"), msg)
    add(f"{t}: unknown case name in scope-case without a scope", r("scope-case", 2, "always", "dot-case"), "feat: add paging")


def build():
    for f in (body_case, body_empty, body_full_stop, body_leading_blank, body_max_length,
              body_max_line_length, body_min_length, breaking_change_exclamation_mark, footer_empty,
              footer_leading_blank, footer_lengths, header_case, header_full_stop, header_lengths,
              header_trim, references_empty, scope_case, scope_delimiter_style, scope_empty, scope_enum,
              scope_lengths, signed_off_by, subject_case, subject_empty, subject_exclamation_mark,
              subject_full_stop, subject_lengths, trailer_exists, type_case, type_empty, type_enum,
              type_lengths, presets, ignores, parser_options, lint_topics, refused):
        f()


def check_cases():
    names = collections.Counter(c["name"] for c in CASES)
    dup_names = [n for n, k in names.items() if k > 1]
    if dup_names:
        sys.exit("duplicate names:\n  " + "\n  ".join(dup_names))
    keys = collections.Counter(json.dumps([c["config"], c["message"]], sort_keys=True) for c in CASES)
    dups = [k for k, v in keys.items() if v > 1]
    if dups:
        sys.exit("identical cases (same config and message):\n  " + "\n  ".join(dups))
    for c in CASES:
        lines = c["message"].replace("\r\n", "\n").split("\n")
        if any(l.startswith("#") for l in lines) and "comment" not in c["name"] \
                and "scissors" not in c["name"] and "hint" not in c["name"]:
            sys.exit(f"case {c['name']!r} has a '#' line but is not about comments")


def run_oracle():
    inp = "".join(json.dumps({"config": c["config"], "message": c["message"]}) + "\n" for c in CASES)
    proc = subprocess.run(["node", ORACLE], input=inp, capture_output=True, text=True,
                          cwd=os.path.dirname(ORACLE) or ".")
    if proc.returncode != 0:
        sys.exit(f"oracle failed ({proc.returncode}):\n{proc.stderr}")
    out = [l for l in proc.stdout.splitlines() if l.strip()]
    if len(out) != len(CASES):
        sys.exit(f"oracle answered {len(out)} lines for {len(CASES)} cases\n{proc.stderr}")
    return [json.loads(l) for l in out]


def main():
    build()
    check_cases()
    verdicts = run_oracle()
    with open(OUT, "w", encoding="utf-8") as f:
        for c, v in zip(CASES, verdicts):
            c["expect"] = v
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    groups = collections.OrderedDict()
    for c in CASES:
        g = groups.setdefault(c["name"].split(":")[0], [0, 0, 0, 0])
        g[0] += 1
        e = c["expect"]
        if "refused" in e:
            g[3] += 1
        elif e["valid"]:
            g[1] += 1
        else:
            g[2] += 1
    print(f"{'group':36} {'cases':>5} {'valid':>5} {'invalid':>7} {'refused':>7}")
    for g, (n, v, i, rf) in groups.items():
        print(f"{g:36} {n:5} {v:5} {i:7} {rf:7}")
    tot = [sum(x[k] for x in groups.values()) for k in range(4)]
    print(f"{'total':36} {tot[0]:5} {tot[1]:5} {tot[2]:7} {tot[3]:7}")
    print(f"wrote {OUT}; no two cases share config and message")


if __name__ == "__main__":
    main()
