#!/usr/bin/env bash
# Prepares a fresh Debian (or Ubuntu) machine to build and test Festina.
#
#     bash scripts/setup.sh        (as root, or as a user with sudo)
#
# Idempotent: packages that are already installed are not touched, and
# `apt-get update` runs only when something has to be installed. Every
# step is required: a step that fails stops the script with a message on
# stderr and a non-zero exit status (nothing is skipped quietly).
#
# Tools used only by benchmarks (wrk, nginx, Go, Bun, Chromium, ...) are
# not installed here: see benches/setup.sh.
set -euo pipefail

# Every system package the build and the tests need, in one list; what
# needs each one is said beside it. Nothing else in this script changes
# when a package is added.
PACKAGES=(
    # the C toolchain for crates with C code (libsqlite3-sys, minifb's scaler)
    build-essential
    pkg-config
    # time zone data: formatTime's %Z and the tests that set TZ
    tzdata
    # canvas (§17): cairo-rs links libcairo; text needs fontconfig and at
    # least one font, so text renders the same on a fresh machine
    libcairo2-dev
    fontconfig
    fonts-dejavu-core
    # window (§17.1): minifb's X11 backend opens libX11 and libXcursor at
    # run time (x11-dl); the -dev packages also give the unversioned names
    libx11-dev
    libxcursor-dev
    # window tests: a virtual X server, injected input, screenshots
    # (`xwd` from x11-apps, `convert`/`import` from imagemagick)
    xvfb
    xdotool
    x11-apps
    imagemagick
    # audio (§18): rodio's output goes through cpal to ALSA (alsa-sys links
    # libasound)
    libasound2-dev
    # audio tests: WAV and MP3 files made by the test set-up (sox writes MP3
    # through libsox-fmt-mp3, lame encodes too; espeak-ng speaks to a WAV)
    sox
    libsox-fmt-mp3
    lame
    espeak-ng
    # HTTP tests: a real client, certificates for the TLS tests
    curl
    openssl
    ca-certificates
    # tests that drive servers from Python (http.client and, through pip
    # below, the `websockets` package)
    python3
)

# Python packages the tests import, installed for the `python3` first on
# PATH (the interpreter the tests run).
PYTHON_MODULES=(
    websockets
)

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
fi

# Other sessions on a shared machine may be installing at the same moment:
# wait for dpkg's lock rather than failing at once.
APT_GET=(apt-get -o DPkg::Lock::Timeout=900 -o Acquire::Retries=3)

# --- system packages --------------------------------------------------------
if command -v dpkg-query >/dev/null 2>&1; then
    missing=()
    for pkg in "${PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        command -v apt-get >/dev/null 2>&1 || die "missing packages: ${missing[*]} (and apt-get is not available)"
        if [ "$(id -u)" -ne 0 ] && [ "${#SUDO[@]}" -eq 0 ]; then
            die "missing packages: ${missing[*]}; run this script as root to install them"
        fi
        say "installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        "${SUDO[@]}" "${APT_GET[@]}" update -qq || die "apt-get update failed"
        "${SUDO[@]}" "${APT_GET[@]}" install -y -qq --no-install-recommends "${missing[@]}" \
            || die "apt-get install failed for: ${missing[*]}"
    else
        say "system packages present (${#PACKAGES[@]})"
    fi
else
    say "not a Debian-based system (no dpkg-query); make sure these are installed: ${PACKAGES[*]}"
fi

# --- Python modules for the tests -------------------------------------------
PYTHON=$(command -v python3 || true)
[ -n "$PYTHON" ] || die "python3 is not on PATH"
for module in "${PYTHON_MODULES[@]}"; do
    if python3 -c "import $module" >/dev/null 2>&1; then
        continue
    fi
    if [ "$(python3 -c 'import sys; print(sys.prefix)')" = /usr ] && command -v apt-get >/dev/null 2>&1; then
        # Debian's own interpreter refuses pip (PEP 668): use its package.
        say "installing python3-$module (Debian) for $PYTHON"
        export DEBIAN_FRONTEND=noninteractive
        "${SUDO[@]}" "${APT_GET[@]}" install -y -qq --no-install-recommends "python3-$module" \
            || die "apt-get install python3-$module failed"
    else
        say "installing $module with pip for $PYTHON"
        python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "$module" \
            || die "pip could not install $module for $PYTHON"
    fi
    python3 -c "import $module" || die "$module still does not import in $PYTHON"
done
say "python modules present for $PYTHON: ${PYTHON_MODULES[*]}"

# --- Rust toolchain ---------------------------------------------------------
if ! command -v cargo >/dev/null 2>&1; then
    if [ -x "$HOME/.cargo/bin/cargo" ]; then
        die "cargo is installed in $HOME/.cargo/bin but is not on PATH; run: source \"\$HOME/.cargo/env\" and try again"
    fi
    cat >&2 <<'MSG'
setup: cargo (the Rust toolchain) was not found.
setup: install it with rustup, the official Rust installer:
setup:     curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y
setup:     source "$HOME/.cargo/env"
setup: then run this script again.
MSG
    exit 1
fi
say "$(cargo --version)"

# The oldest Rust that builds Festina: `rust-version` in Cargo.toml.
MIN_RUST=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$(dirname "${BASH_SOURCE[0]}")/../Cargo.toml")
have_rust=$(rustc --version | sed -n 's/^rustc \([0-9][0-9.]*\).*/\1/p')
if [ -n "$MIN_RUST" ] && [ -n "$have_rust" ] \
    && [ "$(printf '%s\n%s\n' "$MIN_RUST" "$have_rust" | sort -V | head -n 1)" != "$MIN_RUST" ]; then
    die "Rust $have_rust is older than $MIN_RUST, the oldest that builds Festina; update it (with rustup: rustup update stable)"
fi

# --- where `cargo install` puts festina -------------------------------------
# The quick start installs `festina` (and its runtimes) with `cargo
# install`, into cargo's bin directory, which must be on PATH.
bin_dir="${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin"
case ":$PATH:" in
    *":$bin_dir:"*) say "cargo install puts festina in $bin_dir, which is on PATH" ;;
    *) say "note: $bin_dir is not on PATH: add it (export PATH=\"$bin_dir:\$PATH\") to run the festina that cargo install puts there" ;;
esac
