#!/usr/bin/env python3
"""The thread benchmarks' peer comparisons (issue 15), Festina side by side
with its peers in one run:

    python3 benches/net/threads/run.py            # all three, writes benches/RESULTS.md
    python3 benches/net/threads/run.py --only roundtrip --messages 200000 --no-write

Message round trip: main sends a message (`{id, text}`) to one worker,
which sends it back; messages/s over `--messages` round trips (default
100,000), in two modes: `pingpong` (one message in flight) and `burst`
(all posted at once, then every reply awaited). Each program times its own
loop (`loop_ms=…` on stderr; Festina, which writes stderr only through
`fail()`, prints it as the last line of stdout, which is taken off) and prints `round trips N, last id N-1`,
which must be the same for all. One untimed warm-up, then `--runs` runs
(default 3, order rotated); the minimum is kept. Peers: Go (channels,
threads/roundtrip.go) and Bun (Worker + postMessage, threads/roundtrip.js);
Festina: threads/roundtrip.f, run as `festina roundtrip.f MODE N`.

Reverse proxy: an upstream (nginx, one worker, the `/` route of
benches/net/nginx.conf.in) on a free 127.0.0.1 port, and in front of it
nginx with `proxy_pass` (one worker, upstream keep-alive on,
threads/nginx_proxy.conf.in) and the Festina proxy (examples/threaded_proxy.f, run as
`festina examples/threaded_proxy.f PORT UPSTREAM_URL`, with UPSTREAM_URL also in the
environment as UPSTREAM). After a check that `/` comes back as
`Hello, World!` and a 1 s untimed warm-up, `wrk -t2 -c50 -d5s` on `/`
(keep-alive) against each proxy, and against the upstream alone for
reference.

CPU-bound route (the mission documents' "single-threaded vs. thread
pool"): threads/slow_single.f answers `/` and computes `/slow` (about
2,000,000 iterations of a polynomial hash) on its one event loop;
threads/slow_pool.f answers `/` on main and hands `/slow` to `thread
pool[]` (one instance per CPU) with `giveRequest`. `wrk -t2 -c50` on each
route of each server, best of `--rounds`; the table gives the pool's
speed-up.

The Festina programs come with the threads battery; while one does not exist
or does not answer correctly, its row says "not available" with the reason.
Tools come from benches/setup.sh.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import common as c  # noqa: E402

SECTION = "Threads: message round trip and reverse proxy"
MODES = ("pingpong", "burst")
FESTINA = "Festina (thread, `postMessage` + `reply`)"


def roundtrip_programs(tmp, festina):
    progs = []
    src = os.path.join(HERE, "roundtrip.f")
    if not festina:
        progs.append((FESTINA, None, "no festina binary"))
    elif not os.path.exists(src):
        progs.append((FESTINA, None, "benches/net/threads/roundtrip.f does not exist yet (the threads battery provides it)"))
    else:
        progs.append((FESTINA, [festina, src], None))
    go = c.go_build(os.path.join(HERE, "roundtrip.go"), os.path.join(tmp, "roundtrip-go"))
    progs.append(("Go (goroutine + channels)", [go], None))
    progs.append(("Bun (Worker + `postMessage`)", [c.tool("bun"), os.path.join(HERE, "roundtrip.js")], None))
    return progs


def bench_roundtrip(tmp, festina, n, runs):
    """{name: {mode: loop ms} or str reason}."""
    results, runnable = {}, []
    for name, cmd, why in roundtrip_programs(tmp, festina):
        if cmd is None:
            results[name] = f"not available: {why}"
        else:
            results[name] = {m: [] for m in MODES}
            runnable.append((name, cmd))
    expected = f"round trips {n}, last id {n - 1}\n"
    for rnd in range(runs + 1):  # round 0 is the warm-up
        k = rnd % len(runnable)
        for name, cmd in runnable[k:] + runnable[:k]:
            for mode in MODES:
                if isinstance(results[name], str):
                    continue
                r = subprocess.run(cmd + [mode, str(n)], capture_output=True, text=True, timeout=300)
                m = re.search(r"loop_ms=([\d.]+)", r.stderr) or re.search(r"^loop_ms=([\d.]+)$", r.stdout, re.M)
                stdout = re.sub(r"^loop_ms=[\d.]+\n", "", r.stdout, flags=re.M)
                fail = None
                if r.returncode != 0:
                    fail = f"exit status {r.returncode}: {r.stderr.strip()[-300:]}"
                elif stdout != expected:
                    fail = f"output {stdout.strip()!r}, expected {expected.strip()!r}"
                elif not m:
                    fail = "no loop_ms=… on stderr"
                if fail:
                    results[name] = f"not available: {mode}: {fail}"
                    c.log(f"{name}: {results[name]}")
                    continue
                if rnd > 0:
                    results[name][mode].append(float(m.group(1)))
                    c.log(f"round {rnd}: {name} {mode}: {n / float(m.group(1)) * 1000:,.0f} messages/s")
    return {k: ({m: min(v[m]) for m in MODES} if isinstance(v, dict) else v) for k, v in results.items()}


def cpu_per_request(before, after, requests):
    """(user, system) CPU microseconds per request between two
    `cpu_split` readings, or None without requests."""
    if not requests:
        return None
    return tuple((a - b) * 1e6 / requests for a, b in zip(after, before))


def measure_proxy(name, start, duration, upstream):
    """One proxy's wrk result on `/` (keep-alive), or a str reason. Besides
    wrk's numbers: `cpu` and `upstream_cpu`, the (user, system) CPU
    microseconds per request of the proxy (all its threads and processes)
    and of the upstream during the timed run. Requests/s depend on how the
    two shared cores were divided among wrk, the upstream and the proxy;
    CPU per request says what each proxy itself costs."""

    def work(port, server):
        c.run_wrk(f"http://127.0.0.1:{port}/", duration="1s")
        before, up_before = server.cpu_split(), upstream.cpu_split()
        r = c.run_wrk(f"http://127.0.0.1:{port}/", duration=duration)
        r["cpu"] = cpu_per_request(before, server.cpu_split(), r["requests"])
        r["upstream_cpu"] = cpu_per_request(up_before, upstream.cpu_split(), r["requests"])
        c.log(f"  {r['rps']:,.0f} req/s, CPU per request: {fmt_cpu(r['cpu'])} µs, upstream {fmt_cpu(r['upstream_cpu'])} µs")
        return r

    return c.with_server("proxy", name, start, work, {"/": c.ROUTES["/"]})


def fmt_cpu(cpu):
    """`user + system` microseconds, or a dash."""
    return "—" if cpu is None else f"{cpu[0]:.1f} + {cpu[1]:.1f}"


UPSTREAM_ROW = "(the upstream alone: nginx `return 200`, 1 worker)"


def bench_proxy(tmp, festina, duration, rounds):
    """{name: best wrk result or str reason}, the upstream's own included."""
    up_port = c.free_port()
    upstream = c.nginx_server(tmp, up_port, os.path.join(c.NET, "nginx.conf.in"))
    up_url = f"http://127.0.0.1:{up_port}"
    try:
        why = c.wait_http(upstream, up_port)
        if why:
            sys.exit(f"the upstream did not start: {why}")
        src = os.path.join(c.ROOT, "examples", "threaded_proxy.f")
        fest_name = "Festina (`thread workers[4]`, `on request use workers`)"
        results = {}
        if not festina:
            results[fest_name] = "not available: no festina binary"
        elif not os.path.exists(src):
            results[fest_name] = "not available: examples/threaded_proxy.f does not exist"
        servers = [
            (fest_name, lambda p: c.Server("Festina", [festina, src, str(p), up_url], env={"UPSTREAM": up_url})),
            ("nginx `proxy_pass` (1 worker, upstream keep-alive)",
             lambda p: c.nginx_server(tmp, p, os.path.join(HERE, "nginx_proxy.conf.in"), {"@UPSTREAM@": str(up_port)})),
        ]
        servers = [(n, s) for n, s in servers if n not in results]
        results.update(c.in_rounds(servers, rounds, lambda n, s: measure_proxy(n, s, duration, upstream),
                                   lambda new, old: new if new["rps"] > old["rps"] else old))
        best = None
        for _ in range(rounds):
            c.log("proxy: the upstream alone")
            c.run_wrk(f"{up_url}/", duration="1s")
            before = upstream.cpu_split()
            r = c.run_wrk(f"{up_url}/", duration=duration)
            r["upstream_cpu"] = cpu_per_request(before, upstream.cpu_split(), r["requests"])
            best = r if best is None or r["rps"] > best["rps"] else best
        results[UPSTREAM_ROW] = best
        return results
    finally:
        upstream.stop()


SLOW_SERVERS = (
    ("Festina, single event loop (`slow_single.f`)", "slow_single.f"),
    ("Festina, `thread pool[]` + `giveRequest` (`slow_pool.f`)", "slow_pool.f"),
)


def bench_slow(festina, duration, rounds):
    """{server name: {route: best wrk result}} or str reasons."""
    results = {}
    for name, prog in SLOW_SERVERS:
        results[name] = {}
        for route in ("/", "/slow"):
            best = None
            for _ in range(rounds):
                def work(port, server, route=route):
                    c.run_wrk(f"http://127.0.0.1:{port}{route}", duration="1s")
                    r = c.run_wrk(f"http://127.0.0.1:{port}{route}", duration=duration)
                    c.log(f"  {route}: {r['rps']:,.0f} req/s")
                    return r
                r = c.with_server("slow", name,
                                  lambda p, prog=prog: c.Server("Festina", [festina, os.path.join(HERE, prog), str(p)]),
                                  work)
                if isinstance(r, str):
                    best = r
                    break
                best = r if best is None or r["rps"] > best["rps"] else best
            results[name][route] = best
    return results


def report_slow(slow, args):
    (single, _), (pool, _) = SLOW_SERVERS
    lines = ["", f"### CPU-bound route: requests/s (`wrk -t{c.WRK_THREADS} -c{c.WRK_CONNECTIONS} -d{args.duration}`"
             f" per route, keep-alive, after a 1 s warm-up; best of {args.rounds}; {os.cpu_count()} CPUs, so"
             f" `pool[]` has {max(1, (os.cpu_count() or 1))} instances)", ""]
    rows = []
    for name, _ in SLOW_SERVERS:
        r = slow.get(name, {})
        rows.append([name] + [c.fmt_rate(r[k]["rps"]) if isinstance(r.get(k), dict) else str(r.get(k)) for k in ("/", "/slow")])
    def ratio(route):
        a, b = slow.get(pool, {}).get(route), slow.get(single, {}).get(route)
        return c.fmt_ratio(a["rps"], b["rps"]) if isinstance(a, dict) and isinstance(b, dict) else "—"
    rows.append(["pool ÷ single", ratio("/"), ratio("/slow")])
    lines.append(c.table(["server", "`/`", "`/slow`"], rows))
    return lines


def report(rt, proxy, args, slow=None):
    lines = []
    fest_rt = isinstance(rt.get(FESTINA), dict) if rt else False
    fest_proxy = any(k.startswith("Festina") and isinstance(v, dict) for k, v in proxy.items())
    if (rt and not fest_rt) or (proxy and not fest_proxy):
        lines += ["**Peers only where Festina says \"not available\": measured before the Festina thread"
                  " programs exist. Only ratios among the rows of this one run mean anything.**", ""]
    lines.append(f"Run on {c.now_utc()}, {c.machine()}, 1-minute load average {args.load} at the start"
                 " (shared with other work: noisy), by"
                 f" `python3 benches/net/threads/run.py --messages {args.messages} --runs {args.runs}"
                 f" --duration {args.duration} --rounds {args.rounds}`.")
    lines.append("")
    lines.append(f"Versions: Bun {c.version([c.tool('bun'), '--version'])}; {c.version([c.tool('go'), 'version'])};"
                 f" {c.version([c.tool('nginx'), '-v'])}; {c.version([c.tool('wrk'), '-v']).split(' Copyright')[0]}.")
    if rt:
        lines += ["", f"### Message round trip main → worker → reply: messages/s ({args.messages:,} round trips,"
                  f" best of {args.runs} after a warm-up; each program times its own loop)", ""]
        base = rt.get(FESTINA) if fest_rt else rt.get("Go (goroutine + channels)")
        base_name = "Festina ÷ peer" if fest_rt else "peer ÷ Go"
        rows = []
        for name, r in rt.items():
            if isinstance(r, dict):
                rates = {m: args.messages / r[m] * 1000 for m in MODES}
                ratios = []
                for m in MODES:
                    if isinstance(base, dict):
                        b = args.messages / base[m] * 1000
                        ratios.append(c.fmt_ratio(b, rates[m]) if fest_rt else c.fmt_ratio(rates[m], b))
                    else:
                        ratios.append("—")
                rows.append([name, *(c.fmt_rate(rates[m]) for m in MODES), *ratios])
            else:
                rows.append([name, r, "", "", ""])
        lines.append(c.table(["program", "pingpong", "burst", f"pingpong {base_name}", f"burst {base_name}"], rows))
    if slow:
        lines += report_slow(slow, args)
    if proxy:
        lines += ["", f"### Reverse proxy: requests/s (`wrk -t{c.WRK_THREADS} -c{c.WRK_CONNECTIONS} -d{args.duration}`"
                  " on `/`, keep-alive, after a 1 s warm-up"
                  + (f"; best of {args.rounds} rounds, order rotated" if args.rounds > 1 else "") + ")", ""]
        fest = next((v for k, v in proxy.items() if k.startswith("Festina") and isinstance(v, dict)), None)
        rows = []
        for name, r in proxy.items():
            if isinstance(r, dict):
                rows.append([name, c.fmt_rate(r["rps"]) + (f" ({r['errors']} socket errors)" if r["errors"] else ""),
                             c.fmt_ratio(fest["rps"], r["rps"]) if fest else "—",
                             fmt_cpu(r.get("cpu")), fmt_cpu(r.get("upstream_cpu"))])
            else:
                rows.append([name, r, "", "", ""])
        lines.append(c.table(["server", "requests/s", "Festina ÷ row", "proxy CPU µs/request (user + system)",
                              "upstream CPU µs/request"], rows))
        lines += ["", "CPU per request is the process's (all threads; nginx: its worker) user and system time over"
                  " the timed run divided by the requests wrk counted. The three programs (wrk, upstream, proxy)"
                  " share two cores, so requests/s follow the sum of their CPU per request."]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="roundtrip,slow,proxy", help="comma-separated: roundtrip, slow, proxy")
    ap.add_argument("--messages", type=int, default=100000, help="round trips per run (default 100000)")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per program and mode (default 3)")
    ap.add_argument("--duration", default="5s", help="wrk timed window (default 5s)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="proxy: measure each server this many times, order rotated, keeping the best (default 1)")
    c.festina_args(ap)
    args = ap.parse_args()
    only = set(args.only.split(","))
    args.load = c.loadavg()
    c.require("wrk", "nginx", "go", "bun")
    festina = c.build_festina(args.festina, build=not args.no_build)
    with tempfile.TemporaryDirectory(prefix="festina-threads-") as tmp:
        os.chmod(tmp, 0o755)
        rt = bench_roundtrip(tmp, festina, args.messages, args.runs) if "roundtrip" in only else {}
        slow = bench_slow(festina, args.duration, args.rounds) if "slow" in only else {}
        proxy = bench_proxy(tmp, festina, args.duration, args.rounds) if "proxy" in only else {}
    text = report(rt, proxy, args, slow)
    c.publish(args, SECTION, text)


if __name__ == "__main__":
    main()
