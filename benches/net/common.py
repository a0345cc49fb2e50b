"""Shared helpers of the network benchmark runners (benches/net/run.py,
benches/net/fetch/run.py, benches/net/threads/run.py).

Every server a runner starts listens on 127.0.0.1 only, on a port the
kernel picked as free, is started as a child process whose pid the runner
keeps, and is stopped by that pid (SIGTERM, then SIGKILL after 5 s). Tools
are looked up first in benches/.tools/bin (where benches/setup.sh puts Bun)
and then on PATH; a missing tool stops the runner with a pointer to
benches/setup.sh rather than dropping a row quietly.
"""

import datetime
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# machine(): the CPU, cores, memory and kernel line shared by every runner
# (benches/peers.py).
sys.path.insert(0, os.path.join(ROOT, "benches"))
from peers import machine  # noqa: E402
NET = os.path.join(ROOT, "benches", "net")
TOOLS_BIN = os.path.join(ROOT, "benches", ".tools", "bin")
RESULTS = os.path.join(ROOT, "benches", "RESULTS.md")

# The exact bodies of the two routes of the HTTP server benchmark, byte for
# byte, and their content types (benches/net/README.md).
TEXT_BODY = b"Hello, World!"
JSON_BODY = b'{"message":"Hello, World!","id":1}'
ROUTES = {
    "/": (TEXT_BODY, "text/plain"),
    "/json": (JSON_BODY, "application/json"),
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def tool(name):
    """Path of the executable `name` (benches/.tools/bin first), or None."""
    local = os.path.join(TOOLS_BIN, name)
    if os.access(local, os.X_OK):
        return local
    return shutil.which(name)


def require(*names):
    """Paths of the named tools; exits with a message if any is missing."""
    paths = [tool(n) for n in names]
    missing = [n for n, p in zip(names, paths) if p is None]
    if missing:
        sys.exit(f"missing {', '.join(missing)}: run `bash benches/setup.sh` (as root) first")
    return paths


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "?"


def loadavg():
    """The 1-minute load average, as text."""
    try:
        return open("/proc/loadavg").read().split()[0]
    except (OSError, IndexError):
        return "?"


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


# --- Festina -------------------------------------------------------------


def build_festina(path=None, build=True):
    """The festina binary: `path` if given, else target/release/festina,
    built first with `cargo build --release -p festina-cli` (fat LTO, the
    profile users get) unless `build` is false. None when there is none."""
    if path:
        return path if os.access(path, os.X_OK) else None
    if build:
        log("building festina (cargo build --release -p festina-cli)")
        r = subprocess.run(["cargo", "build", "--release", "-q", "-p", "festina-cli"], cwd=ROOT)
        if r.returncode != 0:
            log("festina did not build")
            return None
    binary = os.path.join(ROOT, "target", "release", "festina")
    return binary if os.access(binary, os.X_OK) else None


# --- processes -----------------------------------------------------------


class Server:
    """A server process started by a runner, stopped by its pid.

    `cmd` runs with stdout and stderr going to a temporary log file (read
    back by `tail()` when the server fails)."""

    def __init__(self, name, cmd, env=None, cwd=None):
        self.name = name
        self.cmd = cmd
        self.logf = tempfile.TemporaryFile(mode="w+")
        full_env = dict(os.environ)
        full_env.update(env or {})
        self.proc = subprocess.Popen(
            cmd,
            cwd=cwd or ROOT,
            env=full_env,
            stdin=subprocess.DEVNULL,
            stdout=self.logf,
            stderr=subprocess.STDOUT,
        )
        self.pid = self.proc.pid

    def alive(self):
        return self.proc.poll() is None

    def tail(self, n=3):
        """The first error line of its output, else its last `n` lines."""
        self.logf.seek(0)
        lines = [l.strip() for l in self.logf.read().splitlines() if l.strip()]
        errors = [l for l in lines if "error" in l.lower()]
        text = errors[0] if errors else " / ".join(lines[-n:])
        return text.replace(ROOT + os.sep, "")

    def cpu(self):
        """CPU seconds (user + system) used so far by the server: its
        process and every descendant alive now (nginx's worker), threads
        included; see `cpu_seconds`."""
        return cpu_seconds(self.pid)

    def cpu_split(self):
        """(user, system) CPU seconds, as `cpu()` counts them."""
        return cpu_split(self.pid)

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.kill(self.pid, signal.SIGKILL)
                self.proc.wait()
        self.logf.close()


def _stat_fields(pid):
    """The fields of /proc/PID/stat after the command name (field 3 on),
    or None when the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid` and of its descendants
    alive now (all their threads: /proc/PID/stat counts the whole thread
    group), from /proc; 0.0 off Linux. A server's CPU time per request is
    the difference over a load run divided by the requests it answered:
    unlike requests/s it does not depend on how much of the shared
    machine the server got during the run (wrk's own CPU is not in it)."""
    user, system = cpu_split(pid)
    return user + system


def cpu_split(pid):
    """(user, system) CPU seconds of process `pid` and of its descendants
    alive now, as `cpu_seconds` counts them; (0.0, 0.0) off Linux."""
    children = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return 0.0, 0.0
    for e in entries:
        if e.isdigit():
            f = _stat_fields(e)
            if f:
                children.setdefault(int(f[1]), []).append(int(e))
    tick = os.sysconf("SC_CLK_TCK")
    user, system, todo = 0, 0, [pid]
    while todo:
        p = todo.pop()
        f = _stat_fields(p)
        if f:
            user += int(f[11])  # utime (field 14)
            system += int(f[12])  # stime (field 15)
        todo += children.get(p, [])
    return user / tick, system / tick


def wait_http(server, port, path="/", timeout=15.0):
    """Wait until 127.0.0.1:`port` answers an HTTP GET of `path` (any
    status). Returns None when it does, or the reason it did not."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not server.alive():
            return f"exited with status {server.proc.returncode}: {server.tail() or 'no output'}"
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            conn.getresponse().read()
            conn.close()
            return None
        except (OSError, http.client.HTTPException):
            time.sleep(0.05)
    return f"no HTTP answer on 127.0.0.1:{port} within {timeout:.0f} s"


def http_get(port, path, headers=None):
    """(status, {lowercased header: value}, body bytes) of one GET."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        body = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, body
    finally:
        conn.close()


def with_server(label, name, start, work, routes=None):
    """Starts a server with `start(port)` on a free port, waits until it
    answers, checks `routes` (see check_routes) when given, and returns
    `work(port, server)`, or "not available: …" with the reason it did not
    get that far. The server is stopped by its pid in every case."""
    port = free_port()
    log(f"{label}: {name} on 127.0.0.1:{port}")
    server = start(port)
    try:
        why = wait_http(server, port)
        if why is None and routes:
            why = check_routes(port, routes)
            if why:
                why = f"wrong response: {why}"
        if why:
            return f"not available: {why}"
        return work(port, server)
    finally:
        server.stop()


def check_routes(port, routes=ROUTES):
    """None when every route answers 200 with its exact body and a
    content type starting with the expected one (over keep-alive and with
    `Connection: close`); else what differs."""
    for path, (body, ctype) in routes.items():
        for headers in ({}, {"Connection": "close"}):
            try:
                status, hdrs, got = http_get(port, path, headers)
            except (OSError, http.client.HTTPException) as e:
                return f"GET {path}: {e}"
            if status != 200:
                return f"GET {path}: status {status}"
            if got != body:
                return f"GET {path}: body {got[:80]!r}, expected {body!r}"
            if not hdrs.get("content-type", "").startswith(ctype):
                return f"GET {path}: content-type {hdrs.get('content-type')!r}, expected {ctype}"
    return None


def nginx_server(tmp, port, template, subst=None):
    """Starts nginx (in the foreground, logging to stderr) from the config
    template at `template`, with @PORT@, @DIR@ (a fresh directory under
    `tmp` for its pid and temporary files) and the `subst` pairs filled in."""
    d = tempfile.mkdtemp(prefix="nginx-", dir=tmp)
    os.chmod(d, 0o755)  # the workers run as an unprivileged user when root starts nginx
    text = open(template).read().replace("@PORT@", str(port)).replace("@DIR@", d)
    for key, value in (subst or {}).items():
        text = text.replace(key, value)
    conf = os.path.join(d, "nginx.conf")
    with open(conf, "w") as f:
        f.write(text)
    return Server("nginx", [tool("nginx"), "-p", d + "/", "-c", conf, "-e", "stderr", "-g", "daemon off;"])


def in_rounds(servers, rounds, measure, better, history=None):
    """Runs `measure(name, start)` for every server, `rounds` times with the
    order rotated each round, keeping per server the best result
    (`better(new, old)`); a server that fails once is reported with its
    reason and not run again. Every successful result is also appended to
    `history[name]` when a dict is given."""
    results = {name: (None if start else "not available: no festina binary") for name, start in servers}
    for rnd in range(rounds):
        k = rnd % len(servers)
        for name, start in servers[k:] + servers[:k]:
            if isinstance(results[name], str):
                continue
            r = measure(name, start)
            if history is not None and not isinstance(r, str):
                history.setdefault(name, []).append(r)
            if isinstance(r, str) or results[name] is None:
                results[name] = r
            else:
                results[name] = better(r, results[name])
            if isinstance(r, str):
                log(f"  {r}")
    return results


# --- wrk -----------------------------------------------------------------

WRK_THREADS = 2
WRK_CONNECTIONS = 50


def run_wrk(url, duration="5s", close=False, threads=WRK_THREADS, connections=WRK_CONNECTIONS):
    """One wrk run; returns {'rps': float, 'requests': int, 'errors': int,
    'non2xx': int, 'cmd': str}. `close` sends `Connection: close` on every request."""
    cmd = [tool("wrk"), f"-t{threads}", f"-c{connections}", f"-d{duration}"]
    if close:
        cmd += ["-H", "Connection: close"]
    cmd.append(url)
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if not m:
        raise RuntimeError(f"unexpected wrk output: {out!r}")
    errors = 0
    e = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if e:
        errors = sum(int(x) for x in e.groups())
    n = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    total = re.search(r"(\d+) requests in", out)
    return {
        "rps": float(m.group(1)),
        "requests": int(total.group(1)) if total else 0,
        "errors": errors,
        "non2xx": int(n.group(1)) if n else 0,
        "cmd": " ".join(["wrk", *cmd[1:]]),
    }


# --- Go ------------------------------------------------------------------

GOPATH = "/usr/share/gocode"  # Debian's golang-*-dev packages


def go_build(src, out):
    """Builds one Go file with Debian's Go packages (GOPATH mode: no
    module proxy); returns the binary path."""
    env = dict(os.environ, GO111MODULE="off", GOPATH=GOPATH, GOFLAGS="")
    env.setdefault("GOCACHE", os.path.join(tempfile.gettempdir(), "festina-bench-gocache"))
    subprocess.run([tool("go"), "build", "-o", out, src], check=True, env=env)
    return out


def cargo_build(project):
    """Builds a standalone cargo project (not a workspace member) in release;
    returns its target/release directory."""
    subprocess.run(
        ["cargo", "build", "--release", "-q", "--manifest-path", os.path.join(project, "Cargo.toml")],
        check=True,
    )
    return os.path.join(project, "target", "release")


# --- command line --------------------------------------------------------


def festina_args(ap):
    """Adds the options every network runner shares to the parser `ap`."""
    ap.add_argument("--festina", help="festina binary to use (default: build target/release/festina)")
    ap.add_argument("--no-build", action="store_true", help="use target/release/festina as it is")
    ap.add_argument("--no-write", action="store_true", help="print the section, do not write RESULTS.md")


def publish(args, title, text):
    """Prints a runner's section and, unless --no-write, writes it as the
    `## title` section of benches/RESULTS.md."""
    print(text)
    if not args.no_write:
        write_section(title, text)
        log(f"wrote the section '{title}' of {os.path.relpath(RESULTS, ROOT)}")


# --- results -------------------------------------------------------------


def fmt_rate(x):
    return f"{x:,.0f}"


def fmt_ratio(a, b):
    """a ÷ b as `1.23x` (three decimals below 0.1), or a dash."""
    if not (a and b):
        return "—"
    r = a / b
    return f"{r:.2f}x" if r >= 0.1 else f"{r:.3f}x"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def write_section(title, text):
    """Replace the `## title` section of benches/RESULTS.md (appending it
    when absent), leaving the other sections as they are."""
    doc = open(RESULTS).read() if os.path.exists(RESULTS) else "# Festina benchmark results\n"
    body = f"## {title}\n\n{text.strip()}\n\n"
    pat = re.compile(r"^## " + re.escape(title) + r"\n.*?(?=^## |\Z)", re.S | re.M)
    if pat.search(doc):
        doc = pat.sub(lambda _: body, doc, count=1)
    else:
        doc = doc.rstrip("\n") + "\n\n" + body
    with open(RESULTS, "w") as f:
        f.write(doc.rstrip("\n") + "\n")
