//! Parking (`stdlib/src/net/park.rs`, `festina_vm::interleave`): a
//! self-contained request handler waiting in the blocking client
//! (`req.send()`, §19.5) lets its loop serve other connections.
//!
//! The upstream here ([`Holding`]) makes the interleaving observable
//! without measuring time: it holds every request until `need` of them
//! are waiting at once (or until it is opened, or a fallback timeout), and
//! records the most it ever held at once. A proxy whose handler parks gets
//! a second client's request to it while the first waits (2 at once); a
//! proxy that holds its thread cannot (1 at once, each request released by
//! the timeout). The clients are staged: each starts once the upstream has
//! seen the request of the one before, so the outcome does not depend on
//! who wins a race.

use crate::common::*;
use std::io::{BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::Duration;

/// How long the upstream holds a request whose partner never comes.
const FALLBACK: Duration = Duration::from_secs(3);

#[derive(Default)]
struct HoldState {
    /// Requests read and not yet answered.
    holding: usize,
    /// The most `holding` ever was.
    max: usize,
    /// Requests read in all.
    arrived: usize,
    /// Bumped when `need` requests are held: releases them.
    generation: u64,
    /// Release everything, now and from now on.
    open: bool,
    /// The paths in arrival order.
    paths: Vec<String>,
    /// Connections accepted.
    connections: usize,
}

struct Hold {
    need: usize,
    fallback: Duration,
    state: Mutex<HoldState>,
    cv: Condvar,
}

impl Hold {
    /// A request for `path` arrived: hold it until `need` are held (0:
    /// only [`Holding::open`] releases), the upstream is opened, or
    /// `fallback` has passed.
    fn enter(&self, path: &str) {
        let mut s = self.state.lock().unwrap();
        s.holding += 1;
        s.arrived += 1;
        s.max = s.max.max(s.holding);
        s.paths.push(path.to_string());
        let generation = s.generation;
        if self.need > 0 && s.holding >= self.need {
            s.generation += 1;
        }
        self.cv.notify_all();
        let (mut s, _) = self
            .cv
            .wait_timeout_while(s, self.fallback, |s| s.generation == generation && !s.open)
            .unwrap();
        // Counted out before the answer leaves, so that a request the
        // answer provokes is never counted together with it.
        s.holding -= 1;
    }
}

/// A keep-alive HTTP/1.1 upstream on 127.0.0.1 (one thread per
/// connection) that holds requests (see the module documentation) and
/// answers `up:PATH`; a path starting with `/close` is answered by
/// closing the connection instead, one starting with `/once` by the
/// answer, then closing (without saying so: the client keeps the
/// connection for reuse), one starting with `/late` by the answer when it
/// is its connection's first request and by closing it otherwise (the
/// close comes after the client's check before reuse).
struct Holding {
    port: u16,
    hold: Arc<Hold>,
}

impl Holding {
    fn start(need: usize, fallback: Duration) -> Holding {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let hold = Arc::new(Hold {
            need,
            fallback,
            state: Mutex::default(),
            cv: Condvar::new(),
        });
        let h = Arc::clone(&hold);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                h.state.lock().unwrap().connections += 1;
                let h = Arc::clone(&h);
                thread::spawn(move || serve_held(stream, &h));
            }
        });
        Holding { port, hold }
    }

    /// Answer a request once two are waiting (or after [`FALLBACK`]).
    fn pairs() -> Holding {
        Holding::start(2, FALLBACK)
    }

    /// Hold every request until [`Holding::open`].
    fn gated() -> Holding {
        Holding::start(0, PATIENCE)
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn max(&self) -> usize {
        self.hold.state.lock().unwrap().max
    }

    fn arrived(&self) -> usize {
        self.hold.state.lock().unwrap().arrived
    }

    fn connections(&self) -> usize {
        self.hold.state.lock().unwrap().connections
    }

    fn paths(&self) -> Vec<String> {
        self.hold.state.lock().unwrap().paths.clone()
    }

    /// Wait (at most [`PATIENCE`]) until `n` requests have arrived.
    fn wait_arrived(&self, n: usize) {
        let s = self.hold.state.lock().unwrap();
        let (s, timeout) = self
            .hold
            .cv
            .wait_timeout_while(s, PATIENCE, |s| s.arrived < n)
            .unwrap();
        assert!(
            !timeout.timed_out(),
            "the upstream saw {} requests, not {n}: {:?}",
            s.arrived,
            s.paths
        );
    }

    /// Release every held request, and hold none from now on.
    fn open(&self) {
        self.hold.state.lock().unwrap().open = true;
        self.hold.cv.notify_all();
    }
}

fn serve_held(stream: TcpStream, hold: &Hold) {
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut w = stream.try_clone().unwrap();
    let mut r = BufReader::new(stream);
    let mut served = 0;
    loop {
        let Some(path) = read_request_path(&mut r) else {
            return;
        };
        hold.enter(&path);
        if path.starts_with("/close") || (path.starts_with("/late") && served > 0) {
            return;
        }
        served += 1;
        let text = format!("up:{path}");
        let answer = format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{text}",
            text.len()
        );
        if w.write_all(answer.as_bytes()).is_err() || path.starts_with("/once") {
            return;
        }
    }
}

/// The single-loop proxy: `/p` is forwarded to `UPSTREAM/p` with the
/// blocking client, and the upstream's body is the answer; an upstream
/// that fails gets a 502. Self-contained (`festina_vm::interleave`): it
/// reads only `upstream`, written at start-up, and calls order-free
/// natives only.
const PROXY: &str = r#"
text upstream = argv[2]

on request(req:http) {
    http out = {'url': `${upstream}${parseURL(req.url).pathname}`}
    try {
        out.send()
    } catch (e:text) {
        req.send({'code': 502, 'body': `bad gateway: ${e}`})
        return
    }
    req.send({'body': out.toText()})
}

openPort(argv[1].toInt())
"#;

/// [`PROXY`] with `log` before and after the upstream request: `log`'s
/// order is observable, so the handler is not self-contained and must not
/// park.
const LOGGING_PROXY: &str = r#"
text upstream = argv[2]

on request(req:http) {
    text path = parseURL(req.url).pathname
    log(`start ${path}`)
    http out = {'url': `${upstream}${path}`}
    out.send()
    log(`end ${path}`)
    req.send({'body': out.toText()})
}

openPort(argv[1].toInt())
"#;

/// Two upstream requests one after the other (`/one/p`, then `/two/p`),
/// answered with both bodies.
const TWICE_PROXY: &str = r#"
text upstream = argv[2]

on request(req:http) {
    text path = parseURL(req.url).pathname
    http a = {'url': `${upstream}/one${path}`}
    a.send()
    http b = {'url': `${upstream}/two${path}`}
    b.send()
    req.send({'body': `${a.toText()}+${b.toText()}`})
}

openPort(argv[1].toInt())
"#;

/// The `http x = {...}.send()` initializer form (`http_send_value`: the
/// parked call gets the value back when it resumes).
const INITIALIZER_PROXY: &str = r#"
text upstream = argv[2]

on request(req:http) {
    http out = {'url': `${upstream}${parseURL(req.url).pathname}`}.send()
    req.send({'body': `${out.code} ${out.toText()}`})
}

openPort(argv[1].toInt())
"#;

/// A handler whose throw nothing catches, after the upstream answered.
const THROWING_PROXY: &str = r#"
text upstream = argv[2]

on request(req:http) {
    http out = {'url': `${upstream}${parseURL(req.url).pathname}`}
    out.send()
    throw `no thanks: ${out.toText()}`
}

openPort(argv[1].toInt())
"#;

/// [`PROXY`] in a pool of two threads given the connections by main.
const THREADED_PROXY: &str = r#"
thread w[2] {
    text upstream = argv[2]

    on request(req:http) {
        http out = {'url': `${upstream}${parseURL(req.url).pathname}`}
        try {
            out.send()
        } catch (e:text) {
            req.send({'code': 502, 'body': `bad gateway: ${e}`})
            return
        }
        req.send({'body': out.toText()})
    }
}

on request use w

openPort(argv[1].toInt())
"#;

/// Start `source` with the upstream's URL as `argv[2]` and `env`.
fn proxy(source: &str, up: &str, env: &[(&str, &str)]) -> Server {
    Server::start_with(
        source,
        Options {
            args: &[up],
            env,
            ..Options::default()
        },
    )
}

/// `GET` each of `paths` from its own client thread, each started once the
/// upstream has seen `per_client` requests per client started before it;
/// the responses, in `paths` order.
fn staged(port: u16, up: &Holding, paths: &[&str], per_client: usize) -> Vec<Response> {
    let mut clients = Vec::new();
    for (k, path) in paths.iter().enumerate() {
        if k > 0 {
            up.wait_arrived((k - 1) * per_client + 1);
        }
        let path = path.to_string();
        clients.push(thread::spawn(move || get(port, &path)));
    }
    clients
        .into_iter()
        .map(|c| c.join().expect("client"))
        .collect()
}

/// The statuses and bodies of `responses`.
fn answers(responses: &[Response]) -> Vec<(u16, String)> {
    responses.iter().map(|r| (r.status, r.text())).collect()
}

fn ok(bodies: &[&str]) -> Vec<(u16, String)> {
    bodies.iter().map(|b| (200, b.to_string())).collect()
}

#[test]
fn a_parked_handler_lets_the_loop_take_the_next_request() {
    let up = Holding::pairs();
    let srv = proxy(PROXY, &up.url(), &[]);
    let got = staged(srv.port, &up, &["/a", "/b"], 1);
    assert_eq!(answers(&got), ok(&["up:/a", "up:/b"]));
    assert_eq!(up.max(), 2, "both upstream requests in flight at once");
    let end = srv.stop();
    assert!(!end.stderr.contains("fail"), "{end:?}");
}

#[test]
fn switched_off_the_handler_holds_its_loop() {
    for env in [("FESTINA_NO_PARK", "1"), ("FESTINA_NO_OPT", "1")] {
        let up = Holding::pairs();
        let srv = proxy(PROXY, &up.url(), &[env]);
        let got = staged(srv.port, &up, &["/a", "/b"], 1);
        assert_eq!(answers(&got), ok(&["up:/a", "up:/b"]), "{env:?}");
        assert_eq!(up.max(), 1, "one upstream request at a time with {env:?}");
    }
}

#[test]
fn a_handler_that_logs_does_not_park() {
    let up = Holding::pairs();
    let srv = proxy(LOGGING_PROXY, &up.url(), &[]);
    let got = staged(srv.port, &up, &["/a", "/b"], 1);
    assert_eq!(answers(&got), ok(&["up:/a", "up:/b"]));
    assert_eq!(up.max(), 1, "a handler that logs holds its loop");
    srv.wait_for_stdout("end /b");
    let end = srv.stop();
    assert_eq!(end.stdout, "start /a\nend /a\nstart /b\nend /b\n");
}

#[test]
fn a_handler_that_sends_twice_parks_twice() {
    let up = Holding::pairs();
    let srv = proxy(TWICE_PROXY, &up.url(), &[]);
    let got = staged(srv.port, &up, &["/a", "/b"], 2);
    assert_eq!(
        answers(&got),
        ok(&["up:/one/a+up:/two/a", "up:/one/b+up:/two/b"])
    );
    // The first requests of both handlers were held together, then the
    // second ones.
    assert_eq!(up.max(), 2);
    assert_eq!(up.arrived(), 4);
    let paths = up.paths();
    let mut firsts = paths[..2].to_vec();
    firsts.sort();
    assert_eq!(firsts, ["/one/a", "/one/b"], "{paths:?}");
    srv.stop();
}

#[test]
fn the_initializer_form_gets_its_value_back() {
    let up = Holding::pairs();
    let srv = proxy(INITIALIZER_PROXY, &up.url(), &[]);
    let got = staged(srv.port, &up, &["/a", "/b"], 1);
    assert_eq!(answers(&got), ok(&["200 up:/a", "200 up:/b"]));
    assert_eq!(up.max(), 2);
    srv.stop();
}

#[test]
fn an_upstream_failure_is_caught_by_the_handler() {
    // Refused at once (the connect may fail before any wait).
    crate::client::assert_bad_gateway(|down| proxy(PROXY, down, &[]));
    // Closed while the handler is parked: the throw comes at resumption.
    let up = Holding::gated();
    let srv = proxy(PROXY, &up.url(), &[]);
    let port = srv.port;
    let client = thread::spawn(move || get(port, "/close/x"));
    up.wait_arrived(1);
    up.open();
    let res = client.join().expect("client");
    assert_eq!(res.status, 502, "{res:?}");
    assert!(res.text().starts_with("bad gateway: "), "{res:?}");
    // And the proxy goes on.
    assert_eq!(answers(&[get(port, "/y")]), ok(&["up:/y"]));
    let end = srv.stop();
    assert!(!end.stderr.contains("fail"), "{end:?}");
}

#[test]
fn an_uncaught_throw_answers_500_and_ends_the_program() {
    let up = Holding::gated();
    let srv = proxy(THROWING_PROXY, &up.url(), &[]);
    let port = srv.port;
    let client = thread::spawn(move || get(port, "/x"));
    // Parked at the upstream (it holds the request), then resumed.
    up.wait_arrived(1);
    up.open();
    let res = client.join().expect("client");
    assert_eq!(res.status, 500, "{res:?}");
    let end = srv.wait();
    assert_eq!(end.status.code(), Some(1), "{end:?}");
    assert!(
        end.stderr.starts_with("fail: no thanks: up:/x"),
        "{:?}",
        end.stderr
    );
}

#[test]
fn a_client_gone_while_parked_does_not_disturb_the_next() {
    let up = Holding::gated();
    let srv = proxy(PROXY, &up.url(), &[]);
    let port = srv.port;
    // A keep-alive client whose handler parks, then goes away.
    let mut gone = connect(port);
    gone.write_all(b"GET /gone HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("send");
    up.wait_arrived(1);
    drop(gone);
    // The next client parks beside it; both are released.
    let next = thread::spawn(move || get(port, "/next"));
    up.wait_arrived(2);
    assert_eq!(up.max(), 2, "both parked at once");
    up.open();
    assert_eq!(answers(&[next.join().expect("client")]), ok(&["up:/next"]));
    // And a later one on a keep-alive connection, twice.
    let s = connect(port);
    let mut r = BufReader::new(s.try_clone().expect("clone"));
    let mut w = s;
    for path in ["/later", "/again"] {
        write!(w, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").expect("send");
        let res = read_response(&mut r, false).expect("response");
        assert_eq!((res.status, res.text()), (200, format!("up:{path}")));
    }
    let end = srv.stop();
    assert!(!end.stderr.contains("fail"), "{end:?}");
}

#[test]
fn a_thread_pool_parks_too() {
    // Four requests held at once by two threads: each parked two.
    let up = Holding::start(4, FALLBACK);
    let srv = proxy(THREADED_PROXY, &up.url(), &[]);
    let got = staged(srv.port, &up, &["/a", "/b", "/c", "/d"], 1);
    assert_eq!(answers(&got), ok(&["up:/a", "up:/b", "up:/c", "up:/d"]));
    assert_eq!(up.max(), 4, "more upstream requests in flight than threads");
    drop(srv);
    // Off: a thread holds one at a time.
    let up = Holding::start(4, FALLBACK);
    let srv = proxy(THREADED_PROXY, &up.url(), &[("FESTINA_NO_PARK", "1")]);
    let got = staged(srv.port, &up, &["/a", "/b", "/c", "/d"], 1);
    assert_eq!(answers(&got), ok(&["up:/a", "up:/b", "up:/c", "up:/d"]));
    assert!(up.max() <= 2, "at most one per thread, saw {}", up.max());
    // The pool's upstream failure is caught there too.
    crate::client::assert_bad_gateway(|down| proxy(THREADED_PROXY, down, &[]));
}

#[test]
fn a_handler_parked_longer_than_the_idle_timeout_still_answers() {
    // The upstream holds the one request for FALLBACK (3 s), longer than
    // the connection's idle timeout (1 s): the parked handler's answer
    // must still go out, and the connection stays usable.
    let up = Holding::pairs();
    let srv = proxy(PROXY, &up.url(), &[("FESTINA_HTTP_IDLE_SECONDS", "1")]);
    let s = srv.connect();
    let mut r = BufReader::new(s.try_clone().expect("clone"));
    let mut w = s;
    write!(w, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n").expect("send");
    let res = read_response(&mut r, false).expect("the parked handler's answer");
    assert_eq!((res.status, res.text()), (200, "up:/slow".to_string()));
    up.open();
    write!(w, "GET /next HTTP/1.1\r\nHost: x\r\n\r\n").expect("send");
    let res = read_response(&mut r, false).expect("the next answer");
    assert_eq!((res.status, res.text()), (200, "up:/next".to_string()));
    let end = srv.stop();
    assert!(!end.stderr.contains("fail"), "{end:?}");
}

#[test]
fn pipelined_requests_wait_for_the_parked_one_and_keep_their_order() {
    // Two requests in one write on one connection: the second is not
    // dispatched while the first is parked (the upstream never holds
    // both), and the answers come in request order.
    let up = Holding::pairs();
    let srv = proxy(PROXY, &up.url(), &[]);
    let mut s = srv.connect();
    s.write_all(
        b"GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .expect("send");
    let mut r = BufReader::new(s);
    let got: Vec<Response> = (0..2)
        .map(|_| read_response(&mut r, false).expect("response"))
        .collect();
    assert_eq!(answers(&got), ok(&["up:/first", "up:/second"]));
    assert_eq!(up.max(), 1, "one connection, one request at a time");
    assert_eq!(up.paths(), ["/first", "/second"]);
    let mut rest = Vec::new();
    let _ = r.read_to_end(&mut rest);
    assert!(rest.is_empty(), "closed after the last answer");
    srv.stop();
}

#[test]
fn a_shutdown_lets_a_parked_handler_finish() {
    // SIGTERM while the handler is parked: the request in progress is
    // answered (with `Connection: close`) once the upstream answers, and
    // the program then ends as a shutdown does (status 143).
    let up = Holding::gated();
    let srv = proxy(PROXY, &up.url(), &[]);
    let port = srv.port;
    let client = thread::spawn(move || get(port, "/late"));
    up.wait_arrived(1);
    srv.signal(libc::SIGTERM);
    // The listener closes at once (a connection attempt is refused).
    let deadline = std::time::Instant::now() + PATIENCE;
    while TcpStream::connect(("127.0.0.1", port)).is_ok() {
        assert!(std::time::Instant::now() < deadline, "still listening");
        thread::sleep(Duration::from_millis(10));
    }
    up.open();
    let res = client.join().expect("client");
    assert_eq!((res.status, res.text()), (200, "up:/late".to_string()));
    assert_eq!(res.header("connection"), Some("close"));
    let end = srv.wait();
    assert_eq!(end.status.code(), Some(143), "{end:?}");
    assert!(!end.stderr.contains("fail"), "{end:?}");
}

#[test]
fn a_parked_handler_times_out_into_its_catch() {
    // The upstream never answers: the client's own deadline (1 s) ends
    // the wait, and the throw reaches the handler's `catch`.
    let up = Holding::gated();
    let srv = proxy(PROXY, &up.url(), &[("FESTINA_HTTP_TIMEOUT_SECONDS", "1")]);
    let res = get(srv.port, "/stall");
    assert_eq!(
        (res.status, res.text()),
        (502, "bad gateway: timed out after 1 s".to_string())
    );
    up.open();
    let end = srv.stop();
    assert!(!end.stderr.contains("fail"), "{end:?}");
}

#[test]
fn a_host_name_is_resolved_while_parked() {
    // `localhost` goes through the resolver (a background job) before
    // the connection: both handlers park, both are answered.
    let up = Holding::pairs();
    let by_name = format!("http://localhost:{}", up.port);
    let srv = proxy(PROXY, &by_name, &[]);
    let got = staged(srv.port, &up, &["/a", "/b"], 1);
    assert_eq!(answers(&got), ok(&["up:/a", "up:/b"]));
    assert_eq!(up.max(), 2);
    srv.stop();
}

/// One upstream connection used by all three drivers of the client in
/// turn: blocking at start-up (before the event loop exists), callback
/// mode from the first timer, then parked handlers.
const ONE_CONNECTION_PROXY: &str = r#"
text upstream = argv[2]

http first = {'url': `${upstream}/top`}
first.send()
log(`top: ${first.toText()}`)

void func kick() {
    http {'url': `${upstream}/cb`, 'callback': done}
}

void func done(q:http) {
    log(`cb: ${q.toText()}`)
}

setTimeout(kick, 0)

on request(req:http) {
    http out = {'url': `${upstream}${parseURL(req.url).pathname}`}
    out.send()
    req.send({'body': out.toText()})
}

openPort(argv[1].toInt())
"#;

#[test]
fn one_pooled_connection_serves_every_driver_in_turn() {
    // The connection is opened by the blocking send (not registered with
    // any poll), registered by the callback-mode request, and kept
    // registered in the pool (`client_pool.rs`, "Staying in the poll"):
    // each parked request registers its source under the connection's
    // token. Switched off, it is registered and deregistered per request.
    // Either way: every answer right, one connection.
    for env in [
        None,
        Some(("FESTINA_NO_KEPT_REGISTRATION", "1")),
        Some(("FESTINA_NO_SEND_THEN_WAIT", "1")),
        Some(("FESTINA_NO_OPT", "1")),
    ] {
        let up = Holding::start(1, PATIENCE);
        let env: Vec<(&str, &str)> = env.into_iter().collect();
        let srv = proxy(ONE_CONNECTION_PROXY, &up.url(), &env);
        srv.wait_for_stdout("cb: up:/cb");
        for i in 0..5 {
            let path = format!("/p{i}");
            let res = get(srv.port, &path);
            assert_eq!(
                (res.status, res.text()),
                (200, format!("up:{path}")),
                "{env:?}"
            );
        }
        assert_eq!(up.connections(), 1, "{env:?}: {:?}", up.paths());
        // The idle connection is still in the loop's poll, unless switched
        // off (Linux: the epoll descriptor's `fdinfo` lists what it holds).
        // With a read right after each write, every answer may be there at
        // once (the upstream thread ran first), and then nothing ever
        // waited on the poll: in the poll or not, both are right.
        if let Some(polled) = polled_sockets(srv.pid(), None, up.port) {
            match env.first().map(|(k, _)| *k) {
                None => assert_eq!(polled, 1, "kept in the poll"),
                Some("FESTINA_NO_SEND_THEN_WAIT") => assert!(polled <= 1),
                Some(_) => assert_eq!(polled, 0, "{env:?}: out of the poll"),
            }
        }
        let end = srv.stop();
        assert_eq!(end.stdout, "top: up:/top\ncb: up:/cb\n", "{env:?}");
    }
}

#[test]
fn a_pooled_connection_the_upstream_closed_is_replaced_while_parked() {
    // `/once`: every upstream connection serves one request and closes
    // unannounced, so each later request of the proxy finds its pooled
    // connection closed at the peek before reuse and opens a fresh one.
    // `/late`: the upstream closes a reused connection only when the next
    // request arrives on it (after the peek): the write succeeds, the
    // close shows while the handler is parked, and the request goes again
    // on a fresh connection.
    for prefix in ["/once", "/late"] {
        let up = Holding::start(1, PATIENCE);
        let srv = proxy(PROXY, &up.url(), &[]);
        for i in 0..4 {
            let path = format!("{prefix}/{i}");
            let res = get(srv.port, &path);
            assert_eq!(
                (res.status, res.text()),
                (200, format!("up:{path}")),
                "{prefix}"
            );
        }
        let end = srv.stop();
        assert!(!end.stderr.contains("fail"), "{end:?}");
    }
}

#[test]
fn a_shutdown_ends_a_handler_still_parked_at_the_grace_period() {
    // SIGTERM while the handler is parked and the upstream never answers:
    // the program ends at the grace period (1 s), the parked call
    // dropped with the loop, as cleanly as any shutdown.
    let up = Holding::gated();
    let srv = proxy(PROXY, &up.url(), &[("FESTINA_SHUTDOWN_GRACE_SECONDS", "1")]);
    let mut s = srv.connect();
    s.write_all(b"GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("send");
    up.wait_arrived(1);
    srv.signal(libc::SIGTERM);
    let end = srv.wait();
    assert_eq!(end.status.code(), Some(143), "{end:?}");
    assert!(!end.stderr.contains("fail"), "{end:?}");
    assert!(!end.stderr.contains("panic"), "{end:?}");
    // The client was not left hanging: its connection is closed.
    let _ = read_until_closed(&mut s);
    up.open();
}

/// A failure two calls deep after the upstream answered.
const FAILING_PROXY: &str = r#"
text upstream = argv[2]

text func check(body:text) {
    if body.length > 0 {
        throw `no thanks: ${body}`
    }
    return body
}

text func relay(out:http) {
    return check(out.toText())
}

on request(req:http) {
    http out = {'url': `${upstream}${parseURL(req.url).pathname}`}
    out.send()
    req.send({'body': relay(out)})
}

openPort(argv[1].toInt())
"#;

#[test]
fn a_failure_after_resumption_is_reported_as_without_parking() {
    // The same 500, exit status and failure report (message and call
    // stack) whether the handler was parked or held its thread.
    let mut reports = Vec::new();
    for env in [&[][..], &[("FESTINA_NO_PARK", "1")][..]] {
        let up = Holding::gated();
        let srv = proxy(FAILING_PROXY, &up.url(), env);
        let port = srv.port;
        let client = thread::spawn(move || get(port, "/x"));
        up.wait_arrived(1);
        up.open();
        let res = client.join().expect("client");
        assert_eq!(res.status, 500, "{env:?} {res:?}");
        let end = srv.wait();
        assert_eq!(end.status.code(), Some(1), "{env:?} {end:?}");
        assert!(
            end.stderr.starts_with("fail: no thanks: up:/x"),
            "{env:?} {:?}",
            end.stderr
        );
        reports.push(end.stderr);
    }
    assert_eq!(reports[0], reports[1]);
}

#[test]
fn a_parked_handler_reaches_a_tls_upstream() {
    // The handshake and the exchange run on the loop while the handlers
    // are parked: a Festina TLS server as the upstream, four clients at
    // once, then one more on the reused connections.
    use crate::tls::{make_pki, TLS_APP};
    let dir = TempDir::new("park-tls");
    let pki = make_pki(&dir);
    let ca = dir.write("ca.pem", &pki.ca);
    let tls = Server::start_with(
        TLS_APP,
        Options {
            args: &["key.pem"],
            files: &[("key.pem", &pki.bundle)],
            loopback_only: false,
            ..Options::default()
        },
    );
    let upstream = format!("https://localhost:{}", tls.port);
    let srv = proxy(
        PROXY,
        &upstream,
        &[("FESTINA_EXTRA_CA", ca.to_str().expect("utf-8 path"))],
    );
    let port = srv.port;
    let clients: Vec<_> = (0..4)
        .map(|i| thread::spawn(move || get(port, &format!("/c{i}"))))
        .collect();
    for c in clients {
        let res = c.join().expect("client");
        assert_eq!(
            (res.status, res.text()),
            (200, "hello over https: ".to_string())
        );
    }
    let res = get(port, "/again");
    assert_eq!(
        (res.status, res.text()),
        (200, "hello over https: ".to_string())
    );
    let end = srv.stop();
    assert!(!end.stderr.contains("fail"), "{end:?}");
}

/// A pool worker's handler parked while main has nothing left to do:
/// main hands the one connection over and closes its port.
const HAND_OFF_AND_CLOSE: &str = r#"
int port = argv[1].toInt()

thread w {
    text upstream = argv[2]

    on request(req:http) {
        http out = {'url': `${upstream}${parseURL(req.url).pathname}`}
        out.send()
        req.send({'body': out.toText()})
    }
}

on request(req:http?) {
    w.giveRequest(req)
    closePort(port)
}

openPort(port)
"#;

#[test]
fn a_parked_handler_of_a_thread_keeps_the_program_alive() {
    // The worker's parked handler is work in flight (§20.2): the program
    // ends once it has answered, not when main runs out of work, with
    // parking as without it.
    for env in [&[][..], &[("FESTINA_NO_PARK", "1")][..]] {
        let up = Holding::gated();
        let srv = proxy(HAND_OFF_AND_CLOSE, &up.url(), env);
        let port = srv.port;
        let client = thread::spawn(move || get(port, "/kept"));
        up.wait_arrived(1);
        up.open();
        let res = client.join().expect("client");
        assert_eq!(
            (res.status, res.text()),
            (200, "up:/kept".to_string()),
            "{env:?}"
        );
        let end = srv.wait();
        assert_eq!(end.status.code(), Some(0), "{env:?} {end:?}");
    }
}

#[test]
fn a_shutdown_lets_a_parked_handler_of_a_thread_finish() {
    // SIGTERM while a pool worker's handler is parked: main ends its own
    // part at once and kills the instances, and the instance takes the
    // kill after the parked handler has answered, as it does after a
    // handler blocked in `send()` (FESTINA_NO_PARK).
    for env in [&[][..], &[("FESTINA_NO_PARK", "1")][..]] {
        let up = Holding::gated();
        let srv = proxy(THREADED_PROXY, &up.url(), env);
        let port = srv.port;
        let client = thread::spawn(move || get(port, "/late"));
        up.wait_arrived(1);
        srv.signal(libc::SIGTERM);
        thread::sleep(Duration::from_millis(200));
        up.open();
        let res = client.join().expect("client");
        assert_eq!(
            (res.status, res.text()),
            (200, "up:/late".to_string()),
            "{env:?}"
        );
        let end = srv.wait();
        assert_eq!(end.status.code(), Some(143), "{env:?} {end:?}");
    }
}

#[test]
fn stray_bytes_on_a_kept_registered_idle_connection_are_never_an_answer() {
    // A pooled connection stays in the loop's poll while idle
    // (`client_pool.rs`, "Staying in the poll"): an upstream that sends
    // a whole response nobody asked for while the connection is idle
    // wakes a token with no source, and the next parked request on the
    // connection registers under that token. The check before reuse
    // must still find the bytes and take a fresh connection, so every
    // request gets its own answer (break run: never seen wrong, guarded
    // here for each switch). The test waits for the upstream to have
    // written the stray bytes (a channel), not for a time.
    for env in [
        None,
        Some(("FESTINA_NO_KEPT_REGISTRATION", "1")),
        Some(("FESTINA_NO_SEND_THEN_WAIT", "1")),
    ] {
        let (stray_tx, stray_rx) = std::sync::mpsc::channel::<()>();
        let port = stray_upstream(Duration::ZERO, Some(stray_tx));
        let env: Vec<(&str, &str)> = env.into_iter().collect();
        let srv = proxy(PROXY, &format!("http://127.0.0.1:{port}"), &env);
        let first = get(srv.port, "/one");
        assert_eq!((first.status, first.text()), (200, "/one on 0".into()));
        stray_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the upstream wrote the stray response");
        for path in ["/two", "/three", "/four"] {
            let res = get(srv.port, path);
            assert_eq!(
                (res.status, res.text()),
                (200, format!("{path} on 1")),
                "{env:?}"
            );
        }
        let end = srv.stop();
        assert!(!end.stderr.contains("fail"), "{end:?}");
    }
}
