//! The `http` value (§8.16, §19.2): one type for a request received by
//! `on request`, a response built by an `http` literal (§9.1.4), and (for
//! the client, §19.5) a request sent out whose response is written back
//! into it.
//!
//! # Representation
//!
//! An [`HttpObj`] is a handle (shared by reference, §13.2; not sendable to
//! another thread, §20.4) holding:
//! - `url`, `method`: text values; `code`: an int or `null` (no response
//!   yet); `callback`: a function value or `null`;
//! - `headers`: one `map[text]`, the same map at every read (names
//!   lowercased, a repeated header's last value winning);
//! - the body: text (kept as the program's own text value, not copied),
//!   bytes, or a blob, with the [`BodyKind`] it had in the literal, which
//!   decides a response's default `content-type`;
//! - for a request received by the server, its [`Inbound`] part: the
//!   request head's bytes and the link to the connection that answers it.
//!
//! A received request builds nothing until the program asks: its `url`,
//! `method` and `headers` are made from the head's bytes on first read
//! and kept, so a handler that only answers pays for none of them.
//!
//! # Header maps
//!
//! A message's `headers` map (a received request's, a response's read by
//! the client) is made from its headers in compact form ([`Headers`]:
//! lowercased names and raw values in one buffer) as a map with deferred
//! entries (`festina_vm::value::MapData`, "Deferred entries"): its
//! entries (a text key and a text value per header) are made only when
//! the program first uses the map. A map passed on unchanged, as a proxy
//! does (`'headers': req.headers` in a request it sends, `out.headers` in
//! its answer), is encoded from the compact form by [`each_header`],
//! which yields exactly what the map would hold, so its entries are never
//! made. `FESTINA_NO_LAZY_HEADERS` makes every such map's entries at once
//! ([`header_map`]).
//!
//! Fields are read-only to the program (§19.2, enforced by the checker);
//! the client (issue 14) overwrites `code`, `headers` and the body in
//! place with [`HttpObj::set_response`], so they sit behind `Cell`s.

use super::conn::Exchange;
use super::proto::Head;
use super::response::Headers;
use crate::blob::file::bytes_to_text;
use crate::blob::BlobObj;
use festina_signatures::tables::http::BodyKind;
use festina_vm::interp::Interpreter;
use festina_vm::value::{Handle, MapData, MapSource, Value};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::OnceLock;

/// The body of an `http` value.
#[derive(Debug, Default)]
pub enum BodyData {
    /// No body: reads as empty.
    #[default]
    Empty,
    /// A text value (a rendered literal body), sent as its UTF-8 bytes.
    Text(Value),
    /// Bytes owned by the value (a received body).
    Bytes(Vec<u8>),
    /// A blob value (a literal's blob, or an `aud`/`img` encoded).
    Blob(Value),
}

/// What a received request keeps beside the common fields.
pub struct Inbound {
    /// The request head (method, target, headers, as received).
    pub head: Head,
    /// Whether it came over TLS (`https://` in its url).
    pub secure: bool,
    /// The `host:port` its url uses when the request has no `Host`.
    pub local: std::rc::Rc<str>,
    /// The link to the connection that answers it.
    pub exchange: Exchange,
}

/// An `http` value; see the module documentation.
pub struct HttpObj {
    url: RefCell<Option<Value>>,
    method: RefCell<Option<Value>>,
    code: Cell<Option<i64>>,
    headers: RefCell<Option<Value>>,
    body: RefCell<BodyData>,
    kind: Cell<BodyKind>,
    callback: RefCell<Value>,
    inbound: Option<Inbound>,
    /// The request this value sent, kept when a response overwrote its
    /// headers and body (§19.5), so that a re-send repeats it.
    sent: RefCell<Option<Box<Sent>>>,
}

/// The headers and body of a request sent by the client (§19.5).
struct Sent {
    headers: Value,
    body: BodyData,
    kind: BodyKind,
}

/// A header value as text: its bytes when they are UTF-8 (checked with
/// the fast validator), else read with U+FFFD for each invalid sequence.
pub fn header_text(value: &[u8]) -> String {
    match std::str::from_utf8(value) {
        Ok(s) => s.to_owned(),
        Err(_) => String::from_utf8_lossy(value).into_owned(),
    }
}

impl MapSource for Headers {
    fn fill(&self, map: &mut MapData) {
        for (name, v) in self.iter() {
            let v = Value::text(header_text(v));
            if map.insert(name, v).is_err() {
                festina_vm::oom::exhausted(name.len() + std::mem::size_of::<Value>());
            }
        }
    }

    fn len_hint(&self) -> usize {
        self.len()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Whether header maps are made with deferred entries (see "Header
/// maps"; off with `FESTINA_NO_LAZY_HEADERS`).
pub fn lazy_headers() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    festina_vm::switches::enabled_once(&ON, festina_vm::switches::NO_LAZY_HEADERS)
}

/// The `headers` map of a message with `headers` (see "Header maps"):
/// deferred when `lazy`, else with its entries made at once (names
/// lowercased, the last of a repeated header winning, values that are not
/// UTF-8 read with U+FFFD).
pub fn header_map(it: &mut Interpreter, headers: Headers, lazy: bool) -> Value {
    if lazy {
        return it.new_map_from(Rc::new(headers));
    }
    let map = it.new_map_with_capacity(headers.len());
    if let Value::Map(m) = &map {
        for (name, v) in headers.iter() {
            m.set(name, Value::text(header_text(v)));
        }
    }
    map
}

/// Call `f` with each entry of the header map `headers` in the map's
/// order: the name and the value (`None` for a value that is not a
/// text); nothing when `headers` is not a map. A map still holding what
/// it was made from ([`header_map`]) is read from the compact form
/// without making its entries. Stops at the first error of `f`.
pub fn each_header<E>(
    headers: &Value,
    mut f: impl FnMut(&str, Option<&str>) -> Result<(), E>,
) -> Result<(), E> {
    let Value::Map(m) = headers else {
        return Ok(());
    };
    if let Some(src) = m.source() {
        if let Some(h) = src.as_any().downcast_ref::<Headers>() {
            return h.for_each_entry(|name, v| f(name, Some(v)));
        }
    }
    for i in 0..m.len() {
        let Some((name, v)) = m.entry(i) else {
            continue;
        };
        f(&name, v.as_str())?;
    }
    Ok(())
}

/// Call `f` with `name` in lowercase, built on the stack when it is
/// short (a header name), so that no text is allocated for it.
fn with_lowercase<R>(name: &str, f: impl FnOnce(&str) -> R) -> R {
    let mut buf = [0u8; 64];
    if let Some(b) = buf.get_mut(..name.len()) {
        b.copy_from_slice(name.as_bytes());
        b.make_ascii_lowercase();
        // Lowercasing ASCII letters keeps UTF-8 valid.
        if let Ok(s) = std::str::from_utf8(b) {
            return f(s);
        }
    }
    f(&name.to_ascii_lowercase())
}

impl Handle for HttpObj {
    fn type_name(&self) -> &'static str {
        "http"
    }
}

impl HttpObj {
    /// The value of an `http` literal (§9.1.4): each argument as the
    /// checker passed it (`null` for an absent key).
    pub fn literal(
        url: Value,
        method: Value,
        code: Option<i64>,
        headers: Value,
        body: Value,
        kind: BodyKind,
        callback: Value,
    ) -> HttpObj {
        let data = match &body {
            Value::Null => BodyData::Empty,
            Value::Text(_) | Value::Ascii(_) => BodyData::Text(body),
            Value::Handle(_) => BodyData::Blob(body),
            _ => BodyData::Empty,
        };
        let kind = if matches!(data, BodyData::Empty) {
            BodyKind::None
        } else {
            kind
        };
        HttpObj {
            url: RefCell::new((!url.is_null()).then_some(url)),
            method: RefCell::new((!method.is_null()).then_some(method)),
            code: Cell::new(code),
            headers: RefCell::new(matches!(headers, Value::Map(_)).then_some(headers)),
            body: RefCell::new(data),
            kind: Cell::new(kind),
            callback: RefCell::new(callback),
            inbound: None,
            sent: RefCell::new(None),
        }
    }

    /// A request received by the server, with its body.
    pub fn inbound(inbound: Inbound, body: Vec<u8>) -> HttpObj {
        let (data, kind) = if body.is_empty() {
            (BodyData::Empty, BodyKind::None)
        } else {
            (BodyData::Bytes(body), BodyKind::Blob)
        };
        HttpObj {
            url: RefCell::new(None),
            method: RefCell::new(None),
            code: Cell::new(None),
            headers: RefCell::new(None),
            body: RefCell::new(data),
            kind: Cell::new(kind),
            callback: RefCell::new(Value::Null),
            inbound: Some(inbound),
            sent: RefCell::new(None),
        }
    }

    /// The received-request part, if this value is one.
    pub fn inbound_part(&self) -> Option<&Inbound> {
        self.inbound.as_ref()
    }

    /// `url` as a text value (`''` when the literal gave none). A
    /// received request's is absolute: scheme, `Host` (or the local
    /// address), target; an absolute-form target is kept as it is.
    pub fn url(&self) -> Value {
        if let Some(v) = &*self.url.borrow() {
            return v.clone();
        }
        let v = match &self.inbound {
            Some(inb) => {
                let target = inb.head.target();
                // An origin-form target starts with '/'; an absolute-form
                // one (from a proxy client) is the whole url already.
                // The asterisk form (`OPTIONS *`) has no path; an
                // authority-form target (`CONNECT host:port`) becomes a
                // path, so that the host is always the `Host` header's
                // (checked by the request parser) or the local address.
                if !target.starts_with('/') && target.contains("://") {
                    Value::text(target)
                } else {
                    let scheme = if inb.secure { "https://" } else { "http://" };
                    let host = inb
                        .head
                        .host()
                        .filter(|h| !h.is_empty())
                        .unwrap_or(&inb.local);
                    let mut s = String::with_capacity(scheme.len() + host.len() + target.len() + 1);
                    s.push_str(scheme);
                    s.push_str(host);
                    if target != "*" {
                        if !target.starts_with('/') {
                            s.push('/');
                        }
                        s.push_str(target);
                    }
                    Value::text(s)
                }
            }
            None => Value::text(""),
        };
        *self.url.borrow_mut() = Some(v.clone());
        v
    }

    /// `method` as a text value (`''` when the literal gave none).
    pub fn method(&self) -> Value {
        if let Some(v) = &*self.method.borrow() {
            return v.clone();
        }
        let v = Value::text(self.inbound.as_ref().map_or("", |i| i.head.method()));
        *self.method.borrow_mut() = Some(v.clone());
        v
    }

    /// `code`: `None` is `null` (no response yet, §19.2).
    pub fn code(&self) -> Option<i64> {
        self.code.get()
    }

    /// `callback` (a function value or `null`).
    pub fn callback(&self) -> Value {
        self.callback.borrow().clone()
    }

    /// `headers`: the value's one `map[text]`, made on first read (for a
    /// received request, from its head: names lowercased, the last of a
    /// repeated header winning; values that are not UTF-8 read with
    /// U+FFFD).
    pub fn headers(&self, it: &mut Interpreter) -> Value {
        if let Some(v) = &*self.headers.borrow() {
            return v.clone();
        }
        let lazy = lazy_headers();
        let map = match &self.inbound {
            Some(inb) if lazy => inb.head.with_headers(|headers| {
                let total = headers.iter().map(|h| h.name.len() + h.value.len()).sum();
                let mut compact = Headers::with_capacity(headers.len(), total);
                for h in headers {
                    compact.push(h.name, h.value);
                }
                header_map(it, compact, true)
            }),
            Some(inb) => inb.head.with_headers(|headers| {
                let map = it.new_map_with_capacity(headers.len());
                if let Value::Map(m) = &map {
                    for h in headers {
                        let v = Value::text(header_text(h.value));
                        with_lowercase(h.name, |name| m.set(name, v));
                    }
                }
                map
            }),
            None => it.new_map(),
        };
        *self.headers.borrow_mut() = Some(map.clone());
        map
    }

    /// The program's headers, when the value has a map (for a response:
    /// a literal without `headers` has none).
    pub fn headers_if_any(&self) -> Option<Value> {
        self.headers.borrow().clone()
    }

    /// The body's kind (see [`BodyKind`]).
    pub fn body_kind(&self) -> BodyKind {
        self.kind.get()
    }

    /// Call `f` with the body's bytes (empty when there is none).
    pub fn with_body<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        body_bytes(&self.body.borrow(), f)
    }

    /// `toText()`: the body as text, read like a blob's (§8.21: up to the
    /// first NUL, which a text cannot hold; invalid UTF-8 as U+FFFD); the
    /// literal's own text value when the body is one.
    pub fn to_text(&self) -> Value {
        if let BodyData::Text(v) = &*self.body.borrow() {
            return v.clone();
        }
        self.with_body(|b| Value::text(bytes_to_text(b)))
    }

    /// `toBlob()`: a new blob holding a copy of the body's bytes.
    pub fn to_blob(&self) -> Value {
        self.with_body(|b| Value::handle(BlobObj::new(b.to_vec(), None)))
    }

    /// Call `f` with what a send of this value sends (§19.5): the
    /// headers (`None`: the value's own, see [`HttpObj::headers`]), the
    /// body's kind and bytes. Once a response overwrote the value, that is
    /// the request it sent then, so a re-send repeats the same request.
    pub fn with_request<R>(&self, f: impl FnOnce(Option<&Value>, BodyKind, &[u8]) -> R) -> R {
        if let Some(s) = &*self.sent.borrow() {
            return body_bytes(&s.body, |b| f(Some(&s.headers), s.kind, b));
        }
        self.with_body(|b| f(None, self.kind.get(), b))
    }

    /// Overwrite `code`, `headers` and the body with a response (the
    /// client, §19.5); `url`, `method` and `callback` stay. `sent_headers`
    /// are the headers the request went with: the first response keeps
    /// them and the request's body for [`HttpObj::with_request`].
    pub fn set_response(
        &self,
        code: Option<i64>,
        headers: Value,
        body: Vec<u8>,
        sent_headers: Value,
    ) {
        if self.sent.borrow().is_none() {
            let sent = Sent {
                headers: sent_headers,
                body: std::mem::take(&mut *self.body.borrow_mut()),
                kind: self.kind.get(),
            };
            *self.sent.borrow_mut() = Some(Box::new(sent));
        }
        self.code.set(code);
        *self.headers.borrow_mut() = Some(headers);
        self.kind.set(if body.is_empty() {
            BodyKind::None
        } else {
            BodyKind::Blob
        });
        *self.body.borrow_mut() = if body.is_empty() {
            BodyData::Empty
        } else {
            BodyData::Bytes(body)
        };
    }
}

/// Call `f` with the bytes of `body` (empty when there is none).
fn body_bytes<R>(body: &BodyData, f: impl FnOnce(&[u8]) -> R) -> R {
    match body {
        BodyData::Empty => f(&[]),
        BodyData::Text(v) => f(v.as_str().unwrap_or("").as_bytes()),
        BodyData::Bytes(b) => f(b),
        BodyData::Blob(v) => match v.as_handle::<BlobObj>() {
            Some(b) => f(&b.bytes()),
            None => f(&[]),
        },
    }
}

/// The `content-type` a response with this body gets when its headers
/// name none (§19.2): JSON for containers, UTF-8 text for text, and for
/// bytes the type their first bytes say (PNG, JPEG, WAV, MP3) or
/// `application/octet-stream`; none without a body.
pub fn content_type(kind: BodyKind, body: &[u8]) -> Option<&'static str> {
    Some(match kind {
        BodyKind::None => return None,
        BodyKind::Text => "text/plain; charset=utf-8",
        BodyKind::Json => "application/json",
        BodyKind::Blob | BodyKind::Img | BodyKind::Aud => {
            if body.starts_with(b"\x89PNG\r\n\x1a\n") {
                "image/png"
            } else if body.starts_with(b"\xff\xd8\xff") {
                "image/jpeg"
            } else if body.len() >= 12 && &body[..4] == b"RIFF" && &body[8..12] == b"WAVE" {
                "audio/wav"
            } else if body.starts_with(b"ID3")
                || (body.len() >= 2 && body[0] == 0xff && body[1] & 0xe0 == 0xe0)
            {
                "audio/mpeg"
            } else {
                "application/octet-stream"
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use festina_vm::opcode::Instr;
    use festina_vm::program::{Function, Program};
    use std::sync::Arc;

    fn interp() -> Interpreter {
        let mut f = Function::hand_written("<main>", 0, 1, vec![Instr::ReturnVoid {}]);
        f.returns_value = false;
        let p = Arc::new(Program {
            files: vec!["t.f".into()],
            functions: vec![f],
            ..Program::default()
        });
        Interpreter::new(p, &[]).expect("load")
    }

    /// Headers as a message might have them: mixed case, repeated
    /// (the last wins, where the first stood), not UTF-8, empty.
    fn odd_headers() -> Headers {
        let mut h = Headers::with_capacity(0, 0);
        for (n, v) in [
            ("X-Dup", &b"one"[..]),
            ("Server", b"up"),
            ("x-DUP", b" two "),
            ("X-Bin", b"caf\xe9 \xff"),
            ("Empty", b""),
            ("x-dup", b"three"),
            ("Content-Length", b"5"),
        ] {
            h.push(n, v);
        }
        h
    }

    /// What `each_header` yields for `map`.
    fn yielded(map: &Value) -> Vec<(String, Option<String>)> {
        let mut out = Vec::new();
        let _ = each_header(map, |n, v| {
            out.push((n.to_string(), v.map(String::from)));
            Ok::<(), ()>(())
        });
        out
    }

    /// The entries of `map` (made, if deferred).
    fn entries(map: &Value) -> Vec<(String, Option<String>)> {
        let Value::Map(m) = map else { panic!() };
        (0..m.len())
            .filter_map(|i| m.entry(i))
            .map(|(k, v)| (k.to_string(), v.as_str().map(String::from)))
            .collect()
    }

    #[test]
    fn header_entries_with_and_without_repeats() {
        let mut it = interp();
        let sets: [&[(&str, &[u8])]; 5] = [
            &[],
            &[("A", b"1"), ("B", b"2"), ("ab", b"3"), ("ba", b"4")],
            &[("Server", b"x"), ("Date", b"\xff"), ("Vary", b"y")],
            &[
                ("a", b"1"),
                ("b", b"2"),
                ("A", b"3"),
                ("c", b"4"),
                ("B", b"5"),
            ],
            &[("x", "é".as_bytes()), ("y", b"\xc3"), ("x", b"2")],
        ];
        for set in sets {
            let make = || {
                let mut h = Headers::with_capacity(0, 0);
                for (n, v) in set {
                    h.push(n, v);
                }
                h
            };
            let eager = header_map(&mut it, make(), false);
            let lazy = header_map(&mut it, make(), true);
            assert_eq!(yielded(&lazy), entries(&eager), "{set:?}");
            assert_eq!(entries(&lazy), entries(&eager), "{set:?}");
        }
    }

    #[test]
    fn deferred_header_maps_hold_and_encode_what_eager_ones_do() {
        let mut it = interp();
        let eager = header_map(&mut it, odd_headers(), false);
        let lazy = header_map(&mut it, odd_headers(), true);
        let want = vec![
            ("x-dup".to_string(), Some("three".to_string())),
            ("server".into(), Some("up".into())),
            ("x-bin".into(), Some("caf\u{fffd} \u{fffd}".into())),
            ("empty".into(), Some(String::new())),
            ("content-length".into(), Some("5".into())),
        ];
        // Passed on unchanged: read from the compact form, nothing made.
        assert_eq!(yielded(&eager), want);
        assert_eq!(yielded(&lazy), want);
        let Value::Map(m) = &lazy else { panic!() };
        assert!(m.source().is_some());
        // Read by the program: the same entries; still the source's.
        assert_eq!(entries(&lazy), want);
        assert_eq!(entries(&eager), want);
        assert!(m.source().is_some());
        assert_eq!(yielded(&lazy), want);
        // Changed: the entries are what counts from then on.
        m.set("x-new", Value::text("v"));
        m.set("server", Value::Null);
        assert!(m.source().is_none());
        let mut changed = want.clone();
        changed[1].1 = None;
        changed.push(("x-new".into(), Some("v".into())));
        assert_eq!(yielded(&lazy), changed);
        assert_eq!(entries(&lazy), changed);
    }

    #[test]
    fn literal_fields_and_bodies() {
        let h = HttpObj::literal(
            Value::text("http://x/"),
            Value::Null,
            None,
            Value::Null,
            Value::text("hi"),
            BodyKind::Text,
            Value::Null,
        );
        assert_eq!(h.url().as_str(), Some("http://x/"));
        assert_eq!(h.method().as_str(), Some(""));
        assert_eq!(h.code(), None);
        assert!(h.headers_if_any().is_none());
        assert_eq!(h.body_kind(), BodyKind::Text);
        assert_eq!(h.with_body(|b| b.to_vec()), b"hi");
        assert_eq!(h.to_text().as_str(), Some("hi"));
        h.set_response(Some(404), Value::Null, b"gone".to_vec(), Value::Null);
        assert_eq!(h.code(), Some(404));
        assert_eq!(h.to_text().as_str(), Some("gone"));
        assert_eq!(h.url().as_str(), Some("http://x/"));
        let none = HttpObj::literal(
            Value::Null,
            Value::Null,
            Some(204),
            Value::Null,
            Value::Null,
            BodyKind::Text,
            Value::Null,
        );
        assert_eq!(none.body_kind(), BodyKind::None);
        assert_eq!(none.to_text().as_str(), Some(""));
    }
}
