//! The flagship programs of the mission documents (issue 19,
//! `examples/flagship/`), each driven end to end by real clients over
//! 127.0.0.1: the reverse proxy against a strict upstream, SQLite behind
//! a WebSocket. They take their port from `$PORT`, as the benchmark runner
//! (`benches/flagship/run.py`) gives it. The CAPTCHA endpoint's test is
//! in `media.rs` (images as bodies); the weather app's, which needs a
//! display, is `tests/flagship_weather.rs`.

use crate::client::{assert_bad_gateway, Answer, Upstream};
use crate::common::*;
use crate::examples::{bundle, example};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::thread;
use tungstenite::Message;

fn start_flagship(source: &str, exe: Option<&std::path::Path>) -> Server {
    Server::start_with(
        source,
        Options {
            exe,
            port_in_env: true,
            ..Options::default()
        },
    )
}

/// One WebSocket client storing `n` readings (sensor `tag-k`, value
/// `k.25`) and checking every reply: the latest ten rows, newest first,
/// with their rowids, as the Rust, Go and Bun peers answer.
fn store_readings(port: u16, tag: &str, first_id: i64, n: i64) -> Vec<String> {
    let stream = connect(port);
    let (mut ws, _) =
        tungstenite::client(format!("ws://127.0.0.1:{port}/db"), stream).expect("handshake");
    let mut replies = Vec::new();
    for k in 1..=n {
        let reading = format!(r#"{{"sensor": "{tag}-{k}", "value": {k}.25, "unit": "C"}}"#);
        ws.send(Message::text(reading)).unwrap();
        let reply = ws.read().unwrap().into_text().unwrap().as_str().to_string();
        let id = first_id + k - 1;
        let newest = format!(r#"{{"id":{id},"sensor":"{tag}-{k}","value":{k}.25}}"#);
        assert!(reply.starts_with(&format!("[{newest}")), "{reply}");
        assert_eq!(
            reply.matches("\"id\":").count() as i64,
            id.min(10),
            "{reply}"
        );
        replies.push(reply);
    }
    // A message that is not JSON stores an empty reading; the connection stays.
    ws.send(Message::text("{\"sensor\": 5")).unwrap();
    let reply = ws.read().unwrap().into_text().unwrap().as_str().to_string();
    let id = first_id + n;
    assert!(
        reply.starts_with(&format!(r#"[{{"id":{id},"sensor":null,"value":0}},"#)),
        "{reply}"
    );
    replies.push(reply);
    ws.close(None).unwrap();
    while ws.read().is_ok() {}
    replies
}

fn wsdb_session(s: &Server) -> Vec<String> {
    let mut replies = store_readings(s.port, "temp", 1, 12);
    let latest: Vec<String> = (3..=12)
        .rev()
        .map(|k| format!(r#"{{"id":{k},"sensor":"temp-{k}","value":{k}.25}}"#))
        .collect();
    assert_eq!(replies[11], format!("[{}]", latest.join(",")));
    // A second client sees the rows the first one stored.
    replies.extend(store_readings(s.port, "wind", 14, 1));
    let other = exchange(s.port, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
    assert_eq!((other.status, other.text()), (200, String::new()));
    replies
}

#[test]
fn wsdb_stores_readings_and_answers_the_latest_ten() {
    let source = example("flagship/wsdb.f");
    let s = start_flagship(&source, None);
    let got = wsdb_session(&s);
    // The rows are in the program's default database file, in WAL mode.
    let db = rusqlite::Connection::open(s.dir.path().join("festina.sqlite")).unwrap();
    let rows: i64 = db
        .query_row("SELECT count(*) FROM Readings", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 15);
    let mode: String = db
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    drop(db);
    let done = s.stop();
    for line in ["data source connected", "data source disconnected"] {
        assert_eq!(done.stdout.matches(line).count(), 2, "{}", done.stdout);
    }
    // The bundle (`festina compile`) answers the same.
    let dir = TempDir::new("wsdb-bundle");
    let exe = bundle(&dir, "wsdb", &source);
    let b = start_flagship(&source, Some(&exe));
    assert_eq!(wsdb_session(&b), got);
}

/// The proxy's upstream: a strict server (client.rs) answering 201 with
/// headers of its own (a `Date` among them) and a body holding the request line, a request
/// header and the request body's bytes.
fn byte_upstream() -> Upstream {
    Upstream::start(|r| {
        let mut body = format!(
            "{} x-test={} body=",
            r.line,
            r.header("x-test").unwrap_or("-")
        )
        .into_bytes();
        body.extend_from_slice(&r.body);
        let mut out = format!(
            "HTTP/1.1 201 Created\r\nX-Upstream: yes\r\nContent-Type: application/octet-stream\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        out.extend_from_slice(&body);
        Answer::Bytes(out)
    })
}

/// One request on `c`, its response.
fn ask(c: &mut TcpStream, r: &mut impl BufRead, path: &str, tag: &str, body: &[u8]) -> Response {
    write!(
        c,
        "POST {path} HTTP/1.1\r\nHost: x\r\nX-Test: {tag}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    c.write_all(body).unwrap();
    read_response(r, false).unwrap()
}

#[test]
fn proxy_relays_the_upstreams_answers_byte_for_byte() {
    let up = byte_upstream();
    let upstream = up.url("");
    let proxy = Server::start_with(
        &example("flagship/proxy.f"),
        Options {
            port_in_env: true,
            env: &[("UPSTREAM", &upstream)],
            ..Options::default()
        },
    );
    // Eight clients at once, five requests each on a keep-alive
    // connection, with bodies holding every byte value; each answer is
    // compared with the upstream's own answer to the same request.
    let payload: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
    thread::scope(|s| {
        for client in 0..8 {
            let (payload, proxy_port, up_port) = (&payload, proxy.port, up.port);
            s.spawn(move || {
                let mut via = connect(proxy_port);
                let mut via_r = BufReader::new(via.try_clone().unwrap());
                let mut direct = connect(up_port);
                let mut direct_r = BufReader::new(direct.try_clone().unwrap());
                for i in 0..5 {
                    let (path, tag) = (format!("/items/{client}/{i}"), format!("t{client}.{i}"));
                    let got = ask(&mut via, &mut via_r, &path, &tag, payload);
                    let want = ask(&mut direct, &mut direct_r, &path, &tag, payload);
                    assert_eq!(got.status, want.status);
                    assert_eq!(got.body, want.body);
                    assert!(got.body.ends_with(payload));
                    for h in ["x-upstream", "content-type"] {
                        assert_eq!(got.header(h), want.header(h), "{h}");
                    }
                    // One Date, the proxy's own: the upstream's is not
                    // copied beside it.
                    let dates: Vec<_> = got
                        .headers
                        .iter()
                        .filter(|(n, _)| n.eq_ignore_ascii_case("date"))
                        .collect();
                    assert_eq!(dates.len(), 1, "{:?}", got.headers);
                    assert_ne!(dates[0].1, "Sun, 06 Nov 1994 08:49:37 GMT");
                }
            });
        }
    });
    // 40 proxied and 40 direct requests reached the strict upstream (no
    // duplicated computed header); the proxied ones over at most one
    // keep-alive connection per request in flight (a worker parked at the
    // upstream serves its other clients meanwhile, stdlib/src/net/park.rs:
    // at most one per client), beside the 8 direct ones.
    assert_eq!(up.seen().len(), 80);
    assert!(
        up.accepted() <= 8 + 8,
        "{} upstream connections",
        up.accepted()
    );
    drop(proxy);

    // The upstream down: 502 with the error.
    assert_bad_gateway(|down| {
        Server::start_with(
            &example("flagship/proxy.f"),
            Options {
                port_in_env: true,
                env: &[("UPSTREAM", down)],
                ..Options::default()
            },
        )
    });
}
