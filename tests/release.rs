//! The release: `.github/workflows/release.yml` is a workflow GitHub accepts, builds every
//! platform, and names its archives as `cargo binstall` ([package.metadata.binstall]) and the
//! shell installer (assets/install.sh) look for them; its crates.io job publishes each crate
//! after those it depends on; and the installer, run against a release folder on disk,
//! installs a binary whose checksum holds and refuses one whose checksum does not.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sha2::{Digest, Sha256};
use yaml_rust2::{Yaml, YamlLoader};

/// The platforms a release has a binary for.
const TARGETS: [&str; 7] = [
    "x86_64-unknown-linux-gnu",
    "x86_64-unknown-linux-musl",
    "aarch64-unknown-linux-gnu",
    "aarch64-unknown-linux-musl",
    "x86_64-apple-darwin",
    "aarch64-apple-darwin",
    "x86_64-pc-windows-msvc",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn workflow() -> Yaml {
    let text = std::fs::read_to_string(root().join(".github/workflows/release.yml"))
        .expect("read .github/workflows/release.yml");
    YamlLoader::load_from_str(&text)
        .expect("release.yml is YAML")
        .remove(0)
}

fn manifest() -> toml::Table {
    let text = std::fs::read_to_string(root().join("Cargo.toml")).expect("read Cargo.toml");
    toml::from_str(&text).expect("Cargo.toml is TOML")
}

/// check-jsonschema, which the schema test needs: it fails saying how to get it, never
/// passes without it.
fn check_jsonschema() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    iris_studio_process::find_on_path("check-jsonschema", &path).unwrap_or_else(|| {
        panic!(
            "check-jsonschema is not installed, and this test needs it: `python3 -m pip install \
             check-jsonschema` (which .ci/run does), with its bin folder on PATH"
        )
    })
}

#[test]
fn the_workflows_are_valid_for_github() {
    let dir = root().join(".github/workflows");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect(".github/workflows")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    files.sort();
    assert!(
        files.iter().any(|f| f.ends_with("release.yml")),
        "{files:?}"
    );
    let out = Command::new(check_jsonschema())
        .args(["--builtin-schema", "vendor.github-workflows"])
        .args(&files)
        .output()
        .expect("run check-jsonschema");
    assert!(
        out.status.success(),
        "a workflow GitHub would reject:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Each target the build job's matrix names, with its archive's file name as the job makes
/// it (`ARCHIVE_NAME` with the target filled in, then the matrix's archive extension).
fn workflow_archives() -> Vec<(String, String)> {
    let build = &workflow()["jobs"]["build"];
    let name = build["env"]["ARCHIVE_NAME"]
        .as_str()
        .expect("the build job's ARCHIVE_NAME");
    assert_eq!(
        build["env"]["ARCHIVE_EXT"].as_str(),
        Some("${{ matrix.archive }}")
    );
    build["strategy"]["matrix"]["include"]
        .as_vec()
        .expect("the build matrix")
        .iter()
        .map(|entry| {
            let target = entry["target"].as_str().expect("a target").to_string();
            let ext = entry["archive"].as_str().expect("an archive format");
            let file = format!("{}.{ext}", name.replace("${{ matrix.target }}", &target));
            (target, file)
        })
        .collect()
}

#[test]
fn the_release_builds_every_target_and_binstall_finds_each_archive() {
    let archives = workflow_archives();
    let targets: BTreeSet<&str> = archives.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(targets, BTreeSet::from(TARGETS), "the build matrix");
    assert_eq!(archives.len(), TARGETS.len(), "a target built twice");

    let workflow = workflow();
    let tags = workflow["on"]["push"]["tags"].as_vec().expect("tags");
    assert_eq!(tags, &[Yaml::String("v*".into())], "released on a tag v*");
    // The tag is checked against the version before anything is built.
    assert_eq!(
        workflow["jobs"]["build"]["needs"].as_str(),
        Some("version"),
        "the build waits for the version check"
    );
    // The archive holds a folder of its own name: the binary, README, LICENSE, CHANGELOG and
    // the man pages.
    let archive_step = workflow["jobs"]["build"]["steps"]
        .as_vec()
        .expect("steps")
        .iter()
        .find(|step| step["name"].as_str() == Some("Archive"))
        .and_then(|step| step["run"].as_str())
        .expect("the build job's Archive step")
        .to_string();
    for line in [
        r#"mkdir -p "dist/$ARCHIVE_NAME""#,
        r#"cp "target/$TARGET/release/iris$exe" "dist/$ARCHIVE_NAME/""#,
        r#"cp README.md LICENSE CHANGELOG.md "dist/$ARCHIVE_NAME/""#,
        r#"mkdir -p "dist/$ARCHIVE_NAME/man""#,
        r#"cp docs/man/*.1 "dist/$ARCHIVE_NAME/man/""#,
        r#"archive="$ARCHIVE_NAME.$ARCHIVE_EXT""#,
        r#"tar -czf "$archive" "$ARCHIVE_NAME""#,
        r#"7z a -tzip "$archive" "$ARCHIVE_NAME""#,
    ] {
        assert!(archive_step.contains(line), "the Archive step lost {line}");
    }

    let manifest = manifest();
    let shared = &manifest["workspace"]["package"];
    let repo = shared["repository"].as_str().expect("repository");
    let version = shared["version"].as_str().expect("version");
    let binstall = &manifest["package"]["metadata"]["binstall"];
    for (target, file) in &archives {
        let over = binstall
            .get("overrides")
            .and_then(|o| o.get(target.as_str()));
        let setting = |key: &str| {
            over.and_then(|o| o.get(key))
                .or_else(|| binstall.get(key))
                .and_then(|v| v.as_str())
                .unwrap_or_else(|| panic!("binstall's {key} for {target}"))
        };
        let fill = |template: &str| {
            let exe = if target.contains("windows") {
                ".exe"
            } else {
                ""
            };
            template
                .replace("{ repo }", repo)
                .replace("{ version }", version)
                .replace("{ target }", target)
                .replace("{ bin }", "iris")
                .replace("{ binary-ext }", exe)
        };
        assert_eq!(
            fill(setting("pkg-url")),
            format!("{repo}/releases/download/v{version}/{file}"),
            "binstall's pkg-url for {target}"
        );
        let (folder, format) = if let Some(stem) = file.strip_suffix(".zip") {
            (stem, "zip")
        } else {
            (
                file.strip_suffix(".tar.gz").expect(".tar.gz or .zip"),
                "tgz",
            )
        };
        assert_eq!(
            setting("pkg-fmt"),
            format,
            "binstall's pkg-fmt for {target}"
        );
        let exe = if target.contains("windows") {
            ".exe"
        } else {
            ""
        };
        assert_eq!(
            fill(setting("bin-dir")),
            format!("{folder}/iris{exe}"),
            "binstall's bin-dir for {target}"
        );
    }
}

#[test]
fn crates_io_gets_every_published_crate_after_those_it_depends_on() {
    let workflow = workflow();
    let order: Vec<&str> = workflow["jobs"]["publish"]["env"]["CRATES"]
        .as_str()
        .expect("the publish job's CRATES")
        .split_whitespace()
        .collect();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--locked"])
        .args(["--offline"])
        .current_dir(root())
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let packages = meta["packages"].as_array().expect("packages");
    // `publish = false` is an empty list of registries.
    let published: BTreeSet<&str> = packages
        .iter()
        .filter(|p| p["publish"].as_array().is_none_or(|r| !r.is_empty()))
        .map(|p| p["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        order.iter().copied().collect::<BTreeSet<_>>(),
        published,
        "the publish job's crates"
    );
    for package in packages {
        let name = package["name"].as_str().expect("name");
        let Some(at) = order.iter().position(|c| *c == name) else {
            continue;
        };
        for dep in package["dependencies"].as_array().expect("dependencies") {
            let dep = dep["name"].as_str().expect("a dependency's name");
            if let Some(dep_at) = order.iter().position(|c| *c == dep) {
                assert!(
                    dep_at < at,
                    "{name} is published before {dep}, which it needs"
                );
            }
        }
    }
}

/// The target the installer picks on this machine: Linux's static musl build, or macOS'.
fn installer_target() -> String {
    let arch = std::env::consts::ARCH;
    if cfg!(target_os = "macos") {
        format!("{arch}-apple-darwin")
    } else {
        format!("{arch}-unknown-linux-musl")
    }
}

/// A release folder as the workflow makes it, for this machine's target: the archive (a
/// folder of its name holding a fake `iris`) and its `.sha256`, right or `wrong`.
fn release_dir(wrong_checksum: bool) -> (tempfile::TempDir, String) {
    let target = installer_target();
    let file = workflow_archives()
        .into_iter()
        .find(|(t, _)| *t == target)
        .map(|(_, file)| file)
        .unwrap_or_else(|| panic!("the release builds no {target}"));
    let folder = file.strip_suffix(".tar.gz").expect("a .tar.gz");
    let dir = tempfile::tempdir().expect("temp dir");
    let stage = dir.path().join("stage").join(folder);
    std::fs::create_dir_all(&stage).expect("mkdir");
    iris_studio_testkit::write_executable(
        &stage.join("iris"),
        "#!/bin/sh\necho \"iris from the test release $*\"\n",
    );
    let tar = Command::new("tar")
        .arg("-czf")
        .arg(dir.path().join(&file))
        .arg("-C")
        .arg(dir.path().join("stage"))
        .arg(folder)
        .status()
        .expect("run tar");
    assert!(tar.success());
    let bytes = std::fs::read(dir.path().join(&file)).expect("the archive");
    let mut sum: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if wrong_checksum {
        sum = sum.replace(|c: char| c != '0', "0");
    }
    std::fs::write(
        dir.path().join(format!("{file}.sha256")),
        format!("{sum}  {file}\n"),
    )
    .expect("write the .sha256");
    (dir, target)
}

/// assets/install.sh run by `sh` with `base` as IRIS_INSTALL_BASE and `dest` as
/// IRIS_INSTALL_DIR, PATH led by `path_first` when given.
fn install(base: &str, dest: &Path, path_first: Option<&Path>) -> Output {
    let mut command = Command::new("sh");
    command
        .arg(root().join("assets/install.sh"))
        .env("IRIS_INSTALL_BASE", base)
        .env("IRIS_INSTALL_DIR", dest)
        .env_remove("IRIS_VERSION")
        .env_remove("IRIS_LIBC");
    if let Some(first) = path_first {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let dirs = std::iter::once(first.to_path_buf()).chain(std::env::split_paths(&path));
        command.env("PATH", std::env::join_paths(dirs).expect("PATH"));
    }
    command.output().expect("run sh assets/install.sh")
}

fn said(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[cfg(unix)]
#[test]
fn the_installer_checks_the_archive_and_installs_iris_where_it_is_told() {
    let (release, target) = release_dir(false);
    let home = tempfile::tempdir().expect("temp dir");
    let dest = home.path().join("tools").join("bin");
    // A file:// URL, as a web address is read.
    let base = format!("file://{}", release.path().display());
    let out = install(&base, &dest, None);
    let said = said(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("checksum verified"), "{said}");
    assert!(
        said.contains(&format!(
            "installed iris ({target}) to {}",
            dest.join("iris").display()
        )),
        "{said}"
    );
    let ran = Command::new(dest.join("iris"))
        .arg("--version")
        .output()
        .expect("run the installed iris");
    assert_eq!(
        String::from_utf8_lossy(&ran.stdout),
        "iris from the test release --version\n"
    );
    // Again, from a plain folder: the binary is replaced, nothing else is left beside it.
    let out = install(&release.path().display().to_string(), &dest, None);
    assert!(out.status.success(), "{}", self::said(&out));
    let left: Vec<_> = std::fs::read_dir(&dest)
        .expect("the install folder")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left, ["iris"]);
}

#[cfg(unix)]
#[test]
fn the_installer_refuses_an_archive_whose_checksum_is_wrong_and_installs_nothing() {
    let (release, _) = release_dir(true);
    let home = tempfile::tempdir().expect("temp dir");
    let dest = home.path().join("bin");
    let out = install(&release.path().display().to_string(), &dest, None);
    let said = said(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("error: checksum mismatch for iris-"),
        "{said}"
    );
    assert!(said.contains("nothing was installed"), "{said}");
    assert!(!dest.exists(), "the install folder was made");
}

#[cfg(unix)]
#[test]
fn the_installer_says_when_there_is_no_build_for_the_platform() {
    let (release, _) = release_dir(false);
    let home = tempfile::tempdir().expect("temp dir");
    let dest = home.path().join("bin");
    let fake = tempfile::tempdir().expect("temp dir");
    for (system, machine, expected) in [
        (
            "SunOS",
            "x86_64",
            "no prebuilt iris for the operating system 'SunOS'",
        ),
        (
            "Linux",
            "riscv64",
            "no prebuilt iris for the CPU architecture 'riscv64'",
        ),
    ] {
        iris_studio_testkit::write_executable(
            &fake.path().join("uname"),
            &format!("#!/bin/sh\ncase \"$1\" in -s) echo {system} ;; -m) echo {machine} ;; esac\n"),
        );
        let out = install(
            &release.path().display().to_string(),
            &dest,
            Some(fake.path()),
        );
        let said = said(&out);
        assert!(!out.status.success(), "{said}");
        assert!(said.contains(expected), "{said}");
        assert!(
            said.contains("cargo install --locked iris-studio"),
            "{said}"
        );
        assert!(!dest.exists(), "the install folder was made");
    }
}

/// The repository's address is said once, in Cargo.toml: the installer downloads from it, and
/// the README and the book's install lines fetch the installer from its latest release.
#[test]
fn the_installer_and_the_install_lines_name_the_repository_cargo_toml_names() {
    let manifest = manifest();
    let repository = manifest["workspace"]["package"]["repository"]
        .as_str()
        .expect("[workspace.package] repository");
    let script = std::fs::read_to_string(root().join("assets/install.sh")).expect("install.sh");
    assert!(
        script.contains(&format!("REPO_URL=\"{repository}\"")),
        "assets/install.sh downloads from another repository than {repository}"
    );
    let line = format!("{repository}/releases/latest/download/install.sh | sh");
    for page in ["README.md", "docs/install.md"] {
        let text = std::fs::read_to_string(root().join(page)).expect("a page");
        assert!(text.contains(&line), "{page} has no `curl ... {line}`");
    }
}

/// The crates reach top-level files through symbolic links (cargo packages what they point
/// at), so the build job tells git on Windows to check links out as links, before it checks
/// out: otherwise each link is a text file and `include_str!` reads a path, not the file.
#[test]
fn the_windows_build_checks_out_symbolic_links_as_links() {
    let listed = Command::new("git")
        .args(["ls-files", "-s"])
        .current_dir(root())
        .output()
        .expect("git ls-files");
    let links = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .filter(|line| line.starts_with("120000 "))
        .count();
    assert!(
        links > 0,
        "the crates' links to capabilities/, themes/ and assets/"
    );
    let workflow = workflow();
    let steps = workflow["jobs"]["build"]["steps"].as_vec().expect("steps");
    let position = |found: &dyn Fn(&Yaml) -> bool| steps.iter().position(found);
    let symlinks = position(&|step| {
        step["run"]
            .as_str()
            .is_some_and(|run| run.contains("git config --global core.symlinks true"))
            && step["if"].as_str() == Some("runner.os == 'Windows'")
    })
    .expect("a step that sets core.symlinks on Windows");
    let checkout = position(&|step| {
        step["uses"]
            .as_str()
            .is_some_and(|uses| uses.starts_with("actions/checkout@"))
    })
    .expect("the checkout");
    assert!(
        symlinks < checkout,
        "core.symlinks is set after the checkout"
    );
}

/// Without `IRIS_INSTALL_BASE` the installer downloads from the repository's releases, as a
/// user's `curl ... | sh` does: the latest one, or the tag `IRIS_VERSION` names, at the very
/// address binstall's `pkg-url` gives (checked above). A fake `curl` first on PATH serves the
/// release folder and writes down what it was asked for.
#[cfg(unix)]
#[test]
fn the_installer_downloads_from_the_repositorys_releases() {
    let (release, _) = release_dir(false);
    let manifest = manifest();
    let shared = &manifest["workspace"]["package"];
    let repo = shared["repository"].as_str().expect("repository");
    let version = shared["version"].as_str().expect("version");
    let file = workflow_archives()
        .into_iter()
        .find(|(t, _)| *t == installer_target())
        .map(|(_, file)| file)
        .expect("this machine's archive");
    let bin = tempfile::tempdir().expect("temp dir");
    let log = bin.path().join("asked");
    iris_studio_testkit::write_executable(
        &bin.path().join("curl"),
        &format!(
            "#!/bin/sh\nurl=''; out=''\nwhile [ $# -gt 0 ]; do\n  case \"$1\" in\n    \
             -o) out=$2; shift ;;\n    http*) url=$1 ;;\n  esac\n  shift\ndone\n\
             echo \"$url\" >> '{}'\ncp '{}'/\"$(basename \"$url\")\" \"$out\"\n",
            log.display(),
            release.path().display()
        ),
    );
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(bin.path().to_path_buf()).chain(std::env::split_paths(&path));
    let path = std::env::join_paths(dirs).expect("PATH");
    for (asked_for, release_url) in [
        (None, format!("{repo}/releases/latest/download")),
        (
            Some(format!("v{version}")),
            format!("{repo}/releases/download/v{version}"),
        ),
    ] {
        let _ = std::fs::remove_file(&log);
        let home = tempfile::tempdir().expect("temp dir");
        let mut command = Command::new("sh");
        command
            .arg(root().join("assets/install.sh"))
            .env("PATH", &path)
            .env("IRIS_INSTALL_DIR", home.path())
            .env_remove("IRIS_INSTALL_BASE")
            .env_remove("IRIS_LIBC");
        match &asked_for {
            Some(tag) => command.env("IRIS_VERSION", tag),
            None => command.env_remove("IRIS_VERSION"),
        };
        let out = command.output().expect("run sh assets/install.sh");
        assert!(out.status.success(), "{}", said(&out));
        assert_eq!(
            std::fs::read_to_string(&log).expect("curl was asked"),
            format!("{release_url}/{file}\n{release_url}/{file}.sha256\n"),
            "{asked_for:?}"
        );
        assert!(home.path().join("iris").exists(), "{}", said(&out));
    }
}
