//! The language server on a 10,000-line program: the time from a
//! one-character edit (`didChange`) to the new diagnostics
//! (`publishDiagnostics`), and to the answer of a hover after such an
//! edit, through the server's own message loop (an in-memory connection;
//! JSON encoding included, the pipe excluded). Target: under 50 ms.
//!
//! `cargo bench -p festina-lsp --bench recheck`

use criterion::{criterion_group, criterion_main, Criterion};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::json;
use std::time::{Duration, Instant};

#[path = "../../compiler/benches/support/program.rs"]
mod support;

/// Waits for the next message satisfying `want`.
fn wait(client: &Connection, want: impl Fn(&Message) -> bool) {
    loop {
        let msg = client
            .receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers");
        if want(&msg) {
            return;
        }
    }
}

fn recheck(c: &mut Criterion) {
    let text = support::program(345);
    let lines = text.lines().count();
    assert!((9_900..=10_100).contains(&lines), "{lines} lines");
    let dir = std::env::temp_dir().join(format!("festina-lsp-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.f");
    std::fs::write(&path, &text).unwrap();
    let uri = format!("file://{}", path.canonicalize().unwrap().display());

    let (server, client) = Connection::memory();
    let thread = std::thread::spawn(move || festina_lsp::serve(&server));
    let init = Request::new(
        RequestId::from(1),
        "initialize".into(),
        json!({"capabilities": {}}),
    );
    client.sender.send(init.into()).unwrap();
    wait(&client, |m| matches!(m, Message::Response(_)));
    let note =
        |method: &str, params| Message::Notification(Notification::new(method.into(), params));
    client.sender.send(note("initialized", json!({}))).unwrap();
    client
        .sender
        .send(note(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "festina", "version": 1, "text": text}}),
        ))
        .unwrap();
    let published = |m: &Message| matches!(m, Message::Notification(n) if n.method == "textDocument/publishDiagnostics");
    wait(&client, published);

    // The edit: one digit of `int total = 0` in the middle of the file,
    // changed back and forth (the program stays correct).
    let line = text
        .lines()
        .position(|l| l.contains("int total = 0"))
        .unwrap()
        + lines / 2 / 30 * 30;
    let line = (line..)
        .find(|&i| text.lines().nth(i).unwrap().contains("int total = 0"))
        .unwrap();
    let column = text.lines().nth(line).unwrap().find('0').unwrap();
    let mut version = 1;
    let mut edit = move |client: &Connection| {
        version += 1;
        let digit = if version % 2 == 0 { "1" } else { "0" };
        client
            .sender
            .send(note(
                "textDocument/didChange",
                json!({"textDocument": {"uri": uri, "version": version},
                       "contentChanges": [{"range": {"start": {"line": line, "character": column},
                                                     "end": {"line": line, "character": column + 1}},
                                           "text": digit}]}),
            ))
            .unwrap();
    };
    let mut g = c.benchmark_group("lsp (10,000 lines)");
    g.sample_size(20);
    g.bench_function("one-character edit to diagnostics", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                edit(&client);
                wait(&client, published);
                total += start.elapsed();
            }
            total
        })
    });
    let mut id = 100;
    g.bench_function("one-character edit to a hover's answer", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                id += 1;
                let start = Instant::now();
                edit(&client);
                let hover = Request::new(
                    RequestId::from(id),
                    "textDocument/hover".into(),
                    json!({"textDocument": {"uri": format!("file://{}", path.canonicalize().unwrap().display())},
                           "position": {"line": line, "character": column - 8}}),
                );
                client.sender.send(hover.into()).unwrap();
                // The answer and the edit's diagnostics, in either order.
                let (mut answered, mut checked) = (false, false);
                while !(answered && checked) {
                    let msg = client
                        .receiver
                        .recv_timeout(Duration::from_secs(60))
                        .expect("the server answers");
                    if matches!(&msg, Message::Response(r) if r.id == RequestId::from(id)) {
                        answered = true;
                        total += start.elapsed();
                    }
                    checked |= published(&msg);
                }
            }
            total
        })
    });
    g.finish();
    let shutdown = Request::new(RequestId::from(2), "shutdown".into(), json!(null));
    client.sender.send(shutdown.into()).unwrap();
    wait(&client, |m| matches!(m, Message::Response(_)));
    client.sender.send(note("exit", json!(null))).unwrap();
    let _ = thread.join();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, recheck);
criterion_main!(benches);
