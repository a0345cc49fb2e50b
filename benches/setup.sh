#!/usr/bin/env bash
# Installs the tools that only the benchmarks use (CI does not run this;
# the build and the tests need only scripts/setup.sh):
#
#     bash benches/setup.sh        (as root, or as a user with sudo)
#
# Idempotent: a Debian package is installed only when it is missing
# (`apt-get update` only then), Bun only when benches/.tools has none, a
# Python module only when it does not import. Every step is required: one
# that fails stops the script with a message on stderr.
#
# What each tool is for is listed in benches/README.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

# Debian packages, in one list (see benches/README.md for who uses which).
PACKAGES=(
    # load generator and timing
    wrk
    hyperfine
    time
    # peers: nginx (HTTP server and reverse proxy), Go with the libraries
    # the flagship peers import (Debian's GOPATH packages, no module proxy)
    nginx
    golang-go
    golang-github-gorilla-websocket-dev
    golang-github-mattn-go-sqlite3-dev
    golang-golang-x-image-dev
    # interpreters of the cross-language suite (benches/run.py)
    lua5.4
    luajit
    python3
    # the canvas benchmark's browser
    chromium
    # pydub decodes MP3 through ffmpeg (audio benchmark)
    ffmpeg
)

# Python modules for the window and audio peers, installed for the
# `python3` first on PATH.
PYTHON_MODULES=(pygame pydub simpleaudio)

# Bun comes from the npm registry as the platform package that holds the
# executable; it is installed under benches/.tools (ignored by git) and
# linked as benches/.tools/bin/bun, where the runners look first.
BUN_PACKAGE=@oven/bun-linux-x64
grep -qw avx2 /proc/cpuinfo 2>/dev/null || BUN_PACKAGE=@oven/bun-linux-x64-baseline
TOOLS=$ROOT/benches/.tools

say() { printf 'benches/setup: %s\n' "$*"; }
die() { printf 'benches/setup: error: %s\n' "$*" >&2; exit 1; }

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "run this script as root (or install sudo)"
    SUDO=(sudo)
fi
APT_GET=(apt-get -o DPkg::Lock::Timeout=900 -o Acquire::Retries=3)
export DEBIAN_FRONTEND=noninteractive

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# --- Debian packages ----------------------------------------------------------
command -v dpkg-query >/dev/null 2>&1 || die "not a Debian-based system; install by hand: ${PACKAGES[*]}"
missing=()
for pkg in "${PACKAGES[@]}"; do
    installed "$pkg" || missing+=("$pkg")
done
# Node.js may come from elsewhere than Debian (it does on the project's
# machines); install Debian's only when there is no `node` at all.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ "${#missing[@]}" -gt 0 ]; then
    say "installing ${missing[*]}"
    # Debian's nginx package starts the system service (port 80, every
    # interface) when it is installed; a policy-rc.d that forbids starting
    # services keeps it stopped. Only a temporary one is removed again.
    policy=/usr/sbin/policy-rc.d
    made_policy=0
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' | "${SUDO[@]}" tee "$policy" >/dev/null
        "${SUDO[@]}" chmod 755 "$policy"
        made_policy=1
    fi
    status=0
    "${SUDO[@]}" "${APT_GET[@]}" update -qq || status=$?
    if [ "$status" -eq 0 ]; then
        "${SUDO[@]}" "${APT_GET[@]}" install -y -qq --no-install-recommends "${missing[@]}" || status=$?
    fi
    [ "$made_policy" -eq 0 ] || "${SUDO[@]}" rm -f "$policy"
    [ "$status" -eq 0 ] || die "apt-get failed (status $status) installing: ${missing[*]}"
else
    say "Debian packages present (${#PACKAGES[@]})"
fi

# --- Bun ----------------------------------------------------------------------
if [ ! -x "$TOOLS/bin/bun" ]; then
    say "installing Bun ($BUN_PACKAGE from the npm registry) into benches/.tools"
    mkdir -p "$TOOLS/bin"
    npm install --prefix "$TOOLS" --no-save --no-audit --no-fund --loglevel=error "$BUN_PACKAGE" \
        || die "npm install $BUN_PACKAGE failed"
    bin=$TOOLS/node_modules/$BUN_PACKAGE/bin/bun
    [ -x "$bin" ] || die "$BUN_PACKAGE has no executable at $bin"
    ln -sfn "../node_modules/$BUN_PACKAGE/bin/bun" "$TOOLS/bin/bun"
fi
"$TOOLS/bin/bun" --version >/dev/null || die "benches/.tools/bin/bun does not run"
say "bun $("$TOOLS/bin/bun" --version) at benches/.tools/bin/bun"

# --- Python modules -------------------------------------------------------------
PYTHON=$(command -v python3) || die "python3 is not on PATH"
for module in "${PYTHON_MODULES[@]}"; do
    python3 -c "import $module" >/dev/null 2>&1 && continue
    say "installing $module with pip for $PYTHON"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "$module" \
        || die "pip could not install $module for $PYTHON"
    python3 -c "import $module" >/dev/null 2>&1 || die "$module still does not import in $PYTHON"
done
say "python modules present for $PYTHON: ${PYTHON_MODULES[*]}"

say "done: $(go version), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), $(nginx -v 2>&1), node $(node --version)"
