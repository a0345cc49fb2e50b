//! Shared helpers of the network tests: Festina servers started on a free
//! port of 127.0.0.1 (the program gets the port as `argv[1]`), and small
//! HTTP/1.1 and WebSocket clients over raw `TcpStream`s. Every wait is
//! bounded (generous timeouts, no sleeps standing in for a signal).

#![allow(dead_code)]

use std::fs;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// How long any single wait of a test may take before it fails.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub fn festina() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_festina"))
}

/// A fresh directory, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let path = std::env::temp_dir().join(format!(
            "festina-net-test-{}-{n}-{label}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn write(&self, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        fs::write(&path, text).expect("write file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// How many registrations with process `pid`'s epoll instances its TCP
/// sockets have whose local port is `local` (any, if `None`) and whose
/// remote port is `remote` (a socket in two epoll instances counts
/// twice); `None` where `/proc` cannot tell (not Linux). Reads
/// `/proc/net/tcp{,6}` for the sockets' inodes, `/proc/PID/fd` for their
/// descriptors and the epoll descriptors' `fdinfo` (`tfd: N ...` lines)
/// for what each instance holds.
pub fn polled_sockets(pid: u32, local: Option<u16>, remote: u16) -> Option<usize> {
    let mut inodes = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = fs::read_to_string(table) else {
            continue;
        };
        for l in text.lines().skip(1) {
            let f: Vec<&str> = l.split_whitespace().collect();
            let port_of = |a: &str| u16::from_str_radix(a.rsplit(':').next()?, 16).ok();
            let (Some(l_port), Some(r_port)) = (port_of(f[1]), port_of(f[2])) else {
                continue;
            };
            if r_port == remote && local.is_none_or(|p| p == l_port) {
                inodes.push(format!("socket:[{}]", f[9]));
            }
        }
    }
    let mut fds = Vec::new();
    for e in fs::read_dir(format!("/proc/{pid}/fd")).ok()?.flatten() {
        let target = fs::read_link(e.path()).unwrap_or_default();
        if inodes.iter().any(|i| *i == target.to_string_lossy()) {
            fds.push(e.file_name().to_string_lossy().into_owned());
        }
    }
    let mut count = 0;
    for e in fs::read_dir(format!("/proc/{pid}/fdinfo")).ok()?.flatten() {
        let info = fs::read_to_string(e.path()).unwrap_or_default();
        for l in info.lines().filter(|l| l.starts_with("tfd:")) {
            if l.split_whitespace()
                .nth(1)
                .is_some_and(|fd| fds.iter().any(|f| f == fd))
            {
                count += 1;
            }
        }
    }
    Some(count)
}

/// A free TCP port on 127.0.0.1 (bound and released: another process
/// could take it meanwhile, which [`Server::start`] retries), chosen
/// below the kernel's ephemeral range. A port from that range (what
/// binding port 0 gives) could meanwhile become the local end of some
/// test's outgoing connection: the server's `openPort` then fails, which
/// is silent (§19.1), and the server never listens. Below the range only
/// another `free_port` can take it.
pub fn free_port() -> u16 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let low = fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|r| r.split_whitespace().next()?.parse::<u32>().ok())
        .unwrap_or(32768);
    let base = low.saturating_sub(12_000).max(1024);
    let span = low.saturating_sub(base);
    if span >= 1000 {
        // Start at a point that differs between test processes.
        let seed = std::process::id().wrapping_mul(7919) % span;
        let _ = NEXT.compare_exchange(0, seed + 1, Ordering::Relaxed, Ordering::Relaxed);
        for _ in 0..span {
            let k = NEXT.fetch_add(1, Ordering::Relaxed) % span;
            let port = (base + k) as u16;
            if TcpListener::bind(("127.0.0.1", port)).is_ok() {
                return port;
            }
        }
    }
    let l = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    l.local_addr().expect("local addr").port()
}

/// How a server is started.
pub struct Options<'a> {
    /// Extra arguments after the port.
    pub args: &'a [&'a str],
    /// Environment variables.
    pub env: &'a [(&'a str, &'a str)],
    /// Run this executable (a bundle) instead of `festina program.f`.
    pub exe: Option<&'a Path>,
    /// Listen on 127.0.0.1 only (`FESTINA_HTTP_HOST`); off: every
    /// interface, IPv6 and IPv4.
    pub loopback_only: bool,
    /// Files to put beside the program.
    pub files: &'a [(&'a str, &'a [u8])],
    /// Give the port in the environment variable `PORT` (the flagship
    /// programs' convention) instead of as the first argument.
    pub port_in_env: bool,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            args: &[],
            env: &[],
            exe: None,
            loopback_only: true,
            files: &[],
            port_in_env: false,
        }
    }
}

/// A running Festina server.
pub struct Server {
    child: Option<Child>,
    pub port: u16,
    pub dir: TempDir,
}

/// What a stopped server did.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Server {
    /// Start `source` with default options.
    pub fn start(source: &str) -> Server {
        Server::start_with(source, Options::default())
    }

    /// Start `source` (as `main.f` in a fresh directory) and wait until
    /// its port accepts connections.
    pub fn start_with(source: &str, opts: Options) -> Server {
        let dir = TempDir::new("server");
        dir.write("main.f", source);
        for (name, bytes) in opts.files {
            dir.write(name, bytes);
        }
        let mut last_err = String::new();
        for _ in 0..5 {
            let port = free_port();
            let mut cmd = match opts.exe {
                Some(exe) => Command::new(exe),
                None => {
                    let mut c = Command::new(festina());
                    c.arg("main.f");
                    c
                }
            };
            if opts.port_in_env {
                cmd.env("PORT", port.to_string());
            } else {
                cmd.arg(port.to_string());
            }
            cmd.args(opts.args)
                .current_dir(dir.path())
                .stdin(Stdio::null())
                .stdout(fs::File::create(dir.path().join("stdout")).expect("stdout file"))
                .stderr(fs::File::create(dir.path().join("stderr")).expect("stderr file"));
            if opts.loopback_only {
                cmd.env("FESTINA_HTTP_HOST", "127.0.0.1");
            }
            for (k, v) in opts.env {
                cmd.env(k, v);
            }
            let mut child = cmd.spawn().expect("start the server");
            let deadline = Instant::now() + PATIENCE;
            loop {
                if let Ok(Some(_)) = child.try_wait() {
                    last_err = fs::read_to_string(dir.path().join("stderr")).unwrap_or_default();
                    break;
                }
                if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                    // Something listens; it is ours only if the kernel
                    // says so: the port may have gone to another process
                    // (or test) since it was free, and then our
                    // `openPort` is a silent no-op (tests/support/
                    // listener.rs). Not ours: try another port.
                    match crate::listener::owns_listener(child.id(), port) {
                        Some(true) | None => {
                            if let Ok(None) = child.try_wait() {
                                return Server {
                                    child: Some(child),
                                    port,
                                    dir,
                                };
                            }
                        }
                        Some(false) => {
                            let _ = child.kill();
                            let _ = child.wait();
                            last_err = format!("port {port} was taken by another process");
                            break;
                        }
                    }
                }
                if Instant::now() > deadline {
                    let _ = child.kill();
                    panic!("the server never listened on port {port}");
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        panic!("the server did not start: {last_err}");
    }

    /// A connection to the server, with read and write timeouts.
    pub fn connect(&self) -> TcpStream {
        connect(self.port)
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// Send `sig` to the server.
    pub fn signal(&self, sig: i32) {
        // SAFETY: kill(2) on our own child's pid with a valid signal.
        let rc = unsafe { libc::kill(self.pid() as i32, sig) };
        assert_eq!(rc, 0, "kill failed");
    }

    /// Everything the program printed so far.
    pub fn stdout(&self) -> String {
        fs::read_to_string(self.dir.path().join("stdout")).unwrap_or_default()
    }

    /// Wait until the program printed `needle` (at most [`PATIENCE`]).
    pub fn wait_for_stdout(&self, needle: &str) {
        let deadline = Instant::now() + PATIENCE;
        while !self.stdout().contains(needle) {
            assert!(
                Instant::now() < deadline,
                "the program never printed {needle:?}; it printed {:?}",
                self.stdout()
            );
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Wait for the program to end by itself (at most [`PATIENCE`]).
    pub fn wait(mut self) -> Finished {
        let mut child = self.child.take().expect("running");
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(s) = child.try_wait().expect("wait") {
                break s;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "the server did not end; stdout {:?}",
                    fs::read_to_string(self.dir.path().join("stdout"))
                );
            }
            thread::sleep(Duration::from_millis(10));
        };
        Finished {
            status,
            stdout: fs::read_to_string(self.dir.path().join("stdout")).unwrap_or_default(),
            stderr: fs::read_to_string(self.dir.path().join("stderr")).unwrap_or_default(),
        }
    }

    /// Stop the server with `SIGTERM` and wait for it.
    pub fn stop(self) -> Finished {
        self.signal(libc::SIGTERM);
        self.wait()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let early = c.try_wait().ok().flatten();
            let _ = c.kill();
            let _ = c.wait();
            // A failing test shows what the server said and whether it
            // had ended by itself (its files go with the directory).
            if thread::panicking() {
                eprintln!(
                    "server on port {} ({}): stdout {:?}, stderr {:?}",
                    self.port,
                    early.map_or("still running".into(), |s| format!("ended by itself: {s}")),
                    self.stdout(),
                    fs::read_to_string(self.dir.path().join("stderr")).unwrap_or_default()
                );
            }
        }
    }
}

/// A connection to 127.0.0.1:`port` with generous timeouts.
pub fn connect(port: u16) -> TcpStream {
    let s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(PATIENCE)).expect("timeout");
    s.set_write_timeout(Some(PATIENCE)).expect("timeout");
    s
}

/// A parsed response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The first header named `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// How many headers are named `name`.
    pub fn count(&self, name: &str) -> usize {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .count()
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Read one request from a test upstream's connection: its head and its
/// `Content-Length` body; the request's path, or `None` when the client
/// closed the connection (or sent something unreadable).
pub fn read_request_path(r: &mut impl BufRead) -> Option<String> {
    let mut line = String::new();
    if r.read_line(&mut line).unwrap_or(0) == 0 {
        return None;
    }
    let mut length = 0;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).unwrap_or(0) == 0 {
            return None;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            if n.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0; length];
    r.read_exact(&mut body).ok()?;
    Some(line.split(' ').nth(1).unwrap_or("").to_string())
}

/// Read one response (`head`: the request was `HEAD`, no body follows).
pub fn read_response(r: &mut impl BufRead, head: bool) -> io::Result<Response> {
    let mut line = String::new();
    if r.read_line(&mut line)? == 0 {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    let status: u16 = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, line.clone()))?;
    let mut headers = Vec::new();
    loop {
        let mut l = String::new();
        r.read_line(&mut l)?;
        let l = l.trim_end_matches(['\r', '\n']);
        if l.is_empty() {
            break;
        }
        let (n, v) = l.split_once(':').unwrap_or((l, ""));
        headers.push((n.to_string(), v.trim().to_string()));
    }
    let mut resp = Response {
        status,
        headers,
        body: Vec::new(),
    };
    if head || status == 204 || status == 304 || status < 200 {
        return Ok(resp);
    }
    match resp.header("content-length").map(|v| v.parse::<usize>()) {
        Some(Ok(n)) => {
            resp.body = vec![0; n];
            r.read_exact(&mut resp.body)?;
        }
        _ => {
            r.read_to_end(&mut resp.body)?;
        }
    }
    Ok(resp)
}

/// Send `raw` on a fresh connection and read one response.
pub fn exchange(port: u16, raw: &str) -> Response {
    let mut s = connect(port);
    s.write_all(raw.as_bytes()).expect("send");
    let mut r = BufReader::new(s);
    read_response(&mut r, raw.starts_with("HEAD ")).expect("response")
}

/// `GET path` on a fresh connection that asks to close.
pub fn get(port: u16, path: &str) -> Response {
    exchange(
        port,
        &format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"),
    )
}

/// Whether the server closed `s` (reads to the end, at most
/// [`PATIENCE`]): returns the bytes received before the end.
pub fn read_until_closed(s: &mut TcpStream) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return out,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::ConnectionReset => return out,
            Err(e) => panic!("the server did not close the connection: {e}"),
        }
    }
}

/// Send `raw` on a fresh connection and return everything until the
/// server closes it.
pub fn send_and_read_all(port: u16, raw: &[u8]) -> Vec<u8> {
    let mut s = connect(port);
    s.write_all(raw).expect("send");
    let _ = s.shutdown(Shutdown::Write);
    read_until_closed(&mut s)
}

/// The status of the first response in `bytes`.
pub fn status_of(bytes: &[u8]) -> Option<u16> {
    let text = String::from_utf8_lossy(bytes);
    text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

/// Resident memory of process `pid`, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// Raise this process's descriptor limit to at least `n` (children
/// inherit it); returns the limit in effect.
pub fn raise_fd_limit(n: u64) -> u64 {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit with a valid pointer to an rlimit.
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim);
        if lim.rlim_cur < n {
            lim.rlim_cur = n.min(lim.rlim_max);
            libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
            libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim);
        }
    }
    lim.rlim_cur
}

/// Whether `tool` is on PATH.
pub fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Run the Python `script` with the port as its one argument; its
/// standard output (it must succeed).
pub fn python(script: &str, port: u16) -> String {
    let out = Command::new("python3")
        .args(["-c", script, &port.to_string()])
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `festina compile name.f -o name` of `source` in `dir`: the bundle's
/// path (the compile must succeed).
pub fn compile_bundle(dir: &TempDir, name: &str, source: &str) -> PathBuf {
    dir.write(&format!("{name}.f"), source);
    let out = Command::new(festina())
        .args(["compile", &format!("{name}.f"), "-o", name])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.path().join(name)
}

/// An upstream on 127.0.0.1 that answers each request with `PATH on N`
/// (N: its connection's number, from 0) and, after the first answer on
/// its first connection, waits `delay` and sends a whole response nobody
/// asked for (body `STRAY!`), then says so on `wrote`. Returns its port.
pub fn stray_upstream(delay: Duration, wrote: Option<std::sync::mpsc::Sender<()>>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    thread::spawn(move || {
        for (conn, stream) in listener.incoming().enumerate() {
            let Ok(stream) = stream else { continue };
            let wrote = wrote.clone();
            thread::spawn(move || {
                let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
                let Ok(mut w) = stream.try_clone() else {
                    return;
                };
                let mut r = BufReader::new(stream);
                for n in 0.. {
                    let Some(path) = read_request_path(&mut r) else {
                        return;
                    };
                    let text = format!("{path} on {conn}");
                    let answer = format!(
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{text}",
                        text.len()
                    );
                    if w.write_all(answer.as_bytes()).is_err() {
                        return;
                    }
                    if n == 0 && conn == 0 {
                        thread::sleep(delay);
                        let _ = w.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nSTRAY!");
                        if let Some(tx) = &wrote {
                            let _ = tx.send(());
                        }
                    }
                }
            });
        }
    });
    port
}
