#!/usr/bin/env python3
"""The CAPTCHA route under wrk: Festina's CAPTCHA endpoint against the Rust
peer of the flagship benchmark (axum + image + imageproc + ab_glyph,
benches/flagship/rust/captcha), drawing the same picture: a 160x60 PNG,
background #eef1f5, 40 grey speckles, five glyphs of 'bold 28px' DejaVu
Sans in #2b3542 with jittered baselines.

    python3 benches/canvas/captcha.py                   # writes RESULTS.md
    python3 benches/canvas/captcha.py --source examples/captcha.f --no-write

Each server runs on 127.0.0.1 (port in $PORT), is checked first (three
decodable 160x60 PNGs with text, all different: `loadgen check-captcha`),
then gets 1 s of untimed wrk load and a timed `wrk -t2 -c20 -d5s --latency`
run on /captcha. The Festina program is examples/flagship/captcha.f by
default (--source to choose another); until it exists its row says "not
available".
"""

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHES = os.path.dirname(HERE)
sys.path.insert(0, BENCHES)
import peers  # noqa: E402  (benches/peers.py)

spec = importlib.util.spec_from_file_location("flagship_run", os.path.join(BENCHES, "flagship", "run.py"))
flagship = importlib.util.module_from_spec(spec)
spec.loader.exec_module(flagship)

TITLE = "CAPTCHA route under wrk (benches/canvas/captcha.py)"
log = peers.log


def wrk(url, threads, connections, seconds):
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", url]
    log("$ " + " ".join(cmd))
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60).stdout
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    lat = dict(re.findall(r"^\s+(50|99)%\s+(\S+)", out, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors: (.*)", out)
    return float(rps.group(1)) if rps else None, lat, errors.group(0) if errors else None


def measure(loadgen, exe, args):
    port = peers.free_port()
    with tempfile.TemporaryDirectory(prefix="captcha-") as cwd:
        proc = subprocess.Popen([exe], cwd=cwd, env=dict(os.environ, PORT=str(port)),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            if not peers.wait_listening(proc, port):
                return "not available: did not listen on $PORT"
            url = f"http://127.0.0.1:{port}/captcha"
            p = subprocess.run([loadgen, "check-captcha", "-url", url], capture_output=True, text=True, timeout=60)
            if p.returncode != 0:
                return "check failed: " + p.stderr.strip()[-200:]
            wrk(url, args.threads, args.connections, 1)  # untimed warm-up
            rps, lat, errors = wrk(url, args.threads, args.connections, args.duration)
            return {"rps": rps, "p50": lat.get("50"), "p99": lat.get("99"), "errors": errors,
                    "rss_kib": peers.peak_rss_kib(proc.pid)}
        finally:
            peers.stop(proc)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", default=os.path.join(peers.ROOT, "examples", "flagship", "captcha.f"))
    ap.add_argument("--festina", help="festina binary (default: build target/release/festina)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--connections", type=int, default=20)
    ap.add_argument("--duration", type=int, default=5)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (bash benches/setup.sh)")
    os.makedirs(flagship.BUILD, exist_ok=True)
    loadgen = flagship.build_loadgen()
    servers = {"Rust (axum, image, imageproc, ab_glyph)": flagship.build("rust", ["captcha"], None)["captcha"]}
    if not os.path.exists(args.source):
        festina = f"not available: {os.path.relpath(args.source, peers.ROOT)} does not exist yet"
    else:
        exe = peers.find_festina(args.festina)
        festina = "not available: no festina binary" if exe is None else os.path.join(flagship.BUILD, "festina_captcha_wrk")
        if exe is not None:
            ok, msg = flagship.run([exe, "compile", args.source, "-o", festina])
            festina = festina if ok else f"not available: festina compile failed: {msg}"
    servers["Festina"] = festina
    rows = {}
    for name, exe in servers.items():
        rows[name] = exe if exe.startswith("not available") else measure(loadgen, exe, args)
        log(f"{name}: {rows[name]}")
    lines = peers.header(TITLE) + [
             f"Command: `python3 benches/canvas/captcha.py` (wrk -t{args.threads} -c{args.connections} "
             f"-d{args.duration}s --latency on /captcha after 1 s of untimed load; "
             f"wrk {peers.version(['wrk', '-v']).split()[1]}).", "",
             "| Server | Requests/s | p50 | p99 | Peak RSS MB |", "|---|---:|---:|---:|---:|"]
    for name, r in rows.items():
        if isinstance(r, str):
            lines.append(peers.missing_row(name, r, 4))
        else:
            rss = "—" if r["rss_kib"] is None else f"{r['rss_kib'] / 1024:.1f}"
            lines.append(f"| {name} | {r['rps']:,.0f} | {r['p50']} | {r['p99']} | {rss} |")
            if r["errors"]:
                lines.append(f"|  | wrk reported: {r['errors']} | | | |")
    rust, fest = list(rows.values())
    if isinstance(rust, dict) and isinstance(fest, dict) and rust["rps"] and fest["rps"]:
        lines += ["", f"Festina serves {fest['rps'] / rust['rps']:.2f}x the Rust peer's requests per second."]
    peers.publish(TITLE, lines, not args.no_write)


if __name__ == "__main__":
    main()
