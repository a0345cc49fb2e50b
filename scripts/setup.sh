#!/usr/bin/env bash
# Prepares a fresh Debian (or Ubuntu) machine to build and test Festina.
#
#     bash scripts/setup.sh        (as root, or as a user with sudo)
#
# Idempotent: packages that are already installed are not touched, and
# `apt-get update` runs only when something has to be installed.
set -euo pipefail

# Every system package the build needs, in one list. Later milestones add to
# it (graphics: libcairo2-dev, ...); nothing else in this script changes.
PACKAGES=(
    build-essential
    pkg-config
    # Time zone data: formatTime's %Z and the tests that set TZ.
    tzdata
)

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: %s\n' "$*" >&2; exit 1; }

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
        SUDO=()
        if [ "$(id -u)" -ne 0 ]; then
            command -v sudo >/dev/null 2>&1 || die "missing packages: ${missing[*]}; run this script as root to install them"
            SUDO=(sudo)
        fi
        say "installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        "${SUDO[@]}" apt-get update
        "${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
    else
        say "system packages present: ${PACKAGES[*]}"
    fi
else
    say "not a Debian-based system (no dpkg-query); make sure these are installed: ${PACKAGES[*]}"
fi

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
