#!/usr/bin/env python3
"""The flagship benchmark: three server programs of the mission documents
(a reverse proxy, SQLite behind a WebSocket, a CAPTCHA endpoint) in
Festina, Rust, Go and Bun, built, checked and loaded in one run.

    python3 benches/flagship/run.py               # build, check, load, write RESULTS.md
    python3 benches/flagship/run.py --no-write --only captcha --langs rust,go
    python3 benches/flagship/run.py --weather     # also E1's fetch-and-parse comparison

Steps (benches/flagship/README.md has the details):
1. build: the load tool and the Go peers (`go build -ldflags="-s -w"`,
   Debian's GOPATH packages), the Rust peers (`cargo build --release`,
   stripped, own workspace in rust/), the Bun peers (`bun build --compile`
   after `npm install` of @napi-rs/canvas), the Festina programs
   (`festina compile examples/flagship/<name>.f`). A missing toolchain or
   program is reported as "not available", never replaced by a number;
2. for each program and language: start the upstream (proxy only) and the
   server on 127.0.0.1 in a fresh working directory (ports come in the
   environment: PORT, UPSTREAM; the database file is readings.sqlite
   there), check that it answers equivalently (`loadgen check-*`; a
   failed check drops that row), load it with `loadgen` (20 connections
   or clients, 1 s untimed warm-up, 5 s timed), read its peak RSS
   (VmHWM) before stopping it;
3. print the tables and replace the section "Flagship server programs
   (benches/flagship/run.py)" of benches/RESULTS.md.

Speed is requests per second; each value is also shown as a percentage of
the average over the languages present (the mission documents'
presentation, which averages over all four).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import peers  # noqa: E402  (benches/peers.py)

ROOT = peers.ROOT
BUILD = os.path.join(HERE, ".build")
LANGS = ["festina", "rust", "go", "bun"]
TITLES = {"festina": "Festina", "rust": "Rust", "go": "Go", "bun": "Bun"}
PROGRAMS = {
    "proxy": {
        "title": "Reverse proxy (worker pool, keep-alive upstream)",
        "load": ("http", "/items/42"),
        "check": "check-proxy",
    },
    "wsdb": {
        "title": "SQLite behind a WebSocket",
        "load": ("ws", "/db"),
        "check": "check-ws",
    },
    "captcha": {
        "title": "CAPTCHA image endpoint (160x60 PNG)",
        "load": ("http", "/captcha"),
        "check": "check-captcha",
    },
}
TITLE = "Flagship server programs (benches/flagship/run.py)"
GO_ENV = {"GO111MODULE": "off", "GOPATH": "/usr/share/gocode", "GOFLAGS": ""}
log = peers.log


def sources(lang, prog):
    return {
        "festina": [os.path.join(ROOT, "examples", "flagship", f"{prog}.f")],
        "rust": [os.path.join(HERE, "rust", prog, "src", "main.rs")],
        "go": [os.path.join(HERE, "go", prog, "main.go")],
        "bun": [os.path.join(HERE, "bun", f"{prog}.js")],
    }[lang]


def run(cmd, cwd=None, env=None):
    """Run a build step; returns (ok, last lines of its output)."""
    log("$ " + " ".join(cmd))
    full_env = dict(os.environ, **(env or {}))
    p = subprocess.run(cmd, cwd=cwd, env=full_env, capture_output=True, text=True)
    out = (p.stdout + p.stderr).strip().splitlines()
    if p.returncode != 0:
        log("\n".join(out[-15:]))
    return p.returncode == 0, " ".join(out[-3:])


def build_loadgen():
    if shutil.which("go") is None:
        sys.exit("go is not installed (bash benches/setup.sh installs golang-go)")
    out = os.path.join(BUILD, "loadgen")
    ok, msg = run(["go", "build", "-o", out, "."], cwd=os.path.join(HERE, "loadgen"), env=GO_ENV)
    if not ok:
        sys.exit(f"building loadgen failed: {msg}")
    return out


def build(lang, progs, festina):
    """Build every program of one language. Returns {prog: path or 'not available: why'}."""
    built = {}
    if lang == "go":
        if shutil.which("go") is None:
            return {p: "not available: go is not installed" for p in progs}
        for p in progs:
            out = os.path.join(BUILD, f"go_{p}")
            ok, msg = run(["go", "build", "-ldflags=-s -w", "-o", out, "."], cwd=os.path.join(HERE, "go", p), env=GO_ENV)
            built[p] = out if ok else f"not available: go build failed: {msg}"
    elif lang == "rust":
        cmd = ["cargo", "build", "--release"] + [a for p in progs for a in ("-p", p)]
        ok, msg = run(cmd, cwd=os.path.join(HERE, "rust"))
        for p in progs:
            path = os.path.join(HERE, "rust", "target", "release", p)
            built[p] = path if ok else f"not available: cargo build failed: {msg}"
    elif lang == "bun":
        bun = peers.find_bun()
        if bun is None:
            return {p: "not available: bun is not installed (bash benches/setup.sh)" for p in progs}
        bundir = os.path.join(HERE, "bun")
        if "captcha" in progs and not os.path.isdir(os.path.join(bundir, "node_modules", "@napi-rs", "canvas")):
            run(["npm", "ci", "--no-audit", "--no-fund"], cwd=bundir)
        for p in progs:
            out = os.path.join(BUILD, f"bun_{p}")
            ok, msg = run([bun, "build", "--compile", f"{p}.js", "--outfile", out], cwd=bundir)
            built[p] = out if ok else f"not available: bun build failed: {msg}"
    elif lang == "festina":
        missing = [p for p in progs if not os.path.exists(sources("festina", p)[0])]
        for p in missing:
            built[p] = f"not available: examples/flagship/{p}.f does not exist yet"
        todo = [p for p in progs if p not in missing]
        exe = peers.find_festina(festina, build=bool(todo)) if todo else None
        for p in todo:
            if exe is None:
                built[p] = "not available: no festina binary"
                continue
            out = os.path.join(BUILD, f"festina_{p}")
            ok, msg = run([exe, "compile", sources("festina", p)[0], "-o", out])
            built[p] = out if ok else f"not available: festina compile failed: {msg}"
    return built


def measure(loadgen, prog, exe, args):
    """Start, check, load one server. Returns a dict, or {'error': why}."""
    spec = PROGRAMS[prog]
    port = peers.free_port()
    # FESTINA_HTTP_HOST: a Festina server listens on every interface unless
    # told one address (docs/net.md); the peers bind 127.0.0.1 in code.
    env = dict(os.environ, PORT=str(port), FESTINA_HTTP_HOST="127.0.0.1")
    procs = []
    with tempfile.TemporaryDirectory(prefix=f"flagship-{prog}-") as cwd:
        try:
            if prog == "proxy":
                up_port = peers.free_port()
                up = subprocess.Popen([loadgen, "upstream", "-addr", f"127.0.0.1:{up_port}",
                                       "-delay", f"{args.upstream_delay}ms"], cwd=cwd)
                procs.append(up)
                if not peers.wait_listening(up, up_port):
                    return {"error": "the upstream did not start"}
                env["UPSTREAM"] = f"http://127.0.0.1:{up_port}"
            errlog = open(os.path.join(cwd, "server.err"), "w")
            server = subprocess.Popen([exe], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=errlog)
            procs.append(server)
            if not peers.wait_listening(server, port):
                errlog.close()
                tail = open(os.path.join(cwd, "server.err")).read().strip()[-300:]
                return {"error": f"did not listen on 127.0.0.1:{port} (it must take its port from $PORT) {tail}"}
            scheme = "ws" if spec["load"][0] == "ws" else "http"
            base = f"{scheme}://127.0.0.1:{port}"
            check = [loadgen, spec["check"], "-url", base + ("/db" if prog == "wsdb" else "/captcha" if prog == "captcha" else "")]
            if prog == "proxy":
                check += ["-upstream", env["UPSTREAM"]]
            p = subprocess.run(check, capture_output=True, text=True, timeout=60)
            if p.returncode != 0:
                return {"error": "equivalence check failed: " + p.stderr.strip()[-300:]}
            mode, path = spec["load"]
            load = [loadgen, mode, "-url", base + path, "-c", str(args.connections),
                    "-d", f"{args.duration}s", "-warmup", f"{args.warmup}s"]
            log("$ " + " ".join(load))
            p = subprocess.run(load, capture_output=True, text=True, timeout=args.duration + args.warmup + 120)
            if p.returncode != 0:
                return {"error": "load failed: " + p.stderr.strip()[-300:]}
            r = json.loads(p.stdout)
            r["rss_kib"] = peers.peak_rss_kib(server.pid)
            if server.poll() is not None:
                return {"error": f"the server exited during the load (status {server.returncode})"}
            return r
        finally:
            for proc in reversed(procs):
                peers.stop(proc)


def fmt(v, digits=0):
    return "—" if v is None else f"{v:,.{digits}f}"


def pct(v):
    return "—" if v is None else f"{v:.0f}%"


def table(prog, rows):
    """rows: lang -> dict(rps, p50_ms, p99_ms, rss_kib, size, lines) or dict(error)."""
    langs = [lang for lang in rows if "error" not in rows[lang]]
    def col(key):
        vals = [rows[lang].get(key) if lang in langs else None for lang in rows]
        return dict(zip(rows, peers.percent_of_mean(vals)))
    speed, size, lines = col("rps"), col("size"), col("lines")
    out = [f"#### {PROGRAMS[prog]['title']}", "",
           "| | Requests/s | Speed (% of avg, higher is better) | p50 ms | p99 ms | Peak RSS MB | Binary MB | Binary (% of avg) | Lines | Lines (% of avg) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    notes = []
    for lang, r in rows.items():
        if "error" in r:
            out.append(peers.missing_row(TITLES[lang], r["error"].split(":")[0], 9))
            notes.append(f"- {TITLES[lang]}: {r['error']}")
            continue
        rss = None if r.get("rss_kib") is None else r["rss_kib"] / 1024
        out.append(f"| {TITLES[lang]} | {fmt(r['rps'])} | {pct(speed[lang])} | {fmt(r['p50_ms'], 2)} | {fmt(r['p99_ms'], 2)} | "
                   f"{fmt(rss, 1)} | {fmt(r['size'] / 1e6, 1)} | {pct(size[lang])} | {r['lines']} | {pct(lines[lang])} |")
        if r.get("errors"):
            notes.append(f"- {TITLES[lang]}: {r['errors']} failed round trips in the timed window")
    return out + [""] + notes + ([""] if notes else []), {"speed": speed, "size": size, "lines": lines}


def write(args, tables, summary, versions, festina_note):
    present = [lang for lang in LANGS if any(lang in s["speed"] and s["speed"][lang] is not None for s in summary)]
    lines = peers.header(TITLE) + [
        f"Command: `python3 benches/flagship/run.py` (load: `loadgen`, {args.connections} connections/clients, "
        f"{args.warmup:g} s untimed warm-up, {args.duration:g} s timed; HTTP over keep-alive connections, "
        "WebSocket clients each sending one reading and awaiting the reply in a loop).",
        "Toolchains: " + "; ".join(versions) + ".",
        "",
        "Percentages are each value against the average over the languages present in that table"
        + (f" — {festina_note}, so the averages are over the other three, not the mission's four." if festina_note else "."),
        "Speed above 100% is faster than the average; binary size and lines below 100% are smaller.",
        "",
        f"| Average over the {len(summary)} programs | " + " | ".join(TITLES[lang] for lang in present) + " |",
        "|---|" + "---:|" * len(present),
    ]
    for key, name in (("speed", "Speed"), ("size", "Binary size"), ("lines", "Code size (non-blank lines)")):
        cells = []
        for lang in present:
            vals = [s[key][lang] for s in summary if s[key].get(lang) is not None]
            cells.append(pct(sum(vals) / len(vals)) if vals else "—")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("")
    for t in tables:
        lines += t
    peers.publish(TITLE, lines, not args.no_write)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default=",".join(PROGRAMS), help="programs: proxy,wsdb,captcha")
    ap.add_argument("--langs", default=",".join(LANGS), help="languages: festina,rust,go,bun")
    ap.add_argument("--festina", help="festina binary (default: build target/release/festina)")
    ap.add_argument("--connections", type=int, default=20)
    ap.add_argument("--duration", type=float, default=5.0, help="timed seconds")
    ap.add_argument("--warmup", type=float, default=1.0, help="untimed warm-up seconds")
    ap.add_argument("--no-write", action="store_true", help="print, do not touch RESULTS.md")
    ap.add_argument("--weather", action="store_true", help="also run benches/net/fetch/ (fetch-and-parse)")
    ap.add_argument("--upstream-delay", type=float, default=0.0,
                    help="proxy: the upstream waits this many ms before each answer (a remote upstream's "
                         "round trip; 0, the default, is the mission's table); implies --no-write")
    args = ap.parse_args()
    if args.upstream_delay:
        args.no_write = True
    progs = [p for p in args.only.split(",") if p]
    langs = [lang for lang in args.langs.split(",") if lang]
    for p in progs:
        if p not in PROGRAMS:
            sys.exit(f"unknown program {p!r}")
    os.makedirs(BUILD, exist_ok=True)
    loadgen = build_loadgen()
    built = {lang: build(lang, progs, args.festina) for lang in langs}
    versions = [peers.version(["go", "version"]), peers.version(["rustc", "--version"])]
    bun = peers.find_bun()
    if bun:
        versions.append("bun " + peers.version([bun, "--version"]))
    tables, summary = [], []
    for prog in progs:
        rows = {}
        for lang in langs:
            exe = built[lang][prog]
            if exe.startswith("not available"):
                rows[lang] = {"error": exe}
                log(f"{prog:8} {lang:8} {exe}")
                continue
            r = measure(loadgen, prog, exe, args)
            if "error" not in r:
                r["size"] = os.path.getsize(exe)
                r["lines"] = peers.nonblank_lines(sources(lang, prog))
                log(f"{prog:8} {lang:8} {r['rps']:10,.0f} req/s  p50 {r['p50_ms']:.2f} ms  p99 {r['p99_ms']:.2f} ms  "
                    f"rss {r['rss_kib'] / 1024:.1f} MB  size {r['size'] / 1e6:.1f} MB  {r['lines']} lines")
            else:
                log(f"{prog:8} {lang:8} {r['error']}")
            rows[lang] = r
        t, s = table(prog, rows)
        tables.append(t)
        summary.append(s)
    fest_rows = [built["festina"][p] for p in progs] if "festina" in langs else []
    festina_note = None
    if fest_rows and all(r.startswith("not available") for r in fest_rows):
        festina_note = "Festina is not available (" + fest_rows[0].split(": ", 1)[1] + ")"
    write(args, tables, summary, versions, festina_note)
    if args.weather:
        runner = None
        for name in ("run.py", "run.sh"):
            path = os.path.join(ROOT, "benches", "net", "fetch", name)
            if os.path.exists(path):
                runner = path
        if runner is None:
            log("weather: benches/net/fetch/ has no runner: the fetch-and-parse comparison is not available")
        else:
            cmd = ([sys.executable] if runner.endswith(".py") else ["bash"]) + [runner]
            log("$ " + " ".join(cmd))
            subprocess.run(cmd, cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
