#!/usr/bin/env bash
# Start-up time and size of the hello bundle (`festina compile
# examples/hello.f`), side by side with `lua5.4 -e 'print(1)'`,
# `python3 -c 'print(1)'` and a stripped Rust hello binary built with
# `rustc -O`, all measured in one run of this script with hyperfine (no
# shell between hyperfine and the program: -N). The machine is shared, so
# the load drifts: rather than all runs of one program then all of the
# next, the script does ROUNDS hyperfine rounds over the four programs,
# rotating their order, each round with 1 warm-up and RUNS runs per
# program, and reports the median of all ROUNDS x RUNS times of each
# program (plus the fastest run and the mean CPU time, which load affects
# less). Writes the section "## Start-up and bundle size" of
# benches/RESULTS.md (creating the file if needed) and leaves the other
# sections alone.
#
# Usage: bash benches/startup/run.sh [RUNS [ROUNDS]]
#        (defaults: RUNS=20, at least 20; ROUNDS=5)
#
# Installs lua5.4 and hyperfine with apt-get when they are missing, and
# builds festina with `cargo build --release` (fat LTO, stripped: the
# profile bundles are made from).
#
# python3 is the system interpreter (/usr/bin/python3) when there is one:
# a version-manager shim earlier on PATH (pyenv's is a shell script) would
# add its own start-up to Python's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD
RUNS=${1:-20}
ROUNDS=${2:-5}
if ! [[ $RUNS =~ ^[0-9]+$ && $ROUNDS =~ ^[0-9]+$ ]] || ((RUNS < 20 || ROUNDS < 1)); then
    echo "usage: run.sh [RUNS (at least 20) [ROUNDS (at least 1)]]" >&2
    exit 2
fi

missing=()
command -v lua5.4 >/dev/null 2>&1 || missing+=(lua5.4)
command -v hyperfine >/dev/null 2>&1 || missing+=(hyperfine)
[[ -x /usr/bin/python3 ]] || command -v python3 >/dev/null 2>&1 || missing+=(python3)
if ((${#missing[@]})); then
    echo "installing ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
PYTHON=/usr/bin/python3
[[ -x $PYTHON ]] || PYTHON=$(command -v python3)

cargo build --release -p festina-cli
FESTINA=$ROOT/target/release/festina

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The Rust baseline: the same one line of output, optimised and stripped.
cat >"$WORK/hello.rs" <<'EOF'
fn main() {
    println!("Hello, Festina!");
}
EOF
rustc -O -C strip=symbols -o "$WORK/rust-hello" "$WORK/hello.rs"

"$FESTINA" compile examples/hello.f -o "$WORK/hello" 2>"$WORK/compile.txt"
echo "festina compile: $(cat "$WORK/compile.txt")" >&2
# The bundle must work before it is timed.
[[ $("$WORK/hello") == "$(cat examples/hello.out)" ]] || {
    echo "run.sh: the hello bundle printed something unexpected" >&2
    exit 1
}

NAMES=("festina hello bundle" "Rust hello (rustc -O, stripped)" "lua5.4 -e 'print(1)'" "python3 -c 'print(1)'")
CMDS=("$WORK/hello" "$WORK/rust-hello" "lua5.4 -e 'print(1)'" "$PYTHON -c 'print(1)'")
cd "$WORK"
for ((round = 0; round < ROUNDS; round++)); do
    args=()
    for ((i = 0; i < ${#NAMES[@]}; i++)); do
        k=$(((i + round) % ${#NAMES[@]}))
        args+=(-n "${NAMES[k]}" "${CMDS[k]}")
    done
    echo "round $((round + 1)) of $ROUNDS" >&2
    hyperfine -N --warmup 1 --runs "$RUNS" --style basic \
        --export-json "$WORK/round$round.json" "${args[@]}" >&2
done
cd "$ROOT"

LUA=$(command -v lua5.4)
"$PYTHON" - "$WORK" "$ROOT/benches/RESULTS.md" "$RUNS" "$ROUNDS" \
    "$WORK/hello" "$FESTINA" "$WORK/rust-hello" "$(readlink -f "$LUA")" \
    "$(readlink -f "$PYTHON")" <<'EOF'
import json, os, re, subprocess, sys, time

import statistics

work, results, runs, rounds, bundle, festina, rust, lua, python = sys.argv[1:10]
times, cpu_ms = {}, {}
for n in range(int(rounds)):
    for r in json.load(open(os.path.join(work, f"round{n}.json")))["results"]:
        times.setdefault(r["command"], []).extend(r["times"])
        cpu_ms.setdefault(r["command"], []).append((r["user"] + r["system"]) * 1000)
medians = {name: statistics.median(t) * 1000 for name, t in times.items()}
fastest = {name: min(t) * 1000 for name, t in times.items()}
cpu_mean = {name: statistics.mean(c) for name, c in cpu_ms.items()}
total_runs = {name: len(t) for name, t in times.items()}

def cpu():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"

def version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True)
        first = (out.stdout + out.stderr).strip().splitlines()[0]
        return first.split("  ")[0]  # "Lua 5.4.4  Copyright ..." -> "Lua 5.4.4"
    except (OSError, IndexError):
        return "?"

def mb(path):
    return f"{os.path.getsize(path) / 1e6:.2f} MB ({os.path.getsize(path):,} bytes)"

nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
rust_name = "Rust hello (rustc -O, stripped)"
base = medians[rust_name]
bundle_size = os.path.getsize(bundle)
with open(bundle, "rb") as f:
    f.seek(-40, 2)
    runtime_size = int.from_bytes(f.read(8), "little")  # trailer: runtime length first
# The runtimes (festina-cli/src/bundle.rs, "Runtimes").
runtime_names = ["festina-runtime-core", "festina-runtime-db", "festina-runtime-http", "festina-runtime-net", "festina-runtime-canvas", "festina-runtime"]
runtime_paths = {n: os.path.join(os.path.dirname(festina), n) for n in runtime_names}
runtime_name = "festina"
for name, candidate in runtime_paths.items():
    if os.path.exists(candidate) and runtime_size == os.path.getsize(candidate):
        runtime_name = name
        break
runtime_sizes = ", ".join(
    f"`{n}` {os.path.getsize(p):,} bytes" for n, p in runtime_paths.items() if os.path.exists(p)
)
rows = [
    ("festina hello bundle", f"{mb(bundle)}: {runtime_name} {runtime_size:,} + program and trailer {bundle_size - runtime_size:,} bytes"),
    (rust_name, mb(rust)),
    ("lua5.4 -e 'print(1)'", f"interpreter {mb(lua)}"),
    ("python3 -c 'print(1)'", f"interpreter {mb(python)}"),
]
startup = medians["festina hello bundle"] / base
lines = [
    "## Start-up and bundle size",
    "",
    f"Measured by `bash benches/startup/run.sh` on {time.strftime('%Y-%m-%d')}: "
    f"{nproc} cores, {cpu()}; {version(['rustc', '--version'])}, "
    f"{version(['lua5.4', '-v'])}, {version([python, '--version'])}, "
    f"{version(['hyperfine', '--version'])}.",
    f"Machine load when measured (1-minute average): {os.getloadavg()[0]:.2f}. "
    f"hyperfine ran the four programs without a shell (`-N`) in {rounds} rounds, "
    f"rotating their order, each round 1 warm-up then {runs} runs per program; "
    f"*median* is the median wall-clock time (exec to exit) of all "
    f"{int(rounds) * int(runs)} runs of a program, *fastest* its fastest run, and "
    f"*CPU* the mean user + system time, which the load of the other users of "
    f"this shared machine disturbs less. "
    f"The bundle is `festina compile examples/hello.f` with `festina` from "
    f"`cargo build --release` (LTO, one codegen unit, stripped, no debug info); "
    f"its runtime is `{runtime_name}`. For comparison, `festina` (with the compiler) "
    f"is {os.path.getsize(festina):,} bytes; the runtimes (smallest first, each with "
    f"the facilities of the one before, see festina-cli/src/bundle.rs): {runtime_sizes}.",
    "",
    "| program | size | median | ratio to Rust hello | fastest | CPU |",
    "|---|---|---:|---:|---:|---:|",
]
for name, size in rows:
    lines.append(
        f"| {name} | {size} | {medians[name]:.2f} ms | {medians[name] / base:.2f}x "
        f"| {fastest[name]:.2f} ms | {cpu_mean[name]:.2f} ms |"
    )
lines += [
    "",
    f"Targets: hello bundle under 3 MB: **{'met' if bundle_size < 3e6 else 'missed'}** "
    f"({bundle_size / 1e6:.2f} MB); start-up within 2x of the Rust hello binary: "
    f"**{'met' if startup <= 2 else 'missed'}** ({startup:.2f}x).",
    "",
]
section = "\n".join(lines)

text = open(results).read() if os.path.exists(results) else "# Festina benchmark results\n"
pattern = re.compile(r"^## Start-up and bundle size\n.*?(?=^## |\Z)", re.S | re.M)
if pattern.search(text):
    text = pattern.sub(lambda _: section + "\n", text, count=1)
else:
    text = text.rstrip("\n") + "\n\n" + section
text = text.rstrip("\n") + "\n"
open(results, "w").write(text)
print(section)
EOF
