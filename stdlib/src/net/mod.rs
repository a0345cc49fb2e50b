//! The `net` facility (§19): the HTTP/1.1 server with WebSocket and TLS
//! on the interpreter's event loop, the `http`, `socket` and `url`
//! values. Compiled only with the cargo feature `net`, so that only the
//! runtimes that register it link httparse, tungstenite and rustls.
//!
//! # Design
//!
//! Everything runs on the thread of the interpreter that opened the
//! port, through its one event loop (`festina_vm::event_loop`), one
//! handler at a time (§19.1): a listener and each connection are
//! registered sources; the program's handlers run from their source
//! handlers with the whole interpreter at hand.
//!
//! | file | what |
//! |---|---|
//! | `proto.rs` | HTTP/1.1 requests as a state machine over bytes, no I/O: heads (httparse), bodies (`Content-Length`, chunked), refusals (400, 413, 417, 431, 501, 505); driven by the connection, the tests and the fuzz target (`stdlib/fuzz/`) |
//! | `encode.rs` | responses written into an output buffer: status line, the program's headers (checked), the runtime's (`Content-Length`, `Connection`, `Date`, a default `Content-Type`) |
//! | `conn.rs` | one connection: the state machine from reading to answering to closing or upgrading, its buffers, readiness, timeouts |
//! | `park.rs` | a request handler parked at the blocking client while the loop serves other connections (`festina_vm::interleave` decides which handlers may) |
//! | `io.rs` | the connection's stream: plain TCP or TLS (rustls), non-blocking, never raising `SIGPIPE` |
//! | `server.rs` | listening ports, the per-interpreter server state, the shutdown (§12.3) |
//! | `value.rs` | the `http` value, shared with the client (§19.5) |
//! | `ws.rs` | WebSocket: the handshake, tungstenite framing, the `socket` value |
//! | `tls.rs` | the TLS configuration from one PEM blob (§19.8) |
//! | `url.rs` | `parseURL` and the `url` value (§19.6) |
//!
//! The natives of this file are the program's surface: they find their
//! receiver's Rust value and call into the files above.
//!
//! | native | Festina form | result |
//! |---|---|---|
//! | `http_open_port`, `http_open_secure_port`, `http_close_port` | `openPort(p)`, `openSecurePort(p, key)`, `closePort(p)` | void |
//! | `http_new` | an `http` literal (§9.1.4) | http |
//! | `http_ok`, `http_redirect`, `http_respond`, `http_upgrade` | `req.ok()`, `req.redirect(url)`, `req.send(res)`, `req.upgrade()` | void |
//! | `http_url`, `http_method`, `http_code`, `http_headers`, `http_callback` | the fields | text, text, int, map[text], func[http]:void |
//! | `http_to_text`, `http_to_blob` | `.toText()`, `.toBlob()` | text, blob |
//! | `socket_send_blob`, `socket_send_text`, `socket_close`, `socket_state` | `s.send(b)`, `s.send(v)`, `s.close()`, `s.state` | void, void, void, map[text] |
//! | `url_parse` and `url_*` | `parseURL(t)` and the fields of §19.6 | url, text/int/map[text] |
//!
//! The answers (§19.3): `req.ok()` is 200 with an empty body;
//! `req.redirect(url)` 302 with `Location: url` (500 when `url` holds a
//! control character); `req.send(res)` `res.code` (200 when `null`, 500
//! when not a final status from 200 to 999), `res.headers` (see
//! `encode.rs` for what is skipped), a default `content-type` when they
//! name none, and `res`'s body (none for `HEAD`, 204 and 304).

pub mod client;
pub mod client_pool;
mod conn;
pub mod encode;
mod io;
pub mod park;
pub mod proto;
pub mod response;
mod server;
mod tls;
pub mod url;
pub mod value;
mod ws;

use encode::Finish;
use festina_signatures::tables::http::BodyKind;
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::Value;
use value::HttpObj;

/// The natives of the facility, for the registry.
pub fn natives() -> Vec<NativeEntry> {
    macro_rules! entries {
        ($($name:literal => $f:path),* $(,)?) => {
            vec![$(NativeEntry { name: $name, func: $f }),*]
        };
    }
    entries![
        "http_open_port" => server::open_port,
        "http_open_secure_port" => server::open_secure_port,
        "http_close_port" => server::close_port,
        "http_new" => http_new,
        "http_ok" => http_ok,
        "http_redirect" => http_redirect,
        "http_respond" => http_respond,
        "http_send" => client::send,
        "http_send_value" => client::send_value,
        "http_upgrade" => http_upgrade,
        "http_to_text" => http_to_text,
        "http_to_blob" => http_to_blob,
        "http_url" => http_url,
        "http_method" => http_method,
        "http_code" => http_code,
        "http_headers" => http_headers,
        "http_callback" => http_callback,
        "http_give_request" => http_give_request,
        "socket_send_blob" => ws::send_blob,
        "socket_send_text" => ws::send_text,
        "socket_close" => ws::close,
        "socket_state" => ws::state,
        "url_parse" => url::parse,
        "url_protocol" => url::protocol,
        "url_username" => url::username,
        "url_password" => url::password,
        "url_hostname" => url::hostname,
        "url_port" => url::port,
        "url_pathname" => url::pathname,
        "url_search_params" => url::search_params,
        "url_hash" => url::hash,
    ]
}

/// `http_give_request(tid, idx, req)`: `NAME.giveRequest(req)` (§20.9,
/// idx -1: routed to an idle instance): the request's live connection
/// goes to the thread's own server; a silent no-op for a request that is
/// not being dispatched, answered, upgraded or over TLS.
fn http_give_request(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(req) = args.get(2).and_then(|v| v.as_handle::<HttpObj>()) else {
        return Ok(Value::Null);
    };
    let Some(inbound) = req.inbound_part() else {
        return Ok(Value::Null);
    };
    let handed = req.with_body(|body| inbound.exchange.hand_off(&inbound.head, body));
    if let Some(h) = handed {
        // Out of this loop's poll before the stream leaves: the receiving
        // thread may close it at once, and a later removal by descriptor
        // number here could then hit another socket that got the number
        // (found by ThreadSanitizer). The connection's source no longer
        // names a descriptor (`conn::ConnSource`).
        if let Some(lp) = it.event_loop_if_started() {
            // By number, as it was registered (`conn::FdSource`).
            let fd = std::os::fd::AsRawFd::as_raw_fd(&h.stream);
            let _ = lp.registry().deregister(&mut mio::unix::SourceFd(&fd));
        }
        crate::threads::give_connection(
            it,
            args[0].as_int(),
            args[1].as_int(),
            Box::new(h),
            adopt_connection,
        )?;
    }
    Ok(Value::Null)
}

/// A connection handed over by `giveRequest`, arriving at a thread.
pub fn adopt_connection(
    it: &mut Interpreter,
    h: Box<dyn std::any::Any + Send>,
) -> Result<(), Trap> {
    match h.downcast::<conn::HandOff>() {
        Ok(h) => server::adopt_handed(it, *h),
        Err(_) => Ok(()),
    }
}

/// Feed `input` to a fresh request machine in pieces of `step` bytes (as
/// a socket might deliver them), then the end of input, answering each
/// request with [`fuzz_answer`] and each refusal with its plain response,
/// as a connection would, until the machine ends or refuses: the fuzz
/// target's loop (`stdlib/fuzz/fuzz_targets/http_machine.rs`) and the
/// smoke test's. Panics when an invariant breaks: a refusal that is not
/// one of the documented statuses, a machine that goes on after one, a
/// body over the cap. Returns the machine (for its footprint).
pub fn fuzz_drive(input: &[u8], step: usize, limits: proto::Limits) -> proto::Machine {
    use proto::{Event, Machine};
    let mut m = Machine::new(limits);
    let mut out = Vec::new();
    let pieces = input
        .chunks(step.max(1))
        .map(Some)
        .chain(std::iter::once(None));
    for piece in pieces {
        match piece {
            Some(p) => m.feed(p),
            None => m.end_of_input(),
        }
        loop {
            match m.poll() {
                Event::NeedMore => break,
                Event::End => return m,
                Event::Reject(status) => {
                    assert!(matches!(status, 400 | 413 | 417 | 431 | 501 | 505));
                    encode::plain(&mut out, status, true, b"D");
                    assert!(matches!(m.poll(), Event::NeedMore));
                    return m;
                }
                Event::Continue => {}
                Event::Request(r) => {
                    assert!(r.body.len() <= limits.body);
                    fuzz_answer(&mut out, &r);
                }
            }
        }
    }
    m
}

/// Answer `req` into `out` as a handler echoing the request would, with
/// every computed header: the fuzz target's stand-in for a connection
/// (`stdlib/fuzz/fuzz_targets/http_machine.rs`) and the smoke test's.
pub fn fuzz_answer(out: &mut Vec<u8>, req: &proto::Request) {
    encode::status(out, 200);
    req.head.for_each_header(|name, value| {
        let value = String::from_utf8_lossy(value);
        encode::user_header(out, name, &value);
    });
    encode::finish(
        out,
        Finish {
            content_type: value::content_type(BodyKind::Blob, &req.body),
            length: Some(req.body.len()),
            close: !req.head.keep_alive,
            date: b"D",
        },
    );
    if !req.head.is_head() {
        out.extend_from_slice(&req.body);
    }
}

/// The `http` receiver (argument 0), if not null.
fn recv(args: &[Value]) -> Option<&HttpObj> {
    args.first().and_then(Value::as_handle::<HttpObj>)
}

/// An `http` literal: `url, method, code, headers, body, kind, callback`.
fn http_new(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
    let code = match args.get(2) {
        Some(Value::Int(c)) => Some(*c),
        _ => None,
    };
    let kind = BodyKind::from_int(args.get(5).map_or(0, Value::as_int));
    Ok(Value::handle(HttpObj::literal(
        arg(0),
        arg(1),
        code,
        arg(3),
        arg(4),
        kind,
        arg(6),
    )))
}

/// Answer the received request `req` with a body-less `code` and, for a
/// redirect, a `Location`.
fn answer_empty(req: &HttpObj, code: u16, location: Option<&str>) {
    let Some(inb) = req.inbound_part() else {
        return;
    };
    inb.exchange.answer(|c, close, _head_only| {
        c.write(|out, date| encode::empty(out, code, location, close, date));
    });
}

/// `req.ok()`.
fn http_ok(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    if let Some(req) = recv(args) {
        answer_empty(req, 200, None);
    }
    Ok(Value::Null)
}

/// `req.redirect(url)`.
fn http_redirect(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    if let Some(req) = recv(args) {
        let url = args.get(1).and_then(Value::as_str).unwrap_or("");
        if encode::is_value(url) {
            answer_empty(req, 302, Some(url));
        } else {
            answer_empty(req, 500, None);
        }
    }
    Ok(Value::Null)
}

/// `req.send(res)`.
fn http_respond(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let (Some(req), Some(res)) = (
        recv(args),
        args.get(1).and_then(Value::as_handle::<HttpObj>),
    ) else {
        // `req.send(null)` answers nothing (a later answer still can).
        return Ok(Value::Null);
    };
    let Some(inb) = req.inbound_part() else {
        return Ok(Value::Null);
    };
    let code = encode::final_status(res.code());
    let headers = res.headers_if_any();
    inb.exchange.answer(|c, close, head_only| {
        c.write(|out, date| {
            encode::status(out, code);
            let mut typed = false;
            if let Some(headers) = &headers {
                let _ = value::each_header(headers, |name, v| {
                    if let Some(v) = v {
                        // Written: a token (see `encode::is_named`).
                        if encode::user_header(out, name, v)
                            && encode::is_named(name, "content-type")
                        {
                            typed = true;
                        }
                    }
                    Ok::<(), ()>(())
                });
            }
            let bodiless = encode::bodiless(code);
            res.with_body(|body| {
                let content_type = if typed || bodiless {
                    None
                } else {
                    value::content_type(res.body_kind(), body)
                };
                encode::finish(
                    out,
                    Finish {
                        content_type,
                        length: (!bodiless).then_some(body.len()),
                        close,
                        date,
                    },
                );
                if !head_only && !bodiless {
                    out.extend_from_slice(body);
                }
            });
        });
    });
    Ok(Value::Null)
}

/// `req.upgrade()`.
fn http_upgrade(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    if let Some(req) = recv(args) {
        ws::upgrade(req);
    }
    Ok(Value::Null)
}

/// `req.toText()` (a null receiver reads as an empty body).
fn http_to_text(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(recv(args).map_or_else(|| Value::text(""), HttpObj::to_text))
}

/// `req.toBlob()`.
fn http_to_blob(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(recv(args).map_or_else(
        || Value::handle(crate::blob::BlobObj::default()),
        HttpObj::to_blob,
    ))
}

/// `req.url`.
fn http_url(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(recv(args).map_or(Value::Null, HttpObj::url))
}

/// `req.method`.
fn http_method(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(recv(args).map_or(Value::Null, HttpObj::method))
}

/// `req.code`.
fn http_code(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(recv(args)
        .and_then(HttpObj::code)
        .map_or(Value::Null, Value::Int))
}

/// `req.headers`.
fn http_headers(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    match recv(args) {
        Some(r) => Ok(r.headers(it)),
        None => Ok(it.new_map()),
    }
}

/// `req.callback`.
fn http_callback(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(recv(args).map_or(Value::Null, HttpObj::callback))
}
