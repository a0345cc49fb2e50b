#!/usr/bin/env python3
"""What an open window adds to the latency of the event loop's other
sources (§19.7), Festina alone, under one Xvfb in one run:

- `http` (benches/window/coexist_http.f): one program serving HTTP on
  127.0.0.1 answers REQUESTS sequential `GET /` from this script, each
  sent after a random pause of 0 to GAP ms (so requests arrive at any
  point of a frame), over one keep-alive connection and over a fresh
  connection per request; the program has no window (`none`), an idle
  open window (`window`), the window benchmark's 2,000-shape frame drawn
  continuously offscreen (`draw`) or drawn and presented with render()
  continuously (`render`), and `render` again with the event loop's
  timers handled before what the poll reported (FESTINA_NO_READY_FIRST=1,
  the order before that fix). Latency is the client's, from sending the
  request to the last byte of the response: p50, p99, max, and the frame
  rate the program kept meanwhile. The rows run in turn, ROUNDS times
  (a fresh program each time, REQUESTS / ROUNDS requests of each kind),
  so that a change of the shared machine's load falls on every row
  alike; the latencies of a row are pooled.
- `timer` (benches/window/coexist.f): how late a chain of 10 ms timeouts
  fires with no window, with a window receiving pointer motion from
  xdotool about every 10 ms, and with a full 800x600 frame presented on
  every tick too.

    python3 benches/window/coexist.py [--only http,timer] [--requests 2000]
        [--gap-ms 10] [--rounds 5] [--ticks 300] [--festina PATH]

The specification allows a window to add about 20 ms of latency to the
other sources of the event loop; our target is under 5 ms.
"""

import argparse
import http.client
import importlib.util
import os
import random
import re
import socket
import subprocess
import sys
import time

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


# (row name, program mode, extra environment)
HTTP_MODES = (
    ("none", "none", {}),
    ("window", "window", {}),
    ("draw", "draw", {}),
    ("render", "render", {}),
    ("render, FESTINA_NO_READY_FIRST=1", "render", {"FESTINA_NO_READY_FIRST": "1"}),
)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port, path, conn=None):
    """One GET; (seconds from sending to the last byte, body)."""
    c = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    t0 = time.perf_counter()
    c.request("GET", path)
    r = c.getresponse()
    body = r.read()
    dt = time.perf_counter() - t0
    if conn is None:
        c.close()
    if r.status != 200:
        raise RuntimeError(f"GET {path}: {r.status}")
    return dt, body


def wait_listening(port, proc, seconds=60):
    end = time.monotonic() + seconds
    while True:
        try:
            get(port, "/")
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"the server did not listen (exit {proc.poll()})")
            time.sleep(0.05)


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def stats(xs):
    ms = [x * 1000 for x in xs]
    return {"p50": pct(ms, 0.50), "p99": pct(ms, 0.99), "max": max(ms), "mean": sum(ms) / len(ms)}


def http_side(exe, mode, extra_env, requests, gap_ms, display, rng):
    """One run of the program: {'keepalive': [s], 'fresh': [s], 'frames':
    n, 'seconds': s} or a reason."""
    port = free_port()
    env = dict(os.environ, DISPLAY=display, **extra_env)
    proc = subprocess.Popen([exe, os.path.join(HERE, "coexist_http.f"), mode, str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_listening(port, proc)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for _ in range(20):  # warm-up
            get(port, "/", conn)
        out = {}
        t0 = time.monotonic()
        f0 = int(get(port, "/frames", conn)[1])
        for kind in ("keepalive", "fresh"):
            lat = []
            for _ in range(requests):
                time.sleep(rng.uniform(0, gap_ms / 1000))
                lat.append(get(port, "/", conn if kind == "keepalive" else None)[0])
            out[kind] = lat
        out["frames"] = int(get(port, "/frames", conn)[1]) - f0
        out["seconds"] = time.monotonic() - t0
        get(port, "/quit", conn)
        conn.close()
        proc.wait(timeout=30)
        return out
    except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        return f"failed: {e} {proc.stderr.read()[-200:] if proc.poll() is not None else ''}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def fmt(st):
    return f"p50 {st['p50']:.2f} / p99 {st['p99']:.2f} / max {st['max']:.1f} ms"


def bench_http(exe, display, requests, gap_ms, rounds):
    """ROUNDS rounds, each running every row once (a fresh program) for
    REQUESTS / ROUNDS requests of each kind, so that a change of the
    machine's load falls on every row alike; the latencies are pooled."""
    rng = random.Random(1)
    pooled = {name: {"keepalive": [], "fresh": [], "frames": 0, "seconds": 0.0} for name, _, _ in HTTP_MODES}
    failed = {}
    per_round = max(1, requests // rounds)
    for r in range(rounds):
        for name, mode, extra_env in HTTP_MODES:
            if name in failed:
                continue
            got = http_side(exe, mode, extra_env, per_round, gap_ms, display, rng)
            if isinstance(got, str):
                failed[name] = got
                continue
            for k in ("keepalive", "fresh"):
                pooled[name][k] += got[k]
            pooled[name]["frames"] += got["frames"]
            pooled[name]["seconds"] += got["seconds"]
        print(f"round {r + 1} of {rounds} done, load average {os.getloadavg()[0]:.2f}", flush=True)
    rows = {}
    for name, _, _ in HTTP_MODES:
        if name in failed:
            print(f"http {name}: {failed[name]}", flush=True)
            continue
        p = pooled[name]
        rows[name] = {k: stats(p[k]) for k in ("keepalive", "fresh")}
        fps = p["frames"] / p["seconds"]
        print(f"http {name}: keep-alive {fmt(rows[name]['keepalive'])}; fresh connection {fmt(rows[name]['fresh'])};"
              f" {fps:.1f} frames/s", flush=True)
    base = rows.get("none")
    if base:
        for name, _, _ in HTTP_MODES[1:]:
            if name in rows:
                for kind in ("keepalive", "fresh"):
                    d = {k: rows[name][kind][k] - base[kind][k] for k in ("p50", "p99", "mean")}
                    print(f"added by {name} ({kind}): p50 {d['p50']:+.2f} ms, p99 {d['p99']:+.2f} ms,"
                          f" mean {d['mean']:+.2f} ms", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="http,timer", help="comma-separated: http, timer")
    ap.add_argument("--requests", type=int, default=2000, help="requests per connection kind and mode")
    ap.add_argument("--gap-ms", type=float, default=10.0, help="random pause before each request: 0 to this")
    ap.add_argument("--rounds", type=int, default=5, help="rounds over the rows, order kept (default 5)")
    ap.add_argument("--ticks", type=int, default=300)
    ap.add_argument("--festina")
    args = ap.parse_args()
    exe = peers.find_festina(args.festina)
    if not exe:
        sys.exit("no festina binary")
    only = set(args.only.split(","))
    xvfb, display = start_xvfb()
    print(f"load average {os.getloadavg()[0]:.2f} at the start", flush=True)
    try:
        if "http" in only:
            bench_http(exe, display, args.requests, args.gap_ms, args.rounds)
        if "timer" in only:
            for mode in ("none", "window", "render"):
                print(f"timer {mode}: {side(exe, mode, args.ticks, display)}", flush=True)
    finally:
        peers.stop(xvfb)
        print(f"load average {os.getloadavg()[0]:.2f} at the end", flush=True)


if __name__ == "__main__":
    main()
