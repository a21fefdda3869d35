//! Unit tests of the scanner. No real-looking token is written in this file: each is built
//! at run time from a prefix split in two and a pseudo-random body.

use super::*;

// The corpus builder the tests share: its random bodies, PEM armour and alphabets.
use iris_studio_testkit::secrets as corpus;
use iris_studio_testkit::secrets::{ALNUM, BASE64, Rng, UPPER_DIGITS, URLSAFE, armour, cat};

fn begin(kind: &str) -> String {
    armour("BEGIN", kind)
}

fn end(kind: &str) -> String {
    armour("END", kind)
}

/// The corpus' leaks whose secret sits on one line: (rule, a line holding it, the secret).
fn samples() -> Vec<(&'static str, String, String)> {
    corpus::leaks()
        .into_iter()
        .filter(|(_, _, secret)| !secret.contains('\n'))
        .collect()
}

/// The first one-line sample of `rule`.
fn sample(rule: &str) -> (String, String) {
    let (_, line, secret) = samples()
        .into_iter()
        .find(|(r, ..)| *r == rule)
        .expect("a sample of the rule");
    (line, secret)
}

fn scanner() -> Scanner {
    Scanner::new(SecretsIgnore::none())
}

#[test]
fn each_rule_finds_its_kind_and_only_the_value_goes() {
    for (rule, line, secret) in samples() {
        let got = scanner().redact(&line);
        let rules: Vec<&str> = got.findings.iter().map(|f| &*f.rule).collect();
        assert_eq!(rules, vec![rule], "{line}");
        assert!(!got.text.contains(&secret), "{rule}: {}", got.text);
        assert_eq!(
            got.text,
            line.replacen(&secret, &format!("[secret: {rule}]"), 1),
            "{rule}"
        );
    }
}

#[test]
fn every_rule_id_has_a_sample() {
    let ids: Vec<&str> = samples().iter().map(|(rule, ..)| *rule).collect();
    for id in RULE_IDS.iter() {
        let covered = ids.contains(id) || matches!(*id, "private-key" | "gcp-service-account");
        assert!(covered, "{id} has no unit sample");
    }
}

#[test]
fn the_rest_of_the_line_stays() {
    let mut r = Rng::new(3);
    let secret = r.pick(BASE64, 40);
    let text = format!("AWS_REGION=eu-west-1\nAWS_SECRET_ACCESS_KEY={secret}\n");
    let got = scanner().redact(&text);
    assert_eq!(
        got.text,
        "AWS_REGION=eu-west-1\nAWS_SECRET_ACCESS_KEY=[secret: aws-secret-key]\n"
    );
}

fn pem_body(seed: u64, lines: usize) -> Vec<String> {
    corpus::pem_body(&mut Rng::new(seed), lines, "MIIE")
}

#[test]
fn a_private_key_in_a_diff_keeps_its_lines_and_prefixes() {
    let body = pem_body(11, 5);
    let mut diff = String::from(
        "diff --git a/keys/id_rsa b/keys/id_rsa\nnew file mode 100600\n--- /dev/null\n+++ b/keys/id_rsa\n",
    );
    diff.push_str(&format!("@@ -0,0 +1,{} @@\n", body.len() + 2));
    diff.push_str(&format!("+{}\n", begin("RSA ")));
    for line in &body {
        diff.push_str(&format!("+{line}\n"));
    }
    diff.push_str(&format!("+{}\n", end("RSA ")));
    let got = scanner().redact(&diff);
    assert_eq!(got.findings.len(), 1, "{:?}", got.findings);
    assert_eq!(got.findings[0].to_string(), "private-key at keys/id_rsa:2");
    assert_eq!(got.text.lines().count(), diff.lines().count());
    let mut want = diff.lines().take(5).map(str::to_owned).collect::<Vec<_>>();
    want.push(format!("+{}", begin("RSA ")));
    want.push("+[secret: private-key, keys/id_rsa:2]".to_owned());
    want.extend((1..body.len()).map(|_| "+".to_owned()));
    want.push(format!("+{}", end("RSA ")));
    assert_eq!(got.text.lines().collect::<Vec<_>>(), want);
    for line in &body {
        assert!(!got.text.contains(line.as_str()));
    }
}

#[test]
fn an_indented_key_read_with_file_read_is_redacted() {
    // A key in a YAML block scalar, as file_read shows it: line numbers, then indentation.
    let body = pem_body(12, 4);
    let mut text = String::from("deploy/values.yaml: lines 1-8 of 8\n     1| tls_key: |\n");
    text.push_str(&format!("     2|     {}\n", begin("")));
    for (i, line) in body.iter().enumerate() {
        text.push_str(&format!("{:>6}|     {line}\n", i + 3));
    }
    text.push_str(&format!("     8|     {}\n", end("")));
    let got = scanner().redact(&text);
    assert_eq!(got.findings.len(), 1, "{:?}", got.findings);
    assert_eq!(
        got.findings[0].to_string(),
        "private-key at deploy/values.yaml:3"
    );
    for line in &body {
        assert!(!got.text.contains(line.as_str()), "{}", got.text);
    }
    assert_eq!(got.text.lines().count(), text.lines().count());
}

#[test]
fn private_key_kinds_and_layouts() {
    for (i, kind) in ["", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED "]
        .iter()
        .enumerate()
    {
        let body = pem_body(20 + i as u64, 3);
        let text = format!("{}\n{}\n{}\n", begin(kind), body.join("\n"), end(kind));
        let got = scanner().redact(&text);
        assert_eq!(
            got.text,
            format!(
                "{}\n[secret: private-key]\n\n\n\n{}\n",
                begin(kind),
                end(kind)
            ),
            "{kind}"
        );
    }
    // PGP: a header line, a blank line, the body, a checksum.
    let body = pem_body(30, 3);
    let pgp_begin = format!("-----{} PGP PRIVATE KEY BLOCK-----", "BEGIN");
    let pgp_end = format!("-----{} PGP PRIVATE KEY BLOCK-----", "END");
    let text = format!(
        "{pgp_begin}\nVersion: GnuPG v2\n\n{}\n=AbCd\n{pgp_end}\n",
        body.join("\n")
    );
    let got = scanner().redact(&text);
    assert_eq!(got.findings.len(), 1);
    assert_eq!(got.text.lines().count(), text.lines().count());
    assert!(body.iter().all(|l| !got.text.contains(l.as_str())));
    // Strings joined in code: the quotes, escapes and `+` stay.
    let js = format!(
        "const key = \"{}\\n\" +\n  \"{}\\n\" +\n  \"{}\\n\" +\n  \"{}\\n\";\n",
        begin("RSA "),
        body[0],
        body[1],
        end("RSA ")
    );
    let got = scanner().redact(&js);
    assert_eq!(
        got.text,
        format!(
            "const key = \"{}\\n\" +\n  \"[secret: private-key]\\n\" +\n  \"\\n\" +\n  \"{}\\n\";\n",
            begin("RSA "),
            end("RSA ")
        )
    );
    // CRLF line ends stay.
    let text = format!("{}\r\n{}\r\n{}\r\n", begin(""), body.join("\r\n"), end(""));
    let got = scanner().redact(&text);
    assert_eq!(
        got.text,
        format!(
            "{}\r\n[secret: private-key]\r\n\r\n\r\n\r\n{}\r\n",
            begin(""),
            end("")
        )
    );
}

#[test]
fn a_key_cut_off_is_redacted_to_the_end_of_its_run() {
    let body = pem_body(40, 4);
    // To the end of the text.
    let text = format!("+{}\n+{}", begin(""), body.join("\n+"));
    let got = scanner().redact(&text);
    assert_eq!(got.findings.len(), 1);
    assert!(body.iter().all(|l| !got.text.contains(l.as_str())));
    assert_eq!(got.text.lines().count(), text.lines().count());
    // To the first line that is no key.
    let text = format!("{}\n{}\nfn main() {{}}\n", begin("EC "), body.join("\n"));
    let got = scanner().redact(&text);
    assert_eq!(got.findings.len(), 1);
    assert!(got.text.ends_with("\nfn main() {}\n"), "{}", got.text);
    // A hunk that starts inside the key: the body above the END line.
    let text = format!(
        "@@ -5,5 +5,5 @@\n {}\n {}\n {}\n {}\n {}\n",
        body[0],
        body[1],
        body[2],
        body[3],
        end("")
    );
    let got = scanner().redact(&text);
    assert_eq!(got.findings.len(), 1);
    assert!(body.iter().take(4).all(|l| !got.text.contains(l.as_str())));
}

#[test]
fn a_service_account_key_in_one_json_string() {
    let body = pem_body(50, 4);
    let escaped = body.join("\\n");
    let line = format!(
        "  \"private_key\": \"{}\\n{escaped}\\n{}\\n\",",
        begin(""),
        end("")
    );
    let got = scanner().redact(&line);
    assert_eq!(
        got.text,
        format!(
            "  \"private_key\": \"{}\\n[secret: gcp-service-account]\\n{}\\n\",",
            begin(""),
            end("")
        )
    );
    // The same key gives the same fingerprint as a PEM file.
    let pem = format!("{}\n{}\n{}\n", begin(""), body.join("\n"), end(""));
    let as_file = scanner().redact(&pem);
    let tail = |f: &Finding| f.fingerprint.split(':').nth(1).map(str::to_owned);
    assert_eq!(tail(&got.findings[0]), tail(&as_file.findings[0]));
}

#[test]
fn a_header_quoted_in_code_is_no_key() {
    for text in [
        format!("if pem.starts_with(\"{}\") {{", begin("RSA ")),
        format!("const HEADER: &str = \"{}\";", begin("")),
        format!("{}\n...\n{}", begin(""), end("")),
        format!("{}\n{}", begin(""), end("")),
        format!("{}\n", begin("")),
    ] {
        let got = scanner().redact(&text);
        assert!(got.findings.is_empty(), "{text}: {:?}", got.findings);
        assert_eq!(got.text, text);
    }
}

#[test]
fn findings_in_a_diff_have_file_and_line() {
    let mut r = Rng::new(60);
    let added = cat("gh", "p_") + &r.pick(ALNUM, 36);
    let context = r.pick(BASE64, 40);
    let removed = cat("AK", "IA") + &r.pick(UPPER_DIGITS, 16);
    let second = cat("sk_l", "ive_") + &r.pick(ALNUM, 30);
    let diff = format!(
        "diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -3,4 +3,4 @@\n \
         aws_secret_access_key = {context}\n-AWS_ACCESS_KEY_ID={removed}\n-OLD=1\n+GITHUB_TOKEN={added}\n+NEW=1\n \
         last\n\
         diff --git a/src/pay.py b/src/pay.py\n--- a/src/pay.py\n+++ b/src/pay.py\n@@ -10,2 +10,3 @@ def pay():\n \
         import stripe\n+stripe.api_key = \"{second}\"\n \
         return\n"
    );
    let got = scanner().redact(&diff);
    let shown: Vec<String> = got.findings.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "aws-secret-key at .env:3",
            "aws-access-key at .env:4",
            "github-token at .env:4",
            "stripe-key at src/pay.py:11"
        ]
    );
    assert!(
        got.text
            .contains("+GITHUB_TOKEN=[secret: github-token, .env:4]\n")
    );
    assert!(
        got.text
            .contains("-AWS_ACCESS_KEY_ID=[secret: aws-access-key, .env:4]\n")
    );
    assert!(
        got.text
            .contains(" aws_secret_access_key = [secret: aws-secret-key, .env:3]\n")
    );
    assert!(
        got.text
            .contains("+stripe.api_key = \"[secret: stripe-key, src/pay.py:11]\"\n")
    );
    assert_eq!(got.text.lines().count(), diff.lines().count());
}

#[test]
fn findings_in_file_read_output_have_file_and_line() {
    let mut r = Rng::new(70);
    let token = cat("gl", "pat-") + &r.pick(URLSAFE, 20);
    let text = format!(
        "config/ci.yml: lines 7-9 of 40\n     7| stages:\n     8|   token: {token}\n     9| end\n[31 more lines; read on with start_line: 10]\n"
    );
    let got = scanner().redact(&text);
    assert_eq!(got.findings.len(), 1);
    assert_eq!(
        got.findings[0].to_string(),
        "gitlab-token at config/ci.yml:8"
    );
    assert!(
        got.text
            .contains("     8|   token: [secret: gitlab-token, config/ci.yml:8]\n")
    );
}

#[test]
fn redacting_twice_changes_nothing_more() {
    let mut text = String::from("diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,40 +1,40 @@\n");
    let all = samples();
    for (_, line, _) in &all {
        text.push_str(&format!("+{line}\n"));
    }
    let body = pem_body(80, 3);
    text.push_str(&format!(
        "+{}\n+{}\n+{}\n",
        begin(""),
        body.join("\n+"),
        end("")
    ));
    let once = scanner().redact(&text);
    assert_eq!(once.findings.len(), all.len() + 1);
    let twice = scanner().redact(&once.text);
    assert!(twice.findings.is_empty(), "{:?}", twice.findings);
    assert_eq!(twice.text, once.text);
    // Without locations too.
    let plain: String = all.iter().map(|(_, line, _)| format!("{line}\n")).collect();
    let once = scanner().redact(&plain);
    assert_eq!(scanner().redact(&once.text).text, once.text);
}

#[test]
fn the_fingerprint_names_the_rule_and_hides_the_secret() {
    let (line, secret) = sample("github-token");
    let got = scanner().redact(&line);
    let fp = &got.findings[0].fingerprint;
    let (rule, hash) = fp.split_once(':').unwrap();
    assert_eq!(rule, "github-token");
    assert_eq!(hash.len(), 12);
    assert!(
        hash.bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    );
    assert!(!fp.contains(&secret[4..]));
    // The same secret elsewhere gives the same fingerprint.
    let again = scanner().redact(&format!("token: \"{secret}\""));
    assert_eq!(&again.findings[0].fingerprint, fp);
    assert_eq!(fingerprint("x", "abc"), "x:ba7816bf8f01");
}

#[test]
fn the_ignore_file_lets_listed_findings_through() {
    let (line, _) = sample("github-token");
    let found = scanner().redact(&line);
    let fingerprint = found.findings[0].fingerprint.clone();
    let ignore = SecretsIgnore::parse(&format!("# a test token\n{fingerprint}\n")).unwrap();
    let got = Scanner::new(ignore).redact(&line);
    assert_eq!(got.text, line);
    assert!(got.findings.is_empty());
    // By path: the file's findings stay, the others go.
    let mut r = Rng::new(90);
    let a = cat("gh", "p_") + &r.pick(ALNUM, 36);
    let b = cat("gh", "p_") + &r.pick(ALNUM, 36);
    let diff = format!(
        "--- a/tests/fixtures/x.env\n+++ b/tests/fixtures/x.env\n@@ -1 +1 @@\n-T={a}\n+T={b}\n\
         --- a/.env\n+++ b/.env\n@@ -0,0 +1 @@\n+T={a}\n"
    );
    let ignore = SecretsIgnore::parse("tests/fixtures/\n").unwrap();
    let got = Scanner::new(ignore).redact(&diff);
    assert_eq!(got.findings.len(), 1);
    assert_eq!(got.findings[0].to_string(), "github-token at .env:1");
    assert!(got.text.contains(&format!("-T={a}\n+T={b}\n")));
    assert!(got.text.ends_with("+T=[secret: github-token, .env:1]\n"));
    // An ignored token is not caught again by a broader rule.
    let ignore = SecretsIgnore::parse(&format!("{fingerprint}\n")).unwrap();
    let line = line.replace("GITHUB_TOKEN=", "secret_token = ");
    assert_eq!(Scanner::new(ignore).redact(&line).text, line);
}

#[test]
fn display_of_a_finding() {
    let mut finding = Finding {
        rule: "aws-access-key".into(),
        location: Some(Location {
            path: ".env".into(),
            line: 1,
        }),
        fingerprint: "aws-access-key:0123456789ab".into(),
    };
    assert_eq!(finding.to_string(), "aws-access-key at .env:1");
    finding.location = None;
    assert_eq!(finding.to_string(), "aws-access-key");
}

#[test]
fn look_alikes_stay() {
    let aws_example_id = cat("AKIAIOSFODNN7", "EXAMPLE");
    let aws_example_secret = cat("wJalrXUtnFEMI/K7MDENG/bPxRfi", "CYEXAMPLEKEY");
    let cases = [
        format!("aws_access_key_id = {aws_example_id}"),
        format!("aws_secret_access_key = {aws_example_secret}"),
        "checksum = \"a3f5c8e1b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a6\"".into(),
        "\"integrity\": \"sha512-Qm3vY8cX1xZbYp0oR5wQz2n4b6VtLk9sJdHfGaE7uIiOoPpAaSsDdFfGgHhJjKkLlZzXxCcVvBbNnMm1234567==\",".into(),
        "github.com/pkg/errors v0.9.1 h1:FEBLx1zS214owpjy7qsBeixbURkuhQAwrK5UwLGTwt4=".into(),
        "commit 4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39".into(),
        "\"id\": \"550e8400-e29b-41d4-a716-446655440000\",".into(),
        "let data = \"SGVsbG8gV29ybGQhIFRoaXMgaXMgYSB0ZXN0IGJsb2I=\";".into(),
        "password = \"\"".into(),
        "password: null".into(),
        "API_KEY = os.environ[\"API_KEY\"]".into(),
        "const token = process.env.TOKEN;".into(),
        "  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}".into(),
        "API_KEY=${API_KEY}".into(),
        "TOKEN=$TOKEN".into(),
        "api_key = getenv(\"API_KEY\")".into(),
        "SECRET_KEY = settings.SECRET_KEY".into(),
        "api_key: your-api-key-here".into(),
        "token = \"<YOUR_TOKEN>\"".into(),
        "secret = \"xxxxxxxxxxxxxxxx\"".into(),
        "password = changeme".into(),
        "API_KEY=REPLACE_ME".into(),
        "api_key = \"...\"".into(),
        "let secret_key: SecretKey = load_key()?;".into(),
        "    secret_key: Option<String>,".into(),
        "def sign(secret_key: bytes) -> bytes:".into(),
        "GITHUB_TOKEN=[secret: github-token, .env:4]".into(),
        "url = \"postgres://user:@localhost/db\"".into(),
        "url = \"https://user:${PASS}@host/x\"".into(),
        "url = \"https://admin:<password>@host/x\"".into(),
        "url = \"https://admin:****@host/x\"".into(),
        "url = \"https://admin:password@host/x\"".into(),
        "DATABASE_URL=postgres://postgres:postgres@localhost:5432/dev".into(),
        "let key = format!(\"{}:{}\", user, id);".into(),
        "max_tokens: 4096".into(),
        "public_key = \"MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\"".into(),
    ];
    for text in cases {
        let got = scanner().redact(&text);
        assert!(got.findings.is_empty(), "{text}: {:?}", got.findings);
        assert_eq!(got.text, text);
    }
}

#[test]
fn odd_input_does_not_panic() {
    let mut inputs: Vec<String> = vec![
        String::new(),
        "\n".into(),
        "\r\n\r\n".into(),
        "é".into(),
        "token=é".into(),
        "password=\"ééééééééé\"".into(),
        "key:".into(),
        "AKIA".into(),
        format!("{}é", begin("")),
        format!("{}\né\n{}", begin(""), end("")),
        format!("é{}\\né\\n{}", begin(""), end("")),
        format!("+{}\n+", begin("")),
        "diff --git a/é b/é\n--- a/é\n+++ b/é\n@@ -1 +1 @@\n+token=ééééé\n".into(),
        "@@ -1 +1 @@\n+x\n".into(),
        "://:@".into(),
        "a://:b@c".into(),
        "[secret: ".into(),
        "\\".into(),
        "private key".into(),
        "ghp_🙂🙂🙂".into(),
    ];
    // Multi-byte characters right against every keyword.
    for (rule, line, _) in samples() {
        inputs.push(format!("ä{line}ä"));
        inputs.push(
            line.chars()
                .map(|c| if c == '_' { 'ß' } else { c })
                .collect(),
        );
        let _ = rule;
    }
    for text in &inputs {
        let got = scanner().redact(text);
        let _ = scanner().redact(&got.text);
    }
    // A 1 MB line: secrets, keywords and nothing in particular.
    let (line, _) = sample("github-token");
    let mut big = String::with_capacity(1 << 20);
    while big.len() < 1 << 20 {
        big.push_str("token=abc key: ");
        big.push_str(&line);
        big.push_str(" lorem ipsum é ");
    }
    let got = scanner().redact(&big);
    assert!(!got.findings.is_empty());
    let single = "x".repeat(1 << 20);
    assert_eq!(scanner().redact(&single).text, single);
}

#[test]
fn long_lines_of_repeated_keywords_take_linear_time() {
    // Each of these once read the rest of the line for every match.
    let mut r = Rng::new(5);
    let account_key = format!("AccountKey={}==;", r.pick(BASE64, 86));
    let json_key = format!("\"private_key\": \"{}\\n{}", begin(""), r.pick(BASE64, 40));
    for unit in [
        "key=".to_owned(),
        "token='".to_owned(),
        begin("RSA "),
        json_key,
        account_key,
        "ghp_".to_owned(),
        "https://u:p@".to_owned(),
    ] {
        let line = unit.repeat((1 << 20) / unit.len());
        let started = std::time::Instant::now();
        let got = scanner().redact(&line);
        let _ = scanner().redact(&got.text);
        // Seconds in a debug build if it were quadratic (minutes, in fact); well under one
        // second otherwise.
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "{unit}: {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn text_without_secrets_comes_back_as_is() {
    let text = "fn main() {\n    let key = map.get(&id);\n    println!(\"{key:?}\");\n}\n";
    let got = scanner().redact(text);
    assert_eq!(got.text, text);
    assert!(got.findings.is_empty());
}

#[test]
fn a_marker_always_reads_back_as_one() {
    let finding = Finding {
        rule: Arc::from("github-token"),
        location: Some(Location {
            path: "odd]\tname\n[.env".into(),
            line: 3,
        }),
        fingerprint: String::new(),
    };
    let mut out = String::new();
    push_marker(&mut out, &finding);
    assert_eq!(out, "[secret: github-token, odd__name__.env:3]");
}
