#!/bin/sh
# Installs `iris` (Iris Studio) from a GitHub release, on Linux and macOS:
#
#   curl -fsSL https://github.com/iris-studio/iris-studio/releases/latest/download/install.sh | sh
#
# It picks the archive for this machine (Linux: the static musl build, which runs on any
# Linux; IRIS_LIBC=gnu asks for the glibc one on a glibc system), downloads it with its
# .sha256, checks the checksum, and puts `iris` in ${IRIS_INSTALL_DIR:-$HOME/.local/bin}.
#
# Settings (environment):
#   IRIS_VERSION        a release tag such as v0.1.0 (default: the latest release)
#   IRIS_INSTALL_DIR    where `iris` goes (default: $HOME/.local/bin)
#   IRIS_INSTALL_BASE   where the archives are: a URL (https://, file://) or a directory
#                       (default: the GitHub release of IRIS_VERSION)
#   IRIS_LIBC           on Linux: musl (default) or gnu
#
# Windows: download iris-x86_64-pc-windows-msvc.zip from the release page instead.

set -eu

REPO_URL="https://github.com/iris-studio/iris-studio"

say() {
    printf 'iris-install: %s\n' "$*"
}

fail() {
    printf 'iris-install: error: %s\n' "$*" >&2
    exit 1
}

# The C library of this Linux system: musl or gnu.
linux_libc() {
    if ldd --version 2>&1 | grep -qi musl; then
        echo musl
    elif ls /lib/ld-musl-* >/dev/null 2>&1; then
        echo musl
    else
        echo gnu
    fi
}

# The Rust target triple of the archive for this machine.
detect_target() {
    os=$(uname -s)
    arch=$(uname -m)
    case "$arch" in
        x86_64 | amd64) arch=x86_64 ;;
        aarch64 | arm64) arch=aarch64 ;;
        *) fail "no prebuilt iris for the CPU architecture '$arch' (there are x86_64 and aarch64 builds); build it from source with: cargo install --locked iris-studio" ;;
    esac
    case "$os" in
        Linux)
            libc=${IRIS_LIBC:-musl}
            case "$libc" in
                musl) ;;
                gnu)
                    if [ "$(linux_libc)" = musl ]; then
                        fail "IRIS_LIBC=gnu, but this system's C library is musl: leave IRIS_LIBC unset for the static build"
                    fi
                    ;;
                *) fail "IRIS_LIBC must be musl or gnu, not '$libc'" ;;
            esac
            echo "$arch-unknown-linux-$libc"
            ;;
        Darwin) echo "$arch-apple-darwin" ;;
        MINGW* | MSYS* | CYGWIN* | Windows_NT)
            fail "this installer is for Linux and macOS; on Windows download iris-x86_64-pc-windows-msvc.zip from $REPO_URL/releases"
            ;;
        *) fail "no prebuilt iris for the operating system '$os' (there are Linux, macOS and Windows builds); build it from source with: cargo install --locked iris-studio" ;;
    esac
}

# Copies the file at $1 (a URL or a path) to $2.
fetch() {
    case "$1" in
        file://*) cp "${1#file://}" "$2" || fail "cannot read ${1#file://}" ;;
        http://* | https://*)
            if command -v curl >/dev/null 2>&1; then
                curl --proto '=https,http' -fsSL "$1" -o "$2" || fail "download failed: $1"
            elif command -v wget >/dev/null 2>&1; then
                wget -q -O "$2" "$1" || fail "download failed: $1"
            else
                fail "neither curl nor wget is installed: install one and run this again"
            fi
            ;;
        *) cp "$1" "$2" || fail "cannot read $1" ;;
    esac
}

# The SHA-256 of the file $1, in hex.
sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d ' ' -f 1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d ' ' -f 1
    else
        fail "neither sha256sum nor shasum is installed: the download cannot be checked"
    fi
}

main() {
    target=$(detect_target)
    version=${IRIS_VERSION:-latest}
    if [ -n "${IRIS_INSTALL_BASE:-}" ]; then
        base=${IRIS_INSTALL_BASE%/}
    elif [ "$version" = latest ]; then
        base="$REPO_URL/releases/latest/download"
    else
        base="$REPO_URL/releases/download/$version"
    fi
    dest=${IRIS_INSTALL_DIR:-${HOME:?HOME is not set: set IRIS_INSTALL_DIR}/.local/bin}
    name="iris-$target"
    archive="$name.tar.gz"

    tmp=$(mktemp -d 2>/dev/null || mktemp -d -t iris-install)
    trap 'rm -rf "$tmp"' EXIT
    trap 'exit 1' INT TERM

    say "downloading $archive from $base"
    fetch "$base/$archive" "$tmp/$archive"
    fetch "$base/$archive.sha256" "$tmp/$archive.sha256"

    expected=$(cut -d ' ' -f 1 <"$tmp/$archive.sha256" | tr 'A-F' 'a-f')
    actual=$(sha256_of "$tmp/$archive")
    if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
        fail "checksum mismatch for $archive: expected '$expected', got '$actual'; nothing was installed"
    fi
    say "checksum verified ($actual)"

    tar -xzf "$tmp/$archive" -C "$tmp" || fail "$archive is not a gzip tar archive"
    binary="$tmp/$name/iris"
    [ -f "$binary" ] || fail "$archive holds no $name/iris"

    mkdir -p "$dest" || fail "cannot create $dest"
    # Copied beside its place, then renamed over it: a running iris is never half-written.
    cp "$binary" "$dest/.iris.install.$$" || fail "cannot write to $dest"
    chmod 755 "$dest/.iris.install.$$"
    mv -f "$dest/.iris.install.$$" "$dest/iris"
    say "installed iris ($target) to $dest/iris"
    case ":${PATH:-}:" in
        *":$dest:"*) ;;
        *) say "$dest is not on your PATH: add it, e.g. export PATH=\"$dest:\$PATH\"" ;;
    esac
}

main "$@"
