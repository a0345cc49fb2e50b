//! The network examples (issue 13 item 10), run with real clients, first
//! with `festina`, then as `festina compile` bundles, which must answer
//! the same and carry the network runtime (no graphics or audio library).

use crate::common::*;
use crate::tls::{make_pki, tls_client};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use tungstenite::Message;

pub(crate) fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name);
    std::fs::read_to_string(path).expect("read the example")
}

/// `festina compile` of `source` into `dir`; checks that the bundle's
/// runtime is a network one (festina-runtime-http, or festina-runtime-net
/// for a program that also uses the database) and that it links no
/// graphics or audio library.
pub(crate) fn bundle(dir: &TempDir, name: &str, source: &str) -> PathBuf {
    let exe = compile_bundle(dir, name, source);
    let bytes = std::fs::read(&exe).unwrap();
    let http = std::fs::read(env!("CARGO_BIN_EXE_festina-runtime-http")).unwrap();
    let net = std::fs::read(env!("CARGO_BIN_EXE_festina-runtime-net")).unwrap();
    assert!(
        bytes.starts_with(&http) || bytes.starts_with(&net),
        "{name}: the bundle's runtime is neither festina-runtime-http nor festina-runtime-net"
    );
    if let Ok(ldd) = Command::new("ldd").arg(&exe).output() {
        let libs = String::from_utf8_lossy(&ldd.stdout);
        for lib in ["libcairo", "libX11", "libxcb", "libasound"] {
            assert!(!libs.contains(lib), "{name} links {lib}: {libs}");
        }
    }
    exe
}

/// Start `source` with `festina`, or `exe` (a bundle).
fn start(source: &str, exe: Option<&Path>, args: &[&str], files: &[(&str, &[u8])]) -> Server {
    Server::start_with(
        source,
        Options {
            exe,
            args,
            files,
            ..Options::default()
        },
    )
}

/// A JSON body with its timestamps blanked, to compare two runs.
fn stable(r: &Response) -> String {
    let t = r.text();
    let mut out = String::new();
    let mut rest = t.as_str();
    while let Some(i) = rest.find("\"created\":") {
        out.push_str(&rest[..i + 10]);
        rest = rest[i + 10..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push('T');
    }
    out.push_str(rest);
    format!("{} {}", r.status, out)
}

fn notes_session(port: u16) -> Vec<String> {
    let send = |raw: String| stable(&exchange(port, &raw));
    let post = |body: &str| {
        format!(
            "POST /notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    };
    let plain =
        |m: &str, p: &str| format!("{m} {p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    vec![
        send(plain("GET", "/notes")),
        send(post(r#"{"body": "buy milk"}"#)),
        send(post(r#"{"body": "call mum", "extra": 1}"#)),
        send(post("not json")),
        send(post(r#"{"body": ""}"#)),
        send(plain("GET", "/notes")),
        send(plain("DELETE", "/notes/1")),
        send(plain("DELETE", "/notes/1")),
        send(plain("GET", "/notes/")),
        send(plain("PUT", "/notes")),
        send(plain("GET", "/elsewhere")),
    ]
}

#[test]
fn notes_api() {
    let source = example("notes_api.f");
    let s = start(&source, None, &[], &[]);
    let got = notes_session(s.port);
    assert_eq!(
        got,
        [
            "200 []",
            r#"201 {"id":1,"body":"buy milk","created":T}"#,
            r#"201 {"id":2,"body":"call mum","created":T}"#,
            r#"400 {"error":"the body must be a JSON object like {\"body\": \"...\"}: invalid JSON: expected ident at line 1 column 2"}"#,
            r#"400 {"error":"a note needs a body"}"#,
            r#"200 [{"id":1,"body":"buy milk","created":T},{"id":2,"body":"call mum","created":T}]"#,
            "204 ",
            r#"404 {"error":"no note 1"}"#,
            r#"200 [{"id":2,"body":"call mum","created":T}]"#,
            r#"405 {"error":"PUT is not allowed here"}"#,
            r#"404 {"error":"try /notes"}"#,
        ]
    );
    assert!(s.dir.path().join("notes.sqlite").exists());
    // The bundle answers the same.
    let dir = TempDir::new("notes-bundle");
    let exe = bundle(&dir, "notes", &source);
    let b = start(&source, Some(&exe), &[], &[]);
    assert_eq!(notes_session(b.port), got);
}

fn sensors_session(port: u16) -> Vec<String> {
    let stream = connect(port);
    let (mut ws, _) =
        tungstenite::client(format!("ws://127.0.0.1:{port}/db"), stream).expect("handshake");
    let mut out = Vec::new();
    for i in 0..12 {
        let reading = format!(r#"{{"sensor": "t{}", "value": {}.5}}"#, i % 3, i);
        ws.send(Message::text(reading)).unwrap();
        let reply = ws.read().unwrap().into_text().unwrap();
        if i == 0 || i == 11 {
            out.push(reply.as_str().to_string());
        }
    }
    ws.send(Message::text("{\"sensor\": 5")).unwrap();
    out.push(ws.read().unwrap().into_text().unwrap().as_str().to_string());
    ws.close(None).unwrap();
    while ws.read().is_ok() {}
    out.push(
        exchange(port, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
            .status
            .to_string(),
    );
    out
}

#[test]
fn sqlite_over_websocket() {
    let source = example("sensors_ws.f");
    let s = start(&source, None, &[], &[]);
    let got = sensors_session(s.port);
    let latest: Vec<String> = (2..12)
        .rev()
        .map(|i| format!(r#"{{"sensor":"t{}","value":{}.5}}"#, i % 3, i))
        .collect();
    assert_eq!(got[0], r#"[{"sensor":"t0","value":0.5}]"#);
    assert_eq!(got[1], format!("[{}]", latest.join(",")));
    assert!(
        got[2].starts_with(r#"{"error":"invalid JSON"#),
        "{}",
        got[2]
    );
    assert_eq!(got[3], "200");
    s.wait_for_stdout("data source disconnected");
    let done = s.stop();
    assert_eq!(
        done.stdout,
        "data source connected\ndata source disconnected\n"
    );
    let dir = TempDir::new("sensors-bundle");
    let exe = bundle(&dir, "sensors", &source);
    let b = start(&source, Some(&exe), &[], &[]);
    assert_eq!(sensors_session(b.port), got);
}

fn hello_session(port: u16, ca: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for path in ["/", "/world"] {
        let mut c = tls_client(port, ca);
        c.write_all(
            format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
        .unwrap();
        let r = read_response(&mut BufReader::new(&mut c), false).unwrap();
        out.push(format!("{} {}", r.status, r.text()));
    }
    out
}

#[test]
fn tls_hello() {
    let pki_dir = TempDir::new("hello-pki");
    let pki = make_pki(&pki_dir);
    let source = example("tls_hello.f");
    let files: &[(&str, &[u8])] = &[("server.pem", &pki.bundle)];
    let s = start(&source, None, &[], files);
    let got = hello_session(s.port, &pki.ca);
    assert_eq!(
        got,
        ["200 Hello over https: /", "200 Hello over https: /world"]
    );
    let dir = TempDir::new("hello-bundle");
    let exe = bundle(&dir, "hello", &source);
    let b = start(&source, Some(&exe), &[], files);
    assert_eq!(hello_session(b.port, &pki.ca), got);
}
