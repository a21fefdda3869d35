//! A corpus for the secret scanner: leaks (a line of a realistic file with a secret in it)
//! and look-alikes (lines a scanner must leave alone).
//!
//! No real-looking token is written in this file, so that push protection and other
//! scanners have nothing to flag: each secret is built at run time from a prefix split in
//! two and a deterministic pseudo-random body (xorshift, seeded per sample).

/// xorshift64, seeded per sample.
pub struct Rng(u64);

impl Rng {
    /// The generator for `seed`: the same seed draws the same sample.
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next pseudo-random number.
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

/// Letters of both cases and digits.
pub const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/// Upper-case letters and digits.
pub const UPPER_DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/// Decimal digits.
pub const DIGITS: &[u8] = b"0123456789";
/// Base64's alphabet (without the `=` padding).
pub const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/// URL-safe base64's alphabet: `-` and `_` instead of `+` and `/`.
pub const URLSAFE: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
/// Hexadecimal digits in lower case.
pub const HEX: &[u8] = b"0123456789abcdef";
/// Hexadecimal digits in upper case.
pub const UPPER_HEX: &[u8] = b"0123456789ABCDEF";
/// Lower-case letters and digits.
pub const LOWER_DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
/// Bech32's alphabet (age keys), in upper case.
pub const BECH32_UPPER: &[u8] = b"QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";
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

/// A random (version 4) UUID in lower case.
pub fn uuid(r: &mut Rng) -> String {
    format!(
        "{}-{}-4{}-{}{}-{}",
        r.pick(HEX, 8),
        r.pick(HEX, 4),
        r.pick(HEX, 3),
        r.pick(b"89ab", 1),
        r.pick(HEX, 3),
        r.pick(HEX, 12)
    )
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

    // Vendors' prefixed tokens, two each, in the files they turn up in.
    let mut r = rng();

    let s = cat("A", "3-") + &[6, 11, 5, 5, 5].map(|n| r.pick(UPPER_DIGITS, n)).join("-");
    add("1password-secret-key", format!("OP_SECRET_KEY={s}"), s);
    let s = cat("A", "3-")
        + &[6, 6, 5, 5, 5, 5]
            .map(|n| r.pick(UPPER_DIGITS, n))
            .join("-");
    add("1password-secret-key", format!("  secret_key: \"{s}\""), s);

    let s = cat("ops", "_eyJ") + &r.pick(BASE64, 320);
    add(
        "1password-token",
        format!("export OP_SERVICE_ACCOUNT_TOKEN=\"{s}\""),
        s,
    );
    let s = cat("ops", "_eyJ") + &r.pick(BASE64, 420) + "=";
    add(
        "1password-token",
        format!("          OP_SERVICE_ACCOUNT_TOKEN: {s}"),
        s,
    );

    let s = cat("p8", "e-") + &r.pick(ALNUM, 32);
    add("adobe-client-secret", format!("ADOBE_CLIENT_SECRET={s}"), s);
    let s = cat("p8", "e-") + &r.pick(ALNUM, 32);
    add(
        "adobe-client-secret",
        format!("    \"client_secret\": \"{s}\","),
        s,
    );

    // An age identity file: the public key in a comment, then the secret key.
    let s = cat("AGE-SECRET-", "KEY-1") + &r.pick(BECH32_UPPER, 58);
    let public = r.pick(BECH32_UPPER, 58).to_ascii_lowercase();
    add(
        "age-secret-key",
        format!("# created: 2024-05-02T10:11:12+02:00\n# public key: age1{public}\n{s}"),
        s,
    );
    let s = cat("AGE-SECRET-", "KEY-1") + &r.pick(BECH32_UPPER, 58);
    add("age-secret-key", format!("export SOPS_AGE_KEY={s}"), s);

    let s = cat("pa", "t") + &r.pick(ALNUM, 14) + "." + &r.pick(HEX, 64);
    add("airtable-token", format!("AIRTABLE_TOKEN={s}"), s);
    let s = cat("pa", "t") + &r.pick(ALNUM, 14) + "." + &r.pick(HEX, 64);
    add(
        "airtable-token",
        format!("const base = new Airtable({{ apiKey: '{s}' }}).base('appq3bXyZ1c9kLm2');"),
        s,
    );

    let s = cat("LT", "AI") + &r.pick(ALNUM, 20);
    add(
        "alibaba-access-key",
        format!("System.setProperty(\"ALIBABA_CLOUD_ACCESS_KEY_ID\", \"{s}\");"),
        s,
    );
    let s = cat("LT", "AI") + &r.pick(ALNUM, 20);
    add("alibaba-access-key", format!("  access_key_id: {s}"), s);

    let s = cat("AK", "Cp") + &r.pick(ALNUM, 69);
    add(
        "artifactory-token",
        format!(
            "curl -H \"X-JFrog-Art-Api: {s}\" -T app.tgz https://acme.jfrog.io/artifactory/npm-local/app.tgz"
        ),
        s,
    );
    let s = cat("cmV", "md") + &r.pick(ALNUM, 59);
    add("artifactory-token", format!("artifactory_password={s}"), s);

    let s = cat("ATA", "TT3") + &r.pick(URLSAFE, 176) + "=" + &r.pick(UPPER_HEX, 8);
    add("atlassian-token", format!("JIRA_API_TOKEN={s}"), s);
    let s = cat("ATA", "TT3") + &r.pick(URLSAFE, 176) + "=" + &r.pick(UPPER_HEX, 8);
    add(
        "atlassian-token",
        format!(
            "curl -u me@acme.dev:{s} -H \"Accept: application/json\" https://acme.atlassian.net/rest/api/3/myself"
        ),
        s,
    );

    for line in [
        "AUTHRESS_SERVICE_CLIENT_ACCESS_KEY={}",
        "const tokenProvider = new ServiceClientTokenProvider('{}', 'https://login.acme.dev');",
    ] {
        let s = format!(
            "sc_{}.{}{}{}.{}",
            r.pick(ALNUM, 10),
            r.pick(ALNUM, 5),
            cat(".ac", "c_"),
            r.pick(LOWER_DIGITS, 16),
            cat("MC4CAQAwBQYDK2Vw", "BCIEI") + &r.pick(BASE64, 43)
        );
        add("authress-key", line.replace("{}", &s), s);
    }

    let s = cat("AB", "SK") + &r.pick(BASE64, 132);
    add(
        "aws-bedrock-key",
        format!("export AWS_BEARER_TOKEN_BEDROCK={s}"),
        s,
    );
    let s = cat("bedrock-api-key-", "YmVkcm9jay5hbWF6b25hd3MuY29t")
        + &r.pick(BASE64, 900)
        + "&Version=1";
    add(
        "aws-bedrock-key",
        format!("os.environ[\"AWS_BEARER_TOKEN_BEDROCK\"] = \"{s}\""),
        s,
    );

    let s = cat("4b", "1d") + &r.pick(ALNUM, 38);
    add("clickhouse-key", format!("  token_secret = \"{s}\""), s);
    let s = cat("4b", "1d") + &r.pick(ALNUM, 38);
    add("clickhouse-key", format!("CLICKHOUSE_KEY_SECRET={s}"), s);

    let s = cat("CLOJ", "ARS_") + &r.pick(LOWER_DIGITS, 60);
    add(
        "clojars-token",
        format!(
            "  :deploy-repositories [[\"clojars\" {{:url \"https://repo.clojars.org\" :username \"acme\" :password \"{s}\"}}]]"
        ),
        s,
    );
    let s = cat("CLOJ", "ARS_") + &r.pick(LOWER_DIGITS, 60);
    add(
        "clojars-token",
        format!("          CLOJARS_PASSWORD: {s}"),
        s,
    );

    // An Origin CA key, then an API token under a name that says Cloudflare.
    let s = cat("v1", ".0-") + &r.pick(HEX, 24) + "-" + &r.pick(HEX, 146);
    add("cloudflare-key", format!("  origin_ca_key: \"{s}\""), s);
    let s = r.pick(URLSAFE, 40);
    add(
        "cloudflare-key",
        format!("var cloudflareAPIToken string = \"{s}\""),
        s,
    );

    let s = cat("da", "pi") + &r.pick(HEX, 32);
    add("databricks-token", format!("DATABRICKS_TOKEN={s}"), s);
    let s = cat("da", "pi") + &r.pick(HEX, 32) + "-2";
    add(
        "databricks-token",
        format!(
            "w = WorkspaceClient(host=\"https://adb-4815162342.7.azuredatabricks.net\", token=\"{s}\")"
        ),
        s,
    );

    let s = cat("dnk", "ey-") + &r.pick(ALNUM, 26) + "-" + &r.pick(ALNUM, 52);
    add(
        "defined-networking-key",
        format!("export DN_API_KEY={s}"),
        s,
    );
    let s = cat("dnk", "ey-") + &r.pick(ALNUM, 26) + "-" + &r.pick(ALNUM, 52);
    add("defined-networking-key", format!("  api_key = \"{s}\""), s);

    let s = cat("dp.", "pt.") + &r.pick(ALNUM, 43);
    add(
        "doppler-token",
        format!("doppler configure set token {s} --scope /"),
        s,
    );
    let s = cat("dp.", "sa.") + &r.pick(ALNUM, 44);
    add("doppler-token", format!("  DOPPLER_TOKEN: \"{s}\""), s);

    let s = cat("duffel_", "test_") + &r.pick(URLSAFE, 43);
    add("duffel-token", format!("DUFFEL_ACCESS_TOKEN={s}"), s);
    let s = cat("duffel_", "live_") + &r.pick(URLSAFE, 43);
    add(
        "duffel-token",
        format!("client = DuffelAPI::Client.new(access_token: \"{s}\")"),
        s,
    );

    let s = cat("dt0c", "01.") + &r.pick(UPPER_DIGITS, 24) + "." + &r.pick(UPPER_DIGITS, 64);
    add(
        "dynatrace-token",
        format!(
            "curl -H \"Authorization: Api-Token {s}\" https://abc12345.live.dynatrace.com/api/v2/metrics"
        ),
        s,
    );
    let s = cat("dt0c", "01.") + &r.pick(UPPER_DIGITS, 24) + "." + &r.pick(UPPER_DIGITS, 64);
    add("dynatrace-token", format!("  apiToken: {s}"), s);

    let s = cat("EZ", "AK") + &r.pick(ALNUM, 54);
    add("easypost-key", format!("EASYPOST_API_KEY={s}"), s);
    let s = cat("EZ", "TK") + &r.pick(ALNUM, 54);
    add(
        "easypost-key",
        format!("$client = new \\EasyPost\\EasyPostClient('{s}');"),
        s,
    );

    // A user access token, then an app access token (the app's id, `|`, its secret).
    let s = cat("EA", "AC") + &r.pick(ALNUM, 180);
    add(
        "facebook-token",
        format!("graph = facebook.GraphAPI(access_token=\"{s}\", version=\"3.1\")"),
        s,
    );
    let s = r.pick(DIGITS, 15) + "|" + &r.pick(HEX, 32);
    add("facebook-token", format!("FACEBOOK_APP_TOKEN={s}"), s);

    let s = cat("FLWSECK", "_TEST-") + &r.pick(HEX, 32) + "-X";
    add("flutterwave-key", format!("FLW_SECRET_KEY={s}"), s);
    let s = cat("FLWSE", "CK-") + &r.pick(HEX, 32) + "-X";
    add(
        "flutterwave-key",
        format!("  \"flutterwaveSecretKey\": \"{s}\","),
        s,
    );

    let s = cat("fm", "2_") + &r.pick(BASE64, 300);
    add("flyio-token", format!("FLY_API_TOKEN=\"FlyV1 {s}\""), s);
    let s = cat("fo", "1_") + &r.pick(URLSAFE, 43);
    add("flyio-token", format!("          FLY_API_TOKEN: {s}"), s);

    let s = cat("fio", "-u-") + &r.pick(URLSAFE, 64);
    add("frameio-token", format!("FRAMEIO_TOKEN={s}"), s);
    let s = cat("fio", "-u-") + &r.pick(URLSAFE, 64);
    add(
        "frameio-token",
        format!("client = FrameioClient(\"{s}\")"),
        s,
    );

    let s = cat("gl", "sa_") + &r.pick(ALNUM, 32) + "_" + &r.pick(HEX, 8);
    add(
        "grafana-token",
        format!("GRAFANA_SERVICE_ACCOUNT_TOKEN={s}"),
        s,
    );
    let s = cat("gl", "c_") + "eyJvIjoi" + &r.pick(BASE64, 140) + "=";
    add(
        "grafana-token",
        format!("  cloud_access_policy_token = \"{s}\""),
        s,
    );

    let s = format!(
        "{}.{}.{}.{}",
        cat("pa", "t"),
        r.pick(URLSAFE, 22),
        r.pick(HEX, 24),
        r.pick(ALNUM, 20)
    );
    add("harness-token", format!("HARNESS_PLATFORM_API_KEY={s}"), s);
    let s = format!(
        "{}.{}.{}.{}",
        cat("sa", "t"),
        r.pick(URLSAFE, 22),
        r.pick(HEX, 24),
        r.pick(ALNUM, 20)
    );
    add(
        "harness-token",
        format!(
            "curl -H \"x-api-key: {s}\" https://app.harness.io/gateway/ng/api/user/currentUser"
        ),
        s,
    );

    let s = r.pick(ALNUM, 14) + &cat(".atlas", "v1.") + &r.pick(URLSAFE, 67);
    add(
        "terraform-cloud-token",
        format!("{{\"credentials\": {{\"app.terraform.io\": {{\"token\": \"{s}\"}}}}}}"),
        s,
    );
    let s = r.pick(ALNUM, 14) + &cat(".atlas", "v1.") + &r.pick(URLSAFE, 67);
    add("terraform-cloud-token", format!("export TFE_TOKEN={s}"), s);

    // A platform API key, then a legacy API key (a UUID) under a name that says Heroku.
    let s = cat("HRKU", "-AA") + &r.pick(URLSAFE, 58);
    add("heroku-key", format!("HEROKU_API_KEY={s}"), s);
    let s = uuid(&mut r);
    add("heroku-key", format!("HEROKU_API_KEY ?= {s}"), s);

    let s = cat("ic", "o-") + &r.pick(ALNUM, 32);
    add("infracost-token", format!("INFRACOST_API_KEY={s}"), s);
    let s = cat("ic", "o-") + &r.pick(ALNUM, 32);
    add(
        "infracost-token",
        format!("infracost configure set api_key {s}"),
        s,
    );

    let s = cat("s-s4t2", "ud-") + &r.pick(HEX, 64);
    add("intra42-secret", format!("FT_CLIENT_SECRET={s}"), s);
    let s = cat("s-s4t2", "af-") + &r.pick(HEX, 64);
    add("intra42-secret", format!("CLIENT_SECRET = \"{s}\""), s);

    let s = cat("lin_", "api_") + &r.pick(ALNUM, 40);
    add("linear-key", format!("LINEAR_API_KEY={s}"), s);
    let s = cat("lin_", "api_") + &r.pick(ALNUM, 40);
    add(
        "linear-key",
        format!("const linear = new LinearClient({{ apiKey: \"{s}\" }});"),
        s,
    );

    let dc = format!("us{}", 1 + r.next_u64() % 21);
    let s = r.pick(HEX, 32) + "-" + &dc;
    add("mailchimp-key", format!("MAILCHIMP_API_KEY={s}"), s);
    let s = r.pick(HEX, 32) + "-" + &dc;
    add(
        "mailchimp-key",
        format!("$mailchimp->setConfig(['apiKey' => '{s}', 'server' => '{dc}']);"),
        s,
    );

    // A legacy key, then a current one under a name that says Mailgun.
    let s = cat("ke", "y-") + &r.pick(HEX, 32);
    add("mailgun-key", format!("MAILGUN_API_KEY={s}"), s);
    let s = [32, 8, 8].map(|n| r.pick(HEX, n)).join("-");
    add("mailgun-key", format!("mailgun_api_key: \"{s}\""), s);

    let s = format!(
        "{}{}.{}",
        cat("sk.", "eyJ1Ijoi"),
        r.pick(URLSAFE, 60),
        r.pick(URLSAFE, 22)
    );
    add("mapbox-token", format!("MAPBOX_DOWNLOADS_TOKEN={s}"), s);
    let s = format!(
        "{}{}.{}",
        cat("pk.", "eyJ1Ijoi"),
        r.pick(URLSAFE, 60),
        r.pick(URLSAFE, 22)
    );
    add("mapbox-token", format!("mapboxgl.accessToken = '{s}';"), s);

    let s = format!(
        "{}_{}{}",
        r.pick(ALNUM, 6),
        r.pick(ALNUM, 29),
        cat("_m", "mk")
    );
    add("maxmind-key", format!("LicenseKey {s}"), s);
    let s = format!(
        "{}_{}{}",
        r.pick(ALNUM, 6),
        r.pick(ALNUM, 29),
        cat("_m", "mk")
    );
    add("maxmind-key", format!("MAXMIND_LICENSE_KEY={s}"), s);

    for line in [
        "TEAMS_WEBHOOK_URL={}",
        "curl -H 'Content-Type: application/json' -d '{\"text\": \"Build failed\"}' {}",
    ] {
        let s = format!(
            "https://acme.{}/webhookb2/{}@{}/IncomingWebhook/{}/{}/V2{}",
            cat("webhook.off", "ice.com"),
            uuid(&mut r),
            uuid(&mut r),
            r.pick(HEX, 32),
            uuid(&mut r),
            r.pick(URLSAFE, 43)
        );
        add("microsoft-teams-webhook", line.replace("{}", &s), s);
    }

    let s = cat("NR", "AK-") + &r.pick(UPPER_DIGITS, 27);
    add("new-relic-key", format!("NEW_RELIC_API_KEY={s}"), s);
    let s = cat("NR", "II-") + &r.pick(ALNUM, 32);
    add("new-relic-key", format!("  \"insertKey\": \"{s}\","), s);

    let s = cat("nt", "n_") + &r.pick(DIGITS, 11) + &r.pick(ALNUM, 35);
    add("notion-token", format!("NOTION_TOKEN={s}"), s);
    let s = cat("nt", "n_") + &r.pick(DIGITS, 11) + &r.pick(ALNUM, 35);
    add("notion-token", format!("notion = Client(auth=\"{s}\")"), s);

    let s = cat("AP", "I-") + &r.pick(UPPER_DIGITS, 26);
    add("octopus-deploy-key", format!("OCTOPUS_API_KEY={s}"), s);
    let s = cat("AP", "I-") + &r.pick(UPPER_DIGITS, 26);
    add(
        "octopus-deploy-key",
        format!("octo push --package app.1.0.0.zip --server https://octopus.acme.dev --apiKey {s}"),
        s,
    );

    let s = cat("sha256", "~") + &r.pick(URLSAFE, 43);
    add(
        "openshift-token",
        format!("oc login --token={s} --server=https://api.acme.openshift.com:6443"),
        s,
    );
    let s = cat("sha256", "~") + &r.pick(URLSAFE, 43);
    add("openshift-token", format!("    token: {s}"), s);

    // A Kubernetes Secret: its data is secret whatever it looks like.
    let s = r.pick(BASE64, 24) + "==";
    add(
        "kubernetes-secret",
        format!(
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\n  namespace: shop\ntype: Opaque\ndata:\n  DB_PASSWORD: {s}\n"
        ),
        s,
    );
    let s = r.pick(ALNUM, 14);
    add(
        "kubernetes-secret",
        format!(
            "---\napiVersion: v1\nkind: \"Secret\"\nmetadata:\n  name: smtp\nstringData:\n  relay-login: \"{s}\"\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: smtp\n"
        ),
        s,
    );

    let s = cat("pp", "lx-") + &r.pick(ALNUM, 48);
    add("perplexity-key", format!("PERPLEXITY_API_KEY={s}"), s);
    let s = cat("pp", "lx-") + &r.pick(ALNUM, 48);
    add(
        "perplexity-key",
        format!("client = OpenAI(api_key=\"{s}\", base_url=\"https://api.perplexity.ai\")"),
        s,
    );

    let s = cat("pscale", "_pw_") + &r.pick(ALNUM, 43);
    add(
        "planetscale-token",
        format!(
            "DATABASE_URL=mysql://{}:{s}@aws.connect.psdb.cloud/shop?sslaccept=strict",
            r.pick(LOWER_DIGITS, 12)
        ),
        s,
    );
    let s = cat("pscale", "_tkn_") + &r.pick(ALNUM, 43);
    add(
        "planetscale-token",
        format!("PLANETSCALE_SERVICE_TOKEN={s}"),
        s,
    );

    let s = cat("PM", "AK-") + &r.pick(HEX, 24) + "-" + &r.pick(HEX, 34);
    add("postman-key", format!("POSTMAN_API_KEY={s}"), s);
    let s = cat("PM", "AK-") + &r.pick(HEX, 24) + "-" + &r.pick(HEX, 34);
    add(
        "postman-key",
        format!("curl -H \"X-Api-Key: {s}\" https://api.getpostman.com/collections"),
        s,
    );

    let s = cat("pn", "u_") + &r.pick(ALNUM, 36);
    add("prefect-key", format!("prefect cloud login -k {s}"), s);
    let s = cat("pn", "u_") + &r.pick(ALNUM, 36);
    add("prefect-key", format!("PREFECT_API_KEY = \"{s}\""), s);

    let s = cat("pu", "l-") + &r.pick(HEX, 40);
    add("pulumi-token", format!("PULUMI_ACCESS_TOKEN ?= {s}"), s);
    let s = cat("pu", "l-") + &r.pick(HEX, 40);
    add("pulumi-token", format!("  PULUMI_ACCESS_TOKEN: {s}"), s);

    let s = cat("rd", "me_") + &r.pick(LOWER_DIGITS, 70);
    add("readme-key", format!("README_API_KEY={s}"), s);
    let s = cat("rd", "me_") + &r.pick(LOWER_DIGITS, 70);
    add(
        "readme-key",
        format!("npx rdme openapi openapi.json --key={s}"),
        s,
    );

    let s = cat("rubygems", "_") + &r.pick(HEX, 48);
    add("rubygems-key", format!(":rubygems_api_key: {s}"), s);
    let s = cat("rubygems", "_") + &r.pick(HEX, 48);
    add("rubygems-key", format!("GEM_HOST_API_KEY={s}"), s);

    let s = cat("tk-", "us-") + &r.pick(URLSAFE, 48);
    add("scalingo-token", format!("SCALINGO_API_TOKEN={s}"), s);
    let s = cat("tk-", "us-") + &r.pick(URLSAFE, 48);
    add(
        "scalingo-token",
        format!("scalingo login --api-token {s}"),
        s,
    );

    let s = cat("xkey", "sib-") + &r.pick(HEX, 64) + "-" + &r.pick(ALNUM, 16);
    add("sendinblue-key", format!("BREVO_API_KEY={s}"), s);
    let s = cat("xkey", "sib-") + &r.pick(HEX, 64) + "-" + &r.pick(ALNUM, 16);
    add(
        "sendinblue-key",
        format!(
            "$config = Brevo\\Client\\Configuration::getDefaultConfiguration()->setApiKey('api-key', '{s}');"
        ),
        s,
    );

    let s = cat("sntrys", "_eyJ") + &r.pick(BASE64, 180) + "_" + &r.pick(BASE64, 43);
    add("sentry-token", format!("SENTRY_AUTH_TOKEN={s}"), s);
    let s = cat("sntr", "yu_") + &r.pick(HEX, 64);
    add("sentry-token", format!("token={s}"), s);

    let s = cat("sm_", "pat_") + &r.pick(ALNUM, 16);
    add(
        "settlemint-token",
        format!("SETTLEMINT_ACCESS_TOKEN={s}"),
        s,
    );
    let s = cat("sm_", "aat_") + &r.pick(ALNUM, 16);
    add(
        "settlemint-token",
        format!("    \"accessToken\": \"{s}\","),
        s,
    );

    let s = cat("shippo", "_live_") + &r.pick(HEX, 40);
    add("shippo-token", format!("SHIPPO_API_KEY={s}"), s);
    let s = cat("shippo", "_test_") + &r.pick(HEX, 40);
    add(
        "shippo-token",
        format!("shippo.config.api_key = \"{s}\""),
        s,
    );

    let s = cat("shp", "at_") + &r.pick(HEX, 32);
    add(
        "shopify-token",
        format!(
            "curl -H \"X-Shopify-Access-Token: {s}\" https://acme.myshopify.com/admin/api/2024-01/shop.json"
        ),
        s,
    );
    let s = cat("shp", "ss_") + &r.pick(HEX, 32);
    add("shopify-token", format!("api_secret = \"{s}\""), s);

    // An access token, then a bare one under a name that says Sourcegraph.
    let s = cat("sg", "p_") + &r.pick(HEX, 16) + "_" + &r.pick(HEX, 40);
    add("sourcegraph-token", format!("SRC_ACCESS_TOKEN={s}"), s);
    let s = r.pick(HEX, 40);
    add(
        "sourcegraph-token",
        format!("  \"sourcegraph.accessToken\": \"{s}\","),
        s,
    );

    let s = cat("EA", "AA") + &r.pick(URLSAFE, 60);
    add("square-token", format!("SQUARE_ACCESS_TOKEN={s}"), s);
    let s = cat("sq0", "atp-") + &r.pick(URLSAFE, 22);
    add(
        "square-token",
        format!("client = Square::Client.new(access_token: '{s}', environment: 'production')"),
        s,
    );

    let s = r.pick(DIGITS, 10) + ":AA" + &r.pick(URLSAFE, 33);
    add("telegram-token", format!("TELEGRAM_BOT_TOKEN={s}"), s);
    let s = r.pick(DIGITS, 9) + ":AA" + &r.pick(URLSAFE, 33);
    add(
        "telegram-token",
        format!("bot = telegram.Bot(token=\"{s}\")"),
        s,
    );

    let s = cat("S", "K") + &r.pick(HEX, 32);
    add("twilio-key", format!("TWILIO_API_KEY={s}"), s);
    let s = cat("S", "K") + &r.pick(HEX, 32);
    add("twilio-key", format!("  twilio_api_key: \"{s}\""), s);

    // An app-only bearer token, then a user's access token under a name that says Twitter.
    let s = "A".repeat(22) + &r.pick(ALNUM, 60) + "%2B" + &r.pick(ALNUM, 25);
    add("twitter-token", format!("TWITTER_BEARER_TOKEN={s}"), s);
    let s = r.pick(DIGITS, 19) + "-" + &r.pick(ALNUM, 31);
    add("twitter-token", format!("twitter_access_token: \"{s}\""), s);

    let s = cat("hv", "s.") + "CAESI" + &r.pick(URLSAFE, 90);
    add("vault-token", format!("var vaultToken string = \"{s}\""), s);
    let s = cat("hv", "b.") + &r.pick(URLSAFE, 150);
    add("vault-token", format!("export VAULT_TOKEN={s}"), s);

    let s = cat("AQ", "VN") + &r.pick(URLSAFE, 36);
    add("yandex-key", format!("YC_API_KEY={s}"), s);
    let s = cat("t1", ".") + &r.pick(URLSAFE, 100) + "." + &r.pick(URLSAFE, 86);
    add("yandex-key", format!("  token = \"{s}\""), s);

    let mut s = r.pick(URL_PASSWORD_CHARS, 16);
    s.replace_range(0..3, "a7Q");
    add(
        "curl-password",
        format!("curl -u admin:{s} -X POST https://ci.acme.dev/job/deploy/build"),
        s,
    );
    let mut s = r.pick(URL_PASSWORD_CHARS, 14);
    s.replace_range(0..3, "a7Q");
    add(
        "curl-password",
        format!(
            "curl --user \"deploy:{s}\" -T app.war https://nexus.acme.dev/repository/releases/app.war"
        ),
        s,
    );

    // Vendors whose keys have no prefix: the value under a name that says whose it is.
    let s = r.pick(ALNUM, 32);
    add("asana-token", format!("ASANA_ACCESS_TOKEN={s}"), s);
    let s = r.pick(ALNUM, 32);
    add("asana-token", format!("asana_client_secret = \"{s}\""), s);

    let s = cat("b", "_") + &r.pick(URLSAFE, 44);
    add("beamer-token", format!("BEAMER_API_KEY={s}"), s);
    let s = cat("b", "_") + &r.pick(URLSAFE, 44);
    add("beamer-token", format!("beamer_token: \"{s}\""), s);

    let s = r.pick(URLSAFE, 64);
    add("coinbase-token", format!("COINBASE_API_SECRET={s}"), s);
    let s = r.pick(URLSAFE, 64);
    add(
        "coinbase-token",
        format!("  \"coinbase_access_token\": \"{s}\","),
        s,
    );

    let s = r.pick(URLSAFE, 32);
    add("discord-token", format!("DISCORD_CLIENT_SECRET={s}"), s);
    let s = r.pick(URLSAFE, 32);
    add(
        "discord-token",
        format!("    \"discordClientSecret\": \"{s}\","),
        s,
    );

    let s = cat("sl", ".B") + &r.pick(URLSAFE, 134);
    add("dropbox-token", format!("DROPBOX_ACCESS_TOKEN={s}"), s);
    let s = r.pick(ALNUM, 11) + &"A".repeat(10) + &r.pick(URLSAFE, 43);
    add("dropbox-token", format!("dropbox_token = \"{s}\""), s);

    let s = uuid(&mut r);
    add("hubspot-key", format!("HUBSPOT_API_KEY={s}"), s);
    let s = uuid(&mut r);
    add("hubspot-key", format!("hubspot.api.key={s}"), s);

    let s = r.pick(ALNUM, 64);
    add("jfrog-key", format!("JFROG_ACCESS_TOKEN={s}"), s);
    let s = r.pick(ALNUM, 64);
    add("jfrog-key", format!("  artifactory_api_key: \"{s}\""), s);

    let s = r.pick(HEX, 24);
    add("kucoin-key", format!("KUCOIN_API_KEY={s}"), s);
    let s = uuid(&mut r);
    add("kucoin-key", format!("kucoin_api_secret = \"{s}\""), s);

    let s = cat("sd", "k-") + &uuid(&mut r);
    add("launchdarkly-token", format!("LAUNCHDARKLY_SDK_KEY={s}"), s);
    let s = cat("ap", "i-") + &uuid(&mut r);
    add(
        "launchdarkly-token",
        format!("launchdarkly_access_token: \"{s}\""),
        s,
    );

    let s = r.pick(ALNUM, 16);
    add("linkedin-secret", format!("LINKEDIN_CLIENT_SECRET={s}"), s);
    let s = r.pick(ALNUM, 16);
    add(
        "linkedin-secret",
        format!("spring.security.oauth2.client.registration.linkedin.client-secret={s}"),
        s,
    );

    let s = cat("li", "ve_") + &r.pick(HEX, 34);
    add("lob-key", format!("LOB_API_KEY={s}"), s);
    let s = cat("te", "st_") + &r.pick(HEX, 34);
    add("lob-key", format!("const lobApiKey = '{s}';"), s);

    let s = r.pick(ALNUM, 25);
    add("messagebird-key", format!("MESSAGEBIRD_ACCESS_KEY={s}"), s);
    let s = r.pick(ALNUM, 25);
    add(
        "messagebird-key",
        format!("    'messagebird_key' => '{s}',"),
        s,
    );

    let s = r.pick(HEX, 40);
    add("sendbird-token", format!("SENDBIRD_API_TOKEN={s}"), s);
    let s = r.pick(HEX, 40);
    add(
        "sendbird-token",
        format!("val sendbirdApiToken = \"{s}\""),
        s,
    );

    let s = r.pick(HEX, 8) + ":" + &r.pick(HEX, 8);
    add(
        "sidekiq-secret",
        format!("BUNDLE_GEMS__CONTRIBSYS__COM: \"{s}\""),
        s,
    );
    let s = r.pick(HEX, 8) + ":" + &r.pick(HEX, 8);
    add(
        "sidekiq-secret",
        format!("export BUNDLE_ENTERPRISE__CONTRIBSYS__COM={s}"),
        s,
    );

    let s = uuid(&mut r);
    add("snyk-token", format!("SNYK_TOKEN={s}"), s);
    let s = uuid(&mut r);
    add(
        "snyk-token",
        format!("System.setProperty(\"SNYK_TOKEN\", \"{s}\");"),
        s,
    );

    let s = cat("sq", "u_") + &r.pick(HEX, 40);
    add(
        "sonar-token",
        format!("    <sonar.token>{s}</sonar.token>"),
        s,
    );
    let s = cat("sq", "p_") + &r.pick(HEX, 40);
    add(
        "sonar-token",
        format!("sonar-scanner -Dsonar.projectKey=acme_shop -Dsonar.token={s}"),
        s,
    );

    let s = r.pick(ALNUM, 64);
    add("sumologic-key", format!("SUMO_ACCESS_KEY={s}"), s);
    let s = r.pick(ALNUM, 64);
    add("sumologic-key", format!("sumologic_access_key: \"{s}\""), s);
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
        (
            "Stripe key of x",
            format!(
                "STRIPE_SECRET_KEY={}{}",
                cat("sk_l", "ive_"),
                "x".repeat(24)
            ),
        ),
        (
            "Shopify token of zeros",
            format!(
                "SHOPIFY_ACCESS_TOKEN={}{}",
                cat("shp", "at_"),
                "0".repeat(32)
            ),
        ),
        (
            "Fly.io token of x",
            format!("FLY_API_TOKEN={}{}", cat("fo", "1_"), "x".repeat(43)),
        ),
        (
            "Mailchimp key of x",
            format!("MAILCHIMP_API_KEY={}-us21", "x".repeat(32)),
        ),
        (
            "Heroku key of the nil UUID",
            "heroku_api_key: \"00000000-0000-0000-0000-000000000000\"".into(),
        ),
        (
            "version under a key name",
            "    \"bucket_key\": \"SalesResults-1.2\",".into(),
        ),
        (
            "Rails authenticity token",
            format!(
                "<input type=\"hidden\" name=\"authenticity_token\" value=\"{}==\" autocomplete=\"off\" />",
                r.pick(BASE64, 86)
            ),
        ),
        (
            "Rails CSRF meta tag",
            format!(
                "<meta name=\"csrf-token\" content=\"{}==\" />",
                r.pick(BASE64, 86)
            ),
        ),
        (
            "Snyk organisation id",
            format!("snyk_org_id: {}", uuid(&mut r)),
        ),
        (
            "SendBird application id",
            format!("SENDBIRD_APP_ID={}", uuid(&mut r).to_ascii_uppercase()),
        ),
        (
            "Discord client id",
            format!("DISCORD_CLIENT_ID={}", r.pick(DIGITS, 18)),
        ),
        (
            "Cloudflare zone id",
            format!("CLOUDFLARE_ZONE_ID={}", r.pick(HEX, 32)),
        ),
        (
            "Facebook app id",
            format!("FACEBOOK_APP_ID={}", r.pick(DIGITS, 16)),
        ),
        (
            "Twilio account SID",
            format!("TWILIO_ACCOUNT_SID=AC{}", r.pick(HEX, 32)),
        ),
        (
            "Lob publishable key",
            format!(
                "LOB_PUBLISHABLE_KEY={}{}",
                cat("test", "_pub_"),
                r.pick(HEX, 34)
            ),
        ),
        (
            "Slack webhook path without its token",
            format!(
                "SLACK_WEBHOOK_URL=https://{}/services/",
                cat("hooks.sl", "ack.com")
            ),
        ),
        (
            "curl with a password slot",
            "curl --user admin:[PASSWORD] https://ci.acme.dev/api/json".into(),
        ),
        (
            "JWT header alone",
            format!(
                "// {} decodes to {{\"alg\":\"HS256\",\"typ\":\"JWT\"}}",
                cat("eyJhbGciOiJIUzI1NiIsInR5", "cCI6IkpXVCJ9")
            ),
        ),
        (
            "JWT in base64 too short",
            format!("  token: {}", cat("ZXlKaGJH", "Y2k=")),
        ),
        (
            "age public key",
            format!(
                "# public key: age1{}",
                r.pick(BECH32_UPPER, 58).to_ascii_lowercase()
            ),
        ),
        (
            "1Password secret reference",
            "OPENAI_API_KEY=op://Private/OpenAI/credential".into(),
        ),
        ("Vault dev root token", "VAULT_TOKEN=root".into()),
        (
            "Doppler token read by the CLI",
            "DOPPLER_TOKEN=\"$(doppler configure get token --plain)\"".into(),
        ),
        ("Sonar project key", "sonar.projectKey=acme_webshop".into()),
        (
            "Sonar server URL",
            "    <sonar.host.url>https://sonarcloud.io</sonar.host.url>".into(),
        ),
        (
            "Grafana default admin password",
            "GF_SECURITY_ADMIN_PASSWORD=admin".into(),
        ),
        (
            "Perplexity key cut short in a log",
            "INFO using Perplexity key pplx-3f9a… (from PERPLEXITY_API_KEY)".into(),
        ),
        (
            "Mapbox style URL",
            "  style: 'mapbox://styles/mapbox/streets-v12',".into(),
        ),
        (
            "Kubernetes ConfigMap data",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  LOG_LEVEL: debug\n  FEATURE_FLAGS: c2VhcmNoLGNoZWNrb3V0\n".into(),
        ),
        (
            "Kubernetes Secret templated by Helm",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Release.Name }}-db\ndata:\n  password: {{ .Values.db.password | b64enc | quote }}\n  user: \"{{ .Values.db.user }}\"\n".into(),
        ),
    ]
}
