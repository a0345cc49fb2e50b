#!/usr/bin/env python3
"""Cross-language benchmark runner: Festina against Lua 5.4, LuaJIT's
interpreter (`-joff`), CPython 3 and Node.js.

    python3 benches/run.py                 # everything, writes benches/RESULTS.md
    python3 benches/run.py --only fib,hello --runs 7 --no-write

What it does, in order:
1. installs what is missing (Debian packages `lua5.4 luajit nodejs python3
   hyperfine time`; only when running as root, `apt-get update` once first);
2. builds `festina` with `cargo build --release` (fat LTO) unless
   `--festina PATH` names a binary;
3. for every workload in `benches/programs/` and every language: one
   warm-up run whose stdout must equal Festina's (any difference stops the
   run), then `--runs` timed runs (at least 5; 30 for workloads under 0.1
   s). Each run is a whole process (`festina file.f` compiles the program
   too); its wall time and peak RSS (GNU `time -f %M`) are recorded and the
   medians reported;
4. checks that `string_concat` is linear: Festina with 15,625 to 1,000,000
   appends, doubling;
5. replaces the `## Cross-language` section of `benches/RESULTS.md` (other
   sections are kept as they are) with the table, the ratios, the machine
   and the date.

Ratios are `other language time / Festina time`: above 1 means Festina is
faster.
"""

import argparse
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import machine  # noqa: E402  (benches/peers.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = os.path.join(ROOT, "benches", "programs")
RESULTS = os.path.join(ROOT, "benches", "RESULTS.md")

WORKLOADS = ["hello", "fib", "loop_sum", "array_sum", "string_concat", "char_scan"]

# Language key -> (column title, file extension, command prefix).
LANGS = [
    ("festina", "Festina", "f", None),  # command filled in from --festina
    ("lua", "Lua 5.4", "lua", ["lua5.4"]),
    ("luajit", "LuaJIT -joff", "lua", ["luajit", "-joff"]),
    ("python", "CPython 3", "py", ["/usr/bin/python3"]),
    ("node", "Node.js", "js", ["node"]),
]

# Targets of the VM-speed issue: workload -> (minimum lua5.4/festina ratio, text).
TARGETS = {
    "fib": (1.3, "≥ 1.30× Lua 5.4"),
    "loop_sum": (1.15, "≥ 1.15× Lua 5.4"),
    "array_sum": (1.0, "≥ 1.00× Lua 5.4"),
    "char_scan": (1.0, "≥ 1.00× Lua 5.4"),
    "hello": (1 / 1.5, "within 1.5× of Lua 5.4"),
}

PACKAGES = {
    "lua5.4": "lua5.4",
    "luajit": "luajit",
    "node": "nodejs",
    "/usr/bin/python3": "python3",
    "hyperfine": "hyperfine",
    "/usr/bin/time": "time",
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def have(cmd):
    return shutil.which(cmd) is not None or os.path.exists(cmd)


def install():
    missing = [pkg for cmd, pkg in PACKAGES.items() if not have(cmd)]
    if not missing:
        return
    if os.geteuid() != 0:
        sys.exit(f"missing commands; install the Debian packages: {' '.join(missing)}")
    log(f"installing {' '.join(missing)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, env=env)


def build_festina():
    log("building festina (cargo build --release -p festina-cli)")
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "festina-cli"], cwd=ROOT, check=True
    )
    return os.path.join(ROOT, "target", "release", "festina")


def run_once(cmd, cwd):
    """Run `cmd` under GNU time; return (stdout bytes, wall seconds, peak
    RSS in KiB). The peak RSS comes from `time -f %M` rather than this
    script's own `wait4`, because Linux counts the memory a child had before
    `exec` (here: a copy of this Python process) in its `ru_maxrss`; `time`
    itself is tiny."""
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as rss:
        start = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name, *cmd], cwd=cwd,
                           stdout=out, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        out.seek(0)
        stdout = out.read()
        peak = int(rss.read().strip().splitlines()[-1])
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {p.returncode}: {p.stderr.decode(errors='replace')}")
    return stdout, wall, peak


def measure(cmd, cwd, runs):
    """One warm-up, then `runs` timed runs (30 when a run is under 0.1 s).
    Returns (stdout, median seconds, median peak RSS KiB, all times)."""
    stdout, wall, _ = run_once(cmd, cwd)
    n = max(runs, 30) if wall < 0.1 else runs
    times, rss = [], []
    for _ in range(n):
        _, t, m = run_once(cmd, cwd)
        times.append(t)
        rss.append(m)
    return stdout, statistics.median(times), statistics.median(rss), times


def version(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
        return (p.stdout + p.stderr).strip().splitlines()[0]
    except Exception:  # noqa: BLE001 - best effort for the report
        return "?"


def fmt_time(t):
    if t < 0.01:
        return f"{t * 1000:.2f} ms"
    if t < 1:
        return f"{t * 1000:.0f} ms"
    return f"{t:.2f} s"


def fmt_mb(kib):
    return f"{kib / 1024:.1f}"


def linearity(festina, runs):
    """Festina on string_concat with doubling append counts. The small
    sizes take a few milliseconds, where the noise of a shared machine is
    as large as the work, so each size gets at least 21 runs."""
    runs = max(runs, 21)
    src = open(os.path.join(PROGRAMS, "string_concat.f")).read()
    assert "15000" in src
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        n = 15625
        while n <= 1_000_000:
            path = os.path.join(tmp, f"concat_{n}.f")
            with open(path, "w") as f:
                f.write(src.replace("15000", str(n)))
            out, t, rss, _ = measure([festina, path], tmp, runs)
            log(f"string_concat  {n:>9,} appends {fmt_time(t):>9}  {fmt_mb(rss)} MB")
            expect = str(n * 10).encode() + b"\n"
            if out != expect:
                sys.exit(f"string_concat with {n} appends printed {out!r}, expected {expect!r}")
            rows.append((n, t, rss))
            n *= 2
    return rows


def write_section(text):
    """Replace the `## Cross-language` section of RESULTS.md."""
    head = "# Festina benchmark results\n"
    doc = open(RESULTS).read() if os.path.exists(RESULTS) else head
    pat = re.compile(r"^## Cross-language\n.*?(?=^## |\Z)", re.S | re.M)
    if pat.search(doc):
        doc = pat.sub(lambda _: text, doc, count=1)
    else:
        # Keep the micro-benchmark and other sections after this one.
        m = re.search(r"^## ", doc, re.M)
        if m:
            doc = doc[: m.start()] + text + doc[m.start():]
        else:
            doc = doc.rstrip("\n") + "\n\n" + text
    with open(RESULTS, "w") as f:
        f.write(doc)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="timed runs per measurement (min 5)")
    ap.add_argument("--only", help="comma-separated workloads")
    ap.add_argument("--festina", help="use this festina binary instead of building")
    ap.add_argument("--no-install", action="store_true")
    ap.add_argument("--no-write", action="store_true", help="print, do not touch RESULTS.md")
    ap.add_argument("--skip-linearity", action="store_true")
    args = ap.parse_args()
    runs = max(5, args.runs)
    if not args.no_install:
        install()
    festina = args.festina or build_festina()
    workloads = args.only.split(",") if args.only else WORKLOADS

    results = {}  # (workload, lang) -> (median s, median rss KiB)
    for w in workloads:
        expected = None
        for key, title, ext, prefix in LANGS:
            path = os.path.join(PROGRAMS, f"{w}.{ext}")
            cmd = [festina, path] if key == "festina" else [*prefix, path]
            out, t, rss, times = measure(cmd, PROGRAMS, runs)
            if expected is None:
                expected = out
            elif out != expected:
                sys.exit(f"{w}: {title} printed {out!r}, Festina printed {expected!r}")
            results[(w, key)] = (t, rss)
            spread = f"{fmt_time(min(times))}..{fmt_time(max(times))}"
            log(f"{w:14} {title:13} {fmt_time(t):>9}  ({spread}, n={len(times)})  {fmt_mb(rss)} MB")

    lin = [] if args.skip_linearity or "string_concat" not in workloads else linearity(festina, runs)

    lines = ["## Cross-language", ""]
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines.append(f"Run on {now}, {machine()}, by `python3 benches/run.py`"
                 f" (whole-process wall time, median of ≥ {runs} runs after one warm-up;"
                 " Festina's time includes compiling the source).")
    lines.append("")
    lines.append("Versions: " + "; ".join([
        f"festina `{version([festina, '--version'])}` (release, fat LTO)",
        f"`{version(['lua5.4', '-v'])}`",
        f"`{version(['luajit', '-v']).split(' -- ')[0]}` with `-joff`",
        f"`{version(['/usr/bin/python3', '--version'])}`",
        f"Node.js `{version(['node', '--version'])}`",
    ]) + ".")
    lines.append("")
    hdr = "| workload | " + " | ".join(t for _, t, _, _ in LANGS) + " | Lua 5.4 / Festina | LuaJIT -joff / Festina | CPython / Festina | Node / Festina |"
    lines.append(hdr)
    lines.append("|" + "---|" * (1 + len(LANGS) + 4))
    for w in workloads:
        cells = [f"`{w}`"]
        ft = results[(w, "festina")][0]
        for key, *_ in LANGS:
            cells.append(fmt_time(results[(w, key)][0]))
        for key in ("lua", "luajit", "python", "node"):
            cells.append(f"{results[(w, key)][0] / ft:.2f}×")
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Peak RSS (MB, median):")
    lines.append("")
    lines.append("| workload | " + " | ".join(t for _, t, _, _ in LANGS) + " |")
    lines.append("|" + "---|" * (1 + len(LANGS)))
    for w in workloads:
        cells = [f"`{w}`"] + [fmt_mb(results[(w, key)][1]) for key, *_ in LANGS]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Targets (ratio Lua 5.4 time / Festina time, from the table above):")
    lines.append("")
    lines.append("| workload | target | ratio | met |")
    lines.append("|---|---|---|---|")
    for w, (need, text) in TARGETS.items():
        if w not in workloads:
            continue
        r = results[(w, "lua")][0] / results[(w, "festina")][0]
        lines.append(f"| `{w}` | {text} | {r:.2f}× | {'yes' if r >= need else '**no**'} |")
    if lin:
        lines.append("")
        lines.append("`string_concat` linearity (Festina, whole process; each row doubles the appends):")
        lines.append("")
        lines.append("| appends | time | time / previous | peak RSS (MB) | final text (MB) |")
        lines.append("|---|---|---|---|---|")
        prev = None
        for n, t, rss in lin:
            ratio = f"{t / prev:.2f}" if prev else "–"
            lines.append(f"| {n:,} | {fmt_time(t)} | {ratio} | {fmt_mb(rss)} | {n * 10 / 1e6:.2f} |")
            prev = t
        worst = max((b[1] / a[1] for a, b in zip(lin, lin[1:])), default=0)
        lines.append("")
        lines.append(f"Largest step ratio {worst:.2f} (linear means ≤ 2.00; each time is the"
                     " median of ≥ 21 runs and includes start-up, so the small sizes mostly"
                     " measure start-up and noise).")
    lines.append("")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        write_section(text)
        log(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
