//! Threads serving HTTP (§20.8, §20.9): pools given live connections by
//! the main loop, keep-alive continuing on the worker, the main loop
//! accepting meanwhile, a worker's failure.

use crate::common::*;
use std::io::{BufReader, Read, Write};
use std::thread;

/// A pool answering every request handed to it with its path and how
/// many requests its instance has served.
const POOL: &str = r#"
thread workers[3] {
    int served = 0
    on request(req: http) {
        served = served + 1
        req.send({'body': `${parseURL(req.url).pathname} ${served}`})
    }
}
on request use workers
openPort(argv[1].toInt())
"#;

fn get_on(s: &mut (impl Read + Write), r: &mut BufReader<impl Read>, path: &str) -> Response {
    write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").expect("write");
    read_response(r, false).expect("response")
}

#[test]
fn a_pool_serves_handed_off_keep_alive_connections() {
    let srv = Server::start(POOL);
    let port = srv.port;
    let clients: Vec<_> = (0..6)
        .map(|c| {
            thread::spawn(move || {
                let s = connect(port);
                let mut r = BufReader::new(s.try_clone().expect("clone"));
                let mut w = s;
                let mut counts = Vec::new();
                for i in 0..25 {
                    let path = format!("/c{c}/r{i}");
                    let resp = get_on(&mut w, &mut r, &path);
                    assert_eq!(resp.status, 200);
                    let text = resp.text();
                    let (p, n) = text.split_once(' ').expect("path and count");
                    assert_eq!(p, path);
                    counts.push(n.parse::<u32>().expect("count"));
                }
                counts
            })
        })
        .collect();
    for c in clients {
        let counts = c.join().expect("client");
        // One connection stays with the instance it was handed to: its
        // count goes up by one per request (other connections may share
        // the instance, so only increase is certain).
        assert!(counts.windows(2).all(|w| w[1] > w[0]), "{counts:?}");
    }
}

#[test]
fn pipelined_requests_follow_the_connection() {
    let srv = Server::start(POOL);
    let mut s = srv.connect();
    s.write_all(
        b"GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\nGET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .expect("write");
    let mut r = BufReader::new(s);
    let bodies: Vec<String> = (0..3)
        .map(|_| read_response(&mut r, false).expect("response").text())
        .collect();
    assert_eq!(bodies, ["/a 1", "/b 2", "/c 3"]);
    let mut rest = Vec::new();
    let _ = r.read_to_end(&mut rest);
    assert!(rest.is_empty(), "closed after the last answer");
}

/// Main answers `/` itself and gives `/slow` to a worker, which waits
/// until the gate file exists: main must keep answering meanwhile.
const GATED: &str = r#"
thread slow {
    on request(req: http) {
        while ls('.').indexOf('gate') < 0 {
        }
        req.send({'body': 'slow done'})
    }
}
on request(req: http?) {
    if parseURL(req.url).pathname == '/slow' {
        slow.giveRequest(req)
    } else {
        req.send({'body': 'main'})
    }
}
openPort(argv[1].toInt())
"#;

#[test]
fn a_handed_off_connection_leaves_main_s_poll_before_it_goes() {
    // Main hands the connection over, then waits in an upstream request
    // that never answers (until its 5 s timeout), holding its loop (the
    // handler logs: it does not park). Meanwhile the worker
    // serves two requests on the connection: its socket is then in the
    // worker's poll only. It was still in main's too until main's handler
    // returned, and main then removed it by descriptor number: by then
    // the worker may have closed it and the number may be another
    // socket's (found by ThreadSanitizer).
    let stall = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let stall_port = stall.local_addr().expect("addr").port();
    thread::spawn(move || {
        let mut held = Vec::new();
        for s in stall.incoming().take(4).flatten() {
            held.push(s);
        }
        thread::sleep(std::time::Duration::from_secs(20));
    });
    let src = r#"
thread workers[1] {
    on request(req: http) {
        req.send({'body': `worker ${parseURL(req.url).pathname}`})
    }
}
text upstream = argv[2]
on request(req: http?) {
    workers.giveRequest(req)
    log('handed')
    try {
        http {'url': `${upstream}/never`}.send()
    } catch (e: text) {
        log(`main: ${e}`)
    }
}
openPort(argv[1].toInt())
"#;
    let url = format!("http://127.0.0.1:{stall_port}");
    let srv = Server::start_with(
        src,
        Options {
            args: &[&url],
            env: &[("FESTINA_HTTP_TIMEOUT_SECONDS", "5")],
            ..Options::default()
        },
    );
    let mut s = srv.connect();
    let client_port = s.local_addr().expect("addr").port();
    let mut r = BufReader::new(s.try_clone().expect("clone"));
    assert_eq!(get_on(&mut s, &mut r, "/a").text(), "worker /a");
    assert_eq!(get_on(&mut s, &mut r, "/b").text(), "worker /b");
    if let Some(n) = polled_sockets(srv.pid(), Some(srv.port), client_port) {
        assert_eq!(n, 1, "the socket is in the worker's poll only");
    }
    assert_eq!(srv.stdout(), "handed\n", "main still waits upstream");
    drop(s);
    srv.wait_for_stdout("main: timed out after 5 s");
    srv.stop();
}

#[test]
fn main_keeps_serving_while_a_worker_is_busy() {
    let srv = Server::start(GATED);
    let mut slow = srv.connect();
    slow.write_all(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("write");
    for _ in 0..5 {
        assert_eq!(get(srv.port, "/").text(), "main");
    }
    srv.dir.write("gate", "open");
    let resp = read_response(&mut BufReader::new(slow), false).expect("slow response");
    assert_eq!(resp.text(), "slow done");
}

#[test]
fn a_failing_worker_answers_500_and_ends_the_program() {
    let srv = Server::start(
        r#"
thread fragile {
    on request(req: http) {
        throw 'worker broke'
    }
}
on request use fragile
openPort(argv[1].toInt())
"#,
    );
    let resp = get(srv.port, "/");
    assert_eq!(resp.status, 500);
    let done = srv.wait();
    assert_eq!(done.status.code(), Some(1));
    assert!(
        done.stderr.starts_with("fail: worker broke"),
        "{}",
        done.stderr
    );
}

#[test]
fn the_threaded_proxy_example() {
    use crate::client::{assert_bad_gateway, Answer, Upstream};
    let up = Upstream::start(|r| {
        let body = format!("{} body={}", r.line, String::from_utf8_lossy(&r.body));
        Answer::created(&body)
    });
    let source = crate::examples::example("threaded_proxy.f");
    let upstream = up.url("");
    let proxy = Server::start_with(
        &source,
        Options {
            args: &[&upstream],
            ..Options::default()
        },
    );
    // Four clients, each on its own keep-alive connection.
    let port = proxy.port;
    let clients: Vec<_> = (0..4)
        .map(|c| {
            thread::spawn(move || {
                let s = connect(port);
                let mut r = BufReader::new(s.try_clone().expect("clone"));
                let mut w = s;
                for i in 0..10 {
                    write!(
                        w,
                        "POST /c{c}/{i} HTTP/1.1\r\nHost: proxy\r\nContent-Length: 2\r\n\r\nhi"
                    )
                    .expect("write");
                    let res = read_response(&mut r, false).expect("response");
                    assert_eq!(res.status, 201);
                    assert_eq!(res.header("x-upstream"), Some("yes"));
                    assert_eq!(res.text(), format!("POST /c{c}/{i} HTTP/1.1 body=hi"));
                }
            })
        })
        .collect();
    for c in clients {
        c.join().expect("client");
    }
    assert_eq!(up.seen().len(), 40);
    // Each worker keeps its own upstream connection: at most four.
    assert!(up.accepted() <= 4, "{} upstream connections", up.accepted());
    drop(proxy);

    assert_bad_gateway(|down| {
        Server::start_with(
            &source,
            Options {
                args: &[down],
                ..Options::default()
            },
        )
    });
}
