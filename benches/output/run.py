#!/usr/bin/env python3
"""Output benchmarks (issue 10 item 2): two builds of `festina` side by
side, in one run (the machine is shared: only ratios of one run mean
anything).

    python3 benches/output/run.py --before OLD_FESTINA [--after NEW_FESTINA] [--runs 7]

`--after` defaults to `target/fast/festina` (built with `cargo build
--profile fast -p festina-cli` first); `--before` is a build of the commit
before the change (`git worktree add /tmp/base <commit>`, then `cargo
build --profile fast -p festina-cli` there).

Measures, each build alternating run by run, median whole-process wall
time and mean CPU time (user + system):

- `log_1m.f` (1,000,000 lines, 24.9 MB) with stdout on a file, and on a
  pipe read by this script; and the after build with
  `FESTINA_NO_STDOUT_BUFFER=1` (every line written at once: the policy of
  a flush per line, for comparison);
- `hello.f` with stdout on /dev/null (start-up: the after build starts its
  stdout watchdog thread at the first line);
- `latency.f`: how long after being logged each of its 20 lines reaches a
  reader of the pipe while the program computes (the line carries the
  time it was logged).

Prints Markdown tables for benches/RESULTS.md ("Output").
"""

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benches"))
from peers import before_after_args  # noqa: E402
HERE = os.path.join(ROOT, "benches", "output")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, stdout, env=None):
    """Wall and CPU seconds of one run of `cmd` with `stdout`: a path, or
    'pipe' (read and dropped here)."""
    env = dict(os.environ, **(env or {}))
    cpu0 = children_cpu()
    start = time.perf_counter()
    if stdout == "pipe":
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env)
        while p.stdout.read(1 << 16):
            pass
        p.wait()
    else:
        with open(stdout, "wb") as f:
            p = subprocess.run(cmd, stdout=f, env=env)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        raise SystemExit(f"{cmd} failed with {p.returncode}")
    return wall, children_cpu() - cpu0


def fmt(s):
    return f"{s * 1000:.1f} ms" if s < 0.1 else f"{s * 1000:.0f} ms"


def latency(binary):
    """Delays (ms) between logging and arrival of each line of latency.f."""
    p = subprocess.Popen([binary, os.path.join(HERE, "latency.f")], stdout=subprocess.PIPE)
    delays = []
    for line in p.stdout:
        arrived = time.time() * 1000
        delays.append(arrived - int(line))
    p.wait()
    return delays


def main():
    args = before_after_args(7)
    tmp = tempfile.mkdtemp(prefix="festina-output-")
    out_file = os.path.join(tmp, "out.txt")
    log_1m = os.path.join(HERE, "log_1m.f")
    hello = os.path.join(HERE, "hello.f")
    cases = [
        ("`log_1m.f` > file", log_1m, out_file, None),
        ("`log_1m.f` \\| reader", log_1m, "pipe", None),
        ("`hello.f` > /dev/null", hello, "/dev/null", None),
    ]
    print("| workload | before: wall | after: wall | after / before | before: CPU | after: CPU |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, prog, out, env in cases:
        runs = args.runs * (5 if prog == hello else 1)
        b, a = [], []
        timed([args.before, prog], out)
        timed([args.after, prog], out)
        for _ in range(runs):
            b.append(timed([args.before, prog], out, env))
            a.append(timed([args.after, prog], out, env))
        bw, aw = statistics.median(x[0] for x in b), statistics.median(x[0] for x in a)
        bc, ac = statistics.mean(x[1] for x in b), statistics.mean(x[1] for x in a)
        print(f"| {name} | {fmt(bw)} | {fmt(aw)} | {aw / bw:.2f}x | {fmt(bc)} | {fmt(ac)} |", flush=True)
    # The rejected policy: a write per line, to a file.
    per_line = [timed([args.after, log_1m], out_file, {"FESTINA_NO_STDOUT_BUFFER": "1"}) for _ in range(args.runs)]
    buffered = [timed([args.after, log_1m], out_file) for _ in range(args.runs)]
    pw, bw = statistics.median(x[0] for x in per_line), statistics.median(x[0] for x in buffered)
    print()
    print("| `log_1m.f` > file, after build | wall | CPU |")
    print("|---|---:|---:|")
    print(f"| buffered, watchdog (default) | {fmt(bw)} | {fmt(statistics.mean(x[1] for x in buffered))} |")
    print(f"| a write per line (`FESTINA_NO_STDOUT_BUFFER=1`) | {fmt(pw)} | {fmt(statistics.mean(x[1] for x in per_line))} |")
    print(f"| ratio | {pw / bw:.2f}x | |")
    print()
    print("| build | lines | median delay | largest delay |")
    print("|---|---:|---:|---:|")
    for label, binary in (("before", args.before), ("after", args.after)):
        d = latency(binary)
        print(f"| {label} | {len(d)} | {statistics.median(d):.0f} ms | {max(d):.0f} ms |", flush=True)
    os.remove(out_file) if os.path.exists(out_file) else None
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
