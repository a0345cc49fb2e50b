#!/usr/bin/env python3
"""How late a 10 ms timer fires while a window is open (§19.7): Festina
alone (benches/window/coexist.f): a chain of 10 ms timeouts with no
window, with a window receiving pointer motion from xdotool about every
10 ms, and with a full 800x600 frame presented on every tick too, under
one Xvfb in one run.

    python3 benches/window/coexist.py [--ticks 300] [--festina PATH]

The specification allows a window to add about 20 ms of latency to the
other sources of the event loop; our target is under 5 ms. (A listening
port would be the better probe; this build has no HTTP server yet, and a
timer shares the same wake-up path: the poll's timeout.)
"""

import argparse
import importlib.util
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import peers  # noqa: E402

# benches/window/run.py's Xvfb start (benches/run.py has the same name)
_spec = importlib.util.spec_from_file_location("window_run", os.path.join(HERE, "run.py"))
_run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_run)
start_xvfb = _run.start_xvfb


def side(exe, mode, ticks, display):
    env = dict(os.environ, DISPLAY=display)
    mover = None
    if mode != "none":
        # pointer motion over the window for the whole run
        # one xdotool process moving the pointer every 10 ms or so
        moves = []
        for i in range(3000):
            moves += ["mousemove", str(100 + (i * 37) % 600), "300", "sleep", "0.01"]
        mover = subprocess.Popen(["xdotool"] + moves, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        p = subprocess.run([exe, os.path.join(HERE, "coexist.f"), mode, str(ticks)], env=env,
                           capture_output=True, text=True, timeout=300)
    finally:
        if mover:
            mover.kill()
            mover.wait()
    m = re.search(r"late_ms mean ([\d.e+-]+) max (\d+)", p.stdout)
    if p.returncode != 0 or not m:
        return f"failed: {p.returncode} {p.stderr.strip()[-200:]}"
    return f"mean {float(m.group(1)):.2f} ms, max {m.group(2)} ms"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ticks", type=int, default=300)
    ap.add_argument("--festina")
    args = ap.parse_args()
    exe = peers.find_festina(args.festina)
    if not exe:
        sys.exit("no festina binary")
    xvfb, display = start_xvfb()
    try:
        for mode in ("none", "window", "render"):
            print(f"{mode}: {side(exe, mode, args.ticks, display)}", flush=True)
    finally:
        peers.stop(xvfb)


if __name__ == "__main__":
    main()
