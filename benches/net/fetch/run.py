#!/usr/bin/env python3
"""The fetch-and-parse benchmark (issue 14): 200 sequential GETs of a small
local JSON document, each parsed into a typed struct, Festina side by side
with Rust (ureq + serde_json), Go (net/http + encoding/json) and Bun
(`fetch` + `JSON.parse`) in one run:

    python3 benches/net/fetch/run.py               # writes benches/RESULTS.md
    python3 benches/net/fetch/run.py --runs 5 --requests 1000 --no-write

The document server is nginx (one worker, keep-alive on) serving
benches/net/fetch/forecast.json at /v1/forecast on a free 127.0.0.1 port,
started by this script and stopped by its pid. Each client is one process
given the URL and the request count; its stdout must equal the others'
(`fetched 200, temperature_2m 21.4, wind_speed_10m 11.2`) or the run stops.
Every client runs once untimed (warm-up), then `--runs` times (default 3),
rotating the order of the clients each round; the table gives the minimum
whole-process wall time (what a user waits for, start-up included) and the
minimum of the time each program reports for its own request loop
(`loop_ms=…` on stderr; Festina, which writes stderr only through `fail()`,
prints it as a last stdout line, taken off before outputs are compared;
its `now()` counts whole milliseconds).

The Festina program is benches/net/fetch/fetch.f, run as a bundle made by
`festina compile` (as a user would ship it). The HTTP client battery
provides it; while it does not exist, or does not produce the expected
output, its row says "not available" with the reason.

Tools come from benches/setup.sh (nginx, Go, Bun; cargo for the Rust peer).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import common as c  # noqa: E402

SECTION = "HTTP client: fetch and parse"


def clients(tmp, festina):
    """[(name, argv prefix or None, reason)]: the URL and count are appended."""
    out = []
    fetch_f = os.path.join(HERE, "fetch.f")
    if not festina:
        out.append(("Festina (`req.send()` + `.toStruct()`)", None, "no festina binary"))
    elif not os.path.exists(fetch_f):
        out.append(("Festina (`req.send()` + `.toStruct()`)", None,
                    "benches/net/fetch/fetch.f does not exist yet (the HTTP client battery provides it)"))
    else:
        bundle = os.path.join(tmp, "fetch-festina")
        r = subprocess.run([festina, "compile", fetch_f, "-o", bundle], capture_output=True, text=True)
        if r.returncode != 0:
            why = (r.stderr or r.stdout).strip().splitlines()
            out.append(("Festina (`req.send()` + `.toStruct()`)", None,
                        f"`festina compile` failed: {why[0] if why else r.returncode}"))
        else:
            out.append(("Festina (`req.send()` + `.toStruct()`)", [bundle], None))
    rust = c.cargo_build(os.path.join(HERE, "rust"))
    out.append(("Rust (ureq + serde_json)", [os.path.join(rust, "fetch-rust")], None))
    go = c.go_build(os.path.join(HERE, "fetch.go"), os.path.join(tmp, "fetch-go"))
    out.append(("Go (`net/http` + `encoding/json`)", [go], None))
    out.append(("Bun (`fetch` + `JSON.parse`)", [c.tool("bun"), os.path.join(HERE, "fetch.js")], None))
    return out


def run_once(cmd):
    """(wall seconds, loop ms or None, stdout, failure text or None)."""
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        return wall, None, r.stdout, f"exit status {r.returncode}: {r.stderr.strip()[-300:]}"
    # Festina writes stderr only through fail(): its loop time is a last
    # `loop_ms=…` line on stdout, taken off before the outputs are compared.
    out = re.sub(r"(?m)^loop_ms=[\d.]+\n?", "", r.stdout)
    m = re.search(r"loop_ms=([\d.]+)", r.stderr) or re.search(r"loop_ms=([\d.]+)", r.stdout)
    return wall, float(m.group(1)) if m else None, out, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="timed runs per client (default 3)")
    ap.add_argument("--requests", type=int, default=200, help="GETs per run (default 200)")
    c.festina_args(ap)
    args = ap.parse_args()
    load = c.loadavg()
    c.require("nginx", "go", "bun", "cargo")
    festina = c.build_festina(args.festina, build=not args.no_build)
    expected = f"fetched {args.requests}, temperature_2m 21.4, wind_speed_10m 11.2\n"
    results = {}
    with tempfile.TemporaryDirectory(prefix="festina-fetch-") as tmp:
        os.chmod(tmp, 0o755)
        runnable = []
        for name, cmd, why in clients(tmp, festina):
            if cmd is None:
                results[name] = f"not available: {why}"
            else:
                results[name] = None
                runnable.append((name, cmd))
        port = c.free_port()
        server = c.nginx_server(tmp, port, os.path.join(HERE, "nginx.conf.in"), {"@DOCS@": HERE})
        try:
            why = c.wait_http(server, port)
            if why:
                sys.exit(f"the document server did not start: {why}")
            url = f"http://127.0.0.1:{port}/v1/forecast?latitude=52.52&longitude=13.41&current=temperature_2m,wind_speed_10m"
            times = {name: ([], []) for name, _ in runnable}
            for rnd in range(args.runs + 1):  # round 0 is the warm-up
                k = rnd % len(runnable)
                for name, cmd in runnable[k:] + runnable[:k]:
                    if isinstance(results[name], str):
                        continue
                    wall, loop, out, fail = run_once(cmd + [url, str(args.requests)])
                    if fail is None and out != expected:
                        fail = f"output {out.strip()!r}, expected {expected.strip()!r}"
                    if fail:
                        results[name] = f"not available: {fail}"
                        c.log(f"{name}: {fail}")
                        continue
                    if rnd > 0:
                        times[name][0].append(wall)
                        if loop is not None:
                            times[name][1].append(loop)
                        c.log(f"round {rnd}: {name}: {wall * 1000:.1f} ms"
                              + (f" (loop {loop:.1f} ms)" if loop is not None else ""))
            for name, (walls, loops) in times.items():
                if not isinstance(results[name], str):
                    results[name] = (min(walls), min(loops) if loops else None)
        finally:
            server.stop()

    fest = next((v for k, v in results.items() if k.startswith("Festina")), None)
    have_fest = isinstance(fest, tuple)
    lines = []
    if not have_fest:
        lines += ["**Peers only: measured before the Festina HTTP client exists (its row says why).**", ""]
    lines.append(f"Run on {c.now_utc()}, {c.machine()}, 1-minute load average {load} at the start"
                 " (shared with other work: noisy), by"
                 f" `python3 benches/net/fetch/run.py --runs {args.runs} --requests {args.requests}`:"
                 f" {args.requests} sequential GETs of a {os.path.getsize(os.path.join(HERE, 'forecast.json'))}-byte"
                 " JSON document from nginx on 127.0.0.1 (one worker, keep-alive), each parsed into a typed"
                 f" struct; minimum of {args.runs} runs after one warm-up, clients rotated each round."
                 " Process = whole-process wall time (start-up included); loop = the program's own timing"
                 " of its request loop.")
    lines.append("")
    lines.append(f"Versions: {c.version([c.tool('bun'), '--version'])} (Bun); {c.version([c.tool('go'), 'version'])};"
                 f" {c.version(['rustc', '--version'])}; {c.version([c.tool('nginx'), '-v'])}.")
    lines.append("")
    base_name = "Festina" if have_fest else "Rust"
    base = fest if have_fest else results.get("Rust (ureq + serde_json)")
    rows = []
    for name, r in results.items():
        if isinstance(r, tuple):
            wall, loop = r
            ratio = "—"
            if isinstance(base, tuple):
                ratio = c.fmt_ratio(wall, base[0])
            rows.append([name, f"{wall * 1000:.1f}", f"{loop:.1f}" if loop is not None else "—",
                         f"{args.requests / wall:,.0f}", ratio])
        else:
            rows.append([name, r, "", "", ""])
    lines.append(c.table(["client", "process ms", "loop ms", "requests/s (process)",
                          f"process time ÷ {base_name}'s"], rows))
    text = "\n".join(lines)
    c.publish(args, SECTION, text)


if __name__ == "__main__":
    main()
