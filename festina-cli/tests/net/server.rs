//! The HTTP/1.1 server end to end (§19.1–§19.3, §12.3): real clients
//! (raw `TcpStream`s, Python's `http.client`, curl) against Festina
//! programs on 127.0.0.1.

use crate::common::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

/// The server most tests talk to: one route per behaviour.
pub const APP: &str = r#"
struct Message {
    message:text
    id:int
}
int served = 0
on request(req:http) {
    served = served + 1
    url u = parseURL(req.url)
    text path = u.pathname
    if path == '/' {
        req.send({'body': 'Hello, World!'})
    } else if path == '/json' {
        Message m = {'message': 'Hello, World!', 'id': 1}
        req.send({'body': m})
    } else if path == '/echo' {
        req.send({'code': 201, 'headers': {'x-method': req.method, 'x-len': `${req.toBlob().length}`}, 'body': req.toText()})
    } else if path == '/headers' {
        req.send({'body': req.headers})
    } else if path == '/url' {
        req.send({'body': req.url})
    } else if path == '/redirect' {
        req.redirect('/json')
    } else if path == '/ok' {
        req.ok()
    } else if path == '/twice' {
        req.ok()
        req.send({'code': 500, 'body': 'second'})
        req.redirect('/x')
        req.upgrade()
    } else if path == '/nothing' {
        log('nothing')
    } else if path == '/code' {
        req.send({'code': u.searchParams['c'].toInt(), 'body': 'x'})
    } else if path == '/typed' {
        req.send({'headers': {'Content-Type': 'text/html', 'Content-Length': '999', 'Connection': 'keep-alive', 'Transfer-Encoding': 'chunked', 'Host': 'evil', 'X-Bad': 'a\r\nInjected: 1', 'X-Good': 'yes'}, 'body': '<p>hi</p>'})
    } else if path == '/number' {
        req.send({'body': 42})
    } else if path == '/list' {
        arr[int] xs = [1, 2, 3]
        req.send({'body': xs})
    } else if path == '/blob' {
        blob b = req.toBlob()
        req.send({'body': b})
    } else if path == '/big' {
        text s = 'x'
        for int i = 0, i < 22, i++ {
            s = s + s
        }
        req.send({'body': s})
    } else if path == '/count' {
        req.send({'body': served})
    } else if path == '/fields' {
        http r = {'url': 'http://x/y', 'method': 'PUT', 'code': 7, 'body': 'b'}
        req.send({'body': `${r.url} ${r.method} ${r.code} ${r.toText()} ${req.code == null}`})
    } else {
        req.send({'code': 404, 'body': 'Not Found'})
    }
}
openPort(argv[1].toInt())
"#;

fn req(path: &str, port: u16) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n")
}

#[test]
fn the_harness_tells_the_servers_listener_from_another_processs() {
    // Server::start trusts a port only when the kernel says the program
    // holds its listener (tests/support/listener.rs): a port given away
    // meanwhile must not pass for the program's.
    use crate::listener::owns_listener;
    let s = Server::start(APP);
    let other = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let theirs = other.local_addr().expect("addr").port();
    let me = std::process::id();
    let want = |b: bool| cfg!(target_os = "linux").then_some(b);
    assert_eq!(owns_listener(s.pid(), s.port), want(true));
    assert_eq!(owns_listener(s.pid(), theirs), want(false));
    assert_eq!(owns_listener(me, theirs), want(true));
    assert_eq!(owns_listener(me, s.port), want(false));
}

#[test]
fn routes_bodies_and_content_types() {
    let s = Server::start(APP);
    let r = get(s.port, "/");
    assert_eq!((r.status, r.text().as_str()), (200, "Hello, World!"));
    assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(r.header("content-length"), Some("13"));
    assert!(r.header("date").is_some_and(|d| d.ends_with(" GMT")));
    assert_eq!(r.header("connection"), Some("close"));
    let r = get(s.port, "/json");
    assert_eq!(r.text(), r#"{"message":"Hello, World!","id":1}"#);
    assert_eq!(r.header("content-type"), Some("application/json"));
    let r = get(s.port, "/list");
    assert_eq!(
        (r.text().as_str(), r.header("content-type")),
        ("[1,2,3]", Some("application/json"))
    );
    let r = get(s.port, "/number");
    assert_eq!(
        (r.text().as_str(), r.header("content-type")),
        ("42", Some("text/plain; charset=utf-8"))
    );
    let r = get(s.port, "/nope");
    assert_eq!((r.status, r.text().as_str()), (404, "Not Found"));
    let r = get(s.port, "/fields");
    assert_eq!(r.text(), "http://x/y PUT 7 b true");
    let r = exchange(
        s.port,
        "POST /blob HTTP/1.1\r\nContent-Length: 4\r\nConnection: close\r\n\r\ndata",
    );
    assert_eq!(r.header("content-type"), Some("application/octet-stream"));
    assert_eq!(r.body, b"data");
}

/// The same answers with every optimisation switched off
/// (`FESTINA_NO_OPT`: a new connection waits for readiness before it is
/// read).
#[test]
fn the_same_without_optimisations() {
    let s = Server::start_with(
        APP,
        Options {
            env: &[("FESTINA_NO_OPT", "1")],
            ..Options::default()
        },
    );
    assert_eq!(get(s.port, "/").text(), "Hello, World!");
    assert_eq!(
        get(s.port, "/json").text(),
        r#"{"message":"Hello, World!","id":1}"#
    );
    let mut c = s.connect();
    c.write_all(format!("{}{}", req("/url?a", s.port), req("/count", s.port)).as_bytes())
        .unwrap();
    let mut r = BufReader::new(c);
    assert!(read_response(&mut r, false)
        .unwrap()
        .text()
        .ends_with("/url?a"));
    assert_eq!(read_response(&mut r, false).unwrap().status, 200);
    let silent = s.connect();
    drop(silent);
    assert_eq!(get(s.port, "/nope").status, 404);
}

#[test]
fn request_fields() {
    let s = Server::start(APP);
    let r = exchange(
        s.port,
        "GET /headers HTTP/1.1\r\nHost: example.com:81\r\nX-A: 1\r\nx-a: 2\r\nAccept: */*\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(
        r.text(),
        r#"{"host":"example.com:81","x-a":"2","accept":"*/*","connection":"close"}"#
    );
    let r = exchange(
        s.port,
        "GET /url?q=1&r#frag HTTP/1.1\r\nHost: example.com:81\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(r.text(), "http://example.com:81/url?q=1&r#frag");
    // Without Host (HTTP/1.0), the address the connection came to.
    let r = exchange(s.port, "GET /url HTTP/1.0\r\n\r\n");
    assert_eq!(r.text(), format!("http://127.0.0.1:{}/url", s.port));
    let r = exchange(
        s.port,
        "PATCH /echo HTTP/1.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
    );
    assert_eq!((r.status, r.text().as_str()), (201, "hello"));
    assert_eq!(r.header("x-method"), Some("PATCH"));
    assert_eq!(r.header("x-len"), Some("5"));
}

#[test]
fn the_runtime_computes_its_own_headers() {
    let s = Server::start(APP);
    let r = get(s.port, "/typed");
    assert_eq!(r.text(), "<p>hi</p>");
    assert_eq!(r.count("content-length"), 1);
    assert_eq!(r.header("content-length"), Some("9"));
    assert_eq!(r.header("content-type"), Some("text/html"));
    assert_eq!(r.count("content-type"), 1);
    assert_eq!(r.count("transfer-encoding"), 0);
    assert_eq!(r.count("host"), 0);
    assert_eq!(r.count("x-bad"), 0);
    assert_eq!(r.count("injected"), 0);
    assert_eq!(r.header("connection"), Some("close"));
    assert_eq!(r.header("x-good"), Some("yes"));
}

#[test]
fn answers_first_one_wins_and_defaults() {
    let s = Server::start(APP);
    let r = get(s.port, "/ok");
    assert_eq!((r.status, r.body.len()), (200, 0));
    assert_eq!(r.header("content-length"), Some("0"));
    let r = get(s.port, "/twice");
    assert_eq!((r.status, r.body.len()), (200, 0));
    let r = get(s.port, "/nothing");
    assert_eq!((r.status, r.body.len()), (200, 0));
    s.wait_for_stdout("nothing");
    let r = get(s.port, "/redirect");
    assert_eq!(r.status, 302);
    assert_eq!(r.header("location"), Some("/json"));
    let r = get(s.port, "/code?c=204");
    assert_eq!(
        (r.status, r.count("content-length"), r.body.len()),
        (204, 0, 0)
    );
    let r = get(s.port, "/code?c=418");
    assert_eq!((r.status, r.text().as_str()), (418, "x"));
    // Not a final status: 500.
    let r = get(s.port, "/code?c=42");
    assert_eq!(r.status, 500);
    // HEAD: the length of the body that GET would send, no body.
    let mut c = s.connect();
    c.write_all(format!("HEAD / HTTP/1.1\r\nHost: h\r\n\r\n{}", req("/", s.port)).as_bytes())
        .unwrap();
    let mut r = BufReader::new(c);
    let head = read_response(&mut r, true).unwrap();
    assert_eq!(
        (head.status, head.header("content-length")),
        (200, Some("13"))
    );
    let next = read_response(&mut r, false).unwrap();
    assert_eq!(next.text(), "Hello, World!");
}

#[test]
fn keep_alive_reuses_one_connection() {
    let s = Server::start_with(
        APP,
        Options {
            env: &[("FESTINA_HTTP_STATS", "1")],
            ..Options::default()
        },
    );
    let c = s.connect();
    let mut w = c.try_clone().unwrap();
    let mut r = BufReader::new(c);
    for i in 0..200 {
        w.write_all(req(&format!("/url?i={i}"), s.port).as_bytes())
            .unwrap();
        let resp = read_response(&mut r, false).unwrap();
        assert_eq!(resp.status, 200);
        assert!(resp.text().ends_with(&format!("?i={i}")));
        assert_eq!(resp.header("connection"), None);
    }
    drop((w, r));
    let done = s.stop();
    // Two connections: the start-up probe's and ours.
    assert!(
        done.stderr
            .contains("http: 2 connections accepted, 200 requests answered"),
        "{}",
        done.stderr
    );
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let s = Server::start(APP);
    let mut batch = String::new();
    for i in 0..100 {
        batch.push_str(&req(&format!("/url?i={i}"), s.port));
    }
    // A body in the middle of the pipeline, and the last request closes.
    batch.push_str("POST /echo HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc");
    batch.push_str("GET /count HTTP/1.1\r\nConnection: close\r\n\r\n");
    let mut c = s.connect();
    c.write_all(batch.as_bytes()).unwrap();
    let mut r = BufReader::new(c);
    for i in 0..100 {
        let resp = read_response(&mut r, false).unwrap();
        assert!(resp.text().ends_with(&format!("?i={i}")), "{}", resp.text());
    }
    assert_eq!(read_response(&mut r, false).unwrap().text(), "abc");
    let last = read_response(&mut r, false).unwrap();
    assert_eq!(last.header("connection"), Some("close"));
    let mut rest = Vec::new();
    r.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty());
}

#[test]
fn http_1_0_and_connection_close_close() {
    let s = Server::start(APP);
    for raw in [
        "GET / HTTP/1.0\r\n\r\n",
        "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "GET / HTTP/1.1\r\nConnection: close\r\n\r\n",
        "GET / HTTP/1.1\r\nConnection: foo, Close\r\n\r\n",
    ] {
        let all = send_and_read_all(s.port, raw.as_bytes());
        let text = String::from_utf8_lossy(&all);
        assert!(text.starts_with("HTTP/1.1 200 OK"), "{raw:?}: {text}");
        assert!(text.contains("Connection: close"), "{raw:?}: {text}");
        assert!(text.ends_with("Hello, World!"), "{raw:?}: {text}");
    }
}

#[test]
fn chunked_bodies_and_expect_continue() {
    let s = Server::start(APP);
    let r = exchange(
        s.port,
        "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n4\r\nWiki\r\n6;ext=1\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\nTrailer: x\r\n\r\n",
    );
    assert_eq!(r.text(), "Wikipedia in \r\n\r\nchunks.");
    assert_eq!(r.header("x-len"), Some("24"));
    let mut c = s.connect();
    c.write_all(b"PUT /echo HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut r = BufReader::new(c.try_clone().unwrap());
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    assert_eq!(line, "HTTP/1.1 100 Continue\r\n");
    r.read_line(&mut line).unwrap();
    c.write_all(b"data").unwrap();
    let resp = read_response(&mut r, false).unwrap();
    assert_eq!((resp.status, resp.text().as_str()), (201, "data"));
}

#[test]
fn big_bodies_both_ways() {
    let s = Server::start(APP);
    let r = get(s.port, "/big");
    assert_eq!(r.body.len(), 4 << 20);
    assert!(r.body.iter().all(|&b| b == b'x'));
    // 8 MiB exactly is accepted, one byte more is refused.
    let body = vec![b'y'; 8 << 20];
    let mut c = s.connect();
    c.write_all(
        format!(
            "POST /echo HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    )
    .unwrap();
    c.write_all(&body).unwrap();
    let mut r = BufReader::new(c);
    let resp = read_response(&mut r, false).unwrap();
    assert_eq!(resp.header("x-len"), Some("8388608"));
    let r = exchange(
        s.port,
        &format!(
            "POST /echo HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            (8 << 20) + 1
        ),
    );
    assert_eq!((r.status, r.header("connection")), (413, Some("close")));
}

#[test]
fn a_vanished_client_never_kills_the_server() {
    let s = Server::start(APP);
    for _ in 0..5 {
        let c = s.connect();
        (&c).write_all(req("/big", s.port).as_bytes()).unwrap();
        // Read a little, then reset the connection while the server
        // still has megabytes to write.
        let mut buf = [0u8; 16];
        (&c).read_exact(&mut buf).unwrap();
        let linger = libc::linger {
            l_onoff: 1,
            l_linger: 0,
        };
        // SAFETY: setsockopt with a valid linger struct on an open socket.
        unsafe {
            use std::os::fd::AsRawFd;
            libc::setsockopt(
                c.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_LINGER,
                &linger as *const _ as *const libc::c_void,
                std::mem::size_of::<libc::linger>() as u32,
            );
        }
        drop(c);
    }
    // The server is alive and well.
    assert_eq!(get(s.port, "/").text(), "Hello, World!");
}

#[test]
fn several_ports_ipv6_and_close_port() {
    let extra = free_port();
    let program = r#"
on request(req:http) {
    url u = parseURL(req.url)
    if u.pathname == '/close' {
        closePort(argv[2].toInt())
        closePort(12)
    }
    req.send({'body': `${u.port}`})
}
openPort(argv[1].toInt())
openPort(argv[2].toInt())
openPort(argv[2].toInt())
openPort(70000)
openPort(-1)
"#;
    let extra_s = extra.to_string();
    let s = Server::start_with(
        program,
        Options {
            args: &[&extra_s],
            loopback_only: false,
            ..Options::default()
        },
    );
    assert_eq!(get(s.port, "/").text(), s.port.to_string());
    assert_eq!(get(extra, "/").text(), extra.to_string());
    // IPv6 loopback too, when the machine has it.
    if let Ok(mut c) = TcpStream::connect(("::1", s.port)) {
        c.write_all(b"GET / HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut r = BufReader::new(c);
        assert_eq!(read_response(&mut r, false).unwrap().status, 200);
    }
    let keep = s.connect();
    get(s.port, "/close");
    let deadline = Instant::now() + PATIENCE;
    while TcpStream::connect(("127.0.0.1", extra)).is_ok() {
        assert!(Instant::now() < deadline, "closePort left the port open");
        std::thread::sleep(Duration::from_millis(10));
    }
    // The first port still serves, and an open connection stays open.
    assert_eq!(get(s.port, "/").status, 200);
    (&keep).write_all(req("/", s.port).as_bytes()).unwrap();
    assert_eq!(
        read_response(&mut BufReader::new(&keep), false)
            .unwrap()
            .status,
        200
    );
}

#[test]
fn a_failing_handler_answers_500_and_ends_the_program() {
    let program = r#"
on request(req:http) {
    if parseURL(req.url).pathname == '/fail' {
        fail('it broke')
    }
    throw 'boom'
}
openPort(argv[1].toInt())
"#;
    let s = Server::start(program);
    let r = get(s.port, "/");
    assert_eq!((r.status, r.header("connection")), (500, Some("close")));
    let done = s.wait();
    assert_eq!(done.status.code(), Some(1));
    // The failure, then the call trace main prints after it.
    assert_eq!(done.stderr, "fail: boom\n    at <on request> (main.f:6)\n");
    let s = Server::start(program);
    assert_eq!(get(s.port, "/fail").status, 500);
    let done = s.wait();
    assert_eq!(done.status.code(), Some(1));
    assert!(done.stderr.starts_with("fail: it broke"), "{}", done.stderr);
}

#[test]
fn idle_connections_close() {
    let s = Server::start_with(
        APP,
        Options {
            env: &[("FESTINA_HTTP_IDLE_SECONDS", "0.5")],
            ..Options::default()
        },
    );
    let start = Instant::now();
    let mut silent = s.connect();
    assert!(read_until_closed(&mut silent).is_empty());
    assert!(start.elapsed() >= Duration::from_millis(400));
    let mut used = s.connect();
    used.write_all(req("/", s.port).as_bytes()).unwrap();
    let got = read_until_closed(&mut used);
    assert!(String::from_utf8_lossy(&got).ends_with("Hello, World!"));
}

/// A server whose `/up/...` requests wait for the upstream with the
/// blocking client (parking off): its loop is busy for as long as the
/// upstream holds the request. `/fast` answers at once.
const BLOCKING: &str = r#"
text upstream = argv[2]

on request(req:http) {
    text path = parseURL(req.url).pathname
    if path == '/fast' {
        req.send({'body': 'fast'})
        return
    }
    http out = {'url': `${upstream}${path}`}
    out.send()
    req.send({'body': out.toText()})
}

openPort(argv[1].toInt())
"#;

/// An upstream that reports each request's path on the returned channel
/// and answers it (`up:PATH`, then closes) only when told to on the other.
fn gated_upstream() -> (
    String,
    std::sync::mpsc::Receiver<String>,
    std::sync::mpsc::Sender<()>,
) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let (arrived_tx, arrived) = std::sync::mpsc::channel();
    let (release, release_rx) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            stream.set_read_timeout(Some(PATIENCE)).unwrap();
            let mut r = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            if r.read_line(&mut line).unwrap_or(0) == 0 {
                continue;
            }
            loop {
                let mut h = String::new();
                if r.read_line(&mut h).unwrap_or(0) == 0 || h.trim_end().is_empty() {
                    break;
                }
            }
            let path = line.split(' ').nth(1).unwrap_or("").to_string();
            let text = format!("up:{path}");
            if arrived_tx.send(path).is_err() || release_rx.recv_timeout(PATIENCE).is_err() {
                return;
            }
            let mut w = stream;
            let _ = write!(
                w,
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            );
        }
    });
    (url, arrived, release)
}

#[test]
fn a_request_that_arrives_while_the_loop_is_busy_is_served_not_timed_out() {
    // Idle timeout 1 s. X and Y are keep-alive clients answered once. A's
    // request blocks the loop past X's idle deadline; X and Y send theirs
    // meanwhile. The next round serves X (answered at once), then Y, held
    // until X's new idle deadline has passed too; X sent its third
    // request as soon as it had its answer, so it waits unread in the
    // socket when the round's timers run. X's timer must not close X
    // with it unread (it did: the client saw a reset); X gets its answer.
    let (up, arrived, release) = gated_upstream();
    let s = Server::start_with(
        BLOCKING,
        Options {
            args: &[&up],
            env: &[("FESTINA_HTTP_IDLE_SECONDS", "1"), ("FESTINA_NO_PARK", "1")],
            ..Options::default()
        },
    );
    let wait = |path: &str| {
        let got = arrived
            .recv_timeout(PATIENCE)
            .expect("the upstream request");
        assert_eq!(got, path);
    };
    let open = || {
        let s = s.connect();
        (BufReader::new(s.try_clone().unwrap()), s)
    };
    let ask = |w: &mut TcpStream, path: &str| w.write_all(req(path, s.port).as_bytes()).unwrap();
    let answer = |r: &mut BufReader<TcpStream>| {
        let res = read_response(r, false).expect("an answer");
        (res.status, res.text())
    };
    let (mut xr, mut xw) = open();
    let (mut yr, mut yw) = open();
    for (r, w) in [(&mut xr, &mut xw), (&mut yr, &mut yw)] {
        ask(w, "/fast");
        assert_eq!(answer(r), (200, "fast".to_string()));
    }
    let (mut ar, mut aw) = open();
    ask(&mut aw, "/up/a");
    wait("/up/a");
    ask(&mut xw, "/up/x");
    std::thread::sleep(Duration::from_millis(100));
    ask(&mut yw, "/up/y");
    // Past X's idle deadline (1 s after its answer) while the loop is busy.
    std::thread::sleep(Duration::from_millis(1300));
    release.send(()).unwrap();
    assert_eq!(answer(&mut ar), (200, "up:/up/a".to_string()));
    wait("/up/x");
    release.send(()).unwrap();
    assert_eq!(answer(&mut xr), (200, "up:/up/x".to_string()));
    ask(&mut xw, "/fast");
    wait("/up/y");
    // Past X's new idle deadline while Y holds the loop.
    std::thread::sleep(Duration::from_millis(1500));
    release.send(()).unwrap();
    assert_eq!(answer(&mut yr), (200, "up:/up/y".to_string()));
    assert_eq!(answer(&mut xr), (200, "fast".to_string()));
    s.stop();
}

#[test]
fn python_http_client() {
    let s = Server::start(APP);
    let script = r#"
import http.client, sys, json
c = http.client.HTTPConnection('127.0.0.1', int(sys.argv[1]), timeout=30)
out = []
for i in range(20):
    c.request('GET', '/json' if i % 2 else '/')
    r = c.getresponse()
    out.append((r.status, r.getheader('content-type'), r.read().decode()))
c.request('POST', '/echo', body=b'x' * 100000, headers={'X-A': 'b'})
r = c.getresponse()
out.append((r.status, r.getheader('x-len'), len(r.read())))
print(json.dumps(out))
"#;
    let text = python(script, s.port);
    assert!(text.starts_with(r#"[[200, "text/plain; charset=utf-8", "Hello, World!"], [200, "application/json", "{\"message\":\"Hello, World!\",\"id\":1}"]"#), "{text}");
    assert!(
        text.trim_end().ends_with(r#"[201, "100000", 100000]]"#),
        "{text}"
    );
}

#[test]
fn curl() {
    if !have("curl") {
        eprintln!("curl is not installed: skipped (scripts/setup.sh installs it)");
        return;
    }
    let s = Server::start(APP);
    let url = format!("http://127.0.0.1:{}/echo", s.port);
    let out = Command::new("curl")
        .args(["-s", "-i", "--data-binary", "@-", &url])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(&vec![b'z'; 3000])?;
            c.wait_with_output()
        })
        .expect("run curl");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("HTTP/1.1 201 Created"), "{text}");
    assert!(text.contains("x-len: 3000"), "{text}");
}

#[test]
fn shutdown_closes_listeners_finishes_requests_then_runs_on_exit() {
    let program = r#"
on exit(code:int) {
    log(`exit ${code}`)
}
on request(req:http) {
    req.send({'body': 'bye'})
}
openPort(argv[1].toInt())
log('ready')
"#;
    let s = Server::start(program);
    s.wait_for_stdout("ready");
    // An idle keep-alive connection, and a request half sent.
    let mut idle = s.connect();
    idle.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
    read_response(&mut BufReader::new(&idle), false).unwrap();
    let mut busy = s.connect();
    busy.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(100));
    s.signal(libc::SIGTERM);
    // The listener closes at once, the idle connection too.
    let deadline = Instant::now() + PATIENCE;
    while TcpStream::connect(("127.0.0.1", s.port)).is_ok() {
        assert!(Instant::now() < deadline, "the listener stayed open");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(read_until_closed(&mut idle).is_empty());
    // The request in progress is answered, and told the connection closes.
    busy.write_all(b"\r\n").unwrap();
    let rest = read_until_closed(&mut busy);
    let text = String::from_utf8_lossy(&rest);
    assert!(
        text.contains("Connection: close") && text.ends_with("bye"),
        "{text}"
    );
    let done = s.wait();
    assert_eq!(done.status.code(), Some(143));
    assert!(done.stdout.ends_with("exit 143\n"), "{}", done.stdout);
    let _ = busy.shutdown(Shutdown::Both);
}
