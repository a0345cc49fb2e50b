//! The client side of HTTP/1.1: a response as a state machine over
//! bytes, with no I/O (§19.5). Bytes go in ([`ResponseParser::spare`] +
//! [`ResponseParser::filled`], or [`ResponseParser::feed`]), the end of
//! the input is told with [`ResponseParser::end_of_input`], and
//! [`ResponseParser::poll`] says whether the response is complete. The
//! client (`client.rs`) moves bytes from the socket; tests and the fuzz
//! target (`stdlib/fuzz/`, `http_response`) drive it directly.
//!
//! # States
//!
//! - **head**: waiting for a complete status line and headers (httparse,
//!   at most [`MAX_HEAD`] bytes and [`MAX_HEADERS`] headers). An interim
//!   `1xx` head other than `101` (`100 Continue`, `103 Early Hints`) is
//!   skipped and the next head awaited.
//! - **body**, delimited as RFC 9112 §6.3 says: none for a response to
//!   `HEAD` and for `1xx`, `204` and `304`; chunked when the last
//!   transfer coding is `chunked` ([`ChunkDecoder`], trailers skipped);
//!   read until the connection closes for any other transfer coding or
//!   when there is no `Content-Length`; else `Content-Length` bytes. Two
//!   different `Content-Length`s, or one that is not a number, are an
//!   error.
//! - **done**: the [`Response`] was returned; bytes after it are
//!   [`ResponseParser::leftover`] (a connection holding any is not
//!   reused).
//!
//! A body over [`MAX_BODY`] bytes is an error, as is input that ends
//! inside a head or a delimited body.

use super::proto::ChunkDecoder;
use std::fmt;

/// Longest response head accepted (status line and headers), bytes.
pub const MAX_HEAD: usize = 64 * 1024;
/// Most headers in one response head.
pub const MAX_HEADERS: usize = 100;
/// Longest response body accepted, bytes (64 MiB).
pub const MAX_BODY: usize = 64 * 1024 * 1024;
/// The input buffer's first size.
const INITIAL_BUFFER: usize = 8 * 1024;

/// A complete response.
#[derive(Debug, Default)]
pub struct Response {
    /// The status code (100-999).
    pub code: u16,
    /// Every header, in order: the name lowercased, the value as sent.
    pub headers: Headers,
    /// The body, decoded from its framing.
    pub body: Vec<u8>,
    /// Whether the connection may carry another request: HTTP/1.1
    /// without `Connection: close` (HTTP/1.0 with `keep-alive`), and a
    /// body not delimited by the end of the connection.
    pub keep_alive: bool,
}

/// A message's headers in two allocations whatever their number: the
/// names (lowercased) and values back to back in `bytes`, and where each
/// one is. Iterate with [`Headers::iter`]. A response's, and a received
/// request's once its `headers` are read; the compact form a header map
/// is made from (`value.rs`, "Header maps").
#[derive(Debug, Default)]
pub struct Headers {
    bytes: Vec<u8>,
    /// Per header: the end of its name in `bytes` (it starts where the
    /// previous value ends) and the end of its value.
    ends: Vec<(u32, u32)>,
    /// A bit per signature of the names pushed (length and last byte):
    /// a name whose signature was seen before may repeat one.
    signatures: u64,
    /// Whether two headers may have the same name (false: surely not).
    may_repeat: bool,
}

impl Headers {
    /// Room for `n` headers of `bytes` bytes in all.
    pub fn with_capacity(n: usize, bytes: usize) -> Headers {
        Headers {
            bytes: Vec::with_capacity(bytes),
            ends: Vec::with_capacity(n),
            signatures: 0,
            may_repeat: false,
        }
    }

    /// Append a header: `name` lowercased, `value` as is. The head is at
    /// most [`MAX_HEAD`] bytes, so offsets fit in `u32`.
    pub fn push(&mut self, name: &str, value: &[u8]) {
        self.bytes
            .extend(name.bytes().map(|b| b.to_ascii_lowercase()));
        let last = self.bytes.last().map_or(0, |&b| usize::from(b));
        let bit = 1u64 << ((name.len() * 7 + last) & 63);
        self.may_repeat |= self.signatures & bit != 0;
        self.signatures |= bit;
        let name_end = self.bytes.len() as u32;
        self.bytes.extend_from_slice(value);
        self.ends.push((name_end, self.bytes.len() as u32));
    }

    /// The number of headers.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True without headers.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Header `i`'s lowercased name and value (`i` below [`Headers::len`]).
    fn at(&self, i: usize) -> (&[u8], &[u8]) {
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1].1 as usize,
        };
        let (n, v) = self.ends[i];
        (
            &self.bytes[start..n as usize],
            &self.bytes[n as usize..v as usize],
        )
    }

    /// Call `f` with what a map filled with the headers in order holds
    /// (each lowercased name set to its value read as text, with U+FFFD
    /// for bytes that are not UTF-8): each name once, where it first
    /// appears, with the value of its last occurrence. Stops at the first
    /// error of `f`.
    pub fn for_each_entry<E>(
        &self,
        mut f: impl FnMut(&str, &str) -> Result<(), E>,
    ) -> Result<(), E> {
        // One UTF-8 check of everything (names and values) rather than
        // one per piece; the pieces of UTF-8 text are then sliced out.
        let text = std::str::from_utf8(&self.bytes).ok();
        let n = self.len();
        let mut start = 0usize;
        for i in 0..n {
            let (name_end, value_end) = self.ends[i];
            let (name_end, value_end) = (name_end as usize, value_end as usize);
            let (name_at, mut value_at) = (start..name_end, name_end..value_end);
            start = value_end;
            if self.may_repeat {
                let name = &self.bytes[name_at.clone()];
                if (0..i).any(|j| self.at(j).0 == name) {
                    continue;
                }
                if let Some(k) = (i + 1..n).rev().find(|&k| self.at(k).0 == name) {
                    let (e, v) = self.ends[k];
                    value_at = e as usize..v as usize;
                }
            }
            let name = match text.and_then(|t| t.get(name_at.clone())) {
                Some(name) => name,
                None => std::str::from_utf8(&self.bytes[name_at]).unwrap_or(""),
            };
            match text.and_then(|t| t.get(value_at.clone())) {
                Some(value) => f(name, value)?,
                None => f(name, &String::from_utf8_lossy(&self.bytes[value_at]))?,
            }
        }
        Ok(())
    }

    /// Each header's lowercased name and value, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> + '_ {
        let mut start = 0usize;
        self.ends.iter().map(move |&(name_end, value_end)| {
            let (n, v) = (name_end as usize, value_end as usize);
            let name = &self.bytes[start..n];
            start = v;
            // A name is an HTTP token (ASCII), checked by httparse.
            (std::str::from_utf8(name).unwrap_or(""), &self.bytes[n..v])
        })
    }
}

/// Why a response could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResponseError {
    /// The input ended before any byte of a response.
    NoResponse,
    /// The bytes are not an HTTP/1.x response head (httparse's reason).
    Malformed(String),
    /// The head is longer than [`MAX_HEAD`] or has too many headers.
    HeadTooLarge,
    /// The body is longer than [`MAX_BODY`].
    BodyTooLarge,
    /// A `Content-Length` that is not a number, or two different ones.
    BadLength,
    /// A chunked body with bad framing.
    BadChunk,
    /// The input ended inside the head or the body.
    Truncated,
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResponseError::NoResponse => f.write_str("the server closed the connection without a response"),
            ResponseError::Malformed(why) => write!(f, "the server sent an invalid response ({why})"),
            ResponseError::HeadTooLarge => write!(
                f,
                "the server sent a response head over {} KiB or with more than {MAX_HEADERS} headers",
                MAX_HEAD / 1024
            ),
            ResponseError::BodyTooLarge => {
                write!(f, "the response body is over {} MiB", MAX_BODY >> 20)
            }
            ResponseError::BadLength => {
                f.write_str("the server sent an invalid response (a bad Content-Length)")
            }
            ResponseError::BadChunk => {
                f.write_str("the server sent an invalid response (a bad chunked body)")
            }
            ResponseError::Truncated => {
                f.write_str("the connection closed in the middle of the response")
            }
        }
    }
}

/// How the body is delimited.
#[derive(Debug)]
enum Framing {
    Length(usize),
    Chunked(ChunkDecoder),
    Close,
}

#[derive(Debug)]
enum State {
    Head,
    Body(Framing),
    Done,
}

/// The response state machine of one request; see the module
/// documentation.
#[derive(Debug)]
pub struct ResponseParser {
    buf: Vec<u8>,
    start: usize,
    end: usize,
    state: State,
    head_request: bool,
    eof: bool,
    received: bool,
    response: Response,
}

impl ResponseParser {
    /// A parser for the response to a request; `head_request`: it was a
    /// `HEAD` (the response has no body whatever its headers say).
    pub fn new(head_request: bool) -> ResponseParser {
        ResponseParser {
            buf: Vec::new(),
            start: 0,
            end: 0,
            state: State::Head,
            head_request,
            eof: false,
            received: false,
            response: Response::default(),
        }
    }

    /// Read into `buf` (a finished parser's, see
    /// [`ResponseParser::take_buffer`]) rather than a new buffer; its
    /// old bytes are never read. Only before the first read.
    pub fn give_buffer(&mut self, buf: Vec<u8>) {
        if self.buf.is_empty() && buf.len() == INITIAL_BUFFER {
            self.buf = buf;
        }
    }

    /// The read buffer when it has its initial size (a grown one is
    /// dropped, so a spare never holds more than that), for a later
    /// parser; the parser is done with it.
    pub fn take_buffer(&mut self) -> Vec<u8> {
        self.start = 0;
        self.end = 0;
        if self.buf.len() == INITIAL_BUFFER {
            std::mem::take(&mut self.buf)
        } else {
            Vec::new()
        }
    }

    /// Free space to read into (consumed bytes dropped, the buffer
    /// allocated or grown as needed).
    pub fn spare(&mut self) -> &mut [u8] {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        }
        if self.buf.is_empty() {
            self.buf = vec![0; INITIAL_BUFFER];
        }
        if self.end == self.buf.len() {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            } else {
                let new = (self.buf.len() * 2).min(MAX_HEAD + INITIAL_BUFFER);
                if new > self.buf.len() {
                    self.buf.resize(new, 0);
                }
            }
        }
        &mut self.buf[self.end..]
    }

    /// Record that `n` bytes were read into [`ResponseParser::spare`].
    pub fn filled(&mut self, n: usize) {
        if n > 0 {
            self.received = true;
        }
        self.end = (self.end + n).min(self.buf.len());
    }

    /// Add `bytes` to the input (tests, the fuzz target).
    pub fn feed(&mut self, bytes: &[u8]) {
        super::proto::feed_through(self, bytes, ResponseParser::spare, ResponseParser::filled);
    }

    /// Record that the input ended (the server closed its side).
    pub fn end_of_input(&mut self) {
        self.eof = true;
    }

    /// Whether any byte of a response arrived.
    pub fn received_any(&self) -> bool {
        self.received
    }

    /// Bytes received after the complete response.
    pub fn leftover(&self) -> usize {
        self.end - self.start
    }

    /// `Ok(Some(response))` once it is complete, `Ok(None)` while more
    /// input is needed, or why it cannot be read.
    pub fn poll(&mut self) -> Result<Option<Response>, ResponseError> {
        loop {
            match &mut self.state {
                State::Done => return Ok(None),
                State::Head => {
                    if !self.poll_head()? {
                        return Ok(None);
                    }
                }
                State::Body(framing) => {
                    let input = &self.buf[self.start..self.end];
                    let body = &mut self.response.body;
                    let done = match framing {
                        Framing::Length(rem) => {
                            let take = (*rem).min(input.len());
                            body.extend_from_slice(&input[..take]);
                            self.start += take;
                            *rem -= take;
                            *rem == 0
                        }
                        Framing::Chunked(dec) => match dec.decode(input, body, MAX_BODY) {
                            Ok((used, done)) => {
                                self.start += used;
                                done
                            }
                            Err(413) => return Err(ResponseError::BodyTooLarge),
                            Err(_) => return Err(ResponseError::BadChunk),
                        },
                        Framing::Close => {
                            body.extend_from_slice(input);
                            self.start = self.end;
                            self.eof
                        }
                    };
                    if body.len() > MAX_BODY {
                        return Err(ResponseError::BodyTooLarge);
                    }
                    if done {
                        self.state = State::Done;
                        return Ok(Some(std::mem::take(&mut self.response)));
                    }
                    if self.eof {
                        return Err(ResponseError::Truncated);
                    }
                    return Ok(None);
                }
            }
        }
    }

    /// The head state: `Ok(true)` when a final head was parsed (the body
    /// state entered), `Ok(false)` when more input is needed.
    fn poll_head(&mut self) -> Result<bool, ResponseError> {
        loop {
            let live = &self.buf[self.start..self.end];
            let mut headers = super::proto::uninit_headers::<MAX_HEADERS>();
            let mut res = httparse::Response::new(&mut []);
            let n = match httparse::ParserConfig::default().parse_response_with_uninit_headers(
                &mut res,
                live,
                &mut headers,
            ) {
                Ok(httparse::Status::Complete(n)) => n,
                Ok(httparse::Status::Partial) => {
                    if live.len() > MAX_HEAD {
                        return Err(ResponseError::HeadTooLarge);
                    }
                    if self.eof {
                        return Err(if !self.received {
                            ResponseError::NoResponse
                        } else if live.is_empty() {
                            ResponseError::Truncated
                        } else {
                            ResponseError::Malformed("the head is incomplete".into())
                        });
                    }
                    return Ok(false);
                }
                Err(httparse::Error::TooManyHeaders) => return Err(ResponseError::HeadTooLarge),
                Err(e) => return Err(ResponseError::Malformed(e.to_string())),
            };
            if n > MAX_HEAD {
                return Err(ResponseError::HeadTooLarge);
            }
            let code = res.code.unwrap_or(0);
            if code < 100 {
                return Err(ResponseError::Malformed(format!("status code {code:03}")));
            }
            let version = res.version.unwrap_or(1);
            if (100..200).contains(&code) && code != 101 {
                // An interim response: skip it.
                self.start += n;
                continue;
            }
            let mut length: Option<u64> = None;
            let mut te: Option<bool> = None;
            let mut close = version == 0;
            let total = res
                .headers
                .iter()
                .map(|h| h.name.len() + h.value.len())
                .sum();
            let mut out = Headers::with_capacity(res.headers.len(), total);
            for h in res.headers.iter() {
                out.push(h.name, h.value);
                if h.name.eq_ignore_ascii_case("content-length") {
                    let v = h.value.trim_ascii();
                    if v.is_empty() || v.len() > 18 || !v.iter().all(u8::is_ascii_digit) {
                        return Err(ResponseError::BadLength);
                    }
                    let l = v.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
                    if length.is_some_and(|x| x != l) {
                        return Err(ResponseError::BadLength);
                    }
                    length = Some(l);
                } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
                    let last = h
                        .value
                        .split(|&b| b == b',')
                        .map(<[u8]>::trim_ascii)
                        .rfind(|t| !t.is_empty());
                    if let Some(last) = last {
                        te = Some(last.eq_ignore_ascii_case(b"chunked"));
                    }
                } else if h.name.eq_ignore_ascii_case("connection") {
                    if super::proto::lists_token(h.value, "close") {
                        close = true;
                    } else if version == 0 && super::proto::lists_token(h.value, "keep-alive") {
                        close = false;
                    }
                }
            }
            self.start += n;
            let bodiless = self.head_request || code < 200 || code == 204 || code == 304;
            let framing = if bodiless {
                Framing::Length(0)
            } else {
                match (te, length) {
                    (Some(true), _) => Framing::Chunked(ChunkDecoder::default()),
                    (Some(false), _) => Framing::Close,
                    (None, Some(l)) if l > MAX_BODY as u64 => {
                        return Err(ResponseError::BodyTooLarge)
                    }
                    (None, Some(l)) => Framing::Length(l as usize),
                    (None, None) => Framing::Close,
                }
            };
            // Both a length and a transfer coding: the framing was
            // ambiguous, so the connection is not trusted again.
            let ambiguous = te.is_some() && length.is_some();
            let by_close = matches!(framing, Framing::Close);
            let keep_alive = !(close || code == 101 || by_close || ambiguous);
            if let Framing::Length(l) = framing {
                self.response.body = Vec::with_capacity(l.min(1 << 20));
            }
            self.response.code = code;
            self.response.headers = out;
            self.response.keep_alive = keep_alive;
            self.state = State::Body(framing);
            return Ok(true);
        }
    }
}

/// Drive a parser over `bytes` cut into pieces of the sizes `cuts` gives
/// (cycled), then the end of input: the fuzz target's and the smoke
/// test's loop. Returns the response or the error.
pub fn parse_in_pieces(
    bytes: &[u8],
    cuts: &[usize],
    head_request: bool,
) -> Result<Response, ResponseError> {
    let mut p = ResponseParser::new(head_request);
    let mut at = 0;
    let mut i = 0;
    while at < bytes.len() {
        let n = cuts
            .get(i % cuts.len().max(1))
            .copied()
            .unwrap_or(bytes.len())
            .max(1);
        let end = (at + n).min(bytes.len());
        p.feed(&bytes[at..end]);
        at = end;
        i += 1;
        if let Some(r) = p.poll()? {
            return Ok(r);
        }
    }
    p.end_of_input();
    match p.poll()? {
        Some(r) => Ok(r),
        None => Err(ResponseError::Truncated),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(bytes: &[u8]) -> Result<Response, ResponseError> {
        let whole = parse_in_pieces(bytes, &[bytes.len().max(1)], false);
        // Byte by byte gives the same answer.
        let trickled = parse_in_pieces(bytes, &[1], false);
        assert_eq!(
            whole
                .as_ref()
                .map(|r| (r.code, r.body.clone()))
                .map_err(Clone::clone),
            trickled
                .as_ref()
                .map(|r| (r.code, r.body.clone()))
                .map_err(Clone::clone)
        );
        whole
    }

    #[test]
    fn framings() {
        let r = one(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhello").unwrap();
        assert_eq!(
            (r.code, &r.body[..], r.keep_alive),
            (200, &b"hello"[..], true)
        );
        let headers: Vec<(&str, &[u8])> = r.headers.iter().collect();
        assert_eq!(headers, [("content-length", &b"5"[..]), ("x-a", &b"1"[..])]);
        let r = one(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\nT: 1\r\n\r\n").unwrap();
        assert_eq!((&r.body[..], r.keep_alive), (&b"abcde"[..], true));
        let r = one(b"HTTP/1.1 200 OK\r\n\r\nuntil the end").unwrap();
        assert_eq!((&r.body[..], r.keep_alive), (&b"until the end"[..], false));
        let r = one(
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n",
        )
        .unwrap();
        assert_eq!((r.code, r.body.len(), r.keep_alive), (204, 0, true));
        let r = one(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok").unwrap();
        assert!(!r.keep_alive);
        let r =
            one(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok").unwrap();
        assert!(!r.keep_alive);
        let r = one(b"HTTP/1.1 302 Found\r\nLocation: /x\r\nContent-Length: 0\r\n\r\n").unwrap();
        assert_eq!(r.code, 302);
        let r = parse_in_pieces(
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
            &[100],
            true,
        )
        .unwrap();
        assert_eq!((r.code, r.body.len(), r.keep_alive), (200, 0, true));
    }

    #[test]
    fn failures() {
        assert_eq!(one(b"").unwrap_err(), ResponseError::NoResponse);
        assert_eq!(
            one(b"HTTP/1.1 099 Low\r\nContent-Length: 0\r\n\r\n").unwrap_err(),
            ResponseError::Malformed("status code 099".into())
        );
        assert!(matches!(
            one(b"garbage\r\n\r\n").unwrap_err(),
            ResponseError::Malformed(_)
        ));
        assert!(matches!(
            one(b"\x00\x01\x02 nonsense").unwrap_err(),
            ResponseError::Malformed(_)
        ));
        assert_eq!(
            one(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf").unwrap_err(),
            ResponseError::Truncated
        );
        assert_eq!(
            one(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab")
                .unwrap_err(),
            ResponseError::BadLength
        );
        assert_eq!(
            one(b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n").unwrap_err(),
            ResponseError::BadLength
        );
        assert_eq!(
            one(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").unwrap_err(),
            ResponseError::BadChunk
        );
        assert_eq!(
            one(b"HTTP/1.1 200 OK\r\nContent-Length: 999999999999\r\n\r\n").unwrap_err(),
            ResponseError::BodyTooLarge
        );
        let mut big = b"HTTP/1.1 200 OK\r\n".to_vec();
        big.extend(std::iter::repeat_n(b'a', MAX_HEAD + 10));
        assert_eq!(
            parse_in_pieces(&big, &[4096], false).unwrap_err(),
            ResponseError::HeadTooLarge
        );
        assert_eq!(
            one(b"HTTP/1.1 200 OK\r\nContent-").unwrap_err(),
            ResponseError::Malformed("the head is incomplete".into())
        );
    }

    #[test]
    fn leftover_bytes_are_counted() {
        let mut p = ResponseParser::new(false);
        p.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxEXTRA");
        assert!(p.poll().unwrap().is_some());
        assert_eq!(p.leftover(), 5);
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut rng = fastrand::Rng::with_seed(14);
        let seeds: [&[u8]; 3] = [
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nabc",
            b"HTTP/1.0 200 OK\r\n\r\nbody",
        ];
        for round in 0..3000 {
            let mut bytes = seeds[round % seeds.len()].to_vec();
            for _ in 0..rng.usize(0..6) {
                if bytes.is_empty() {
                    break;
                }
                let i = rng.usize(0..bytes.len());
                match rng.u8(0..3) {
                    0 => bytes[i] = rng.u8(..),
                    1 => {
                        bytes.remove(i);
                    }
                    _ => bytes.insert(i, rng.u8(..)),
                }
            }
            let cuts = [rng.usize(1..8), rng.usize(1..64)];
            let _ = parse_in_pieces(&bytes, &cuts, rng.bool());
        }
    }
}
