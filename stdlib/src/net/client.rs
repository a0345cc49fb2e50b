//! The HTTP client: `req.send()` with no argument (§19.5).
//!
//! # Design
//!
//! One request is an [`Exchange`]: a state machine over a non-blocking
//! connection, with no waiting of its own. [`Exchange::step`] does all
//! the work the socket allows and says what it waits for next:
//!
//! ```text
//! start ──(idle connection in the pool)──────────────► send ─► receive ─► done
//!   │                                                   ▲
//!   └─► resolve ─► connect (each address in turn) ─► [TLS handshake]
//! ```
//!
//! - **resolve**: the host name becomes addresses (an IP literal needs
//!   none); the driver does it, since `getaddrinfo` blocks.
//! - **connect**: a non-blocking connect per address until one opens
//!   (`connection refused: 127.0.0.1:9` when none does).
//! - **handshake** (`https://`): rustls, certificate and host name checked
//!   (`client_pool.rs` has the roots).
//! - **send**: the encoded request ([`encode_request`]) is written.
//! - **receive**: bytes go into a [`ResponseParser`] until the response is
//!   complete.
//!
//! Three drivers run it, sharing everything else:
//! - **blocking** ([`send_blocking`], `callback` null): waits on the one
//!   socket with `poll(2)`, bounded by the deadlines;
//! - **callback mode** ([`ClientSource`]): a source of the interpreter's
//!   event loop, registered without a descriptor of its own so that it
//!   can register whichever socket the exchange has under its token. The
//!   source holds the `http` value (it stays alive until its callback
//!   runs) and keeps the program alive (§12.2; in a thread instance it
//!   holds a unit of the thread's work, §20.2); when the exchange ends it
//!   overwrites the value and calls `callback(req)` on the loop's thread.
//!   A host name is resolved by a background job (§12.5).
//! - **parked** ([`start_parked`], `callback` null in a request handler
//!   that may park, `park.rs`): the blocking form's semantics on the
//!   event loop. The exchange starts at once (the request is written in
//!   the native, as blocking mode would); if the response is not there
//!   yet, the socket and the deadline are registered under the token the
//!   source is about to get and the native returns `Trap::Park`; the
//!   source ends by filling the value and resuming the handler (a failure
//!   becomes a throw at the `send()`, the value untouched).
//!
//! # Reuse and the one retry
//!
//! A request first asks the pool (`client_pool.rs`) for an idle
//! connection to the same scheme, host and port. When a reused
//! connection fails before any byte of the response arrived (the server
//! closed it in the meantime), the request is sent again once, on a new
//! connection, if that is safe: the method is idempotent (`GET`, `HEAD`,
//! `PUT`, `DELETE`, `OPTIONS`, `TRACE`) or nothing of the request was
//! written. Otherwise the failure is the request's.
//!
//! # Timeouts
//!
//! Opening a connection may take [`ClientState::connect_timeout`] (10 s),
//! the whole request, from `send()` to the last byte of the response,
//! [`ClientState::timeout`] (30 s); `client_pool.rs` names the variables
//! that change them.
//!
//! # What is sent
//!
//! `METHOD target HTTP/1.1`, where the target is the URL's path and query
//! (bytes a request line cannot hold are percent-encoded; the fragment is
//! never sent) and an empty `method` is `GET`. Then `Host` (from the URL),
//! the program's headers as written, and the headers the runtime adds
//! when the program gives none: `User-Agent: festina`, `Authorization:
//! Basic ...` from a URL's `user:password@`, a `Content-Type` chosen like
//! a response's (§19.2), then `Content-Length` (for a body, and for an
//! empty `POST`, `PUT` or `PATCH`). `Host`, `Content-Length`,
//! `Connection` and `Transfer-Encoding` are always the runtime's: the
//! program's are never sent (§19.2), so a copied `headers` map never
//! duplicates them. A header name that is not an HTTP token, or a name or
//! value holding a control character (CR, LF, NUL: what would inject a
//! header), throws instead of being sent.

use super::client_pool::{ClientConn, ClientState, Key, Pool};
use super::encode;
use super::io::Io;
use super::response::{Response, ResponseError, ResponseParser};
use super::url::{decode_percent, UrlObj};
use super::value::{self, HttpObj};
use base64::Engine;
use festina_vm::event_loop::{Interest, Keep, Readiness, SourceHandler, TimerId, Token};
use festina_vm::interp::Interpreter;
use festina_vm::native::Trap;
use festina_vm::value::Value;
use mio::event::Source;
use rustls::pki_types::ServerName;
use rustls::ClientConfig;
use std::cell::RefCell;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::os::fd::AsRawFd;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The request's phase; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Start,
    Resolve,
    Connect,
    Handshake,
    Send,
    Receive,
    Done,
}

/// What [`Exchange::step`] needs next.
#[derive(Debug)]
pub enum Step {
    /// Wait until the connection's socket ([`Exchange::socket`]) is ready
    /// for this, or a deadline passes.
    Wait(Interest),
    /// Resolve [`Exchange::host`] and give the addresses to
    /// [`Exchange::resolved`].
    Resolve,
    /// The request ended: the response, or the failure's message.
    Done(Result<Response, String>),
}

/// One request; see the module documentation.
pub struct Exchange {
    /// The headers the request is sent with (kept by the value when the
    /// response overwrites it).
    sent_headers: Value,
    key: Key,
    tls: Option<(Arc<ClientConfig>, ServerName<'static>)>,
    request: Vec<u8>,
    written: usize,
    head_request: bool,
    idempotent: bool,
    phase: Phase,
    conn: Option<ClientConn>,
    reused: bool,
    fresh_only: bool,
    retried: bool,
    reusable: Option<ClientConn>,
    parser: ResponseParser,
    /// The parser has not had a spare buffer offered yet
    /// ([`Pool::buffer`]).
    parser_fresh: bool,
    addrs: Vec<SocketAddr>,
    next_addr: usize,
    connecting_to: Option<SocketAddr>,
    last_error: Option<(SocketAddr, io::Error)>,
    /// The failure decided outside `step` (resolution, a deadline).
    failure: Option<String>,
    deadline: Instant,
    timeout: Duration,
    connect_deadline: Option<Instant>,
    connect_timeout: Duration,
}

/// Seconds as the messages show them (`30`, `0.5`).
fn show_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s}")
    }
}

impl Exchange {
    /// The request `req` describes, ready to start. Errors (the thrown
    /// text): a URL that is not `http://` or `https://` with a host, a
    /// method or header that cannot be sent, TLS that cannot be set up.
    pub fn new(it: &mut Interpreter, req: &HttpObj) -> Result<Exchange, String> {
        let url = req.url();
        let text = url.as_str().unwrap_or("");
        let u = UrlObj::parse(url.clone())?;
        let scheme = u.scheme();
        let tls = if scheme.eq_ignore_ascii_case("http") {
            false
        } else if scheme.eq_ignore_ascii_case("https") {
            true
        } else {
            return Err(format!(
                "cannot send to '{text}': only http:// and https:// URLs can be sent"
            ));
        };
        let hostname = u.hostname();
        if hostname.is_empty() {
            return Err(format!("cannot send to '{text}': the URL has no host"));
        }
        if !hostname.is_ascii() {
            return Err(format!(
                "cannot send to '{text}': a host name must be ASCII (write an international name in its xn-- form)"
            ));
        }
        // The host goes into the Host header: nothing that could end it.
        if hostname.bytes().any(|b| b <= b' ' || b == 0x7f) {
            return Err(format!(
                "cannot send to '{}': the host holds a space or a control character",
                text.escape_debug()
            ));
        }
        let host = hostname
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(&hostname)
            .to_string();
        let default_port = if tls { 443 } else { 80 };
        let port = u.port().map_or(default_port, |p| p as u16);
        if port == 0 {
            return Err(format!("cannot send to '{text}': port 0"));
        }
        let method_v = req.method();
        let method = match method_v.as_str().unwrap_or("") {
            "" => "GET",
            m => m,
        };
        if !encode::is_token(method) {
            return Err(format!(
                "cannot send: '{method}' is not a valid HTTP method"
            ));
        }
        // `Host`: the host and a port other than the scheme's.
        let host_port = (u.port().is_some() && port != default_port).then_some(port);
        let auth = (!u.username().is_empty() || !u.password().is_empty()).then(|| {
            let pair = format!(
                "{}:{}",
                decode_percent(u.username()),
                decode_percent(u.password())
            );
            format!(
                "Basic {}",
                base64::engine::general_purpose::STANDARD.encode(pair)
            )
        });
        // A received request's headers are made from its head; a
        // literal's are its map, if it has one; a value that holds a
        // response sends the request it sent before.
        let own_headers = match req.inbound_part() {
            Some(_) => req.headers(it),
            None => req.headers_if_any().unwrap_or(Value::Null),
        };
        let mut request = Vec::with_capacity(256);
        let head_request = method == "HEAD";
        let sent_headers = req.with_request(|headers, kind, body| {
            let headers = headers.cloned().unwrap_or(own_headers);
            encode_request(
                &mut request,
                RequestParts {
                    method,
                    url: text,
                    path: u.pathname(),
                    query: u.query(),
                    host: &hostname,
                    port: host_port,
                    headers: &headers,
                    auth: auth.as_deref(),
                    content_type: value::content_type(kind, body),
                    body,
                },
            )
            .map(|()| headers)
        })?;
        let state = it.ext_or_insert_with(ClientState::default);
        let tls = if tls {
            let config = state.tls()?;
            let name = match host.parse::<IpAddr>() {
                Ok(ip) => ServerName::IpAddress(ip.into()),
                Err(_) => ServerName::try_from(host.clone()).map_err(|_| {
                    format!("cannot send to '{text}': '{host}' is not a valid host name")
                })?,
            };
            Some((config, name))
        } else {
            None
        };
        let now = Instant::now();
        Ok(Exchange {
            sent_headers,
            key: Key {
                tls: tls.is_some(),
                host,
                port,
            },
            tls,
            request,
            written: 0,
            head_request,
            idempotent: matches!(
                method,
                "GET" | "HEAD" | "PUT" | "DELETE" | "OPTIONS" | "TRACE"
            ),
            phase: Phase::Start,
            conn: None,
            reused: false,
            fresh_only: false,
            retried: false,
            reusable: None,
            parser: ResponseParser::new(head_request),
            parser_fresh: true,
            addrs: Vec::new(),
            next_addr: 0,
            connecting_to: None,
            last_error: None,
            failure: None,
            deadline: now + state.timeout,
            timeout: state.timeout,
            connect_deadline: None,
            connect_timeout: state.connect_timeout,
        })
    }

    /// The host to resolve (for [`Step::Resolve`]) and the port.
    pub fn host(&self) -> (&str, u16) {
        (&self.key.host, self.key.port)
    }

    /// The connection, while there is one (a retry or the next address
    /// replaces it: a new socket for the driver to register).
    pub fn conn_mut(&mut self) -> Option<&mut ClientConn> {
        self.conn.as_mut()
    }

    /// Once the exchange is done outside the event loop (its socket never
    /// registered), give a reusable connection back to `pool`.
    pub fn recycle(&mut self, pool: &RefCell<Pool>) {
        if let Some(c) = self.reusable.take() {
            pool.borrow_mut().put(c);
        }
    }

    /// The connection to keep for reuse once the exchange is done, if
    /// the response allows it.
    pub fn take_reusable(&mut self) -> Option<ClientConn> {
        self.reusable.take()
    }

    /// How long the driver may wait from `now`, `None` when a deadline
    /// has passed (then [`Exchange::timed_out`] is the failure).
    pub fn time_left(&self, now: Instant) -> Option<Duration> {
        let mut end = self.deadline;
        if let Some(c) = self.connect_deadline {
            end = end.min(c);
        }
        (now < end).then(|| end - now)
    }

    /// The failure when a deadline passed.
    pub fn timed_out(&mut self) -> String {
        let now = Instant::now();
        let connecting = self
            .connect_deadline
            .filter(|_| self.phase == Phase::Connect);
        let msg = match (connecting, self.connecting_to) {
            (Some(c), Some(addr)) if now >= c && now < self.deadline => format!(
                "timed out after {} s connecting to {addr}",
                show_secs(self.connect_timeout)
            ),
            _ => format!("timed out after {} s", show_secs(self.timeout)),
        };
        self.phase = Phase::Done;
        self.conn = None;
        msg
    }

    /// The addresses of [`Exchange::host`], or why there are none.
    pub fn resolved(&mut self, r: io::Result<Vec<SocketAddr>>) {
        match r {
            Ok(a) if !a.is_empty() => {
                self.addrs = a;
                self.next_addr = 0;
                self.phase = Phase::Connect;
                self.conn = None;
            }
            Ok(_) => self.fail(format!(
                "cannot resolve host '{}': no address found",
                self.key.host
            )),
            Err(e) => self.fail(format!("cannot resolve host '{}': {e}", self.key.host)),
        }
    }

    fn fail(&mut self, why: String) {
        self.phase = Phase::Done;
        self.conn = None;
        self.failure = Some(why);
    }

    /// Do all the work the socket allows; see [`Step`].
    pub fn step(&mut self, pool: &mut Pool) -> Step {
        if self.parser_fresh {
            self.parser_fresh = false;
            self.parser.give_buffer(pool.buffer());
        }
        let step = self.step_inner(pool);
        if matches!(step, Step::Done(_)) {
            pool.recycle(self.parser.take_buffer());
        }
        step
    }

    fn step_inner(&mut self, pool: &mut Pool) -> Step {
        loop {
            match self.phase {
                Phase::Start => {
                    if !self.fresh_only {
                        if let Some(c) = pool.take(&self.key) {
                            self.set_conn(c);
                            self.reused = true;
                            self.phase = Phase::Send;
                            continue;
                        }
                    }
                    match self.key.host.parse::<IpAddr>() {
                        Ok(ip) => self.resolved(Ok(vec![SocketAddr::new(ip, self.key.port)])),
                        Err(_) => {
                            self.phase = Phase::Resolve;
                            return Step::Resolve;
                        }
                    }
                }
                Phase::Resolve => return Step::Resolve,
                Phase::Connect => {
                    if self.conn.is_none() {
                        if let Some(done) = self.connect_next(pool) {
                            return done;
                        }
                        continue;
                    }
                    match self.connect_state() {
                        Ok(false) => return Step::Wait(Interest::WRITABLE),
                        Ok(true) => {
                            self.connect_deadline = None;
                            if let Some(c) = &self.conn {
                                let _ = c.io.tcp().set_nodelay(true);
                            }
                            if let Err(e) = self.start_tls() {
                                return self.done(Err(e));
                            }
                        }
                        Err(e) => {
                            if let Some(addr) = self.connecting_to {
                                self.last_error = Some((addr, e));
                            }
                            self.conn = None;
                        }
                    }
                }
                Phase::Handshake => {
                    let Some(c) = self.conn.as_mut() else {
                        return self.done(Err("the connection was lost".into()));
                    };
                    match c.io.handshake() {
                        Ok(None) => self.phase = Phase::Send,
                        Ok(Some(i)) => return Step::Wait(i),
                        Err(e) => {
                            let msg = match e
                                .get_ref()
                                .and_then(|i| i.downcast_ref::<rustls::Error>())
                            {
                                Some(t) => {
                                    format!("TLS handshake with {} failed: {t}", self.key.host)
                                }
                                None => format!("TLS handshake with {} failed: {e}", self.key.host),
                            };
                            return self.done(Err(msg));
                        }
                    }
                }
                Phase::Send => match self.send_some() {
                    Ok(true) => {
                        self.phase = Phase::Receive;
                        // The response cannot be there yet: wait for the
                        // socket to say it is ("Staying in the poll" in
                        // `client_pool.rs`). TLS may hold read data.
                        let plain = self.conn.as_ref().is_some_and(|c| c.io.is_plain());
                        if pool.wait_after_send && plain {
                            return Step::Wait(Interest::READABLE);
                        }
                    }
                    Ok(false) => return Step::Wait(Interest::WRITABLE),
                    Err(e) => {
                        if self.retry() {
                            continue;
                        }
                        return self.done(Err(io_message(&e, "sending the request")));
                    }
                },
                Phase::Receive => match self.receive() {
                    Ok(Some(r)) => {
                        if r.keep_alive && self.parser.leftover() == 0 {
                            if let Some(mut c) = self.conn.take() {
                                c.idle_since = Instant::now();
                                self.reusable = Some(c);
                            }
                        }
                        return self.done(Ok(r));
                    }
                    Ok(None) => return Step::Wait(Interest::READABLE),
                    Err(e) => {
                        let nothing = !self.parser.received_any();
                        if nothing && self.retry() {
                            continue;
                        }
                        return self.done(Err(e));
                    }
                },
                Phase::Done => {
                    let why = self
                        .failure
                        .take()
                        .unwrap_or_else(|| "the request already ended".into());
                    return self.done(Err(why));
                }
            }
        }
    }

    fn done(&mut self, r: Result<Response, String>) -> Step {
        self.phase = Phase::Done;
        self.conn = None;
        Step::Done(r)
    }

    fn set_conn(&mut self, c: ClientConn) {
        self.conn = Some(c);
    }

    /// Start connecting to the next address; `Some` when none is left
    /// (the failure).
    fn connect_next(&mut self, pool: &mut Pool) -> Option<Step> {
        while let Some(&addr) = self.addrs.get(self.next_addr) {
            self.next_addr += 1;
            match mio::net::TcpStream::connect(addr) {
                Ok(s) => {
                    pool.opened += 1;
                    self.connecting_to = Some(addr);
                    self.connect_deadline = Some(Instant::now() + self.connect_timeout);
                    self.set_conn(ClientConn {
                        io: Io::Plain(s),
                        key: self.key.clone(),
                        idle_since: Instant::now(),
                        registered: None,
                    });
                    return None;
                }
                Err(e) => self.last_error = Some((addr, e)),
            }
        }
        let msg = match self.last_error.take() {
            Some((addr, e)) => match e.kind() {
                ErrorKind::ConnectionRefused => format!("connection refused: {addr}"),
                ErrorKind::TimedOut => format!(
                    "timed out after {} s connecting to {addr}",
                    show_secs(self.connect_timeout)
                ),
                _ => format!("cannot connect to {addr}: {}", plain_error(&e)),
            },
            None => format!("cannot connect to {}", self.key.host),
        };
        Some(self.done(Err(msg)))
    }

    /// Whether the pending connect finished (`Err`: it failed).
    fn connect_state(&mut self) -> io::Result<bool> {
        let Some(c) = &self.conn else {
            return Err(io::Error::other("no connection"));
        };
        let tcp = c.io.tcp();
        if let Some(e) = tcp.take_error()? {
            return Err(e);
        }
        match tcp.peer_addr() {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == ErrorKind::NotConnected => Ok(false),
            Err(e) if e.raw_os_error() == Some(libc::EINPROGRESS) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// After the TCP connect: TLS over it for `https://`, then the
    /// handshake phase; plain HTTP goes on to send.
    fn start_tls(&mut self) -> Result<(), String> {
        let Some((config, name)) = &self.tls else {
            self.phase = Phase::Send;
            return Ok(());
        };
        let Some(c) = self.conn.take() else {
            return Err("the connection was lost".into());
        };
        let tls = rustls::ClientConnection::new(Arc::clone(config), name.clone())
            .map_err(|e| format!("TLS with {} failed: {e}", self.key.host))?;
        let Io::Plain(tcp) = c.io else {
            return Err("the connection was lost".into());
        };
        self.conn = Some(ClientConn {
            io: Io::tls(tcp, tls),
            key: c.key,
            idle_since: c.idle_since,
            registered: c.registered,
        });
        self.phase = Phase::Handshake;
        Ok(())
    }

    /// Write what the socket takes: `Ok(true)` once everything is sent.
    fn send_some(&mut self) -> io::Result<bool> {
        let Some(c) = self.conn.as_mut() else {
            return Err(io::Error::other("no connection"));
        };
        while self.written < self.request.len() {
            match c.io.write(&self.request[self.written..]) {
                Ok(0) => return Err(ErrorKind::WriteZero.into()),
                Ok(n) => self.written += n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(false),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if c.io.pending() {
            match c.io.flush() {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(false),
                Err(e) => return Err(e),
            }
            if c.io.pending() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Read what has arrived: the response once complete, `None` when
    /// more is to come, or the failure's message.
    fn receive(&mut self) -> Result<Option<Response>, String> {
        let Some(c) = self.conn.as_mut() else {
            return Err("the connection was lost".into());
        };
        loop {
            match self.parser.poll() {
                Ok(Some(r)) => return Ok(Some(r)),
                Ok(None) => {}
                Err(e) => return Err(response_message(&e)),
            }
            let spare = self.parser.spare();
            if spare.is_empty() {
                return Err(response_message(&ResponseError::HeadTooLarge));
            }
            match c.io.read(spare) {
                Ok(0) => self.parser.end_of_input(),
                Ok(n) => self.parser.filled(n),
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(None),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if is_reset(&e) => {
                    // The end all the same: the parser says what was missing.
                    self.parser.end_of_input();
                    match self.parser.poll() {
                        Ok(Some(r)) => return Ok(Some(r)),
                        Err(ResponseError::NoResponse) | Ok(None) => {
                            return Err(if self.parser.received_any() {
                                response_message(&ResponseError::Truncated)
                            } else {
                                "the server reset the connection without a response".into()
                            })
                        }
                        Err(e) => return Err(response_message(&e)),
                    }
                }
                Err(e) => return Err(io_message(&e, "reading the response")),
            }
        }
    }

    /// Start over on a new connection when the reused one failed and a
    /// retry is safe (see the module documentation); whether it did.
    fn retry(&mut self) -> bool {
        if !self.reused || self.retried || !(self.idempotent || self.written == 0) {
            return false;
        }
        self.retried = true;
        self.reused = false;
        self.fresh_only = true;
        self.conn = None;
        self.written = 0;
        let buf = self.parser.take_buffer();
        self.parser = ResponseParser::new(self.head_request);
        self.parser.give_buffer(buf);
        self.phase = Phase::Start;
        true
    }
}

/// Whether `e` says the peer reset or dropped the connection.
fn is_reset(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe
    )
}

/// An I/O error without the "(os error N)" suffix.
fn plain_error(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// The message of an I/O failure while `doing`.
fn io_message(e: &io::Error, doing: &str) -> String {
    if is_reset(e) {
        return format!("the server closed the connection while {doing}");
    }
    if let Some(t) = e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>()) {
        return format!("TLS failed while {doing}: {t}");
    }
    format!("{} while {doing}", plain_error(e))
}

/// The message of a response that could not be read.
fn response_message(e: &ResponseError) -> String {
    e.to_string()
}

/// The request target for `path_query`: bytes a request line cannot hold
/// (space, non-ASCII, `"<>\^`{|}`) percent-encoded; `None` when it holds
/// a control character.
/// Appended to `out`; `false` (with `out` part-written) on a control
/// character.
fn request_target(out: &mut Vec<u8>, path_query: &str) -> bool {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.reserve(path_query.len());
    for b in path_query.bytes() {
        match b {
            0..=0x1f | 0x7f => return false,
            b' ' | b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}' | 0x80.. => {
                out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
            }
            _ => out.push(b),
        }
    }
    true
}

/// What [`encode_request`] writes.
pub struct RequestParts<'a> {
    /// The method (a token).
    pub method: &'a str,
    /// The URL (for the message of a failure).
    pub url: &'a str,
    /// The URL's path, sent with the query as the request target
    /// ([`request_target`]).
    pub path: &'a str,
    /// The URL's query without its `?` (none when empty).
    pub query: &'a str,
    /// The `Host` value's host.
    pub host: &'a str,
    /// The `Host` value's port, when it is sent.
    pub port: Option<u16>,
    /// The program's headers (a `map[text]`, or anything else for none).
    pub headers: &'a Value,
    /// `Authorization` from the URL's user information, if any.
    pub auth: Option<&'a str>,
    /// The `Content-Type` to add when the program's headers name none.
    pub content_type: Option<&'a str>,
    /// The body.
    pub body: &'a [u8],
}

/// Encode a request into `out` (see the module documentation). Errors:
/// a header the program gave that cannot be sent (the thrown text).
pub fn encode_request(out: &mut Vec<u8>, p: RequestParts) -> Result<(), String> {
    out.extend_from_slice(p.method.as_bytes());
    out.push(b' ');
    let ok = request_target(out, p.path)
        && (p.query.is_empty() || {
            out.push(b'?');
            request_target(out, p.query)
        });
    if !ok {
        return Err(format!(
            "cannot send to '{}': the URL holds a control character",
            p.url
        ));
    }
    out.extend_from_slice(b" HTTP/1.1\r\nHost: ");
    out.extend_from_slice(p.host.as_bytes());
    if let Some(port) = p.port {
        let _ = write!(out, ":{port}");
    }
    out.extend_from_slice(b"\r\n");
    let (mut agent, mut typed, mut authorized) = (false, false, false);
    value::each_header(p.headers, |name, v| {
        let v = v.unwrap_or("");
        if !encode::is_token(name) {
            return Err(format!(
                "cannot send: '{}' is not a valid header name",
                name.escape_debug()
            ));
        }
        if !encode::is_value(v) {
            return Err(format!(
                "cannot send: the value of header '{name}' holds a control character (CR, LF or NUL)"
            ));
        }
        if encode::is_computed(name) {
            return Ok(());
        }
        // A token, checked above (see `encode::is_named`).
        agent |= encode::is_named(name, "user-agent");
        typed |= encode::is_named(name, "content-type");
        authorized |= encode::is_named(name, "authorization");
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(v.trim_matches([' ', '\t']).as_bytes());
        out.extend_from_slice(b"\r\n");
        Ok(())
    })?;
    if !agent {
        out.extend_from_slice(b"User-Agent: festina\r\n");
    }
    if let (Some(a), false) = (p.auth, authorized) {
        out.extend_from_slice(b"Authorization: ");
        out.extend_from_slice(a.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if let (Some(ct), false, false) = (p.content_type, typed, p.body.is_empty()) {
        out.extend_from_slice(b"Content-Type: ");
        out.extend_from_slice(ct.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if !p.body.is_empty() || matches!(p.method, "POST" | "PUT" | "PATCH") {
        let _ = write!(out, "Content-Length: {}\r\n", p.body.len());
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(p.body);
    Ok(())
}

/// Resolve `host:port` (blocking: `getaddrinfo`).
pub fn resolve(host: &str, port: u16) -> io::Result<Vec<SocketAddr>> {
    Ok((host, port).to_socket_addrs()?.collect())
}

/// Wait until `fd` is ready for `interest` or `timeout` passes.
fn wait_fd(fd: i32, interest: Interest, timeout: Duration) {
    let mut events = 0;
    if interest.is_readable() {
        events |= libc::POLLIN;
    }
    if interest.is_writable() {
        events |= libc::POLLOUT;
    }
    let mut p = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    let ms = timeout.as_millis().clamp(1, i32::MAX as u128) as i32;
    // SAFETY: `p` is one valid pollfd for the duration of the call; an
    // interrupted or failed poll only means the caller looks again.
    unsafe {
        libc::poll(&mut p, 1, ms);
    }
}

/// Run `ex` to its end on this thread (the blocking mode), keeping a
/// reusable connection in `pool`.
pub fn send_blocking(ex: &mut Exchange, pool: &RefCell<Pool>) -> Result<Response, String> {
    loop {
        let step = ex.step(&mut pool.borrow_mut());
        match step {
            Step::Done(r) => {
                ex.recycle(pool);
                return r;
            }
            Step::Resolve => {
                let (host, port) = ex.host();
                let r = resolve(host, port);
                ex.resolved(r);
            }
            Step::Wait(interest) => {
                let Some(left) = ex.time_left(Instant::now()) else {
                    return Err(ex.timed_out());
                };
                let Some(c) = ex.conn_mut() else {
                    continue;
                };
                wait_fd(c.io.tcp().as_raw_fd(), interest, left);
            }
        }
    }
}

/// Overwrite `req` with the outcome (§19.5): the response's code,
/// headers and body, or (a failure in callback mode) a `null` code, no
/// headers and the message as the body.
/// `sent_headers`: the headers the request went with (see
/// [`HttpObj::set_response`]).
pub fn fill(
    it: &mut Interpreter,
    req: &HttpObj,
    outcome: Result<Response, String>,
    sent_headers: Value,
) {
    match outcome {
        Ok(r) => {
            let map = value::header_map(it, r.headers, value::lazy_headers());
            req.set_response(Some(i64::from(r.code)), map, r.body, sent_headers);
        }
        Err(msg) => {
            let map = it.new_map();
            req.set_response(None, map, msg.into_bytes(), sent_headers)
        }
    }
}

/// `req.send()` (native `http_send`), and `http x = {...}.send()`
/// (native `http_send_value`, which returns `req`).
pub fn send(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    send_inner(it, args, false).map(|_| Value::Null)
}

/// `http x = {...}.send()`: [`send`], returning the receiver.
pub fn send_value(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    send_inner(it, args, true)
}

/// `returns_value`: the native returns the receiver (`http_send_value`),
/// else null; what a parked call gets when it resumes.
fn send_inner(it: &mut Interpreter, args: &[Value], returns_value: bool) -> Result<Value, Trap> {
    let Some(v) = args.first().filter(|v| v.as_handle::<HttpObj>().is_some()) else {
        return Err(Trap::Throw("cannot send a null http value".into()));
    };
    let v = v.clone();
    let Some(req) = v.as_handle::<HttpObj>() else {
        return Err(Trap::Throw("cannot send a null http value".into()));
    };
    let callback = req.callback();
    let ex = Exchange::new(it, req);
    let pool = Rc::clone(&it.ext_or_insert_with(ClientState::default).pool);
    let done = if callback.is_null() {
        let mut ex = ex.map_err(Trap::Throw)?;
        if !it.may_park() {
            let r = send_blocking(&mut ex, &pool).map_err(Trap::Throw)?;
            fill(it, req, Ok(r), std::mem::take(&mut ex.sent_headers));
            return Ok(v);
        }
        // The handler is parked while the loop runs the exchange
        // (`park.rs`).
        return start_parked(it, ex, v, pool, returns_value);
    } else {
        Done::Callback(callback)
    };
    let mut source = ClientSource::new(ex.map_err(Some), v.clone(), done, pool);
    // In a thread instance the request is work in flight until its
    // callback has run: the program does not end under it (§20.2).
    source.work = crate::threads::work_unit(it);
    start(it, source)?;
    Ok(v)
}

/// `req.send()` in a handler that may park: send at once, as blocking
/// mode would, then, if the response is not there yet, wait for it on
/// the event loop with the handler parked (`park.rs`). The source's
/// socket and deadline are registered under the token it is about to
/// get, so the request leaves now rather than in the loop's next round.
fn start_parked(
    it: &mut Interpreter,
    mut ex: Exchange,
    v: Value,
    pool: Rc<RefCell<Pool>>,
    returns_value: bool,
) -> Result<Value, Trap> {
    let step = ex.step(&mut pool.borrow_mut());
    match step {
        Step::Done(r) => {
            // Answered before any wait: as blocking mode, no parking.
            ex.recycle(&pool);
            let r = r.map_err(Trap::Throw)?;
            if let Some(obj) = v.as_handle::<HttpObj>() {
                fill(it, obj, Ok(r), std::mem::take(&mut ex.sent_headers));
            }
            return Ok(v);
        }
        Step::Wait(_) => {}
        Step::Resolve => {
            // A host name: resolved by a background job, as callback mode
            // does (the exchange asks again when started).
            let done = Done::Resume {
                wait: super::park::begin(it),
                returns_value,
            };
            start(it, ClientSource::new(Ok(ex), v, done, pool))?;
            return Err(Trap::Park);
        }
    }
    // The socket waits under the token before the source is registered:
    // the token its connection is registered under, when free ("Staying
    // in the poll" in `client_pool.rs`), else the next one.
    let lp = it.event_loop()?;
    let Some(conn) = ex.conn_mut() else {
        return Err(Trap::Throw("the connection was lost".into()));
    };
    let kept = conn.registered.filter(|&t| lp.token_free(t));
    let token = kept.unwrap_or_else(|| lp.next_token());
    enroll(lp.registry(), conn, token)
        .map_err(|e| Trap::Throw(format!("cannot wait for the connection: {e}")))?;
    let deadline_timer = ex
        .time_left(Instant::now())
        .map(|left| lp.set_source_timer(token, left, None));
    let done = Done::Resume {
        wait: super::park::begin(it),
        returns_value,
    };
    let mut source = ClientSource::new(Ok(ex), v, done, pool);
    source.started = true;
    source.deadline_timer = deadline_timer;
    let lp = it.event_loop()?;
    let r = match kept {
        Some(t) => lp.register_under(t, Box::new(source), Interest::READABLE),
        None => lp
            .register(Box::new(source), Interest::READABLE)
            .map(|t| debug_assert_eq!(t, token)),
    };
    r.map_err(|e| Trap::Fail(format!("cannot start a request: {e}")))?;
    Err(Trap::Park)
}

/// Make sure `conn`'s socket is registered with the poll of `registry`
/// under `token`, readable and writable (edge-triggered: a waiting
/// exchange needs no change of interest): nothing when it already is, a
/// move from the token it had otherwise ("Staying in the poll" in
/// `client_pool.rs`). Errors: the operating system refused.
fn enroll(registry: &mio::Registry, conn: &mut ClientConn, token: Token) -> io::Result<()> {
    let both = Interest::READABLE | Interest::WRITABLE;
    match conn.registered {
        Some(t) if t == token => return Ok(()),
        Some(_) => registry.reregister(conn.io.tcp_mut(), token, both)?,
        None => registry.register(conn.io.tcp_mut(), token, both)?,
    }
    conn.registered = Some(token);
    Ok(())
}

/// Register `source` with the event loop and start it in this round.
fn start(it: &mut Interpreter, source: ClientSource) -> Result<(), Trap> {
    let lp = it.event_loop()?;
    let token = lp
        .register(Box::new(source), Interest::READABLE)
        .map_err(|e| Trap::Fail(format!("cannot start a request: {e}")))?;
    lp.set_source_timer(token, Duration::ZERO, None);
    Ok(())
}

/// What ends a request on the event loop.
enum Done {
    /// Callback mode: call it with the filled value (§19.5).
    Callback(Value),
    /// Blocking mode in a parked handler: resume it (`park.rs`) with
    /// what `send()` returns (the value itself when `returns_value`, else
    /// null), or the failure as a throw.
    Resume {
        wait: super::park::Wait,
        returns_value: bool,
    },
}

/// A request in callback mode, on the event loop; see the module
/// documentation.
struct ClientSource {
    /// The exchange, or the failure found before it could start.
    ex: Result<Exchange, Option<String>>,
    /// The `http` value (kept alive until the callback has run).
    req: Value,
    done: Done,
    pool: Rc<RefCell<Pool>>,
    started: bool,
    deadline_timer: Option<TimerId>,
    /// Where the resolution job leaves its answer.
    resolved: Rc<RefCell<Option<io::Result<Vec<SocketAddr>>>>>,
    /// A callback-mode request of a thread instance: its unit of work,
    /// ended when the source is dropped (after the callback ran, or with
    /// the thread's loop).
    work: Option<crate::threads::WorkUnit>,
}

impl ClientSource {
    /// A source for `ex` (or the failure found before it could start) and
    /// its value `req`, not started, nothing registered yet.
    fn new(
        ex: Result<Exchange, Option<String>>,
        req: Value,
        done: Done,
        pool: Rc<RefCell<Pool>>,
    ) -> ClientSource {
        ClientSource {
            ex,
            req,
            done,
            pool,
            started: false,
            deadline_timer: None,
            resolved: Rc::new(RefCell::new(None)),
            work: None,
        }
    }

    /// Step the exchange and act on what it needs.
    fn advance(&mut self, it: &mut Interpreter, token: Token) -> Result<Keep, Trap> {
        let ex = match &mut self.ex {
            Ok(ex) => ex,
            Err(why) => {
                let why = why.take().unwrap_or_default();
                return self.complete(it, Err(why));
            }
        };
        let step = ex.step(&mut self.pool.borrow_mut());
        match step {
            Step::Done(r) => self.complete(it, r),
            Step::Resolve => {
                let (host, port) = ex.host();
                let host = host.to_string();
                let slot = Rc::clone(&self.resolved);
                it.event_loop()?.spawn_job(
                    Box::new(move || Box::new(resolve(&host, port))),
                    Box::new(move |it, result| {
                        if let Ok(r) = result.downcast::<io::Result<Vec<SocketAddr>>>() {
                            *slot.borrow_mut() = Some(*r);
                        }
                        it.event_loop()?
                            .set_source_timer(token, Duration::ZERO, None);
                        Ok(())
                    }),
                );
                Ok(Keep::Keep)
            }
            Step::Wait(_) => {
                let Some(conn) = ex.conn_mut() else {
                    return self.complete(it, Err("the connection was lost".into()));
                };
                if let Err(e) = enroll(it.event_loop()?.registry(), conn, token) {
                    return self.complete(it, Err(format!("cannot wait for the connection: {e}")));
                }
                // The deadline follows the phase (a connect has its own).
                if let (Some(t), Some(left)) = (self.deadline_timer, ex.time_left(Instant::now())) {
                    it.event_loop()?.rearm_source_timer(t, left);
                }
                Ok(Keep::Keep)
            }
        }
    }

    /// The exchange is over: clear its deadline, give a reusable
    /// connection back to the pool (still registered with the poll, unless
    /// `FESTINA_NO_KEPT_REGISTRATION`), and return the headers the request
    /// went with.
    fn release(&mut self, it: &mut Interpreter) -> Value {
        if let Some(t) = self.deadline_timer.take() {
            if let Some(lp) = it.event_loop_if_started() {
                lp.clear_source_timer(t);
            }
        }
        let mut sent_headers = Value::Null;
        if let Ok(ex) = &mut self.ex {
            sent_headers = std::mem::take(&mut ex.sent_headers);
            if let Some(mut c) = ex.take_reusable() {
                if !self.pool.borrow().keep_registered && c.registered.take().is_some() {
                    if let Some(lp) = it.event_loop_if_started() {
                        let _ = lp.registry().deregister(c.io.tcp_mut());
                    }
                }
                c.idle_since = Instant::now();
                self.pool.borrow_mut().put(c);
            }
        }
        self.ex = Err(None);
        sent_headers
    }

    /// Overwrite the value, call the callback, and end.
    fn complete(
        &mut self,
        it: &mut Interpreter,
        r: Result<Response, String>,
    ) -> Result<Keep, Trap> {
        let sent_headers = self.release(it);
        let req = std::mem::take(&mut self.req);
        match &self.done {
            Done::Callback(callback) => {
                if let Some(obj) = req.as_handle::<HttpObj>() {
                    fill(it, obj, r, sent_headers);
                }
                it.call_function(callback, &[req])?;
            }
            Done::Resume {
                wait,
                returns_value,
            } => {
                // As blocking mode: a failure throws and leaves the value
                // as it was.
                let result = match r {
                    Ok(r) => {
                        if let Some(obj) = req.as_handle::<HttpObj>() {
                            fill(it, obj, Ok(r), sent_headers);
                        }
                        Ok(if *returns_value { req } else { Value::Null })
                    }
                    Err(msg) => Err(Trap::Throw(msg)),
                };
                let wait = std::rc::Rc::clone(wait);
                super::park::resume(it, &wait, result)?;
            }
        }
        Ok(Keep::Remove)
    }
}

impl SourceHandler for ClientSource {
    fn source(&mut self) -> Option<&mut dyn Source> {
        // The socket is registered by the handler itself (see the module
        // documentation).
        None
    }

    fn ready(&mut self, it: &mut Interpreter, token: Token, _r: Readiness) -> Result<Keep, Trap> {
        self.advance(it, token)
    }

    fn timer(&mut self, it: &mut Interpreter, token: Token, _timer: TimerId) -> Result<Keep, Trap> {
        if !self.started {
            self.started = true;
            if let Ok(ex) = &self.ex {
                if let Some(left) = ex.time_left(Instant::now()) {
                    self.deadline_timer =
                        Some(it.event_loop()?.set_source_timer(token, left, None));
                }
            }
            return self.advance(it, token);
        }
        let answer = self.resolved.borrow_mut().take();
        if let Some(r) = answer {
            if let Ok(ex) = &mut self.ex {
                ex.resolved(r);
            }
            return self.advance(it, token);
        }
        let Ok(ex) = &mut self.ex else {
            return self.advance(it, token);
        };
        match ex.time_left(Instant::now()) {
            Some(left) => {
                // An earlier deadline passed (the connect's) or the timer
                // woke early: wait for the rest.
                self.deadline_timer = Some(it.event_loop()?.set_source_timer(token, left, None));
                Ok(Keep::Keep)
            }
            None => {
                let why = ex.timed_out();
                self.complete(it, Err(why))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(path: &str, query: &str, port: Option<u16>, body: &[u8]) -> Result<String, String> {
        let mut out = Vec::new();
        encode_request(
            &mut out,
            RequestParts {
                method: "POST",
                url: "http://h/x",
                path,
                query,
                host: "h",
                port,
                headers: &Value::Null,
                auth: None,
                content_type: None,
                body,
            },
        )?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn the_request_line_and_host() {
        assert_eq!(
            encoded("/a b/é", "x=\"1\"&y={|}", Some(8080), b"hi").unwrap(),
            "POST /a%20b/%C3%A9?x=%221%22&y=%7B%7C%7D HTTP/1.1\r\nHost: h:8080\r\n\
             User-Agent: festina\r\nContent-Length: 2\r\n\r\nhi"
        );
        assert_eq!(
            encoded("/", "", None, b"").unwrap(),
            "POST / HTTP/1.1\r\nHost: h\r\nUser-Agent: festina\r\nContent-Length: 0\r\n\r\n"
        );
        for (path, query) in [("/a\rb", ""), ("/", "q=\n"), ("/\x7f", "")] {
            assert_eq!(
                encoded(path, query, None, b""),
                Err("cannot send to 'http://h/x': the URL holds a control character".into())
            );
        }
    }
}
