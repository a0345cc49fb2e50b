#!/usr/bin/env python3
"""The HTTP server and WebSocket echo benchmarks (issue 13), Festina side by
side with its peers in one run:

    python3 benches/net/run.py                    # everything, writes benches/RESULTS.md
    python3 benches/net/run.py --only http --no-write
    python3 benches/net/run.py --festina target/release/festina --duration 10s

HTTP: every server answers `GET /` with `Hello, World!` (text/plain;
charset=utf-8) and `GET /json` with `{"message":"Hello, World!","id":1}`
(application/json), byte for byte. For each server in turn: start it on a
free 127.0.0.1 port (child process, pid kept), wait until it answers, check
both routes' status, body and content type (keep-alive and
`Connection: close`), warm up with one untimed `wrk -d1s` per route, then
`wrk -t2 -c50 -d5s` on `/` and `/json`, keep-alive and with
`-H 'Connection: close'`; stop it by its pid. Servers: Festina
(`festina benches/net/server.f PORT`), nginx (one worker, `return 200`),
Bun (`Bun.serve`), Node.js (`http`), Go (`net/http`, GOMAXPROCS=1).

WebSocket: an echo server per side (Festina `benches/net/ws_echo.f`, Bun,
Go with gorilla/websocket at GOMAXPROCS=1), loaded by `wsload` (Go,
benches/net/wsload.go): 50 connections, each sending a 32-byte text
message and awaiting its echo, 1 s untimed warm-up, messages/s over 5 s.

The Festina programs are run with the release `festina` binary (built with
`cargo build --release -p festina-cli` unless --festina names one). When
one does not answer (the HTTP battery has not landed, or it fails its
response check) its row says "not available" with the reason: no numbers
are made up. Ratios are Festina ÷ peer (above 1: Festina is faster); with
no Festina row, ratios among the peers (peer ÷ nginx, peer ÷ Bun) are shown.

Tools come from benches/setup.sh (wrk, nginx, Go, Bun, Node.js).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common as c  # noqa: E402

CELLS = [("/", False), ("/json", False), ("/", True), ("/json", True)]
CELL_TITLES = ["`/` keep-alive", "`/json` keep-alive", "`/` close", "`/json` close"]
SECTION = "HTTP server and WebSocket echo"

def per_op_us(cpu_s, ops):
    """CPU microseconds per operation, or None without operations."""
    return cpu_s * 1e6 / ops if ops else None


def fmt_us(us):
    return "—" if us is None else f"{us:.2f}"


def keep_best(new, old):
    """The cell of the faster round, with the lower CPU time per
    request of the two rounds (each is a measure of its own: the rate
    depends on the machine's other load, the CPU time much less)."""
    best = dict(new if new["rps"] > old["rps"] else old)
    cpus = [x["cpu_us"] for x in (new, old) if x.get("cpu_us") is not None]
    best["cpu_us"] = min(cpus) if cpus else None
    return best
# A Festina server listens on every interface unless told one address.
LOOPBACK = {"FESTINA_HTTP_HOST": "127.0.0.1"}


def http_servers(tmp, festina):
    """(name, start(port) -> Server or None, reason when None) per server."""
    go_bin = c.go_build(os.path.join(c.NET, "go_server.go"), os.path.join(tmp, "go_server"))
    bun, node = c.tool("bun"), c.tool("node")
    go1 = {"GOMAXPROCS": "1"}
    return [
        ("Festina", festina and (lambda p: c.Server("Festina", [festina, os.path.join(c.NET, "server.f"), str(p)], env=LOOPBACK))),
        ("nginx (1 worker)", lambda p: c.nginx_server(tmp, p, os.path.join(c.NET, "nginx.conf.in"))),
        ("Bun (`Bun.serve`)", lambda p: c.Server("Bun", [bun, os.path.join(c.NET, "bun_server.js"), str(p)])),
        ("Node.js (`http`)", lambda p: c.Server("Node", [node, os.path.join(c.NET, "node_server.js"), str(p)])),
        ("Go (`net/http`, GOMAXPROCS=1)", lambda p: c.Server("Go", [go_bin, str(p)], env=go1)),
    ]


def measure_http(name, start, duration):
    """One server's four cells: [wrk result] or a str reason."""

    def work(port, server):
        for path in ("/", "/json"):
            c.run_wrk(f"http://127.0.0.1:{port}{path}", duration="1s")
        cells = []
        for path, close in CELLS:
            before = server.cpu()
            r = c.run_wrk(f"http://127.0.0.1:{port}{path}", duration=duration, close=close)
            r["cpu_us"] = per_op_us(server.cpu() - before, r["requests"])
            c.log(f"  {path} {'close' if close else 'keep-alive'}: {r['rps']:,.0f} req/s,"
                  f" {fmt_us(r['cpu_us'])} µs CPU/request ({r['errors']} socket errors, {r['non2xx']} non-2xx)")
            cells.append(r)
        if not server.alive():
            return f"not available: died during the run: {server.tail()}"
        return cells

    return c.with_server("http", name, start, work, c.ROUTES)


def measure_ws(name, start, wsload, duration):
    """One echo server's wsload result (a dict) or a str reason."""

    def work(port, server):
        before = server.cpu()
        out = subprocess.run(
            [wsload, "-url", f"ws://127.0.0.1:{port}/", "-c", str(c.WRK_CONNECTIONS), "-d", duration],
            capture_output=True, text=True, timeout=120,
        )
        if out.returncode != 0:
            return f"not available: wsload failed: {(out.stderr or out.stdout).strip()[-300:]}"
        r = json.loads(out.stdout)
        # The CPU time covers wsload's warm-up too: divided by every
        # round trip, not only the timed window's.
        r["cpu_us"] = per_op_us(server.cpu() - before, r.get("all_round_trips", 0))
        c.log(f"  {r['messages_per_s']:,.0f} messages/s, {fmt_us(r['cpu_us'])} µs CPU/message")
        return r

    return c.with_server("ws", name, start, work)


def bench_http(tmp, festina, duration, rounds, history):
    """{name: [best wrk result per cell] or str reason}; every round's
    cells are appended to history[name]."""
    return c.in_rounds(
        http_servers(tmp, festina),
        rounds,
        lambda name, start: measure_http(name, start, duration),
        lambda new, old: [keep_best(n, o) for n, o in zip(new, old)],
        history,
    )


def spread_note(history):
    """A sentence on how far one server's cell moved between rounds."""
    worst = None
    for name, runs in history.items():
        if len(runs) < 2:
            continue
        for i, title in enumerate(CELL_TITLES):
            rates = [run[i]["rps"] for run in runs]
            ratio = max(rates) / min(rates) if min(rates) else float("inf")
            if worst is None or ratio > worst[0]:
                worst = (ratio, name, title, min(rates), max(rates))
    if worst is None:
        return None
    ratio, name, title, lo, hi = worst
    return (f"Between rounds the same server's cell moved by up to {ratio:.1f}x ({name}, {title}:"
            f" {c.fmt_rate(lo)} to {c.fmt_rate(hi)} req/s): differences smaller than that are within"
            " this run's noise.")


def cpu_spread_note(history):
    """A sentence on how far the CPU time per request moved between rounds
    (keep-alive cells and close cells apart), or None."""
    worst = {}
    for name, runs in history.items():
        if len(runs) < 2:
            continue
        for i, (_path, close) in enumerate(CELLS):
            cpus = [run[i].get("cpu_us") for run in runs]
            if any(x is None for x in cpus) or not min(cpus):
                continue
            ratio = max(cpus) / min(cpus)
            if ratio > worst.get(close, (0,))[0]:
                worst[close] = (ratio, name, CELL_TITLES[i])
    if not worst:
        return None
    parts = [f"{'close' if close else 'keep-alive'} cells by up to {r:.2f}x ({name}, {title})"
             for close, (r, name, title) in sorted(worst.items())]
    return ("Between rounds the CPU time per request of the same server's cell moved: "
            + "; ".join(parts) + ".")


def bench_ws(tmp, festina, duration, rounds):
    """{name: best wsload result or str reason}."""
    wsload = c.go_build(os.path.join(c.NET, "wsload.go"), os.path.join(tmp, "wsload"))
    go_echo = c.go_build(os.path.join(c.NET, "go_ws_echo.go"), os.path.join(tmp, "go_ws_echo"))
    bun = c.tool("bun")
    servers = [
        ("Festina", festina and (lambda p: c.Server("Festina", [festina, os.path.join(c.NET, "ws_echo.f"), str(p)], env=LOOPBACK))),
        ("Bun (`Bun.serve` websocket)", lambda p: c.Server("Bun", [bun, os.path.join(c.NET, "bun_ws_echo.js"), str(p)])),
        ("Go (gorilla/websocket, GOMAXPROCS=1)", lambda p: c.Server("Go", [go_echo, str(p)], env={"GOMAXPROCS": "1"})),
    ]
    return c.in_rounds(
        servers,
        rounds,
        lambda name, start: measure_ws(name, start, wsload, duration),
        keep_best_ws,
    )


def keep_best_ws(new, old):
    """The faster round, with the lower CPU time per message of the two."""
    best = dict(new if new["messages_per_s"] > old["messages_per_s"] else old)
    cpus = [x["cpu_us"] for x in (new, old) if x.get("cpu_us") is not None]
    best["cpu_us"] = min(cpus) if cpus else None
    return best


def cell_text(r):
    extra = []
    if r["errors"]:
        extra.append(f"{r['errors']} socket errors")
    if r["non2xx"]:
        extra.append(f"{r['non2xx']} non-2xx")
    return c.fmt_rate(r["rps"]) + (f" ({', '.join(extra)})" if extra else "")


def ratio_rows(results, base_name, invert):
    """Rows of base ÷ peer (invert=False) or peer ÷ base (invert=True)."""
    base = results[base_name]
    rows = []
    for name, cells in results.items():
        if name == base_name or not isinstance(cells, list):
            continue
        ratios = [
            c.fmt_ratio(cell["rps"], b["rps"]) if invert else c.fmt_ratio(b["rps"], cell["rps"])
            for cell, b in zip(cells, base)
        ]
        rows.append([name, *ratios])
    return rows


def report(http, ws, args, festina):
    duration = args.duration
    lines = []
    fest_http = isinstance(http.get("Festina"), list) if http else False
    fest_ws = isinstance(ws.get("Festina"), dict) if ws else False
    if (http and not fest_http) or (ws and not fest_ws):
        lines.append("**Peers only where Festina says \"not available\": HTTP peers, measured before the"
                     " Festina server exists. Only ratios among the rows of this one run mean anything.**")
        lines.append("")
    cmd = "python3 benches/net/run.py" + (f" --rounds {args.rounds}" if args.rounds != 1 else "") + (
        f" --duration {duration}" if duration != "5s" else "") + (f" --only {args.only}" if args.only != "http,ws" else "")
    lines.append(f"Run on {c.now_utc()}, {c.machine()}, 1-minute load average {args.load} at the start (shared with"
                 f" other work: noisy), by `{cmd}`. Load: `wrk -t{c.WRK_THREADS} -c{c.WRK_CONNECTIONS}"
                 f" -d{duration}` per cell after an untimed 1 s warm-up per route; close cells add"
                 " `-H 'Connection: close'`. wrk and the server share the machine's cores."
                 + (f" Every server was measured in {args.rounds} rounds (order rotated, each round a fresh"
                    " start); each cell shows its best round." if args.rounds > 1 else ""))
    lines.append("")
    lines.append(f"Versions: {c.version([c.tool('wrk'), '-v']).split(' Copyright')[0]}; {c.version([c.tool('nginx'), '-v'])};"
                 f" Bun {c.version([c.tool('bun'), '--version'])}; Node.js {c.version([c.tool('node'), '--version'])};"
                 f" {c.version([c.tool('go'), 'version'])}"
                 + (f"; festina {festina}" if festina else "") + ".")
    if http:
        lines += ["", "### HTTP server: requests/s", ""]
        rows = []
        for name, cells in http.items():
            rows.append([name, *(cell_text(x) for x in cells)] if isinstance(cells, list) else [name, cells, "", "", ""])
        lines.append(c.table(["server", *CELL_TITLES], rows))
        note = spread_note(args.history)
        if note:
            lines += ["", note]
        if fest_http:
            lines += ["", "Festina ÷ peer (above 1: Festina is faster; targets: above 1 against Node.js, Bun and"
                      " Go in every cell, keep-alive `/` at least 0.9 against nginx):", ""]
            lines.append(c.table(["peer", *CELL_TITLES], ratio_rows(http, "Festina", invert=False)))
        else:
            for base in ("nginx (1 worker)", "Bun (`Bun.serve`)"):
                if isinstance(http.get(base), list):
                    lines += ["", f"Ratios among the peers: peer ÷ {base}:", ""]
                    lines.append(c.table(["peer", *CELL_TITLES], ratio_rows(http, base, invert=True)))
        lines += ["", "### HTTP server: CPU time per request (µs)", "",
                  "The server's own CPU time (user + system, its process and children, all threads, from"
                  " /proc) over each cell's timed window divided by the requests answered in it"
                  + (f" (of the {args.rounds} rounds, the lower). " if args.rounds > 1 else ". ")
                  + "It depends much less than requests/s on how much of the shared machine the server got"
                  " (not at all on wrk's share), so it compares the servers' cost where the rates are noise;"
                  " a busier server still pays a little less per request (more requests per wake-up)."
                  " Lower is better.", ""]
        rows = []
        for name, cells in http.items():
            if isinstance(cells, list):
                rows.append([name, *(fmt_us(x.get("cpu_us")) for x in cells)])
        lines.append(c.table(["server", *CELL_TITLES], rows))
        note = cpu_spread_note(args.history)
        if note:
            lines += ["", note]
        if fest_http:
            lines += ["", "Peer ÷ Festina (above 1: Festina uses less CPU per request):", ""]
            base = http["Festina"]
            rows = []
            for name, cells in http.items():
                if name == "Festina" or not isinstance(cells, list):
                    continue
                rows.append([name, *(
                    c.fmt_ratio(x["cpu_us"], b["cpu_us"]) if x.get("cpu_us") and b.get("cpu_us") else "—"
                    for x, b in zip(cells, base))])
            lines.append(c.table(["peer", *CELL_TITLES], rows))
    if ws:
        lines += ["", f"### WebSocket echo: messages/s ({c.WRK_CONNECTIONS} connections, one message in flight"
                  f" per connection, 32-byte text messages, {duration} after a 1 s warm-up; load client"
                  " `benches/net/wsload.go`)", ""]
        base = ws.get("Festina") if fest_ws else ws.get("Bun (`Bun.serve` websocket)")
        base_name = "Festina ÷ server" if fest_ws else "server ÷ Bun"
        rows = []
        for name, r in ws.items():
            if isinstance(r, dict):
                ratio = "—"
                if isinstance(base, dict):
                    ratio = (c.fmt_ratio(base["messages_per_s"], r["messages_per_s"]) if fest_ws
                             else c.fmt_ratio(r["messages_per_s"], base["messages_per_s"]))
                rows.append([name, c.fmt_rate(r["messages_per_s"]), ratio, fmt_us(r.get("cpu_us"))])
            else:
                rows.append([name, r, "", ""])
        lines.append(c.table(["server", "messages/s", base_name, "server CPU µs per message"], rows))
        lines += ["", "Server CPU per message: the server's CPU time over the whole wsload run (warm-up"
                  " included) divided by every round trip in it, as for HTTP; lower is better."]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="http,ws", help="comma-separated: http, ws")
    ap.add_argument("--duration", default="5s", help="wrk/wsload timed window (default 5s)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="measure every server this many times, order rotated, keeping the best (default 1)")
    c.festina_args(ap)
    args = ap.parse_args()
    only = set(args.only.split(","))
    args.load = c.loadavg()
    c.require("wrk", "nginx", "go", "node", "bun")
    festina = c.build_festina(args.festina, build=not args.no_build)
    with tempfile.TemporaryDirectory(prefix="festina-net-") as tmp:
        os.chmod(tmp, 0o755)
        args.history = {}
        http = bench_http(tmp, festina, args.duration, args.rounds, args.history) if "http" in only else {}
        ws = bench_ws(tmp, festina, args.duration, args.rounds) if "ws" in only else {}
    text = report(http, ws, args, festina and os.path.relpath(festina, c.ROOT))
    c.publish(args, SECTION, text)


if __name__ == "__main__":
    main()
