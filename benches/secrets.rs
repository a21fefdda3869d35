//! Benchmark: the secret scanner over a 100,000-line unified diff (600 files of code, config
//! and lock files, lines that say key, token, secret or password without holding one), once
//! with a few secrets sprinkled in and once without. Prints the median time of a scan and
//! the lines per second, next to a plain pass over the same text (copy and count lines) for
//! the machine's speed. Goal: well under 50 ms for the 100,000 lines.
//!
//! Run: `cargo bench --bench secrets`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use iris_studio_core::secrets::{Scanner, SecretsIgnore};
use iris_studio_testkit::secrets::{self as corpus, ALNUM, BASE64, HEX, Rng};

const LINES: usize = 100_000;
const FILES: usize = 600;
const RUNS: usize = 15;

fn main() {
    let scanner = Scanner::new(SecretsIgnore::none());
    let clean = diff(false);
    let leaky = diff(true);
    let lines = clean.lines().count();
    let found_clean = scanner.redact(&clean).findings.len();
    let found_leaky = scanner.redact(&leaky).findings.len();
    assert_eq!(found_clean, 0, "the clean diff has no secret");
    assert_eq!(found_leaky, FILES.div_ceil(40), "one finding per leak");

    let baseline = median(|| {
        let copy = black_box(&clean).to_owned();
        black_box(copy.lines().count());
    });
    let with = median(|| {
        black_box(scanner.redact(black_box(&leaky)));
    });
    let without = median(|| {
        black_box(scanner.redact(black_box(&clean)));
    });
    println!(
        "diff of {lines} lines, {:.1} MB, {FILES} files",
        clean.len() as f64 / 1e6
    );
    report("with secrets", with, lines, Some(found_leaky));
    report("without secrets", without, lines, None);
    report("copy + count lines", baseline, lines, None);
    println!(
        "scan / plain pass: {:.1}x with secrets, {:.1}x without",
        with.as_secs_f64() / baseline.as_secs_f64(),
        without.as_secs_f64() / baseline.as_secs_f64()
    );
}

fn report(what: &str, time: Duration, lines: usize, found: Option<usize>) {
    let found = found.map_or(String::new(), |n| format!(", {n} findings"));
    println!(
        "{what:<20} median {:>7.2} ms over {RUNS} runs, {:>5.1} M lines/s{found}",
        time.as_secs_f64() * 1000.0,
        lines as f64 / time.as_secs_f64() / 1e6
    );
}

fn median(mut run: impl FnMut()) -> Duration {
    run(); // warm up
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            run();
            started.elapsed()
        })
        .collect();
    times.sort();
    times[RUNS / 2]
}

/// A unified diff of `LINES` lines over `FILES` files, each one hunk of added, removed and
/// context lines. With `secrets`, one file in 40 gets a line of the leak corpus.
fn diff(secrets: bool) -> String {
    let leaks = corpus::leaks();
    let mut r = Rng::new(42);
    let mut out = String::with_capacity(LINES * 48);
    let mut written = 0;
    for file in 0..FILES {
        let (path, kind) = match file % 10 {
            0 => (format!("config/service_{file}.yaml"), Kind::Yaml),
            1 => (format!("web/src/api_{file}.ts"), Kind::Script),
            2 => (format!("tools/job_{file}.py"), Kind::Script),
            3 if file % 30 == 3 => ("Cargo.lock".to_owned(), Kind::Lock),
            _ => (format!("src/area_{}/mod_{file}.rs", file % 37), Kind::Rust),
        };
        // Header (5 lines) and body: the hunk's lines fill the rest of the file's share.
        let share = LINES / FILES + usize::from(file < LINES % FILES);
        let body = share - 5;
        let leaky = secrets && file % 40 == 7;
        let mut lines: Vec<String> = (0..body).map(|i| line(&mut r, kind, i)).collect();
        if leaky {
            // A leak of another kind each time, in place of as many lines as it has.
            let (_, leak, _) = &leaks[(file / 40 * 7) % leaks.len()];
            let at = body / 2;
            let leak: Vec<String> = leak.lines().map(str::to_owned).collect();
            let end = (at + leak.len()).min(body);
            lines.splice(at..end, leak);
            lines.truncate(body);
        }
        let (mut old, mut new) = (0, 0);
        let mut hunk = String::new();
        for (i, text) in lines.iter().enumerate() {
            let prefix = match i % 7 {
                2 | 5 => '+',
                3 => '-',
                _ => ' ',
            };
            // Leaks are added lines.
            let prefix = if leaky && (body / 2..body / 2 + 40).contains(&i) {
                '+'
            } else {
                prefix
            };
            match prefix {
                '+' => new += 1,
                '-' => old += 1,
                _ => {
                    old += 1;
                    new += 1;
                }
            }
            hunk.push(prefix);
            hunk.push_str(text);
            hunk.push('\n');
        }
        out.push_str(&format!(
            "diff --git a/{path} b/{path}\nindex {}..{} 100644\n--- a/{path}\n+++ b/{path}\n@@ -10,{old} +10,{new} @@\n",
            r.pick(HEX, 7),
            r.pick(HEX, 7)
        ));
        out.push_str(&hunk);
        written += 5 + body;
    }
    assert_eq!(written, LINES);
    out
}

#[derive(Clone, Copy)]
enum Kind {
    Rust,
    Script,
    Yaml,
    Lock,
}

/// A line of code or config; one in ten mentions a key, a token, a secret or a password
/// without holding one.
fn line(r: &mut Rng, kind: Kind, i: usize) -> String {
    let n = r.next_u64() % 1000;
    let word = ["key", "token", "secret", "password"][(n % 4) as usize];
    if i.is_multiple_of(10) {
        return match kind {
            Kind::Rust => match n % 6 {
                0 => format!("    let {word} = cache.get(&id_{n}).cloned()?;"),
                1 => format!("    pub {word}_{n}: Option<String>,"),
                2 => format!("    // refresh the {word} before it expires ({n} s)"),
                3 => format!("    fn {word}(&self) -> &str {{ &self.{word} }}"),
                4 => format!("    let {word}_len = {word}.len() + {n};"),
                _ => format!("        {word}: settings.{word}_{n}.clone(),"),
            },
            Kind::Script => match n % 5 {
                0 => format!(
                    "  const {word} = process.env.APP_{}_{n};",
                    word.to_uppercase()
                ),
                1 => format!(
                    "    {word} = os.environ.get(\"{}_{n}\")",
                    word.to_uppercase()
                ),
                2 => format!("    headers[\"X-{word}\"] = {word}"),
                3 => format!("  if (!{word}) throw new Error(\"missing {word} {n}\");"),
                _ => format!("    {word}_hash = hashlib.sha256({word}.encode()).hexdigest()"),
            },
            Kind::Yaml => match n % 4 {
                0 => format!("  {word}: ${{{{ secrets.APP_{} }}}}", word.to_uppercase()),
                1 => format!("  {word}_file: /run/secrets/{word}_{n}"),
                2 => format!("  {word}: null"),
                _ => format!("  # the {word} comes from vault (path {n})"),
            },
            Kind::Lock => format!("name = \"{word}-utils-{n}\""),
        };
    }
    match kind {
        Kind::Rust => match n % 8 {
            0 => format!("    let value_{n} = compute(&input, {n})?;"),
            1 => format!("    if total > {n} {{ return Err(Error::TooLarge(total)); }}"),
            2 => "    }".to_owned(),
            3 => format!("    /// Reads the {n}th entry from the index and returns its offset."),
            4 => format!("    out.push_str(&format!(\"{{}}: {{}}\\n\", name, values[{n}]));"),
            5 => format!("    const BLOB_{n}: &str = \"{}\";", r.pick(BASE64, 44)),
            6 => format!("    // see https://docs.rs/regex/1.{n}/regex/struct.Regex.html"),
            _ => String::new(),
        },
        Kind::Script => match n % 5 {
            0 => format!("  const result{n} = await fetch(`${{base}}/items/${{id}}`);"),
            1 => format!("    return items.filter((x) => x.screen.size > {n}).map(render);"),
            2 => format!("def handle_{n}(request, *args, **kwargs):"),
            3 => format!("    logger.info(\"processed %d rows in %.2fs\", count, {n} / 1000)"),
            _ => "  }".to_owned(),
        },
        Kind::Yaml => match n % 4 {
            0 => format!("  replicas: {}", n % 9),
            1 => format!("  image: registry.acme.dev/app@sha256:{}", r.pick(HEX, 64)),
            2 => format!("    - name: worker-{n}"),
            _ => format!("  url: https://api.acme.dev/v{}/items", n % 4),
        },
        Kind::Lock => match n % 3 {
            0 => format!("checksum = \"{}\"", r.pick(HEX, 64)),
            1 => format!("version = \"{}.{}.{}\"", n % 5, n % 17, n % 11),
            _ => format!(" \"dep-{}\",", r.pick(ALNUM, 6).to_lowercase()),
        },
    }
}
