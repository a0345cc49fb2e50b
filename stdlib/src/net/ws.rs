//! WebSocket (§19.4): the RFC 6455 handshake answered by `req.upgrade()`,
//! the `socket` value, and the natives `s.send`, `s.close`, `s.state`.
//!
//! Framing is tungstenite's, over the connection's non-blocking stream
//! (`io.rs`): its `read` returns a complete message (fragments
//! reassembled, pings answered, a peer's close echoed) or `WouldBlock`
//! with the partial frame kept inside; its `write` queues a frame and its
//! `flush` writes what the socket takes, keeping the rest (`WouldBlock`).
//! The connection (`conn.rs`) calls `flush` once at the end of its own
//! handler, so the answers to a batch of messages leave in one write.
//!
//! Limits: a message or frame over 8 MiB is refused with close code 1009;
//! any protocol violation (an unmasked client frame, reserved bits set,
//! a fragmented or oversize control frame, a bad continuation, an unknown
//! opcode) with 1002; invalid UTF-8 in a text message with 1007. A peer
//! that does not read what the server sends is closed once more than
//! [`WRITE_CAP`] bytes wait for it. Extensions and subprotocols are not
//! negotiated.

use super::conn::{self, ConnRef, WsLink};
use super::value::HttpObj;
use base64::Engine;
use festina_vm::interp::Interpreter;
use festina_vm::native::Trap;
use festina_vm::value::{Handle, Value};
use sha1::{Digest, Sha1};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tungstenite::Message;

/// The largest message (and frame) accepted (§19.1: 8 MB).
pub const MAX_MESSAGE: usize = 8 * 1024 * 1024;
/// Output allowed to wait for a slow reader before the connection is
/// closed: two largest messages.
pub const WRITE_CAP: usize = 2 * MAX_MESSAGE + 64 * 1024;

/// The `socket` value: the connection (weakly: a socket kept after its
/// connection ended does nothing) and its `state` map.
pub struct SocketObj {
    conn: Weak<RefCell<conn::Conn>>,
    state: RefCell<Option<Value>>,
}

impl Handle for SocketObj {
    fn type_name(&self) -> &'static str {
        "socket"
    }
}

/// tungstenite's configuration for a server connection. Its read buffer
/// is zero-extended by `read_buffer_size` before every read, so the size
/// is a cost per message: 4 KiB keeps a small message cheap (16 KiB
/// cost about three times the instructions of the whole echo, by
/// callgrind) while a large one takes a few more reads.
fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(64 * 1024)
        .max_write_buffer_size(WRITE_CAP)
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
        .accept_unmasked_frames(false)
}

/// `Sec-WebSocket-Accept` for the client's key (RFC 6455 §4.2.2).
pub fn accept_key(key: &[u8]) -> String {
    let mut sha = Sha1::new();
    sha.update(key);
    sha.update(b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
    base64::engine::general_purpose::STANDARD.encode(sha.finalize())
}

/// The handshake's key when `req` is a valid WebSocket opening handshake
/// (RFC 6455 §4.2.1: `GET`, HTTP/1.1, `Upgrade: websocket`,
/// `Connection: upgrade`, version 13, a key of 16 bytes in base64).
fn handshake_key(req: &HttpObj) -> Option<Vec<u8>> {
    let head = &req.inbound_part()?.head;
    if head.method() != "GET" || head.version != 1 {
        return None;
    }
    if !head.has_token("upgrade", "websocket") || !head.has_token("connection", "upgrade") {
        return None;
    }
    if head.header("sec-websocket-version").as_deref() != Some(&b"13"[..]) {
        return None;
    }
    let key = head.header("sec-websocket-key")?;
    let key = key.trim_ascii().to_vec();
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(&key)
        .ok()?;
    (decoded.len() == 16).then_some(key)
}

/// `req.upgrade()`: answer the handshake with 101 (a silent no-op when
/// `req` is not a valid handshake, is answered already, or is not a
/// received request).
pub fn upgrade(req: &HttpObj) {
    let Some(key) = handshake_key(req) else {
        return;
    };
    let Some(inb) = req.inbound_part() else {
        return;
    };
    let answered = inb.exchange.answer(|c, _close, _head| {
        c.write(|out, _date| {
            out.extend_from_slice(
                b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ",
            );
            out.extend_from_slice(accept_key(&key).as_bytes());
            out.extend_from_slice(b"\r\n\r\n");
        });
    });
    if answered.is_some() {
        inb.exchange.set_upgraded();
    }
}

/// After the request handler of an upgraded request: switch the
/// connection to WebSocket and run `on upgrade`.
pub fn switch(it: &mut Interpreter, c: &ConnRef) -> Result<(), Trap> {
    let socket = Value::handle(SocketObj {
        conn: Rc::downgrade(c),
        state: RefCell::new(None),
    });
    conn::into_ws(c, socket.clone(), config());
    let handler = c.borrow().handlers().upgrade;
    if let Some(f) = handler {
        it.call_function(&Value::Func(f), &[socket])?;
    }
    Ok(())
}

/// What a failed read means for the connection.
pub fn read_error(w: &mut WsLink, e: tungstenite::Error) {
    use tungstenite::Error as E;
    let code = match &e {
        E::Io(io) if io.kind() == std::io::ErrorKind::WouldBlock => return,
        E::Capacity(_) => Some(CloseCode::Size),
        E::Utf8(_) => Some(CloseCode::Invalid),
        E::Protocol(p) => match p {
            tungstenite::error::ProtocolError::ResetWithoutClosingHandshake
            | tungstenite::error::ProtocolError::ReceivedAfterClosing
            | tungstenite::error::ProtocolError::SendAfterClosing => None,
            _ => Some(CloseCode::Protocol),
        },
        _ => None,
    };
    w.ended = true;
    // The end of input without a close frame: what was queued for the
    // messages before it still goes out (`conn.rs`, `WsLink::drain_output`).
    w.drain_output = matches!(
        &e,
        E::Protocol(tungstenite::error::ProtocolError::ResetWithoutClosingHandshake)
    );
    if let Some(code) = code {
        if w.closing.is_none() {
            w.closing = Some(std::time::Instant::now());
            let frame = CloseFrame {
                code,
                reason: "".into(),
            };
            if let Err(tungstenite::Error::Io(e)) = w.ws.close(Some(frame)) {
                w.want_write = e.kind() == std::io::ErrorKind::WouldBlock;
            }
        }
    }
}

/// The socket receiver (argument 0) and its connection, if it is live.
fn socket_conn(args: &[Value]) -> Option<ConnRef> {
    args.first()?.as_handle::<SocketObj>()?.conn.upgrade()
}

/// `s.send(b)` with a blob: a binary message.
pub fn send_blob(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(c) = socket_conn(args) else {
        return Ok(Value::Null);
    };
    let bytes = args
        .get(1)
        .and_then(Value::as_handle::<crate::blob::BlobObj>)
        .map(|b| b.bytes().clone())
        .unwrap_or_default();
    send(it, &c, Message::binary(bytes))
}

/// `s.send(v)` with anything else, rendered: a text message.
pub fn send_text(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(c) = socket_conn(args) else {
        return Ok(Value::Null);
    };
    let text = args
        .get(1)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    send(it, &c, Message::text(text))
}

fn send(it: &mut Interpreter, c: &ConnRef, msg: Message) -> Result<Value, Trap> {
    c.borrow_mut().ws_send(msg);
    conn::poke(it, c)?;
    Ok(Value::Null)
}

/// `s.close()`.
pub fn close(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(c) = socket_conn(args) else {
        return Ok(Value::Null);
    };
    c.borrow_mut().ws_close(CloseCode::Normal);
    conn::poke(it, &c)?;
    Ok(Value::Null)
}

/// `s.state`: the socket's own map, made on first read.
pub fn state(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(s) = args.first().and_then(Value::as_handle::<SocketObj>) else {
        return Ok(Value::Null);
    };
    if let Some(m) = &*s.state.borrow() {
        return Ok(m.clone());
    }
    let m = it.new_map();
    *s.state.borrow_mut() = Some(m.clone());
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_key_of_the_rfc_example() {
        assert_eq!(
            accept_key(b"dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
    }
}
