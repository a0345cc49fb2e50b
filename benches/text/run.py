#!/usr/bin/env python3
"""Text-method benchmarks: each program of `benches/text/` run by two
builds of `festina` side by side, in one run (the machine is shared: only
the ratio of one run means anything).

    python3 benches/text/run.py --before OLD_FESTINA [--after NEW_FESTINA] [--runs 5]

`--after` defaults to `target/fast/festina` (built with `cargo build
--profile fast -p festina-cli` first). `--before` is another build, for
instance of the commit before a fix:

    git worktree add /tmp/base <commit> && (cd /tmp/base && cargo build --profile fast -p festina-cli)

Each program runs once per binary as a warm-up (their stdout must agree),
then `--runs` times per binary, alternating; the table shows the median
whole-process wall time. Prints a Markdown table for benches/RESULTS.md.
"""

import argparse
import glob
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "benches", "text")


def run(binary, program, timeout):
    start = time.perf_counter()
    out = subprocess.run(
        [binary, program], capture_output=True, timeout=timeout, check=True
    ).stdout
    return time.perf_counter() - start, out


def fmt(seconds):
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", default=os.path.join(ROOT, "target", "fast", "festina"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    if args.after == os.path.join(ROOT, "target", "fast", "festina"):
        subprocess.run(
            ["cargo", "build", "--profile", "fast", "-p", "festina-cli"], cwd=ROOT, check=True
        )
    print("| program | before | after | before / after |")
    print("|---|---:|---:|---:|")
    for program in sorted(glob.glob(os.path.join(HERE, "*.f"))):
        name = os.path.basename(program)
        _, a = run(args.before, program, args.timeout)
        _, b = run(args.after, program, args.timeout)
        if a != b:
            sys.exit(f"{name}: the two builds print different results")
        before, after = [], []
        for _ in range(args.runs):
            before.append(run(args.before, program, args.timeout)[0])
            after.append(run(args.after, program, args.timeout)[0])
        mb, ma = statistics.median(before), statistics.median(after)
        print(f"| `{name}` | {fmt(mb)} | {fmt(ma)} | {mb / ma:.0f}x |", flush=True)


if __name__ == "__main__":
    main()
