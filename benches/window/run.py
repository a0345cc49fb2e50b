#!/usr/bin/env python3
"""The window benchmark: frames per second of a full-window redraw of 2,000
shapes (1,000 filled rectangles, 1,000 filled circles, colour set per
shape, 800x600) presented every frame, and the start-up time from process
launch to the first presented frame, for Festina (`render()` each frame,
benches/window/shapes.f) and pygame (SDL, `pygame.draw` +
`pygame.display.flip()`, benches/window/shapes.py), under one Xvfb server
in one run.

    python3 benches/window/run.py               # writes RESULTS.md
    python3 benches/window/run.py --seconds 10 --no-write

The runner starts `Xvfb :N -screen 0 1024x768x24 -nolisten tcp` on the
first free display from :99 up (or uses $DISPLAY with --display), sets
BENCH_START_MS (wall clock, epoch milliseconds) just before launching each
program, and reads two lines from it:
    first_frame_ms <ms from BENCH_START_MS to the first presented frame>
    frames <n> seconds <s> fps <n/s>
The Festina program follows the same protocol (arguments: seconds, then
BENCH_START_MS again, since a Festina program cannot read the environment).
pygame is taken from the python3 that runs this script (benches/setup.sh
installs it for the python3 on PATH).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import peers  # noqa: E402  (benches/peers.py)

TITLE = "Window: 2,000 shapes per frame against pygame (benches/window/run.py)"
log = peers.log


def start_xvfb():
    if shutil.which("Xvfb") is None:
        sys.exit("Xvfb is not installed (scripts/setup.sh installs xvfb)")
    n = 99
    while os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock"):
        n += 1
    # -noreset: no refused connections while the server resets between runs
    proc = subprocess.Popen(["Xvfb", f":{n}", "-noreset", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not os.path.exists(f"/tmp/.X11-unix/X{n}"):
        if proc.poll() is not None or time.monotonic() > deadline:
            sys.exit(f"Xvfb :{n} did not start")
        time.sleep(0.05)
    return proc, f":{n}"


def run_side(cmd, display, seconds, start_arg=False):
    """Run one side; `start_arg`: also pass BENCH_START_MS as the argument
    after SECONDS (a Festina program cannot read the environment)."""
    start = f"{time.time() * 1000:.3f}"
    env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1", BENCH_START_MS=start)
    argv = cmd + [str(seconds)] + ([start] if start_arg else [])
    p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=seconds + 120)
    first = re.search(r"^first_frame_ms ([\d.]+)", p.stdout, re.M)
    fps = re.search(r"^frames (\d+) seconds ([\d.]+) fps ([\d.]+)", p.stdout, re.M)
    if p.returncode != 0 or not first or not fps:
        return f"not available: exited {p.returncode}: {(p.stderr or p.stdout).strip()[-300:]}"
    return {"first_ms": float(first.group(1)), "frames": int(fps.group(1)), "fps": float(fps.group(3))}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--festina", help="festina binary (default: build target/release/festina)")
    ap.add_argument("--display", help="use this X display instead of starting Xvfb")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    python = sys.executable  # the python3 the runner was started with (not a version-manager shim)
    xvfb, display = (None, args.display) if args.display else start_xvfb()
    try:
        rows = {}
        src = os.path.join(HERE, "shapes.f")
        if not os.path.exists(src):
            rows["Festina (`render()`)"] = "not available: benches/window/shapes.f does not exist yet"
        else:
            exe = peers.find_festina(args.festina)
            rows["Festina (`render()`)"] = (run_side([exe, src], display, args.seconds, start_arg=True) if exe
                                            else "not available: no festina binary")
        rows["pygame (SDL, `pygame.draw`)"] = run_side([python, os.path.join(HERE, "shapes.py")], display, args.seconds)
        pg = peers.version([python, "-c", "import os; os.environ['PYGAME_HIDE_SUPPORT_PROMPT']='1'; import pygame; "
                            "print('pygame', pygame.version.ver, 'SDL', '.'.join(map(str, pygame.get_sdl_version())))"])
    finally:
        if xvfb:
            peers.stop(xvfb)
    for name, r in rows.items():
        log(f"{name}: {r}")
    lines = peers.header(TITLE, f"Xvfb 1024x768x24, an 800x600 window; {pg} on "
                         f"{peers.version([python, '--version'])}.") + [
             f"Command: `python3 benches/window/run.py --seconds {args.seconds:g}`.", "",
             "| | frames/s | frames in the window | start-up to first presented frame |", "|---|---:|---:|---:|"]
    for name, r in rows.items():
        if isinstance(r, str):
            lines.append(peers.missing_row(name, r, 3))
        else:
            lines.append(f"| {name} | {r['fps']:.1f} | {r['frames']} in {args.seconds:g} s | {r['first_ms']:.0f} ms |")
    vals = list(rows.values())
    if all(isinstance(v, dict) for v in vals):
        lines += ["", f"Festina draws {vals[0]['fps'] / vals[1]['fps']:.2f}x pygame's frames per second and reaches its "
                  f"first frame in {vals[0]['first_ms'] / vals[1]['first_ms']:.2f}x pygame's time."]
    peers.publish(TITLE, lines, not args.no_write)


if __name__ == "__main__":
    main()
