//! The server side of HTTP/1.1 as a state machine over bytes, with no
//! I/O (§19.1): bytes go in ([`Machine::spare`] + [`Machine::filled`], or
//! [`Machine::feed`]), complete requests and refusals come out
//! ([`Machine::poll`]). The connection (`conn.rs`) moves bytes between
//! the socket and the machine; tests and the fuzz target
//! (`stdlib/fuzz/`) drive the machine directly.
//!
//! # States
//!
//! - **head**: waiting for the blank line that ends a request head. The
//!   new bytes are scanned for it (a head is parsed once, when it is
//!   complete, so a head trickled one byte at a time costs linear time);
//!   a head longer than [`Limits::head`] is refused with 431. Empty lines
//!   before a request line are skipped (RFC 9112 §2.2).
//! - **body**: the head is parsed and checked, its body is arriving:
//!   `Content-Length` bytes, or a chunked body decoded as it arrives
//!   ([`ChunkDecoder`]). Body bytes are moved out of the input buffer
//!   into the request's own body as they come, so the input buffer stays
//!   small whatever the body's size.
//! - **stopped**: after a refusal, or once the connection decided to
//!   close; nothing more is parsed.
//!
//! # Refusals (the status [`Event::Reject`] carries; the connection then
//! answers it and closes)
//!
//! | status | when |
//! |---|---|
//! | 400 | a malformed request line or header (httparse's strict rules: no spaces in header names, no control characters in values, ...), both `Content-Length` and `Transfer-Encoding`, two different `Content-Length`s, a `Content-Length` that is not a number, a bad chunk size or chunk framing, a body cut short by the end of the input, input ending inside a head |
//! | 413 | a body over [`Limits::body`] (8 MB), announced or decoded |
//! | 417 | an `Expect` other than `100-continue` |
//! | 431 | a head over [`Limits::head`], or more than [`MAX_HEADERS`] headers |
//! | 501 | a `Transfer-Encoding` other than `chunked` alone |
//! | 505 | an HTTP version other than 1.0 and 1.1 |
//!
//! # The input buffer
//!
//! One buffer per connection, reused for every request on it: live bytes
//! are `buf[start..end]`; consumed bytes are dropped by moving the start,
//! and the live bytes are moved to the front only when the free space at
//! the end runs out. It is allocated on the first read (an accepted
//! connection that never sends anything costs no buffer), starts at
//! [`INITIAL_BUFFER`] bytes and grows only while a head needs it, up to
//! the head cap; [`Machine::shrink`] returns a grown buffer once the
//! connection is idle.

use std::fmt;
use std::mem::MaybeUninit;

/// Most headers in one request (more: 431).
pub const MAX_HEADERS: usize = 100;
/// The input buffer's first size.
pub const INITIAL_BUFFER: usize = 4096;
/// The longest chunk-size line, or trailer line, of a chunked body (400).
const MAX_CHUNK_LINE: usize = 4096;

/// The caps of one connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The longest request head (request line and headers), bytes.
    pub head: usize,
    /// The longest request body, bytes.
    pub body: usize,
}

impl Default for Limits {
    /// 64 KiB heads and 8 MiB bodies (§19.1).
    fn default() -> Limits {
        Limits {
            head: 64 * 1024,
            body: 8 * 1024 * 1024,
        }
    }
}

/// Room for `N` headers (a head's most) that httparse fills in as it
/// parses (the `*_with_uninit_headers` calls), instead of `N` empty
/// headers (32 bytes each) written before every parse.
pub fn uninit_headers<'b, const N: usize>() -> [MaybeUninit<httparse::Header<'b>>; N] {
    [MaybeUninit::uninit(); N]
}

/// A span of a head's bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Span(u32, u32);

impl Span {
    fn of(raw: &[u8], part: &[u8]) -> Span {
        let start = part.as_ptr() as usize - raw.as_ptr() as usize;
        Span(start as u32, (start + part.len()) as u32)
    }

    fn get(self, raw: &[u8]) -> &[u8] {
        raw.get(self.0 as usize..self.1 as usize).unwrap_or(&[])
    }

    /// Whether both ends fall on UTF-8 character boundaries of `raw` (a
    /// continuation byte is `0b10xx_xxxx`).
    fn is_boundary_of(self, raw: &[u8]) -> bool {
        let ok = |i: u32| raw.get(i as usize).is_none_or(|b| b & 0xc0 != 0x80);
        self.0 <= self.1 && (self.1 as usize) <= raw.len() && ok(self.0) && ok(self.1)
    }
}

/// A parsed request head: its bytes, kept whole, and what the server
/// needs of it at once. Everything else (the header map, the URL) is
/// derived from the bytes when a program asks for it.
#[derive(Clone)]
pub struct Head {
    raw: Box<[u8]>,
    /// Whether `raw` is UTF-8 as a whole (checked once, at parse).
    utf8: bool,
    method: Span,
    target: Span,
    host: Option<Span>,
    /// The minor HTTP version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    pub version: u8,
    /// Whether the connection may serve another request after this one:
    /// HTTP/1.1 without a `close` token in `Connection`.
    pub keep_alive: bool,
}

impl fmt::Debug for Head {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Head")
            .field("method", &self.method())
            .field("target", &self.target())
            .field("version", &self.version)
            .finish()
    }
}

impl Head {
    /// The bytes of `span` as text: `None` when they are not UTF-8.
    fn text(&self, span: Span) -> Option<&str> {
        let bytes = span.get(&self.raw);
        if self.utf8 && span.is_boundary_of(&self.raw) {
            // SAFETY: the whole of `raw` is UTF-8 (checked when the head
            // was parsed) and `span` starts and ends on character
            // boundaries (checked just above), so the slice is UTF-8.
            return Some(unsafe { std::str::from_utf8_unchecked(bytes) });
        }
        std::str::from_utf8(bytes).ok()
    }

    /// The method as sent (`GET`).
    pub fn method(&self) -> &str {
        self.text(self.method).unwrap_or("")
    }

    /// The request target as sent (`/path?q`).
    pub fn target(&self) -> &str {
        self.text(self.target).unwrap_or("")
    }

    /// The last `Host` header's value, if any (and if UTF-8).
    pub fn host(&self) -> Option<&str> {
        self.host.and_then(|s| self.text(s))
    }

    /// Whether the method is `HEAD` (the response carries no body).
    pub fn is_head(&self) -> bool {
        self.method() == "HEAD"
    }

    /// Call `f` with each header's name (as sent) and value, in order.
    pub fn for_each_header(&self, mut f: impl FnMut(&str, &[u8])) {
        self.with_headers(|headers| {
            for h in headers {
                f(h.name, h.value);
            }
        });
    }

    /// Call `f` with all the headers at once (names as sent), in order.
    pub fn with_headers<R>(&self, f: impl FnOnce(&[httparse::Header<'_>]) -> R) -> R {
        let mut headers = uninit_headers::<MAX_HEADERS>();
        let mut req = httparse::Request::new(&mut []);
        // The bytes parsed once already; parsing them again cannot fail.
        if req
            .parse_with_uninit_headers(&self.raw, &mut headers)
            .is_ok()
        {
            return f(req.headers);
        }
        f(&[])
    }

    /// The value of the last header named `name` (any case).
    pub fn header(&self, name: &str) -> Option<Vec<u8>> {
        let mut found = None;
        self.for_each_header(|n, v| {
            if n.eq_ignore_ascii_case(name) {
                found = Some(v.to_vec());
            }
        });
        found
    }

    /// Whether header `name` (any case) lists `token` (any case) among
    /// its comma-separated values, in any of its occurrences.
    pub fn has_token(&self, name: &str, token: &str) -> bool {
        let mut yes = false;
        self.for_each_header(|n, v| {
            if n.eq_ignore_ascii_case(name) && lists_token(v, token) {
                yes = true;
            }
        });
        yes
    }
}

/// A complete request: its head and its (decoded) body.
#[derive(Debug)]
pub struct Request {
    /// The head.
    pub head: Head,
    /// The body, `Content-Length` bytes or the decoded chunks.
    pub body: Vec<u8>,
}

/// What [`Machine::poll`] found.
#[derive(Debug)]
pub enum Event {
    /// A complete request.
    Request(Request),
    /// The client sent `Expect: 100-continue` and waits for
    /// `100 Continue` before sending the body.
    Continue,
    /// Nothing complete yet: read more.
    NeedMore,
    /// Refuse with this status and close (see the module documentation).
    Reject(u16),
    /// The input ended between requests.
    End,
}

/// How a body is delimited.
#[derive(Debug)]
enum Framing {
    /// This many bytes still to come.
    Length(usize),
    /// A chunked body.
    Chunked(ChunkDecoder),
}

/// A request whose head is parsed and whose body is arriving.
#[derive(Debug)]
struct Pending {
    head: Head,
    framing: Framing,
    body: Vec<u8>,
    /// `100 Continue` is owed once the head is answered by nothing else.
    expect: bool,
}

#[derive(Debug)]
enum State {
    Head,
    Body(Box<Pending>),
    Stopped,
}

/// The HTTP/1.1 server state machine of one connection; see the module
/// documentation.
#[derive(Debug)]
pub struct Machine {
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Where the search for a head's blank line resumes.
    scan: usize,
    state: State,
    limits: Limits,
    eof: bool,
}

impl Machine {
    /// A machine with the given caps and no buffer yet.
    pub fn new(limits: Limits) -> Machine {
        Machine {
            buf: Vec::new(),
            start: 0,
            end: 0,
            scan: 0,
            state: State::Head,
            limits,
            eof: false,
        }
    }

    /// The free space to read into, made room for first: consumed bytes
    /// dropped, the buffer allocated or grown when a head needs it. Empty
    /// when the buffer is at its cap (the head in it is then refused by
    /// the next [`Machine::poll`]).
    pub fn spare(&mut self) -> &mut [u8] {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
            self.scan = 0;
        }
        if self.buf.is_empty() {
            self.buf = vec![0; INITIAL_BUFFER];
        }
        if self.end == self.buf.len() {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.scan = self.scan.saturating_sub(self.start);
                self.start = 0;
            } else {
                let cap = self.limits.head + INITIAL_BUFFER;
                if self.buf.len() < cap {
                    let new = (self.buf.len() * 2).min(cap);
                    self.buf.resize(new, 0);
                }
            }
        }
        &mut self.buf[self.end..]
    }

    /// Whether the machine has no input buffer yet (see
    /// [`Machine::give_buffer`]).
    pub fn needs_buffer(&self) -> bool {
        self.buf.is_empty()
    }

    /// Install `buf` ([`INITIAL_BUFFER`] bytes of any content: a recycled
    /// one) as the input buffer when there is none, so that the first read does
    /// not allocate; otherwise `buf` is dropped.
    pub fn give_buffer(&mut self, buf: Vec<u8>) {
        if self.buf.is_empty() && buf.len() == INITIAL_BUFFER {
            self.buf = buf;
        }
    }

    /// Take the input buffer back when it is of the recyclable size (the
    /// connection is ending).
    pub fn take_buffer(&mut self) -> Option<Vec<u8>> {
        (self.buf.len() == INITIAL_BUFFER).then(|| {
            self.start = 0;
            self.end = 0;
            std::mem::take(&mut self.buf)
        })
    }

    /// Take the input buffer back when it holds no unconsumed byte and is
    /// of the recyclable size (the connection waits for its next request;
    /// [`Machine::spare`] gets a buffer again before the next read).
    pub fn take_idle_buffer(&mut self) -> Option<Vec<u8>> {
        if self.start == self.end {
            self.scan = 0;
            self.take_buffer()
        } else {
            None
        }
    }

    /// Record that `n` bytes were read into [`Machine::spare`].
    pub fn filled(&mut self, n: usize) {
        self.end = (self.end + n).min(self.buf.len());
    }

    /// Add `bytes` to the input (tests, the fuzz target).
    pub fn feed(&mut self, bytes: &[u8]) {
        feed_through(self, bytes, Machine::spare, Machine::filled);
    }

    /// Record that the input ended (the peer closed its side).
    pub fn end_of_input(&mut self) {
        self.eof = true;
    }

    /// Whether the peer closed its side.
    pub fn at_eof(&self) -> bool {
        self.eof
    }

    /// Parse nothing more (after a refusal, or when the connection closes
    /// after the current response).
    pub fn stop(&mut self) {
        self.state = State::Stopped;
    }

    /// Whether a request is partly received (its head or its body):
    /// what an idle timeout answers with 408 rather than closing quietly.
    pub fn in_request(&self) -> bool {
        match self.state {
            State::Head => self.buffered() > 0,
            State::Body(_) => true,
            State::Stopped => false,
        }
    }

    /// Number of input bytes received and not yet consumed.
    pub fn buffered(&self) -> usize {
        self.end - self.start
    }

    /// Take the unconsumed input (the first bytes of the WebSocket stream
    /// after an upgrade), leaving the machine stopped and empty.
    pub fn take_rest(&mut self) -> Vec<u8> {
        let rest = self.buf[self.start..self.end].to_vec();
        self.start = 0;
        self.end = 0;
        self.state = State::Stopped;
        self.buf = Vec::new();
        rest
    }

    /// Give back a buffer that grew past its first size, once nothing is
    /// buffered (the connection is idle between requests).
    pub fn shrink(&mut self) {
        if self.start == self.end && self.buf.len() > INITIAL_BUFFER {
            self.buf = Vec::new();
            self.start = 0;
            self.end = 0;
            self.scan = 0;
        }
    }

    /// Bytes of memory the machine holds (for the idle-connection
    /// measurement).
    pub fn footprint(&self) -> usize {
        self.buf.capacity()
            + match &self.state {
                State::Body(p) => p.body.capacity() + p.head.raw.len(),
                _ => 0,
            }
    }

    /// The next event (see [`Event`]).
    pub fn poll(&mut self) -> Event {
        loop {
            match &mut self.state {
                State::Stopped => return Event::NeedMore,
                State::Head => match self.poll_head() {
                    Some(ev) => return ev,
                    None => continue,
                },
                State::Body(p) => {
                    if p.expect {
                        p.expect = false;
                        return Event::Continue;
                    }
                    let input = &self.buf[self.start..self.end];
                    let done = match &mut p.framing {
                        Framing::Length(rem) => {
                            let take = (*rem).min(input.len());
                            p.body.extend_from_slice(&input[..take]);
                            self.start += take;
                            *rem -= take;
                            *rem == 0
                        }
                        Framing::Chunked(dec) => {
                            match dec.decode(input, &mut p.body, self.limits.body) {
                                Ok((used, done)) => {
                                    self.start += used;
                                    done
                                }
                                Err(status) => return self.reject(status),
                            }
                        }
                    };
                    if done {
                        let State::Body(p) = std::mem::replace(&mut self.state, State::Head) else {
                            unreachable!("the state was Body a moment ago")
                        };
                        let p = *p;
                        self.scan = self.start;
                        return Event::Request(Request {
                            head: p.head,
                            body: p.body,
                        });
                    }
                    if self.eof {
                        return self.reject(400);
                    }
                    return Event::NeedMore;
                }
            }
        }
    }

    fn reject(&mut self, status: u16) -> Event {
        self.state = State::Stopped;
        Event::Reject(status)
    }

    /// The head state: `None` when a head was parsed and the body state
    /// entered (poll again), else the event.
    fn poll_head(&mut self) -> Option<Event> {
        // Empty lines before a request line are ignored.
        while self.start < self.end && matches!(self.buf[self.start], b'\r' | b'\n') {
            self.start += 1;
        }
        let from = self.scan.max(self.start);
        let live = &self.buf[self.start..self.end];
        if !has_blank_line(&self.buf[from.saturating_sub(3).max(self.start)..self.end]) {
            self.scan = self.end;
            if live.len() > self.limits.head {
                return Some(self.reject(431));
            }
            if self.eof {
                return Some(if live.is_empty() {
                    Event::End
                } else {
                    self.reject(400)
                });
            }
            return Some(Event::NeedMore);
        }
        let mut headers = uninit_headers::<MAX_HEADERS>();
        let mut req = httparse::Request::new(&mut []);
        let n = match req.parse_with_uninit_headers(live, &mut headers) {
            Ok(httparse::Status::Complete(n)) => n,
            Ok(httparse::Status::Partial) => {
                self.scan = self.end;
                if live.len() > self.limits.head {
                    return Some(self.reject(431));
                }
                return Some(if self.eof {
                    self.reject(400)
                } else {
                    Event::NeedMore
                });
            }
            Err(httparse::Error::TooManyHeaders) => return Some(self.reject(431)),
            Err(httparse::Error::Version) => {
                let status = if names_other_version(live) { 505 } else { 400 };
                return Some(self.reject(status));
            }
            Err(_) => return Some(self.reject(400)),
        };
        if n > self.limits.head {
            return Some(self.reject(431));
        }
        let checked = check_head(&req, self.limits);
        let raw: Box<[u8]> = live[..n].into();
        let (framing, keep_alive, expect) = match checked {
            Ok(c) => c,
            Err(status) => return Some(self.reject(status)),
        };
        let span = |part: &[u8]| Span::of(live, part);
        let method = span(req.method.unwrap_or("").as_bytes());
        let target = span(req.path.unwrap_or("").as_bytes());
        let host = req
            .headers
            .iter()
            .rev()
            .find(|h| h.name.eq_ignore_ascii_case("host"))
            .map(|h| span(h.value));
        let head = Head {
            utf8: std::str::from_utf8(&raw).is_ok(),
            raw,
            method,
            target,
            host,
            version: req.version.unwrap_or(1),
            keep_alive,
        };
        self.start += n;
        self.scan = self.start;
        match framing {
            Framing::Length(0) => Some(Event::Request(Request {
                head,
                body: Vec::new(),
            })),
            framing => {
                let reserve = match &framing {
                    Framing::Length(len) => (*len).min(64 * 1024),
                    Framing::Chunked(_) => 0,
                };
                self.state = State::Body(Box::new(Pending {
                    head,
                    framing,
                    body: Vec::with_capacity(reserve),
                    expect,
                }));
                None
            }
        }
    }
}

/// Whether the request line is well formed but for its version:
/// `METHOD SP TARGET SP HTTP/d.d` (505 rather than 400).
fn names_other_version(head: &[u8]) -> bool {
    let line = head.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let parts: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
    matches!(parts.as_slice(), [m, t, v]
        if !m.is_empty() && !t.is_empty() && v.len() == 8 && v.starts_with(b"HTTP/")
            && v[5].is_ascii_digit() && v[6] == b'.' && v[7].is_ascii_digit())
}

/// Whether `bytes` hold the end of a head: a line feed followed by an
/// empty line (`\n\r\n` or `\n\n`).
fn has_blank_line(bytes: &[u8]) -> bool {
    let mut i = 0;
    while let Some(p) = bytes[i..].iter().position(|&b| b == b'\n') {
        let at = i + p;
        match bytes.get(at + 1) {
            Some(b'\n') => return true,
            Some(b'\r') if bytes.get(at + 2) == Some(&b'\n') => return true,
            _ => {}
        }
        i = at + 1;
    }
    false
}

/// Check a parsed head's framing and expectations: the body framing, the
/// keep-alive decision and whether `100 Continue` is owed, or the status
/// to refuse it with. A request whose `Host` is repeated or not a valid
/// `uri-host [":" port]`, or whose target is an absolute URL that does not
/// parse, is refused with 400 (RFC 9112 §3.2, §3.2.2): `req.url` is built
/// from them, and a handler's `parseURL(req.url)` must never throw.
fn check_head(req: &httparse::Request, limits: Limits) -> Result<(Framing, bool, bool), u16> {
    let mut hosts = req
        .headers
        .iter()
        .filter(|h| h.name.eq_ignore_ascii_case("host"));
    if let Some(h) = hosts.next() {
        if hosts.next().is_some() || !valid_host(h.value) {
            return Err(400);
        }
    }
    let target = req.path.unwrap_or("");
    if !target.starts_with('/') && target.contains("://") && !valid_absolute(target) {
        return Err(400);
    }
    let mut length: Option<u64> = None;
    let mut chunked = None::<bool>;
    let mut close = false;
    let mut expect = false;
    for h in req.headers.iter() {
        let name = h.name;
        if name.eq_ignore_ascii_case("content-length") {
            let n = parse_length(h.value).ok_or(400u16)?;
            if length.is_some_and(|l| l != n) {
                return Err(400);
            }
            length = Some(n);
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            // Several headers read as one comma-separated list; only
            // `chunked`, alone and once, is understood.
            for token in tokens(h.value) {
                chunked = Some(chunked.is_none() && token.eq_ignore_ascii_case(b"chunked"));
            }
            if tokens(h.value).next().is_none() {
                chunked = Some(false);
            }
        } else if name.eq_ignore_ascii_case("connection") {
            close |= lists_token(h.value, "close");
        } else if name.eq_ignore_ascii_case("expect") {
            if h.value.eq_ignore_ascii_case(b"100-continue") {
                expect = true;
            } else {
                return Err(417);
            }
        }
    }
    let version = req.version.unwrap_or(1);
    let keep_alive = version == 1 && !close;
    let framing = match (chunked, length) {
        (Some(_), Some(_)) => return Err(400),
        (Some(true), None) => Framing::Chunked(ChunkDecoder::default()),
        (Some(false), None) => return Err(501),
        (None, Some(n)) => {
            if n > limits.body as u64 {
                return Err(413);
            }
            Framing::Length(n as usize)
        }
        (None, None) => Framing::Length(0),
    };
    let has_body = !matches!(framing, Framing::Length(0));
    Ok((framing, keep_alive, expect && has_body))
}

/// A `Host` value as RFC 3986 writes an authority's host and port: an
/// IP literal in brackets or a registered name (unreserved characters,
/// percent escapes, sub-delimiters, and any non-ASCII byte, which
/// internationalised names send as UTF-8), then an optional `:` and at
/// most five digits up to 65535. No `/`, `?`, `#`, `@` or blank can move
/// the path a handler sees. Empty is valid (the url then uses the local
/// address).
pub(crate) fn valid_host(v: &[u8]) -> bool {
    let (host, port) = if v.first() == Some(&b'[') {
        let Some(close) = v.iter().position(|&c| c == b']') else {
            return false;
        };
        let inside = &v[1..close];
        if inside.is_empty()
            || !inside.iter().all(|&c| {
                c.is_ascii_alphanumeric() || matches!(c, b':' | b'.' | b'%' | b'-' | b'_' | b'~')
            })
        {
            return false;
        }
        match &v[close + 1..] {
            [] => (&v[..0], None),
            [b':', port @ ..] => (&v[..0], Some(port)),
            _ => return false,
        }
    } else {
        match v.iter().position(|&c| c == b':') {
            Some(c) => (&v[..c], Some(&v[c + 1..])),
            None => (v, None),
        }
    };
    let name_ok = host.iter().all(|&c| {
        c >= 0x80
            || c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'%'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
            )
    });
    let port_ok = match port {
        None | Some([]) => true,
        Some(p) => {
            p.len() <= 5
                && p.iter().all(u8::is_ascii_digit)
                && p.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0')) <= 65535
        }
    };
    name_ok && port_ok
}

/// An absolute-form request target (`GET http://host/path`): it becomes
/// `req.url` as it is, so it must be a URL `parseURL` accepts, with a host
/// that [`valid_host`] accepts.
fn valid_absolute(target: &str) -> bool {
    let Some(sep) = target.find("://") else {
        return false;
    };
    let rest = &target[sep + 3..];
    let auth_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..auth_end];
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    sep > 0 && valid_host(host.as_bytes())
}

/// A `Content-Length` value: decimal digits only, at most 18 of them.
fn parse_length(v: &[u8]) -> Option<u64> {
    if v.is_empty() || v.len() > 18 || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(v.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0')))
}

/// The comma-separated tokens of a header value, trimmed, empty ones
/// skipped.
fn tokens(v: &[u8]) -> impl Iterator<Item = &[u8]> {
    v.split(|&b| b == b',')
        .map(|t| t.trim_ascii())
        .filter(|t| !t.is_empty())
}

/// Whether the comma-separated header value `v` lists `token` (any case).
pub fn lists_token(v: &[u8], token: &str) -> bool {
    tokens(v).any(|t| t.eq_ignore_ascii_case(token.as_bytes()))
}

/// Where a chunked body's decoder is (RFC 9112 §7.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum ChunkState {
    /// Expecting a chunk-size line.
    #[default]
    Size,
    /// Inside a chunk's data, this many bytes to go.
    Data(u64),
    /// Expecting the CRLF after a chunk's data.
    DataEnd,
    /// After the last chunk: trailer lines until an empty one.
    Trailer,
    /// The body is complete.
    Done,
}

/// An incremental decoder of a chunked body: fed whatever bytes have
/// arrived, it consumes every complete unit (size line, data, CRLF,
/// trailer line) and appends the data to the body.
#[derive(Clone, Debug, Default)]
pub struct ChunkDecoder {
    state: ChunkState,
    /// Bytes of trailer lines seen (capped like a chunk line, in total).
    trailer: usize,
}

impl ChunkDecoder {
    /// Decode from `input`, appending data to `body`; returns the bytes
    /// consumed and whether the body is complete, or the status to
    /// refuse it with: 400 for bad framing, 413 once `body` would pass
    /// `cap`.
    pub fn decode(
        &mut self,
        input: &[u8],
        body: &mut Vec<u8>,
        cap: usize,
    ) -> Result<(usize, bool), u16> {
        let mut pos = 0;
        loop {
            match self.state {
                ChunkState::Done => return Ok((pos, true)),
                ChunkState::Size => {
                    let Some(line) = line_at(input, pos, MAX_CHUNK_LINE)? else {
                        return Ok((pos, false));
                    };
                    let size = chunk_size(line).ok_or(400u16)?;
                    pos += line.len() + 1;
                    if size == 0 {
                        self.state = ChunkState::Trailer;
                    } else {
                        if body.len() as u64 + size > cap as u64 {
                            return Err(413);
                        }
                        self.state = ChunkState::Data(size);
                    }
                }
                ChunkState::Data(rem) => {
                    let avail = (input.len() - pos) as u64;
                    let take = rem.min(avail) as usize;
                    body.extend_from_slice(&input[pos..pos + take]);
                    pos += take;
                    let left = rem - take as u64;
                    if left > 0 {
                        self.state = ChunkState::Data(left);
                        return Ok((pos, false));
                    }
                    self.state = ChunkState::DataEnd;
                }
                ChunkState::DataEnd => {
                    let rest = &input[pos..];
                    if rest.len() < 2 {
                        if rest.first().is_some_and(|&b| b != b'\r') {
                            return Err(400);
                        }
                        return Ok((pos, false));
                    }
                    if &rest[..2] != b"\r\n" {
                        return Err(400);
                    }
                    pos += 2;
                    self.state = ChunkState::Size;
                }
                ChunkState::Trailer => {
                    let Some(line) = line_at(input, pos, MAX_CHUNK_LINE)? else {
                        return Ok((pos, false));
                    };
                    pos += line.len() + 1;
                    self.trailer += line.len() + 1;
                    if line == b"\r" {
                        self.state = ChunkState::Done;
                    } else if self.trailer > MAX_CHUNK_LINE || !line.contains(&b':') {
                        return Err(400);
                    }
                }
            }
        }
    }
}

/// The line starting at `pos` up to (not including) its `\n`, which must
/// be preceded by `\r` (kept in the line); `None` when it is not complete
/// yet; 400 when it is longer than `cap` or ends without `\r`.
fn line_at(input: &[u8], pos: usize, cap: usize) -> Result<Option<&[u8]>, u16> {
    let rest = &input[pos..];
    match rest.iter().position(|&b| b == b'\n') {
        Some(i) if i > cap => Err(400),
        Some(i) => {
            if i == 0 || rest[i - 1] != b'\r' {
                return Err(400);
            }
            Ok(Some(&rest[..i]))
        }
        None if rest.len() > cap => Err(400),
        None => Ok(None),
    }
}

/// The size of a chunk-size line (`\r` included at its end): hex digits
/// (at most 15), then nothing or chunk extensions (`;...`).
fn chunk_size(line: &[u8]) -> Option<u64> {
    let line = &line[..line.len() - 1];
    let digits = line.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if digits == 0 || digits > 15 {
        return None;
    }
    let rest = line[digits..].trim_ascii_start();
    if !rest.is_empty() && rest[0] != b';' {
        return None;
    }
    let hex = std::str::from_utf8(&line[..digits]).ok()?;
    u64::from_str_radix(hex, 16).ok()
}

/// Copy `bytes` into a parser's input buffer through its `spare` (free
/// space) and `filled` (bytes written there), as far as the buffer takes
/// them: the `feed` of [`Machine`] and of the client's response parser.
pub(crate) fn feed_through<T>(
    t: &mut T,
    mut bytes: &[u8],
    spare: fn(&mut T) -> &mut [u8],
    filled: fn(&mut T, usize),
) {
    while !bytes.is_empty() {
        let room = spare(t);
        if room.is_empty() {
            return;
        }
        let n = room.len().min(bytes.len());
        room[..n].copy_from_slice(&bytes[..n]);
        filled(t, n);
        bytes = &bytes[n..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine() -> Machine {
        Machine::new(Limits::default())
    }

    /// Every event the input produces, fed in pieces of `step` bytes.
    fn events(input: &[u8], step: usize) -> Vec<String> {
        let mut m = machine();
        let mut out = Vec::new();
        for piece in input.chunks(step.max(1)) {
            m.feed(piece);
            drain(&mut m, &mut out);
        }
        m.end_of_input();
        drain(&mut m, &mut out);
        out
    }

    fn drain(m: &mut Machine, out: &mut Vec<String>) {
        loop {
            match m.poll() {
                Event::NeedMore => return,
                Event::End => {
                    out.push("end".into());
                    return;
                }
                Event::Continue => out.push("continue".into()),
                Event::Reject(s) => {
                    out.push(format!("reject {s}"));
                    return;
                }
                Event::Request(r) => out.push(format!(
                    "{} {} 1.{} ka={} body={:?}",
                    r.head.method(),
                    r.head.target(),
                    r.head.version,
                    r.head.keep_alive,
                    String::from_utf8_lossy(&r.body)
                )),
            }
        }
    }

    /// The same events whatever the pieces the input arrives in.
    fn check(input: &[u8], expected: &[&str]) {
        for step in [1, 2, 3, 7, 64, input.len().max(1)] {
            assert_eq!(events(input, step), expected, "step {step}");
        }
    }

    #[test]
    fn simple_and_pipelined_requests() {
        check(
            b"GET / HTTP/1.1\r\nHost: a\r\n\r\n",
            &["GET / 1.1 ka=true body=\"\"", "end"],
        );
        check(
            b"GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nxyzGET /c HTTP/1.0\r\n\r\n",
            &[
                "GET /a 1.1 ka=true body=\"\"",
                "POST /b 1.1 ka=true body=\"xyz\"",
                "GET /c 1.0 ka=false body=\"\"",
                "end",
            ],
        );
        check(
            b"\r\n\r\nGET / HTTP/1.1\nConnection: keep-alive, Close\n\n",
            &["GET / 1.1 ka=false body=\"\"", "end"],
        );
    }

    #[test]
    fn chunked_bodies_are_decoded() {
        check(
            b"POST /u HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n",
            &["POST /u 1.1 ka=true body=\"hello world\"", "end"],
        );
        check(
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\nGET /n HTTP/1.1\r\n\r\n",
            &[
                "POST / 1.1 ka=true body=\"0123456789\"",
                "GET /n 1.1 ka=true body=\"\"",
                "end",
            ],
        );
    }

    #[test]
    fn hosts_and_targets_that_would_break_the_url_are_refused() {
        for bad in [
            "[", "[::1", "a:x", "a:b:c", "a:-1", "a:99999", "a/b", "a?b#c", "a@b", "a b", "[::1]x",
            "[]",
        ] {
            assert!(!valid_host(bad.as_bytes()), "{bad}");
            let head = format!("GET /p HTTP/1.1\r\nHost: {bad}\r\n\r\n");
            let mut m = machine();
            m.feed(head.as_bytes());
            assert!(matches!(m.poll(), Event::Reject(400)), "{bad}");
        }
        for good in [
            "",
            "a",
            "example.com:81",
            "a:",
            "[::1]",
            "[::1]:8080",
            "[fe80::1%25eth0]",
            "127.0.0.1:65535",
            "h\u{e9}",
            "xn--bcher-kva.example",
            "a_b.c~d",
        ] {
            assert!(valid_host(good.as_bytes()), "{good}");
        }
        let mut m = machine();
        m.feed(b"GET /p HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n");
        assert!(matches!(m.poll(), Event::Reject(400)));
        let mut m = machine();
        m.feed(b"GET http://[/x HTTP/1.1\r\nHost: a\r\n\r\n");
        assert!(matches!(m.poll(), Event::Reject(400)));
        let mut m = machine();
        m.feed(b"GET http://u@b:81/x HTTP/1.1\r\nHost: a\r\n\r\n");
        assert!(matches!(m.poll(), Event::Request(_)));
    }

    #[test]
    fn refusals() {
        let cases: &[(&[u8], u16)] = &[
            (b"GET\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nX: a\x01b\r\n\r\n", 400),
            (b"GET / HTTP/2.0\r\n\r\n", 505),
            (
                b"POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
                400,
            ),
            (
                b"POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
                400,
            ),
            (b"POST / HTTP/1.1\r\nContent-Length: -3\r\n\r\n", 400),
            (
                b"POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n",
                413,
            ),
            (b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked, chunked\r\n\r\n",
                501,
            ),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n",
                400,
            ),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX",
                400,
            ),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n",
                400,
            ),
            (
                b"POST / HTTP/1.1\r\nExpect: magic\r\nContent-Length: 1\r\n\r\nx",
                417,
            ),
            (b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nshort", 400),
            (b"GET / HTTP/1.1\r\nHost: a", 400),
        ];
        for (input, status) in cases {
            let got = events(input, 5);
            assert_eq!(
                got.last().map(String::as_str),
                Some(format!("reject {status}").as_str()),
                "{:?}: {got:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn caps() {
        let mut head = b"GET / HTTP/1.1\r\n".to_vec();
        while head.len() < 70 * 1024 {
            head.extend_from_slice(b"X-Filler: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n");
        }
        assert_eq!(events(&head, 4096).last().unwrap(), "reject 431");
        let mut many = b"GET / HTTP/1.1\r\n".to_vec();
        for i in 0..(MAX_HEADERS + 1) {
            many.extend_from_slice(format!("X-{i}: 1\r\n").as_bytes());
        }
        many.extend_from_slice(b"\r\n");
        assert_eq!(events(&many, 4096).last().unwrap(), "reject 431");
        // A chunked body growing past the cap.
        let mut m = Machine::new(Limits {
            head: 1024,
            body: 10,
        });
        m.feed(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n");
        assert!(matches!(m.poll(), Event::Reject(413)));
    }

    #[test]
    fn expect_continue_comes_before_the_body() {
        check(
            b"PUT / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok",
            &["continue", "PUT / 1.1 ka=true body=\"ok\"", "end"],
        );
    }

    #[test]
    fn heads_that_are_not_utf8() {
        let mut m = machine();
        m.feed(b"GET /caf\xc3\xa9 HTTP/1.1\r\nHost: h\xc3\xa9\r\nX-Bin: \xff\xfe\r\n\r\n");
        let Event::Request(r) = m.poll() else {
            panic!()
        };
        assert!(!r.head.utf8);
        assert_eq!(r.head.host(), Some("hé"));
        assert_eq!(r.head.method(), "GET");
        let mut m = machine();
        m.feed("GET /é HTTP/1.1\r\nHost: ü\r\n\r\n".as_bytes());
        let Event::Request(r) = m.poll() else {
            panic!()
        };
        assert!(r.head.utf8);
        assert_eq!((r.head.target(), r.head.host()), ("/é", Some("ü")));
        assert!(!Span(5, 6).is_boundary_of("GET /é".as_bytes()));
    }

    #[test]
    fn heads_keep_their_headers() {
        let mut m = machine();
        m.feed(b"GET /p?q=1 HTTP/1.1\r\nHost: example.com:81\r\nX-A: 1\r\nx-a: 2\r\nConnection: Upgrade\r\n\r\n");
        let Event::Request(r) = m.poll() else {
            panic!()
        };
        assert_eq!(r.head.host(), Some("example.com:81"));
        assert_eq!(r.head.header("X-A").as_deref(), Some(&b"2"[..]));
        assert!(r.head.has_token("connection", "upgrade"));
        let mut names = Vec::new();
        r.head.for_each_header(|n, _| names.push(n.to_string()));
        assert_eq!(names, ["Host", "X-A", "x-a", "Connection"]);
    }

    /// The fuzz target's loop (`stdlib/fuzz/fuzz_targets/http_machine.rs`)
    /// over a fixed, seeded set of inputs: valid requests mutated byte by
    /// byte, cut and spliced, and random bytes, in random pieces.
    #[test]
    fn fuzz_smoke() {
        let seeds: &[&[u8]] = &[
            b"GET / HTTP/1.1\r\nHost: a\r\n\r\n",
            b"POST /x HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\nhello",
            b"PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;a=b\r\nabc\r\n0\r\nT: 1\r\n\r\n",
            b"GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.1\r\n\r\n",
        ];
        let mut rng = fastrand::Rng::with_seed(0x13);
        let limits = Limits {
            head: 512,
            body: 4096,
        };
        for round in 0..20_000 {
            let mut input: Vec<u8> = if round % 5 == 4 {
                (0..rng.usize(0..200)).map(|_| rng.u8(..)).collect()
            } else {
                let mut v = seeds[rng.usize(0..seeds.len())].to_vec();
                for _ in 0..rng.usize(0..4) {
                    let i = rng.usize(0..v.len());
                    match rng.u8(0..4) {
                        0 => v[i] = rng.u8(..),
                        1 => {
                            let picks = b"\r\n:; 0aZ\x00\xff";
                            v.insert(i, picks[rng.usize(0..picks.len())]);
                        }
                        2 => {
                            v.remove(i);
                        }
                        _ => {
                            let other = seeds[rng.usize(0..seeds.len())];
                            v.extend_from_slice(&other[rng.usize(0..other.len())..]);
                        }
                    }
                    if v.is_empty() {
                        break;
                    }
                }
                v
            };
            if round % 7 == 0 {
                input.extend(std::iter::repeat_n(b'a', rng.usize(0..2000)));
            }
            let m = crate::net::fuzz_drive(&input, rng.usize(1..65), limits);
            assert!(m.footprint() <= limits.head + INITIAL_BUFFER + limits.body + 4096);
        }
    }

    #[test]
    fn buffer_is_reused_and_shrunk() {
        let mut m = machine();
        for _ in 0..1000 {
            m.feed(b"GET / HTTP/1.1\r\n\r\n");
            assert!(matches!(m.poll(), Event::Request(_)));
        }
        assert_eq!(m.buf.len(), INITIAL_BUFFER);
        let big = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(20_000));
        m.feed(big.as_bytes());
        assert!(matches!(m.poll(), Event::Request(_)));
        assert!(m.buf.len() > INITIAL_BUFFER);
        m.shrink();
        assert_eq!(m.footprint(), 0);
    }
}
