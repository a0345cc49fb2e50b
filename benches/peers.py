"""Shared helpers of the benchmark runners that compare Festina with peer
programs in other languages (benches/flagship, canvas, window, audio).

- `machine()` describes the machine for a results section;
- `replace_section(title, text)` rewrites one section of benches/RESULTS.md
  in place, leaving every other section alone; `publish()` prints and
  writes one;
- `find_bun()`, `find_festina()` locate the tools the way
  `benches/setup.sh` installs them;
- `nonblank_lines(paths)` is the code-size measure of the flagship tables;
- `free_port()`, `wait_listening()`, `peak_rss_kib()`, `stop()` run a
  server under test on 127.0.0.1;
- `before_after_args(runs)` parses the arguments of a runner that
  compares two builds of `festina` (benches/output, benches/frontend).

Runners import it with `sys.path.insert(0, <benches dir>)`.
"""

import argparse
import datetime
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

BENCHES = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCHES)
RESULTS = os.path.join(BENCHES, "RESULTS.md")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def machine():
    """CPU model, core count, memory and kernel, one line."""
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            mem = f"{int(f.readline().split()[1]) / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} cores, {mem} RAM, Linux {platform.release()}"


def today():
    return datetime.date.today().isoformat()


def version(cmd):
    """First line of a tool's version output, or '?'."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
        return ((p.stdout + p.stderr).strip().splitlines() or ["?"])[0]
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def replace_section(title, text):
    """Replace the section whose heading is exactly `title` (any level; up to
    the next heading of the same or a higher level) with `text`, which
    starts with its own heading line. Without such a section, `text` is
    appended at the end of the file."""
    doc = open(RESULTS).read() if os.path.exists(RESULTS) else "# Festina benchmark results\n"
    text = text.rstrip("\n") + "\n"
    m = re.search(r"^(#+) " + re.escape(title) + r"[ \t]*$", doc, re.M)
    if m:
        level = len(m.group(1))
        nxt = re.compile(r"^#{1,%d} " % level, re.M).search(doc, m.end())
        end = nxt.start() if nxt else len(doc)
        tail = doc[end:]
        doc = doc[: m.start()] + text + ("\n" + tail if tail else "")
    else:
        doc = doc.rstrip("\n") + "\n\n" + text
    with open(RESULTS, "w") as f:
        f.write(doc)


def header(title, note=""):
    """The first lines of a runner's section: heading, date, machine, `note`."""
    return [f"### {title}", "", f"Measured {today()} on {machine()}, one run, the machine shared with other "
            f"work (only ratios within one run mean anything). {note}".rstrip()]


def missing_row(name, why, columns):
    """A markdown table row for a side that has no numbers: `why` in the first
    of `columns` value cells, the others empty."""
    return f"| {name} | {why} |" + " |" * (columns - 1)


def publish(title, lines, write=True):
    """Print a section (its lines, the first being its heading) and, when
    `write`, put it into benches/RESULTS.md with `replace_section`."""
    text = "\n".join(lines).rstrip("\n") + "\n"
    print(text)
    if write:
        replace_section(title, text)
        log(f"wrote {RESULTS}")


def find_bun():
    """Bun from $BUN, benches/.tools (benches/setup.sh), or PATH; None if absent."""
    for cand in (
        os.environ.get("BUN"),
        os.path.join(BENCHES, ".tools", "bin", "bun"),
        os.path.join(BENCHES, ".tools", "node_modules", ".bin", "bun"),
        shutil.which("bun"),
    ):
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


def find_festina(explicit=None, build=True):
    """The festina binary: `explicit`, $FESTINA, or target/release/festina
    (built with `cargo build --release -p festina-cli` when `build`)."""
    for cand in (explicit, os.environ.get("FESTINA")):
        if cand:
            return cand if os.access(cand, os.X_OK) else None
    path = os.path.join(ROOT, "target", "release", "festina")
    if build:
        log("building festina (cargo build --release -p festina-cli)")
        p = subprocess.run(["cargo", "build", "--release", "-p", "festina-cli"], cwd=ROOT)
        if p.returncode != 0:
            return None
    return path if os.access(path, os.X_OK) else None


def nonblank_lines(paths):
    """Non-blank lines over the given source files (comments count)."""
    n = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            n += sum(1 for line in f if line.strip())
    return n


def percent_of_mean(values):
    """Each value as a percentage of the mean of the values present (None stays None)."""
    present = [v for v in values if v is not None]
    if not present:
        return [None] * len(values)
    mean = sum(present) / len(present)
    return [None if v is None else 100.0 * v / mean for v in values]


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(proc, port, timeout=20.0):
    """Wait until 127.0.0.1:port accepts connections; False if `proc` exits or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def peak_rss_kib(pid):
    """Peak resident set size (VmHWM) of a live process, in KiB, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def stop(proc):
    """SIGTERM, then SIGKILL after 5 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def before_after_args(runs):
    """`--before` (a build of the commit before a change, required),
    `--after` (default `target/fast/festina`, then built first with `cargo
    build --profile fast -p festina-cli`) and `--runs` (default `runs`)."""
    default = os.path.join(ROOT, "target", "fast", "festina")
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", default=default)
    ap.add_argument("--runs", type=int, default=runs)
    args = ap.parse_args()
    if args.after == default:
        subprocess.run(
            ["cargo", "build", "--profile", "fast", "-p", "festina-cli"], cwd=ROOT, check=True
        )
    return args
