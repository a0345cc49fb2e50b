#!/usr/bin/env python3
"""The front end at scale (issue 10 item 10): `festina check` of a large
generated file by two builds side by side, in one run (the machine is
shared: only ratios of one run mean anything), against the in-process
throughput of the same front end.

    python3 benches/frontend/run.py --before OLD_FESTINA [--after NEW_FESTINA] [--runs 5]

`--after` defaults to `target/fast/festina` (built with `cargo build
--profile fast -p festina-cli` first); `--before` is a build of the commit
before the change (`git worktree add /tmp/base <commit>`, then `cargo
build --profile fast -p festina-cli` there).

Measures, each build alternating run by run:

- `big.f`: the front-end benchmark's program (compiler/benches/support/
  program.rs, written by the `frontend_profile` example) with 31,035
  blocks, 900,015 lines: `festina check` wall time (median) and peak RSS
  (GNU time's maximum resident set size), and bytes of peak RSS per line;
- the in-process throughput of the after build's front end on the
  benchmark's 20,300-line program (`frontend_profile check` and
  `compile`, best of 10, `cargo run --profile fast`), and the ratio of
  the whole file's throughput to it;
- `wide.f`: a struct of 30,000 fields whose last field is read 65,537
  times (the checker used to find a field by a linear search).

Prints Markdown tables for benches/RESULTS.md ("Front end at scale").
"""

import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benches"))
from peers import before_after_args  # noqa: E402
BLOCKS = 31035


def check(binary, path):
    """Wall seconds and peak RSS (KiB) of `festina check path`."""
    out = subprocess.run(
        ["/usr/bin/time", "-f", "%e %M", binary, "check", path],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise SystemExit(f"{binary} check {path} failed: {out.stderr[-500:]}")
    wall, rss = out.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss)


def example(*args):
    out = subprocess.run(
        ["cargo", "run", "-q", "--profile", "fast", "-p", "festina-compiler",
         "--example", "frontend_profile", "--", *args],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    return out.stderr.strip()


def write_wide(path):
    with open(path, "w") as f:
        f.write("struct Wide {\n")
        for i in range(30000):
            f.write(f"    f{i}:int\n")
        f.write("}\nWide w = {}\nint total = 0\n")
        for _ in range(65537):
            f.write("total = total + w.f29999\n")
        f.write("log(total)\n")


def main():
    args = before_after_args(5)
    tmp = tempfile.mkdtemp(prefix="festina-frontend-")
    big = os.path.join(tmp, "big.f")
    wide = os.path.join(tmp, "wide.f")
    example("write", str(BLOCKS), big)
    write_wide(wide)
    lines = sum(1 for _ in open(big))
    b, a = [], []
    for _ in range(args.runs):
        b.append(check(args.before, big))
        a.append(check(args.after, big))
    bw, aw = statistics.median(x[0] for x in b), statistics.median(x[0] for x in a)
    br, ar = max(x[1] for x in b), max(x[1] for x in a)
    print(f"| `festina check big.f` ({lines:,} lines) | before | after | after / before |")
    print("|---|---:|---:|---:|")
    print(f"| wall time (median of {args.runs}) | {bw:.2f} s | {aw:.2f} s | {aw / bw:.2f}x |")
    print(f"| peak RSS | {br / 1024:.0f} MiB | {ar / 1024:.0f} MiB | {ar / br:.2f}x |")
    print(f"| peak RSS per line | {br * 1024 / lines:.0f} B | {ar * 1024 / lines:.0f} B | |")
    print(f"| throughput | {lines / bw / 1000:.0f} K lines/s | {lines / aw / 1000:.0f} K lines/s | |")
    print()
    print("| in-process, after build (`frontend_profile`, 20,300 lines) | throughput | whole file (after) / in-process |")
    print("|---|---:|---:|")
    for stage in ("check", "compile"):
        line = example(stage, "10")
        rate = float(line.split(",")[1].split()[0])
        print(f"| `{stage}` | {rate / 1000:.0f} K lines/s | {lines / aw / rate:.2f} |")
    print()
    wb = check(args.before, wide)
    wa = check(args.after, wide)
    print("| `festina check wide.f` (30,000 fields, 65,537 reads) | before | after |")
    print("|---|---:|---:|")
    print(f"| wall time | {wb[0]:.2f} s | {wa[0]:.2f} s |")
    for p in (big, wide):
        os.remove(p)
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
