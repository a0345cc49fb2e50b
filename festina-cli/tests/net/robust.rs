//! Robustness (issue 13 item 7): each bad client over a raw socket gets
//! the right status and a closed connection, the server never crashes
//! and never mixes one client's data into another's answer.

use crate::common::*;
use crate::server::APP;
use std::io::{BufReader, Write};
use std::net::{Shutdown, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

/// Send `raw`, half-close, and return the status of the answer; the
/// server must close the connection.
fn refused(port: u16, raw: &[u8]) -> u16 {
    let all = send_and_read_all(port, raw);
    let text = String::from_utf8_lossy(&all);
    assert!(text.contains("Connection: close"), "{text}");
    status_of(&all).unwrap_or_else(|| panic!("no status in {text:?}"))
}

/// Check that a plain request still works afterwards.
fn still_serving(port: u16) {
    assert_eq!(get(port, "/").text(), "Hello, World!");
}

#[test]
fn malformed_requests_get_400() {
    let s = Server::start(APP);
    let cases: &[&[u8]] = &[
        b"GARBAGE\r\n\r\n",
        b"GET\r\n\r\n",
        b"GET / HTTP/1.1 extra\r\n\r\n",
        b"GET /a b HTTP/1.1\r\n\r\n",
        b"\x00\x01\x02\x03\r\n\r\n",
        b"GET / HTTP/1.1\r\nBad Header: x\r\n\r\n",
        b"GET / HTTP/1.1\r\n: novalue\r\n\r\n",
        b"GET / HTTP/1.1\r\nX(y): 1\r\n\r\n",
        b"GET / HTTP/1.1\r\nX: a\x01b\r\n\r\n",
        b"GET / HTTP/1.1\r\nX: a\rb\r\n\r\n",
        b"POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
        b"POST / HTTP/1.1\r\nContent-Length: 3,4\r\n\r\nabcd",
        b"POST / HTTP/1.1\r\nContent-Length: +3\r\n\r\nabc",
        b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nabc\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n\r\n",
        b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n",
        b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n0\r\n\r\n",
        // A body shorter than announced, then the end of the input.
        b"POST /echo HTTP/1.1\r\nContent-Length: 100\r\n\r\nonly this",
        // The input ends inside a head.
        b"GET / HTTP/1.1\r\nHost: x",
    ];
    for raw in cases {
        assert_eq!(
            refused(s.port, raw),
            400,
            "{:?}",
            String::from_utf8_lossy(raw)
        );
    }
    still_serving(s.port);
}

/// A handler routing by `parseURL(req.url).pathname`, the README's
/// idiom: a `Host` that would make the url unparseable (or move the path)
/// is refused with 400 before any handler runs, so no client can make the
/// handler throw and end the server; `OPTIONS *` and `CONNECT host:port`
/// get a url that parses too.
#[test]
fn hosts_that_would_break_the_url_get_400() {
    let s = Server::start(
        r#"
on request(req: http) {
    url u = parseURL(req.url)
    req.send({'body': `${u.hostname} ${u.pathname}`})
}
openPort(argv[1].toInt())
"#,
    );
    for host in [
        "[", "[::1", "a:x", "a:b:c", "a:-1", "a:99999", "a/b", "a?b#c", "a@b", "a b",
    ] {
        let raw = format!("GET /p HTTP/1.1\r\nHost: {host}\r\n\r\n");
        assert_eq!(refused(s.port, raw.as_bytes()), 400, "Host: {host}");
    }
    assert_eq!(
        refused(s.port, b"GET /p HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
        400
    );
    assert_eq!(
        refused(s.port, b"GET http://[/x HTTP/1.1\r\nHost: a\r\n\r\n"),
        400
    );
    let ok = |raw: &str| exchange(s.port, raw).text();
    assert_eq!(
        ok("GET /p HTTP/1.1\r\nHost: [::1]:81\r\nConnection: close\r\n\r\n"),
        "[::1] /p"
    );
    assert_eq!(
        ok("OPTIONS * HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"),
        "a /"
    );
    assert_eq!(
        ok("CONNECT b:443 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"),
        "a /b:443"
    );
    assert_eq!(
        ok("GET /q HTTP/1.1\r\nHost: h.example\r\nConnection: close\r\n\r\n"),
        "h.example /q"
    );
}

/// The end of input that arrives right behind the last bytes (no byte of
/// its own, so a short read does not show it) is still seen, with the
/// eager first read and without: every time, 400 at once, never a timeout.
#[test]
fn the_end_of_input_behind_the_data_is_seen() {
    for env in [&[][..], &[("FESTINA_NO_EAGER_READ", "1")][..]] {
        let s = Server::start_with(
            APP,
            Options {
                env,
                ..Options::default()
            },
        );
        for _ in 0..200 {
            let mut c = s.connect();
            c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            c.write_all(b"GET / HTTP/1.1\r\nHost: x").unwrap();
            c.shutdown(Shutdown::Write).unwrap();
            let got = read_until_closed(&mut c);
            assert_eq!(status_of(&got), Some(400), "{env:?}");
        }
    }
}

#[test]
fn other_refusals() {
    let s = Server::start(APP);
    let cases: &[(&[u8], u16)] = &[
        (b"GET / HTTP/2.0\r\n\r\n", 505),
        (
            b"GET / HTTP/1.1\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx",
            417,
        ),
        (
            b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            501,
        ),
        (b"POST / HTTP/1.1\r\nContent-Length: 8388609\r\n\r\n", 413),
    ];
    for (raw, status) in cases {
        assert_eq!(
            refused(s.port, raw),
            *status,
            "{:?}",
            String::from_utf8_lossy(raw)
        );
    }
    // A header section over the cap: 431, even while the client keeps
    // sending.
    let mut big = b"GET / HTTP/1.1\r\n".to_vec();
    while big.len() < 100 * 1024 {
        big.extend_from_slice(b"X-Filler: 0123456789012345678901234567890123456789\r\n");
    }
    assert_eq!(refused(s.port, &big), 431);
    let mut many = b"GET / HTTP/1.1\r\n".to_vec();
    for i in 0..150 {
        many.extend_from_slice(format!("X-{i}: v\r\n").as_bytes());
    }
    many.extend_from_slice(b"\r\n");
    assert_eq!(refused(s.port, &many), 431);
    // A chunked body growing past 8 MiB.
    let mut c = s.connect();
    c.write_all(b"POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        .unwrap();
    let chunk = format!("100000\r\n{}\r\n", "c".repeat(0x100000));
    let mut status = None;
    for _ in 0..10 {
        if c.write_all(chunk.as_bytes()).is_err() {
            break;
        }
    }
    let got = read_until_closed(&mut c);
    if !got.is_empty() {
        status = status_of(&got);
    }
    assert_eq!(status, Some(413));
    still_serving(s.port);
}

#[test]
fn a_refusal_does_not_leak_into_other_connections() {
    let s = Server::start(APP);
    // Interleave a bad client with good ones; every good answer is its own.
    let mut bad = s.connect();
    bad.write_all(b"POST /echo HTTP/1.1\r\nContent-Length: 5\r\n\r\nAB")
        .unwrap();
    let mut good = Vec::new();
    for i in 0..20 {
        let mut c = s.connect();
        c.write_all(
            format!(
                "POST /echo HTTP/1.1\r\nContent-Length: 6\r\nConnection: close\r\n\r\nbody{i:02}"
            )
            .as_bytes(),
        )
        .unwrap();
        good.push((i, c));
    }
    bad.write_all(b"C").unwrap();
    for (i, c) in good {
        let r = read_response(&mut BufReader::new(c), false).unwrap();
        assert_eq!(r.text(), format!("body{i:02}"));
    }
    bad.write_all(b"\r\nGET / HTTP/1.1 nonsense\r\n\r\n")
        .unwrap();
    let _ = bad.shutdown(Shutdown::Write);
    let all = read_until_closed(&mut bad);
    let text = String::from_utf8_lossy(&all);
    // The bad client got its first request answered, then its 400.
    assert!(text.starts_with("HTTP/1.1 201"), "{text}");
    assert!(
        text.contains("ABC\r\n") || text.contains("AB\r\nC"),
        "{text}"
    );
    assert!(text.contains("HTTP/1.1 400 Bad Request"), "{text}");
}

#[test]
fn slowloris_gets_408() {
    let s = Server::start_with(
        APP,
        Options {
            env: &[("FESTINA_HTTP_IDLE_SECONDS", "1")],
            ..Options::default()
        },
    );
    let mut c = s.connect();
    c.set_nonblocking(false).unwrap();
    let head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    let start = Instant::now();
    let mut sent = 0;
    // One byte every 100 ms: the head never completes in time, whatever
    // the activity.
    for b in head.iter() {
        if c.write_all(&[*b]).is_err() {
            break;
        }
        sent += 1;
        thread::sleep(Duration::from_millis(100));
        if start.elapsed() > Duration::from_secs(20) {
            break;
        }
        // Stop once the server answered.
        c.set_nonblocking(true).unwrap();
        let mut peek = [0u8; 1];
        let answered = matches!(c.peek(&mut peek), Ok(n) if n > 0);
        c.set_nonblocking(false).unwrap();
        if answered {
            break;
        }
    }
    assert!(sent < head.len(), "the whole head was accepted");
    let got = read_until_closed(&mut c);
    assert_eq!(
        status_of(&got),
        Some(408),
        "{}",
        String::from_utf8_lossy(&got)
    );
    assert!(start.elapsed() >= Duration::from_millis(900));
    still_serving(s.port);
}

#[test]
fn a_client_that_never_reads_is_bounded_and_closed() {
    let s = Server::start_with(
        APP,
        Options {
            env: &[("FESTINA_HTTP_IDLE_SECONDS", "2")],
            ..Options::default()
        },
    );
    let before = rss_kib(s.pid());
    let c = s.connect();
    c.set_write_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    // Ask for 4 MiB answers and never read them: the server stops reading
    // once its output is backed up, so our writes stall.
    let one = "GET /big HTTP/1.1\r\nHost: x\r\n\r\n";
    let mut written = 0usize;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        match (&c).write(one.as_bytes()) {
            Ok(n) => written += n,
            Err(_) => break,
        }
    }
    assert!(
        written < 10_000_000,
        "the server kept reading: {written} bytes"
    );
    // Meanwhile other clients are served.
    still_serving(s.port);
    let during = rss_kib(s.pid());
    assert!(
        during < before + 64 * 1024,
        "memory grew from {before} KiB to {during} KiB"
    );
    // The stalled connection is closed by the idle timeout (seen without
    // reading, which would be progress).
    assert!(wait_hangup(&c), "the stalled connection was never closed");
    still_serving(s.port);
}

/// Wait (at most [`PATIENCE`]) until the peer closed `c`, without
/// reading from it.
fn wait_hangup(c: &TcpStream) -> bool {
    use std::os::fd::AsRawFd;
    let mut p = libc::pollfd {
        fd: c.as_raw_fd(),
        events: libc::POLLRDHUP,
        revents: 0,
    };
    // SAFETY: poll(2) on one valid pollfd.
    let n = unsafe { libc::poll(&mut p, 1, PATIENCE.as_millis() as i32) };
    n == 1 && p.revents & (libc::POLLRDHUP | libc::POLLHUP | libc::POLLERR) != 0
}

/// Open `n` idle connections and measure the server's memory per
/// connection, with an idle connection's buffers given back to the pool
/// and without (`FESTINA_NO_IDLE_RELEASE`); the CI runs 1,000
/// (`FESTINA_IDLE_CONNECTIONS` sets the number: the measurement of
/// benches/RESULTS.md used 10,000).
#[test]
fn many_idle_connections() {
    let n: usize = std::env::var("FESTINA_IDLE_CONNECTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    // The server is a child process with the limit it inherits: each side
    // holds `n` descriptors of its own.
    let limit = raise_fd_limit(n as u64 + 256);
    let n = n.min((limit as usize).saturating_sub(256));
    // A switch already set for the whole run keeps the buffers on both.
    let released = ["FESTINA_NO_OPT", "FESTINA_NO_IDLE_RELEASE"]
        .iter()
        .all(|v| std::env::var_os(v).is_none());
    for (env, cap) in [
        (&[][..], if released { 2 * 1024 } else { 16 * 1024 }),
        (&[("FESTINA_NO_IDLE_RELEASE", "1")][..], 16 * 1024),
    ] {
        let per = idle_memory(n, env);
        assert!(
            per < cap as f64,
            "{env:?}: {per:.0} bytes per idle connection"
        );
    }
}

/// The server's resident memory per connection, in bytes, with `n` idle
/// connections open (half of them served one request first).
fn idle_memory(n: usize, env: &[(&str, &str)]) -> f64 {
    let s = Server::start_with(
        APP,
        Options {
            env,
            ..Options::default()
        },
    );
    // Warm up: the first connections allocate the loop's tables.
    for _ in 0..10 {
        get(s.port, "/");
    }
    let before = rss_kib(s.pid());
    let mut conns = Vec::with_capacity(n);
    for i in 0..n {
        let c = TcpStream::connect(("127.0.0.1", s.port)).expect("connect");
        // Half of them served one request first: idle between requests.
        if i % 2 == 0 {
            (&c).write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                .unwrap();
            c.set_read_timeout(Some(PATIENCE)).unwrap();
            read_response(&mut BufReader::new(&c), false).unwrap();
        }
        conns.push(c);
    }
    // Every connection was accepted: a request on the last one answers.
    let last = conns.last().unwrap();
    (&*last)
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    last.set_read_timeout(Some(PATIENCE)).unwrap();
    read_response(&mut BufReader::new(last), false).unwrap();
    let after = rss_kib(s.pid());
    let per = (after.saturating_sub(before)) as f64 * 1024.0 / n as f64;
    eprintln!("{env:?}: {n} idle connections: {before} KiB -> {after} KiB, {per:.0} bytes each");
    // The idle connections still answer.
    for c in conns.iter().step_by(97) {
        (&*c)
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        c.set_read_timeout(Some(PATIENCE)).unwrap();
        let r = read_response(&mut BufReader::new(c), false).unwrap();
        assert_eq!(r.text(), "Hello, World!");
    }
    still_serving(s.port);
    drop(conns);
    per
}

/// A handler that holds the loop for a while (a busy loop), port from
/// `argv[1]`.
const SLOW_HANDLER: &str = r#"
on request(req:http) {
    int n = 0
    for int i = 0, i < 8000000, i++ {
        n = n + i % 7
    }
    req.send({'body': `${n}`})
}

openPort(argv[1].toInt())
"#;

#[test]
fn a_signal_is_handled_between_pipelined_requests() {
    // Twenty pipelined requests, each holding the loop; SIGTERM while
    // they run. The loop handles the signal before the next request of
    // the batch (the shutdown closes the connection after the request in
    // progress), instead of serving the whole batch first.
    let srv = Server::start_with(
        SLOW_HANDLER,
        Options {
            env: &[("FESTINA_SHUTDOWN_GRACE_SECONDS", "30")],
            ..Options::default()
        },
    );
    let mut c = srv.connect();
    let batch = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".repeat(20);
    c.write_all(batch.as_bytes()).unwrap();
    // The batch's answers are written together when it ends, so the
    // signal goes while it runs (each request takes tens of ms).
    thread::sleep(Duration::from_millis(150));
    srv.signal(libc::SIGTERM);
    let mut r = BufReader::new(c.try_clone().unwrap());
    let mut answered = 0;
    while let Ok(res) = read_response(&mut r, false) {
        assert_eq!(res.status, 200);
        answered += 1;
    }
    assert!(answered >= 1, "the request in progress is answered");
    assert!(answered < 20, "the whole batch was served: {answered}");
    let end = srv.wait();
    assert_eq!(end.status.code(), Some(143), "{end:?}");
}
