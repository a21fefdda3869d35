//! A corpus for the secret scanner: leaks (a line of a realistic file with a secret in it)
//! and look-alikes (lines a scanner must leave alone).
//!
//! No real-looking token is written in this file, so that push protection and other
//! scanners have nothing to flag: each secret is built at run time from a prefix split in
//! two and a deterministic pseudo-random body (xorshift, seeded per sample).

/// xorshift64, seeded per sample.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// `len` characters drawn from `alphabet`.
    pub fn pick(&mut self, alphabet: &[u8], len: usize) -> String {
        (0..len)
            .map(|_| char::from(alphabet[(self.next_u64() % alphabet.len() as u64) as usize]))
            .collect()
    }
}

pub const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
pub const UPPER_DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
pub const DIGITS: &[u8] = b"0123456789";
pub const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
pub const URLSAFE: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
pub const HEX: &[u8] = b"0123456789abcdef";
/// What passwords are typed from.
pub const PASSWORD_CHARS: &[u8] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#%^*_-+.";

/// What passwords in URLs are typed from (no character that would need escaping).
pub const URL_PASSWORD_CHARS: &[u8] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!_-.~";

/// Two halves, so the whole never stands in the source.
pub fn cat(a: &str, b: &str) -> String {
    format!("{a}{b}")
}

/// A PEM armour line (BEGIN or END, then the kind and `PRIVATE KEY`), built at run time so
/// the source holds none.
pub fn armour(edge: &str, kind: &str) -> String {
    format!("-----{edge} {kind}{}-----", cat("PRIVATE ", "KEY"))
}

/// The base64 body of a key: full 64-character lines and a shorter last one.
pub fn pem_body(r: &mut Rng, lines: usize, first: &str) -> Vec<String> {
    let mut body: Vec<String> = (0..lines).map(|_| r.pick(BASE64, 64)).collect::<Vec<_>>();
    body[0] = format!("{first}{}", &body[0][first.len()..]);
    let len = 20 + (r.next_u64() % 30) as usize;
    let last = r.pick(BASE64, len);
    body.push(format!("{last}=="));
    body
}

/// URL encoding of base64 (as in a SAS token's `sig=`).
fn url_encode(s: &str) -> String {
    s.replace('+', "%2B")
        .replace('/', "%2F")
        .replace('=', "%3D")
}

/// Leaks: (rule id, a line or block of a realistic file holding the secret, the secret).
pub fn leaks() -> Vec<(&'static str, String, String)> {
    leaks_seeded(1000)
}

/// The same leaks with other random bodies.
pub fn leaks_seeded(first_seed: u64) -> Vec<(&'static str, String, String)> {
    let mut out: Vec<(&'static str, String, String)> = Vec::new();
    let mut seed = first_seed;
    let mut rng = || {
        seed += 1;
        Rng::new(seed)
    };
    let mut add = |rule: &'static str, line: String, secret: String| {
        assert!(
            secret.lines().all(|part| line.contains(part)),
            "{rule}: {line}"
        );
        out.push((rule, line, secret));
    };

    // private-key: PEM files of every kind.
    for (kind, first, lines) in [
        ("RSA ", "MIIEpAIBAAKCAQEA", 25),
        ("", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 26),
        ("EC ", "MHcCAQEEI", 3),
        ("OPENSSH ", "b3BlbnNzaC1rZXktdjEAAAAA", 6),
        ("ENCRYPTED ", "MIIFHDBOBgkqhkiG9w0BBQ0wQTAp", 28),
        ("DSA ", "MIIBuwIBAAKBgQ", 10),
    ] {
        let mut r = rng();
        let body = pem_body(&mut r, lines, first);
        let block = format!(
            "{}\n{}\n{}",
            armour("BEGIN", kind),
            body.join("\n"),
            armour("END", kind)
        );
        add("private-key", block, body.join("\n"));
    }
    {
        // A legacy encrypted RSA key with its headers; the headers are no secret.
        let mut r = rng();
        let body = pem_body(&mut r, 12, "");
        let iv = r.pick(b"0123456789ABCDEF", 32);
        let block = format!(
            "{}\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,{iv}\n\n{}\n{}",
            armour("BEGIN", "RSA "),
            body.join("\n"),
            armour("END", "RSA ")
        );
        add("private-key", block, body.join("\n"));
        // PGP.
        let body = pem_body(&mut r, 15, "lQOYBF");
        let checksum = format!("={}", r.pick(BASE64, 4));
        let block = format!(
            "-----BEGIN PGP {}-----\nVersion: GnuPG v2\n\n{}\n{checksum}\n-----END PGP {}-----",
            cat("PRIVATE KEY ", "BLOCK"),
            body.join("\n"),
            cat("PRIVATE KEY ", "BLOCK")
        );
        add("private-key", block, body.join("\n"));
        // A key written as joined strings in code.
        let body = pem_body(&mut r, 6, "MIIE");
        let lines: Vec<String> = body.iter().map(|l| format!("  \"{l}\\n\" +")).collect();
        let block = format!(
            "const key = \"{}\\n\" +\n{}\n  \"{}\\n\";",
            armour("BEGIN", "RSA "),
            lines.join("\n"),
            armour("END", "RSA ")
        );
        add("private-key", block, body.join("\n"));
        // A key in a YAML block scalar.
        let body = pem_body(&mut r, 8, "MIIE");
        let indented: Vec<String> = body.iter().map(|l| format!("    {l}")).collect();
        let block = format!(
            "tls_key: |\n    {}\n{}\n    {}",
            armour("BEGIN", ""),
            indented.join("\n"),
            armour("END", "")
        );
        add("private-key", block, body.join("\n"));
    }

    // gcp-service-account: the private_key string of a service-account JSON.
    for lines in [26, 16] {
        let mut r = rng();
        let body = pem_body(&mut r, lines, "MIIEvgIBADANBgkqhkiG9w0BAQEFAASC");
        let escaped = body.join("\\n");
        let line = format!(
            "  \"private_key\": \"{}\\n{escaped}\\n{}\\n\",",
            armour("BEGIN", ""),
            armour("END", "")
        );
        add("gcp-service-account", line, escaped);
    }

    let mut r = rng();
    let s = cat("AK", "IA") + &r.pick(UPPER_DIGITS, 16);
    add("aws-access-key", format!("aws_access_key_id = {s}"), s);
    let s = cat("AS", "IA") + &r.pick(UPPER_DIGITS, 16);
    add(
        "aws-access-key",
        format!("export AWS_ACCESS_KEY_ID=\"{s}\""),
        s,
    );
    let s = cat("AK", "IA") + &r.pick(UPPER_DIGITS, 16);
    add(
        "aws-access-key",
        format!("      \"AccessKeyId\": \"{s}\","),
        s,
    );

    let s = r.pick(BASE64, 40);
    add("aws-secret-key", format!("aws_secret_access_key = {s}"), s);
    let s = r.pick(BASE64, 40);
    add(
        "aws-secret-key",
        format!("  AWS_SECRET_ACCESS_KEY: \"{s}\""),
        s,
    );
    let s = r.pick(BASE64, 40);
    add(
        "aws-secret-key",
        format!("      \"SecretAccessKey\": \"{s}\","),
        s,
    );

    let s = cat("AI", "za") + &r.pick(URLSAFE, 35);
    add("gcp-api-key", format!("  apiKey: \"{s}\","), s);
    let s = cat("AI", "za") + &r.pick(URLSAFE, 35);
    add(
        "gcp-api-key",
        format!(
            "url = f\"https://maps.googleapis.com/maps/api/geocode/json?address={{q}}&key={s}\""
        ),
        s,
    );

    let s = cat("GOCS", "PX-") + &r.pick(URLSAFE, 28);
    add(
        "google-oauth-secret",
        format!(
            "{{\"installed\":{{\"client_id\":\"1234.apps.googleusercontent.com\",\"client_secret\":\"{s}\"}}}}"
        ),
        s,
    );
    let s = cat("GOCS", "PX-") + &r.pick(URLSAFE, 28);
    add(
        "google-oauth-secret",
        format!("GOOGLE_CLIENT_SECRET={s}"),
        s,
    );

    let s = r.pick(BASE64, 86) + "==";
    add(
        "azure-storage-key",
        format!(
            "AZURE_STORAGE_CONNECTION_STRING=\"DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey={s};EndpointSuffix=core.windows.net\""
        ),
        s,
    );
    let s = r.pick(BASE64, 86) + "==";
    add(
        "azure-storage-key",
        format!(
            "    \"Storage\": \"DefaultEndpointsProtocol=https;AccountName=logs;AccountKey={s}\","
        ),
        s,
    );

    let s = r.pick(ALNUM, 3) + "8Q~" + &r.pick(URLSAFE, 34);
    add("azure-client-secret", format!("AZURE_CLIENT_SECRET={s}"), s);
    let s = r.pick(ALNUM, 3) + "7Q~" + &r.pick(URLSAFE, 34);
    add(
        "azure-client-secret",
        format!("    \"ClientSecret\": \"{s}\","),
        s,
    );

    let s = r.pick(BASE64, 43) + "=";
    add(
        "azure-sas",
        format!(
            "SERVICEBUS=Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={s}"
        ),
        s,
    );
    let s = url_encode(&(r.pick(BASE64, 43) + "="));
    add(
        "azure-sas",
        format!(
            "curl \"https://acme.blob.core.windows.net/backups/db.tar?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-01-01T00:00:00Z&spr=https&sig={s}\""
        ),
        s,
    );

    let s = cat("gh", "p_") + &r.pick(ALNUM, 36);
    add("github-token", format!("GITHUB_TOKEN={s}"), s);
    let s = cat("gh", "o_") + &r.pick(ALNUM, 36);
    add("github-token", format!("    oauth_token: {s}"), s);
    let s = cat("github", "_pat_") + &r.pick(ALNUM, 22) + "_" + &r.pick(ALNUM, 59);
    add(
        "github-token",
        format!("git clone https://x-access-token:{s}@github.com/acme/app.git"),
        s,
    );

    let s = cat("glp", "at-") + &r.pick(URLSAFE, 20);
    add("gitlab-token", format!("export GITLAB_TOKEN=\"{s}\""), s);
    let s = cat("gl", "rt-") + &r.pick(URLSAFE, 20);
    add("gitlab-token", format!("  token = \"{s}\""), s);
    let s = cat("GR13", "48941") + &r.pick(URLSAFE, 20);
    add(
        "gitlab-token",
        format!("gitlab-runner register --registration-token {s}"),
        s,
    );

    let s = format!(
        "{}{}-{}-{}",
        cat("xo", "xb-"),
        r.pick(DIGITS, 13),
        r.pick(DIGITS, 13),
        r.pick(ALNUM, 24)
    );
    add("slack-token", format!("SLACK_BOT_TOKEN={s}"), s);
    let s = format!(
        "{}{}-{}-{}-{}",
        cat("xo", "xp-"),
        r.pick(DIGITS, 12),
        r.pick(DIGITS, 12),
        r.pick(DIGITS, 13),
        r.pick(HEX, 32)
    );
    add(
        "slack-token",
        format!("client = WebClient(token=\"{s}\")"),
        s,
    );
    let s = format!(
        "{}-A{}-{}-{}",
        cat("xa", "pp-1"),
        r.pick(UPPER_DIGITS, 10),
        r.pick(DIGITS, 13),
        r.pick(HEX, 64)
    );
    add("slack-token", format!("  app_token: \"{s}\""), s);

    for _ in 0..2 {
        let s = format!(
            "https://{}/services/T{}/B{}/{}",
            cat("hooks.sl", "ack.com"),
            r.pick(UPPER_DIGITS, 8),
            r.pick(UPPER_DIGITS, 10),
            r.pick(ALNUM, 24)
        );
        add(
            "slack-webhook",
            format!(
                "curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deployed\"}}' {s}"
            ),
            s,
        );
    }

    let s = cat("sk_l", "ive_") + &r.pick(ALNUM, 24);
    add("stripe-key", format!("stripe.api_key = \"{s}\""), s);
    let s = cat("rk_t", "est_") + &r.pick(ALNUM, 99);
    add("stripe-key", format!("STRIPE_RESTRICTED_KEY={s}"), s);
    let s = cat("whs", "ec_") + &r.pick(ALNUM, 32);
    add("stripe-key", format!("const endpointSecret = '{s}';"), s);

    let s =
        cat("sk-pr", "oj-") + &r.pick(URLSAFE, 74) + &cat("T3Blbk", "FJ") + &r.pick(URLSAFE, 74);
    add("openai-key", format!("OPENAI_API_KEY={s}"), s);
    let s =
        cat("sk-svc", "acct-") + &r.pick(URLSAFE, 74) + &cat("T3Blbk", "FJ") + &r.pick(URLSAFE, 74);
    add("openai-key", format!("client = OpenAI(api_key=\"{s}\")"), s);
    let s = cat("sk", "-") + &r.pick(ALNUM, 20) + &cat("T3Blbk", "FJ") + &r.pick(ALNUM, 20);
    add("openai-key", format!("openai.api_key = '{s}'"), s);

    let s = cat("sk-an", "t-api03-") + &r.pick(URLSAFE, 93) + "AA";
    add("anthropic-key", format!("ANTHROPIC_API_KEY=\"{s}\""), s);
    let s = cat("sk-an", "t-admin01-") + &r.pick(URLSAFE, 93) + "AA";
    add("anthropic-key", format!("  -H \"x-api-key: {s}\" \\"), s);

    let s = cat("sk-or", "-v1-") + &r.pick(HEX, 64);
    add("openrouter-key", format!("OPENROUTER_API_KEY={s}"), s);
    let s = cat("sk-or", "-v1-") + &r.pick(HEX, 64);
    add("openrouter-key", format!("api_key = \"{s}\""), s);

    let s = cat("gs", "k_") + &r.pick(ALNUM, 52);
    add("groq-key", format!("GROQ_API_KEY={s}"), s);
    let s = cat("gs", "k_") + &r.pick(ALNUM, 52);
    add("groq-key", format!("client = Groq(api_key=\"{s}\")"), s);

    let s = cat("h", "f_") + &r.pick(ALNUM, 34);
    add("huggingface-token", format!("HF_TOKEN={s}"), s);
    let s = cat("h", "f_") + &r.pick(ALNUM, 34);
    add("huggingface-token", format!("login(token=\"{s}\")"), s);

    let s = cat("np", "m_") + &r.pick(ALNUM, 36);
    add(
        "npm-token",
        format!("//registry.npmjs.org/:_authToken={s}"),
        s,
    );
    let s = cat("np", "m_") + &r.pick(ALNUM, 36);
    add("npm-token", format!("  NODE_AUTH_TOKEN: {s}"), s);

    let s = cat("pypi-AgEIcHlwaS5", "vcmc") + &r.pick(URLSAFE, 140);
    add("pypi-token", format!("password = {s}"), s);
    let s = cat("pypi-AgEIcHlwaS5", "vcmc") + &r.pick(URLSAFE, 160);
    add(
        "pypi-token",
        format!("twine upload -u __token__ -p {s} dist/*"),
        s,
    );

    let s = format!("{}.{}.{}", "SG", r.pick(URLSAFE, 22), r.pick(URLSAFE, 43));
    add("sendgrid-key", format!("SENDGRID_API_KEY='{s}'"), s);
    let s = format!("{}.{}.{}", "SG", r.pick(URLSAFE, 22), r.pick(URLSAFE, 43));
    add(
        "sendgrid-key",
        format!("sg = SendGridAPIClient(\"{s}\")"),
        s,
    );

    let s = cat("do", "p_v1_") + &r.pick(HEX, 64);
    add("digitalocean-token", format!("  token = \"{s}\""), s);
    let s = cat("do", "o_v1_") + &r.pick(HEX, 64);
    add(
        "digitalocean-token",
        format!("DIGITALOCEAN_ACCESS_TOKEN={s}"),
        s,
    );

    for line in [
        "curl -H \"Authorization: Bearer {}\" https://api.acme.dev/v1/me",
        "  id_token: {}",
        "const session = \"{}\";",
    ] {
        let s = format!(
            "{}.{}.{}",
            cat("ey", &format!("J{}", r.pick(URLSAFE, 33))),
            cat("ey", &format!("J{}", r.pick(URLSAFE, 120))),
            r.pick(URLSAFE, 43)
        );
        add("jwt", line.replace("{}", &s), s);
    }

    let s = r.pick(URL_PASSWORD_CHARS, 16);
    add(
        "password-in-url",
        format!("DATABASE_URL=postgres://app_user:{s}@db.prod.internal:5432/app"),
        s,
    );
    let s = r.pick(ALNUM, 20);
    add(
        "password-in-url",
        format!(
            "  uri: \"mongodb+srv://admin:{s}@cluster0.ab1cd.mongodb.net/shop?retryWrites=true\""
        ),
        s,
    );
    let s = r.pick(ALNUM, 24);
    add(
        "password-in-url",
        format!("REDIS_URL=redis://:{s}@cache.internal:6379/0"),
        s,
    );
    let s = r.pick(ALNUM, 12);
    add(
        "password-in-url",
        format!("\turl = https://deploy:{s}@git.acme.dev/infra/site.git"),
        s,
    );

    // generic-secret: a random value under a secret-sounding name, in many file formats.
    let generic: [(&str, &[u8], usize); 19] = [
        ("SECRET_KEY={}", ALNUM, 50),
        ("  client_secret: \"{}\"", URLSAFE, 40),
        ("    \"apiKey\": \"{}\",", HEX, 32),
        ("api_token = \"{}\"", ALNUM, 40),
        ("JWT_SECRET = '{}'", PASSWORD_CHARS, 48),
        ("const API_KEY = \"{}\";", ALNUM, 32),
        ("apiKey := \"{}\"", ALNUM, 24),
        ("pub const SIGNING_KEY: &str = \"{}\";", BASE64, 44),
        ("    'secret' => '{}',", ALNUM, 32),
        (
            "private static final String AUTH_TOKEN = \"{}\";",
            ALNUM,
            40,
        ),
        (
            "<property name=\"db\" password=\"{}\" />",
            PASSWORD_CHARS,
            14,
        ),
        ("DB_PASSWORD={}", PASSWORD_CHARS, 18),
        ("  password: \"{}\"", PASSWORD_CHARS, 12),
        ("    \"password\": \"{}\",", PASSWORD_CHARS, 10),
        ("encryption_key: {}", HEX, 64),
        ("  api_key: {}", ALNUM, 32),
        ("export AUTH_TOKEN={}", URLSAFE, 24),
        ("app.secret={}", ALNUM, 32),
        ("headers = {{\"Authorization\": \"Bearer {}\"}}", ALNUM, 40),
    ];
    for (template, alphabet, len) in generic {
        let mut s = r.pick(alphabet, len);
        if alphabet == PASSWORD_CHARS {
            // Typed passwords hold a digit and both cases; make sure of it.
            s.replace_range(0..3, "a7Q");
        }
        let line = template
            .replace("{}", &s)
            .replace("{{", "{")
            .replace("}}", "}");
        add("generic-secret", line, s);
    }
    out
}

/// Look-alikes: (what it is, a line the scanner must leave as it is).
pub fn lookalikes() -> Vec<(&'static str, String)> {
    let mut r = Rng::new(99);
    let aws_example_id = cat("AKIAIOSFODNN7", "EXAMPLE");
    let aws_example_secret = cat("wJalrXUtnFEMI/K7MDENG/bPxRfi", "CYEXAMPLEKEY");
    let public_block = format!(
        "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----",
        pem_body(&mut r, 5, "MIIBIjANBgkqhkiG9w0BAQEFAAOC").join("\n")
    );
    let certificate = format!(
        "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----",
        pem_body(&mut r, 12, "MIIDdzCCAl+gAwIBAgIE").join("\n")
    );
    vec![
        (
            "Cargo.lock checksum",
            format!("checksum = \"{}\"", r.pick(HEX, 64)),
        ),
        (
            "package-lock integrity",
            format!("      \"integrity\": \"sha512-{}==\",", r.pick(BASE64, 86)),
        ),
        (
            "package-lock entry of a package named like a key",
            "    \"node_modules/keyv\": {".into(),
        ),
        (
            "package-lock resolved URL",
            "      \"resolved\": \"https://registry.npmjs.org/keyv/-/keyv-4.5.4.tgz\",".into(),
        ),
        (
            "yarn.lock integrity",
            format!("  integrity sha512-{}==", r.pick(BASE64, 86)),
        ),
        (
            "go.sum hash",
            format!("golang.org/x/crypto v0.21.0 h1:{}=", r.pick(BASE64, 43)),
        ),
        ("git commit id", format!("commit {}", r.pick(HEX, 40))),
        (
            "diff index line",
            format!("index {}..{} 100644", r.pick(HEX, 12), r.pick(HEX, 12)),
        ),
        (
            "docker image digest",
            format!("    image: nginx@sha256:{}", r.pick(HEX, 64)),
        ),
        (
            "UUID",
            "    \"request_id\": \"550e8400-e29b-41d4-a716-446655440000\",".into(),
        ),
        (
            "UUID key id",
            "key_id = \"3f2b8c1e-9d4a-4e6f-8b7c-1a2d3e4f5a6b\"".into(),
        ),
        (
            "base64 test data",
            format!("    let blob = \"{}\";", r.pick(BASE64, 60)),
        ),
        (
            "base64 in a test assertion",
            format!("assert_eq!(decode(\"{}\"), expected);", r.pick(BASE64, 44)),
        ),
        ("empty password", "password = \"\"".into()),
        ("null password", "  password: null".into()),
        ("None password", "DB_PASSWORD = None".into()),
        ("os.environ", "API_KEY = os.environ[\"API_KEY\"]".into()),
        (
            "os.environ.get",
            "api_key = os.environ.get(\"OPENAI_API_KEY\")".into(),
        ),
        (
            "process.env",
            "const token = process.env.GITHUB_TOKEN;".into(),
        ),
        (
            "GitHub Actions secret",
            "          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}".into(),
        ),
        (
            "shell variable in braces",
            "export API_KEY=${API_KEY}".into(),
        ),
        ("shell variable", "TOKEN=$TOKEN".into()),
        ("getenv", "auth_token = getenv(\"AUTH_TOKEN\")".into()),
        (
            "function call",
            "SECRET_KEY = get_random_secret_key()".into(),
        ),
        (
            "settings reference",
            "secret_key = settings.SECRET_KEY".into(),
        ),
        (
            "method call",
            "    let token = self.client.token().await?;".into(),
        ),
        ("placeholder words", "api_key: your-api-key-here".into()),
        (
            "placeholder in angle brackets",
            "token = \"<YOUR_TOKEN>\"".into(),
        ),
        (
            "placeholder of x",
            "client_secret = \"xxxxxxxxxxxxxxxxxxxxxxxx\"".into(),
        ),
        ("changeme", "  password: changeme".into()),
        ("REPLACE_ME", "STRIPE_SECRET_KEY=REPLACE_ME".into()),
        ("ellipsis", "OPENAI_API_KEY=sk-...".into()),
        (
            "AWS documented access key",
            format!("aws_access_key_id = {aws_example_id}"),
        ),
        (
            "AWS documented secret key",
            format!("aws_secret_access_key = {aws_example_secret}"),
        ),
        (
            "dummy value",
            format!("API_KEY = \"dummy-{}\"", r.pick(ALNUM, 20)),
        ),
        (
            "fake token in a test",
            format!("let token = \"fake_{}\";", r.pick(ALNUM, 30)),
        ),
        (
            "Rust variable with a type",
            "let secret_key: SecretKey = load_key(&path)?;".into(),
        ),
        (
            "Rust struct field",
            "    pub secret_key: Option<String>,".into(),
        ),
        (
            "Python parameter",
            "def sign(payload: bytes, secret_key: bytes) -> bytes:".into(),
        ),
        (
            "Python assignment from a variable",
            "        self.secret_key = secret_key".into(),
        ),
        (
            "marker",
            "GITHUB_TOKEN=[secret: github-token, .env:4]".into(),
        ),
        (
            "marker without location",
            "  password: \"[secret: generic-secret]\"".into(),
        ),
        (
            "URL with an empty password",
            "url = \"postgres://user:@localhost/db\"".into(),
        ),
        (
            "URL with a variable password",
            "url = \"https://user:${PASS}@host/x\"".into(),
        ),
        (
            "URL with a template password",
            "url = \"https://admin:<password>@host/x\"".into(),
        ),
        (
            "URL with a masked password",
            "url = \"https://admin:****@host/x\"".into(),
        ),
        (
            "URL with the word password",
            "mysql://root:password@localhost:3306/app".into(),
        ),
        (
            "URL with the word pass",
            "amqp://user:pass@localhost:5672/".into(),
        ),
        ("URL with xxx", "ftp://admin:xxx@files.acme.dev/".into()),
        (
            "URL with format placeholders",
            "dsn = f\"postgresql://{user}:{password}@{host}:{port}/{db}\"".into(),
        ),
        (
            "local default credentials",
            "DATABASE_URL=postgres://postgres:postgres@localhost:5432/dev".into(),
        ),
        (
            "URL with a port",
            "HOST=https://api.acme.dev:8443/v1".into(),
        ),
        (
            "key built from parts",
            "let key = format!(\"{}:{}\", user, id);".into(),
        ),
        ("token budget", "max_tokens: 4096".into()),
        (
            "secret name in Kubernetes",
            "        secretName: acme-prod-tls-2024".into(),
        ),
        (
            "token URL",
            "TOKEN_URL=https://oauth2.googleapis.com/token".into(),
        ),
        ("header name", "API_KEY_HEADER = \"X-Api-Key\"".into()),
        (
            "i18n key",
            "  \"key\": \"settings.account.password.title\",".into(),
        ),
        (
            "SSH public key",
            format!(
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{} dev@laptop",
                r.pick(BASE64, 43)
            ),
        ),
        (
            "public key value",
            format!("public_key = \"MCowBQYDK2VwAyEA{}=\"", r.pick(BASE64, 27)),
        ),
        ("PEM public key", public_block),
        ("PEM certificate", certificate),
        (
            "private key header in code",
            format!("    if pem.starts_with(\"{}\") {{", armour("BEGIN", "RSA ")),
        ),
        (
            "Slack's documented webhook",
            format!(
                "SLACK_WEBHOOK=https://{}/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
                cat("hooks.sl", "ack.com")
            ),
        ),
        ("Vault reference", "  password: !vault |".into()),
        (
            "Jinja template",
            "  db_password: \"{{ vault_db_password }}\"".into(),
        ),
        (
            "password hash column",
            "UPDATE users SET password_hash = crypt($1, gen_salt('bf'));".into(),
        ),
        (
            "cache key",
            "cache_key = f\"user:{user_id}:profile\"".into(),
        ),
        (
            "Azure storage emulator",
            format!(
                "UseDevelopmentStorage=true;AccountName=devstoreaccount1;AccountKey={}",
                // Microsoft's documented emulator key is public; any value under that account
                // name is the emulator's.
                r.pick(BASE64, 86) + "=="
            ),
        ),
        ("hex colour", "  --accent: #3b82f6; /* key colour */".into()),
        (
            "word pass in prose",
            "All tests pass: 12 passed, 0 failed".into(),
        ),
    ]
}
