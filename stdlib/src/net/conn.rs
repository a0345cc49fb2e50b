//! One accepted connection: the state machine that moves bytes between
//! its socket and the HTTP machine (`proto.rs`) or, once upgraded, the
//! WebSocket (tungstenite), and runs the program's handlers (§19.1,
//! §19.3, §19.4).
//!
//! # Ownership
//!
//! A connection is a [`Conn`] behind an `Rc<RefCell<..>>` ([`ConnRef`]).
//! The strong references are the event loop's source handler for it
//! ([`ConnSource`], registered under the connection's token, with the raw
//! descriptor as its `mio` source) and, briefly, a native that is
//! answering on it. The values the program holds reach it through weak
//! references: a request's [`Exchange`], a socket's `SocketObj`. So a
//! connection lives exactly as long as it is registered, and a value the
//! program kept past that finds nothing and does nothing. The socket is
//! closed when the `Conn` is dropped, which is after its source left the
//! loop (a descriptor is never closed while registered, so its number
//! cannot be reused under a stale registration).
//!
//! No borrow of the connection is held while Festina code runs: the
//! handler borrows it to read and parse, lets go, runs `on request`
//! (whose natives borrow it to write the answer), and borrows it again.
//!
//! # States
//!
//! ```text
//!   reading head ──> reading body ──> dispatching ──> (answer written)
//!        ^                                                  │
//!        └──────────── keep-alive ─────────────────────────┤
//!                                                           ├─> closing ─> lingering ─> gone
//!                            upgraded (WebSocket) <── 101 ──┘
//! ```
//!
//! - *reading head / body*: the [`Machine`]'s states (`proto.rs`).
//! - *dispatching*: `on request` runs with the request ([`dispatch`]);
//!   its first `ok`/`redirect`/`send`/`upgrade` writes the answer into
//!   the output buffer, later ones do nothing; a handler that answered
//!   nothing gets 200 with an empty body, one that failed 500 (and the
//!   failure then ends the program, §10.10, §14.2). Pipelined requests
//!   are answered in order, simply because they are dispatched in order.
//! - *closing*: no more requests are parsed; once the output is written
//!   the connection ends, after *lingering* (its sending side shut, its
//!   input read and dropped for up to [`LINGER`]) when the client may
//!   still be sending, so that a refusal is read by the client rather than
//!   lost to a reset.
//! - *upgraded*: after a 101 the rest of the input belongs to the
//!   WebSocket, which tungstenite frames over the same stream ([`Io`]);
//!   `on upgrade` fires once the request handler has returned,
//!   `on socketMessage` per message, `on socketClose` exactly once when
//!   the connection ends, however it ends.
//!
//! # Input, output and readiness
//!
//! One input buffer (the machine's) and one output buffer per connection,
//! both reused for every request. A batch of requests that arrived
//! together is answered into the output buffer and written with one
//! write. Readiness is edge-triggered: a read that fills the buffer
//! leaves `unread` set, and the connection reads again before
//! waiting; a short read proves the socket empty, except after readiness
//! reported the peer's end of input (which arrives with no byte, so may
//! wait behind the data just read), when the connection reads until the
//! read returns the end. The connection asks for writable readiness only while output
//! is pending; while more than [`OUT_HIGH`] bytes are pending it stops
//! reading and parsing (a client that sends requests and never reads the
//! answers gets nothing more read until it does, and is closed by the
//! idle timeout).
//!
//! # Threads (§20.8, §20.9)
//!
//! Everything here belongs to one interpreter: a Festina `thread` with
//! HTTP handlers has its own server state, listeners and connections in
//! its own loop. Handing a live connection to another thread
//! (`giveRequest`) moves what a `Conn` holds that is not tied to this
//! thread: its stream (a `mio` `TcpStream`, `Send`), the machine's
//! unconsumed input, the request being dispatched (its head's bytes and
//! body) and its keep-alive decision; this side deregisters the source
//! and forgets the connection, the receiving side builds a `Conn` around
//! them with its own `Shared` and registers it. A TLS, answered or
//! upgraded connection is not handed off (§20.9).
//!
//! [`Exchange::hand_off`] is that move: it flushes what earlier requests
//! were answered with (a connection whose output the socket has not
//! taken yet stays here), takes the stream and the unconsumed input out,
//! marks the request answered and the connection dead, so this side's
//! machinery ends it (deregistering its descriptor) without writing or
//! closing anything. [`resume`] is the receiving side's start: the
//! request is dispatched to its own `on request`, then the connection
//! lives on in its loop like one it accepted.
//!
//! # Timeouts
//!
//! One source timer per connection, armed for the earliest deadline and
//! moved lazily (a timer that fires early is re-armed for what is left):
//! an idle connection (no request in progress, nothing pending) closes
//! [`super::server::Shared::idle`] after its last activity (15 s); a
//! request head must arrive whole within the same time from its first
//! byte (a head trickled a byte at a time gets 408); a body, or pending
//! output, must make progress within it; a closing WebSocket gets
//! [`CLOSE_WAIT`] for the peer's close frame.
//!
//! A timer runs at the end of a loop round, after every handler of the
//! round, and a round whose handlers block (a `send()` that does not
//! park, a long computation) can end long after its poll: a request that
//! arrived meanwhile is in the socket, but its readiness comes with the
//! next poll. So an overdue open HTTP connection first reads what its
//! socket holds and serves it, and expires only if still overdue after
//! that (before, a keep-alive client whose next request arrived in time
//! was closed with it unread, a reset).

use super::encode;
use super::io::{Io, WsIo};
use super::proto::{Event, Machine, Request};
use super::server::Shared;
use super::value::{HttpObj, Inbound};
use super::ws;
use festina_vm::event_loop::{Interest, Keep, Readiness, SourceHandler, TimerId, Token};
use festina_vm::interp::Interpreter;
use festina_vm::native::Trap;
use festina_vm::value::Value;
use mio::event::Source;
use mio::unix::SourceFd;
use std::cell::RefCell;
use std::io::{ErrorKind, Read, Write};
use std::os::fd::RawFd;
use std::rc::{Rc, Weak};
use std::time::{Duration, Instant};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::CloseFrame;
use tungstenite::{Message, WebSocket};

/// Pending output above which a connection stops reading (bytes).
pub const OUT_HIGH: usize = 256 * 1024;
/// How long a closing connection reads and drops its client's input.
pub const LINGER: Duration = Duration::from_secs(2);
/// How long a closing WebSocket waits for the peer's close frame.
pub const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// A shared connection (see the module documentation).
pub type ConnRef = Rc<RefCell<Conn>>;

/// What the connection's stream is carrying.
pub enum Link {
    /// HTTP/1.1 requests and responses.
    Http(Io),
    /// A WebSocket, after a 101.
    Ws(Box<WsLink>),
    /// Only while switching from one to the other.
    Gone,
}

/// The stream of `link`.
fn io_of(link: &mut Link) -> Option<&mut Io> {
    match link {
        Link::Http(io) => Some(io),
        Link::Ws(w) => Some(&mut w.ws.get_mut().io),
        Link::Gone => None,
    }
}

/// An upgraded connection.
pub struct WsLink {
    /// tungstenite's WebSocket over the connection's stream.
    pub ws: WebSocket<WsIo>,
    /// The connection's one `socket` value, given to every handler.
    pub socket: Value,
    /// Output is waiting for the socket to take it.
    pub want_write: bool,
    /// When a close frame went out (from `s.close()`, an error, the
    /// shutdown), if one did.
    pub closing: Option<Instant>,
    /// Nothing more will be read or written: the connection ends.
    pub ended: bool,
    /// `on socketClose` has run (or is running).
    pub close_fired: bool,
    /// The peer ended its side of the stream without a close frame (a
    /// half-close): the input is over, but the replies already queued
    /// for messages it sent before are still written out before the
    /// connection ends (the peer may still be reading).
    pub drain_output: bool,
}

/// Where the connection is in its life (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Open,
    /// Write what is pending, then end (lingering first when `linger`).
    Closing {
        linger: bool,
    },
    /// Sending side shut; drop input until the client closes or the
    /// deadline.
    Lingering(Instant),
}

/// The request being dispatched.
#[derive(Clone, Copy, Debug)]
struct Current {
    seq: u64,
    answered: bool,
    keep_alive: bool,
    head_only: bool,
    upgraded: bool,
}

/// One connection; see the module documentation.
pub struct Conn {
    token: Token,
    shared: Rc<Shared>,
    slot: usize,
    link: Link,
    machine: Machine,
    out: Vec<u8>,
    out_pos: usize,
    /// The interest registered with the poll.
    interest: Interest,
    phase: Phase,
    seq: u64,
    current: Option<Current>,
    /// The socket may hold unread input (edge-triggered readiness).
    unread: bool,
    /// Reading is paused: too much output is pending.
    blocked: bool,
    /// Readiness reported the peer's end of input (or an error): read
    /// until the read says so, whatever its size.
    hup: bool,
    /// The stream failed or ended: the connection goes.
    dead: bool,
    /// The stream went to another thread ([`Exchange::hand_off`]); the
    /// descriptor is no longer this loop's to deregister.
    pub handed_off: bool,
    /// The connection's own handler is running (sends flush at its end).
    in_drive: bool,
    last_activity: Instant,
    /// When the head now arriving began, if one is.
    head_since: Option<Instant>,
    timer: Option<(TimerId, Instant)>,
    secure: bool,
    /// `host:port` for the url of a request without `Host`.
    local: Rc<str>,
    /// `on request` is parked at the client (`super::park`): nothing more
    /// is parsed or dispatched, and no deadline runs, until it resumes.
    parked: bool,
    /// A batch of pipelined requests was left for the loop to handle a
    /// signal first: [`settle`] arms a zero timer to come back.
    redrive: bool,
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.shared.forget(self.slot);
        if let Some(buf) = self.machine.take_buffer() {
            self.shared.recycle(buf, true);
        }
        let out = std::mem::take(&mut self.out);
        self.shared.recycle(out, false);
    }
}

/// The link from a received request to the connection answering it: the
/// connection, and which of its requests.
pub struct Exchange {
    conn: Weak<RefCell<Conn>>,
    seq: u64,
}

/// A live connection on its way to another thread (§20.9): `Send`.
pub struct HandOff {
    /// The connection's socket.
    pub stream: mio::net::TcpStream,
    /// Input read past the request (pipelined requests).
    pub rest: Vec<u8>,
    /// The request being handed over.
    pub request: Request,
    /// The `host:port` for a url without `Host`.
    pub local: String,
}

impl Exchange {
    /// Take the connection of this request away from this thread, for
    /// `giveRequest` (§20.9); `None` (a no-op) when the request is no
    /// longer being dispatched, was answered or upgraded, came over TLS,
    /// or earlier answers are still waiting for the socket.
    pub fn hand_off(&self, head: &super::proto::Head, body: &[u8]) -> Option<HandOff> {
        let conn = self.conn.upgrade()?;
        let mut c = conn.try_borrow_mut().ok()?;
        let cur = c.current?;
        if cur.seq != self.seq || cur.answered || cur.upgraded || c.secure {
            return None;
        }
        if !matches!(c.link, Link::Http(Io::Plain(_))) {
            return None;
        }
        c.flush();
        if c.pending() {
            return None;
        }
        let Link::Http(Io::Plain(stream)) = std::mem::replace(&mut c.link, Link::Gone) else {
            return None;
        };
        let rest = c.machine.take_rest();
        if let Some(cur) = c.current.as_mut() {
            cur.answered = true;
        }
        c.dead = true;
        c.handed_off = true;
        Some(HandOff {
            stream,
            rest,
            request: Request {
                head: head.clone(),
                body: body.to_vec(),
            },
            local: c.local.to_string(),
        })
    }

    /// Run `f` on the connection when this is its request being
    /// dispatched and still unanswered, marking it answered; `None`
    /// otherwise (answered already, the connection gone, or a request
    /// kept past its handler).
    pub fn answer<R>(&self, f: impl FnOnce(&mut Conn, bool, bool) -> R) -> Option<R> {
        let conn = self.conn.upgrade()?;
        let mut c = conn.try_borrow_mut().ok()?;
        let cur = c.current.as_mut()?;
        if cur.seq != self.seq || cur.answered {
            return None;
        }
        cur.answered = true;
        let (keep, head_only) = (cur.keep_alive, cur.head_only);
        let close = !keep || c.shared.shutting_down();
        Some(f(&mut c, close, head_only))
    }

    /// Mark the request upgraded (its 101 was written).
    pub fn set_upgraded(&self) {
        if let Some(conn) = self.conn.upgrade() {
            if let Ok(mut c) = conn.try_borrow_mut() {
                if let Some(cur) = c.current.as_mut().filter(|cur| cur.seq == self.seq) {
                    cur.upgraded = true;
                }
            }
        }
    }
}

impl Conn {
    /// A new connection on `io` (its token is set once registered).
    pub fn new(io: Io, shared: Rc<Shared>, slot: usize, local: Rc<str>) -> Conn {
        let secure = io.is_tls();
        let limits = shared.limits;
        let out = if shared.idle_release {
            Vec::new()
        } else {
            shared.out_buffer()
        };
        Conn {
            token: Token(usize::MAX),
            shared,
            slot,
            link: Link::Http(io),
            machine: Machine::new(limits),
            out,
            out_pos: 0,
            interest: Interest::READABLE,
            phase: Phase::Open,
            seq: 0,
            current: None,
            unread: true,
            blocked: false,
            hup: false,
            dead: false,
            handed_off: false,
            in_drive: false,
            last_activity: Instant::now(),
            head_since: None,
            timer: None,
            secure,
            local,
            parked: false,
            redrive: false,
        }
    }

    /// The connection's token.
    pub fn token(&self) -> Token {
        self.token
    }

    /// Write into the output buffer: `f` gets it and the `Date` value for
    /// a response written now.
    pub fn write(&mut self, f: impl FnOnce(&mut Vec<u8>, &[u8])) {
        let date = self.shared.date();
        if self.out.capacity() == 0 {
            self.out = self.shared.out_buffer();
        }
        f(&mut self.out, &date);
    }

    /// The handlers of the program.
    pub fn handlers(&self) -> super::server::Handlers {
        self.shared.handlers
    }

    /// Set the token the connection was registered under.
    pub fn set_token(&mut self, token: Token) {
        self.token = token;
    }

    /// The WebSocket part, once upgraded.
    pub fn ws(&mut self) -> Option<&mut WsLink> {
        match &mut self.link {
            Link::Ws(w) => Some(w),
            _ => None,
        }
    }

    /// Whether its own handler is running (a send then waits for the
    /// handler's one flush).
    pub fn in_drive(&self) -> bool {
        self.in_drive
    }

    /// Whether an idle connection (between requests, nothing pending) that
    /// the shutdown may close at once.
    pub fn is_idle_http(&self) -> bool {
        matches!(self.link, Link::Http(_))
            && self.phase == Phase::Open
            && self.current.is_none()
            && !self.machine.in_request()
            && self.seq > 0
            && !self.pending()
    }

    /// Give the buffers back to the pools while the connection waits for
    /// its next request with nothing read and nothing to write (an idle
    /// keep-alive connection then holds no buffer; the next read and the
    /// next answer take one from the pool again).
    fn release_idle_buffers(&mut self) {
        if !self.shared.idle_release
            || !matches!(self.link, Link::Http(_))
            || self.phase != Phase::Open
            || self.current.is_some()
            || self.machine.in_request()
            || self.unread
            || self.out_len() > 0
        {
            return;
        }
        if let Some(buf) = self.machine.take_idle_buffer() {
            self.shared.recycle(buf, true);
        }
        if self.out.capacity() > 0 {
            let out = std::mem::take(&mut self.out);
            self.out_pos = 0;
            self.shared.recycle(out, false);
        }
    }

    /// Bytes of output not yet written.
    fn out_len(&self) -> usize {
        self.out.len() - self.out_pos
    }

    /// Whether output waits for the socket.
    fn pending(&self) -> bool {
        self.out_len() > 0
            || match &self.link {
                Link::Http(io) => io.pending(),
                Link::Ws(w) => w.want_write || w.ws.get_ref().io.pending(),
                Link::Gone => false,
            }
    }

    /// Bytes of memory the connection holds beyond its fixed size (the
    /// idle-connection measurement).
    pub fn footprint(&self) -> usize {
        self.machine.footprint() + self.out.capacity()
    }

    /// Read once into the machine (see the module documentation).
    fn read_once(&mut self) {
        let Link::Http(io) = &mut self.link else {
            self.unread = false;
            return;
        };
        let was_in_head = self.machine.in_request();
        if self.machine.needs_buffer() {
            self.machine.give_buffer(self.shared.buffer());
        }
        let spare = self.machine.spare();
        let room = spare.len();
        if room == 0 {
            self.unread = false;
            return;
        }
        match io.read(spare) {
            Ok(0) => {
                self.machine.end_of_input();
                self.unread = false;
            }
            Ok(n) => {
                self.unread = self.hup || !io.drained(n, room);
                self.machine.filled(n);
                self.last_activity = Instant::now();
                if !was_in_head && self.head_since.is_none() {
                    self.head_since = Some(self.last_activity);
                }
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => self.unread = false,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => {
                self.dead = true;
                self.unread = false;
            }
        }
    }

    /// Drop input while lingering; the client's end of input ends the
    /// connection.
    fn discard_input(&mut self) {
        let mut scratch = [0u8; 4096];
        let Some(io) = io_of(&mut self.link) else {
            self.dead = true;
            return;
        };
        for _ in 0..64 {
            match io.read(&mut scratch) {
                Ok(0) => {
                    self.dead = true;
                    return;
                }
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                Err(_) => {
                    self.dead = true;
                    return;
                }
            }
        }
    }

    /// Write what the socket takes of the pending output.
    fn flush(&mut self) {
        if self.dead {
            return;
        }
        let before = self.out_len();
        let Some(io) = io_of(&mut self.link) else {
            return;
        };
        while self.out_pos < self.out.len() {
            match io.write(&self.out[self.out_pos..]) {
                Ok(0) => {
                    self.dead = true;
                    return;
                }
                Ok(n) => self.out_pos += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(_) => {
                    self.dead = true;
                    return;
                }
            }
        }
        if self.out_pos == self.out.len() {
            self.out.clear();
            self.out_pos = 0;
            if self.out.capacity() > 64 * 1024 {
                self.out = self.shared.out_buffer();
            }
        }
        let flushed = match &mut self.link {
            Link::Http(io) => io.flush().map_err(tungstenite::Error::Io),
            Link::Ws(w) if !w.ended || w.closing.is_some() || w.drain_output => w.ws.flush(),
            Link::Ws(_) | Link::Gone => Ok(()),
        };
        match flushed {
            Ok(()) => {
                if let Link::Ws(w) = &mut self.link {
                    w.want_write = false;
                }
            }
            Err(tungstenite::Error::Io(e)) if e.kind() == ErrorKind::WouldBlock => {
                if let Link::Ws(w) = &mut self.link {
                    w.want_write = true;
                }
            }
            Err(tungstenite::Error::ConnectionClosed) => {
                if let Link::Ws(w) = &mut self.link {
                    w.ended = true;
                    w.want_write = false;
                }
            }
            Err(_) => self.dead = true,
        }
        if self.out_len() < before {
            self.last_activity = Instant::now();
        }
    }

    /// Refuse with `status` and close (see `proto.rs` for the statuses).
    fn refuse(&mut self, status: u16) {
        self.machine.stop();
        self.write(|out, date| encode::plain(out, status, true, date));
        self.phase = Phase::Closing { linger: true };
    }

    /// The earliest deadline of the connection (see "Timeouts").
    fn deadline(&self) -> Option<Instant> {
        if self.parked {
            // The client's own timeouts bound the wait.
            return None;
        }
        let idle = self.shared.idle;
        match (&self.link, self.phase) {
            (_, Phase::Lingering(until)) => Some(until),
            (Link::Ws(w), _) => match w.closing {
                Some(since) => Some(since + CLOSE_WAIT),
                None if self.pending() => Some(self.last_activity + idle),
                None => None,
            },
            (Link::Gone, _) => None,
            (Link::Http(_), _) => match self.head_since {
                Some(since) if self.machine.in_request() && self.current.is_none() => {
                    Some(since + idle)
                }
                _ => Some(self.last_activity + idle),
            },
        }
    }

    /// Whether the connection's deadline has passed.
    fn overdue(&self) -> bool {
        self.deadline().is_some_and(|d| d <= Instant::now())
    }

    /// Whether an overdue connection reads what its socket holds before
    /// it expires: an open HTTP connection, whose input moves its idle
    /// deadline (a head's deadline stays where its first byte put it).
    fn may_read_late(&self) -> bool {
        matches!(self.link, Link::Http(_)) && matches!(self.phase, Phase::Open) && !self.dead
    }

    /// A deadline passed: what to do.
    fn expire(&mut self) {
        let http = matches!(self.link, Link::Http(_));
        match (http, self.phase) {
            (true, Phase::Open) if self.machine.in_request() && !self.pending() => {
                self.refuse(408);
            }
            _ => self.dead = true,
        }
    }

    /// Write a WebSocket message (see `ws.rs`); it goes out at the end of
    /// the connection's own handler, or at once from anywhere else.
    /// Returns false when the connection cannot take it (closing, ended).
    pub fn ws_send(&mut self, msg: Message) -> bool {
        let in_drive = self.in_drive;
        let Link::Ws(w) = &mut self.link else {
            return false;
        };
        if w.ended || w.closing.is_some() {
            return false;
        }
        match w.ws.write(msg) {
            Ok(()) => {}
            Err(tungstenite::Error::Io(e)) if e.kind() == ErrorKind::WouldBlock => {
                w.want_write = true;
            }
            // The peer does not read: past the cap the connection goes.
            Err(_) => {
                w.ended = true;
                return false;
            }
        }
        if !in_drive {
            self.flush();
        }
        true
    }

    /// Send a close frame with `code` and wait for the peer's (see
    /// [`CLOSE_WAIT`]).
    pub fn ws_close(&mut self, code: CloseCode) {
        let in_drive = self.in_drive;
        let Link::Ws(w) = &mut self.link else {
            return;
        };
        if w.ended || w.closing.is_some() {
            return;
        }
        w.closing = Some(Instant::now());
        let frame = CloseFrame {
            code,
            reason: "".into(),
        };
        match w.ws.close(Some(frame)) {
            Ok(()) => {}
            Err(tungstenite::Error::Io(e)) if e.kind() == ErrorKind::WouldBlock => {
                w.want_write = true;
            }
            Err(_) => w.ended = true,
        }
        if !in_drive {
            self.flush();
        }
    }

    /// After a handler, with the output written as far as the socket
    /// takes it: move a closing connection on (to lingering, or to its
    /// end), and say whether it ends now.
    fn wind_down(&mut self) -> bool {
        if let Phase::Closing { linger } = self.phase {
            if !self.pending() && !self.dead {
                if linger || self.machine.buffered() > 0 {
                    if let Some(io) = io_of(&mut self.link) {
                        io.shutdown_write();
                    }
                    self.phase = Phase::Lingering(Instant::now() + LINGER);
                    self.discard_input();
                } else {
                    self.dead = true;
                }
            }
        }
        self.dead || matches!(&self.link, Link::Ws(w) if w.ended && !self.pending())
    }

    /// The interest the connection needs now.
    fn wanted_interest(&self) -> Interest {
        let write = self.pending();
        let read = !self.blocked;
        match (read, write) {
            (_, false) => Interest::READABLE,
            (true, true) => Interest::READABLE | Interest::WRITABLE,
            (false, true) => Interest::WRITABLE,
        }
    }
}

/// A raw descriptor as a `mio` source: the connection's stream lives in
/// the shared [`Conn`], so the loop registers its descriptor by number.
/// It is deregistered before the stream is dropped (see the module
/// documentation).
pub struct FdSource(pub RawFd);

impl Source for FdSource {
    fn register(
        &mut self,
        registry: &mio::Registry,
        token: Token,
        interests: Interest,
    ) -> std::io::Result<()> {
        SourceFd(&self.0).register(registry, token, interests)
    }

    fn reregister(
        &mut self,
        registry: &mio::Registry,
        token: Token,
        interests: Interest,
    ) -> std::io::Result<()> {
        SourceFd(&self.0).reregister(registry, token, interests)
    }

    fn deregister(&mut self, registry: &mio::Registry) -> std::io::Result<()> {
        SourceFd(&self.0).deregister(registry)
    }
}

/// The event loop's handler of one connection.
pub struct ConnSource {
    fd: FdSource,
    conn: ConnRef,
}

impl ConnSource {
    /// The handler of `conn`, whose stream's descriptor is `fd`.
    pub fn new(conn: ConnRef, fd: RawFd) -> ConnSource {
        ConnSource {
            fd: FdSource(fd),
            conn,
        }
    }
}

impl SourceHandler for ConnSource {
    fn source(&mut self) -> Option<&mut dyn Source> {
        // A connection handed to another thread left this loop's poll
        // before its stream went (`http_give_request`): its descriptor
        // may by now be closed there and its number another socket's.
        if self.conn.try_borrow().is_ok_and(|c| c.handed_off) {
            return None;
        }
        Some(&mut self.fd)
    }

    fn ready(&mut self, it: &mut Interpreter, _token: Token, r: Readiness) -> Result<Keep, Trap> {
        if r.readable || r.closed {
            let mut c = self.conn.borrow_mut();
            c.unread = true;
            // The peer's end of input comes with no byte: a short read
            // no longer proves nothing is left to read.
            c.hup |= r.closed;
            if let Link::Ws(w) = &mut c.link {
                w.ws.get_mut().readable(r.closed);
            }
        }
        drive(it, &self.conn, false)
    }

    fn timer(&mut self, it: &mut Interpreter, _token: Token, timer: TimerId) -> Result<Keep, Trap> {
        {
            let mut c = self.conn.borrow_mut();
            if c.timer.is_some_and(|(id, _)| id == timer) {
                c.timer = None;
            }
        }
        drive(it, &self.conn, true)
    }
}

/// Serve a connection just accepted before it is registered: read what
/// it sent already (most clients send their request with the handshake's
/// last packet), dispatch, write. Returns whether the connection lives on
/// (it must then be registered and [`settle`]d); a client that asked for
/// one answer and closing is served without the connection ever entering
/// the poll (no `epoll_ctl` at all). With `eager` false
/// (`FESTINA_NO_EAGER_READ`) nothing is read: the connection waits for
/// readiness like any other.
pub fn start(it: &mut Interpreter, c: &ConnRef, eager: bool) -> Result<bool, Trap> {
    if !eager {
        c.borrow_mut().unread = false;
        return Ok(true);
    }
    c.borrow_mut().in_drive = true;
    let result = run(it, c);
    first_drive_done(it, c, result)
}

/// The end of a connection's first drive, before it is registered: write
/// what was answered; whether it lives on (else it ended here).
fn first_drive_done(
    it: &mut Interpreter,
    c: &ConnRef,
    result: Result<(), Trap>,
) -> Result<bool, Trap> {
    c.borrow_mut().in_drive = false;
    result?;
    let mut conn = c.borrow_mut();
    conn.flush();
    if conn.wind_down() {
        drop(conn);
        end(it, c)?;
        return Ok(false);
    }
    Ok(true)
}

/// Start a connection handed over by another thread (§20.9): the input
/// read past its request goes back into the machine, the request is
/// dispatched, then what else can be done now is. Returns whether the
/// connection lives on (it must then be registered and [`settle`]d).
pub fn resume(it: &mut Interpreter, c: &ConnRef, rest: &[u8], req: Request) -> Result<bool, Trap> {
    {
        let mut conn = c.borrow_mut();
        conn.machine.feed(rest);
        conn.in_drive = true;
    }
    let result = dispatch(it, c, req).and_then(|()| run(it, c));
    first_drive_done(it, c, result)
}

/// Run the connection after readiness (or a timer, `timed`), then settle
/// its output, interest and timer.
pub fn drive(it: &mut Interpreter, c: &ConnRef, timed: bool) -> Result<Keep, Trap> {
    let mut late = false;
    {
        let mut conn = c.borrow_mut();
        conn.in_drive = true;
        if timed && conn.overdue() {
            if conn.may_read_late() {
                // Input may have arrived while this thread was busy (a
                // long handler) and its readiness is not polled yet: read
                // it before judging the connection idle (see "Timeouts").
                conn.unread = true;
                late = true;
            } else {
                conn.expire();
            }
        }
        // Space freed by the socket may unblock reading.
        if conn.pending() {
            conn.flush();
        }
    }
    let result = run(it, c);
    {
        let mut conn = c.borrow_mut();
        conn.in_drive = false;
        if late && result.is_ok() && conn.overdue() {
            conn.expire();
        }
    }
    result?;
    settle(it, c)
}

/// Parse and dispatch until nothing more can be done now.
fn run(it: &mut Interpreter, c: &ConnRef) -> Result<(), Trap> {
    let mut served = false;
    loop {
        if matches!(c.borrow().link, Link::Ws(_)) {
            return run_ws(it, c);
        }
        let req = {
            let mut guard = c.borrow_mut();
            let conn = &mut *guard;
            if conn.dead || conn.parked {
                return Ok(());
            }
            match conn.phase {
                Phase::Lingering(_) => {
                    conn.discard_input();
                    return Ok(());
                }
                Phase::Closing { .. } => return Ok(()),
                Phase::Open => {}
            }
            if conn.out_len() >= OUT_HIGH {
                conn.flush();
                if conn.out_len() >= OUT_HIGH {
                    conn.blocked = true;
                    return Ok(());
                }
            }
            conn.blocked = false;
            // A kill waits for this thread's parked handlers: no new
            // request starts meanwhile (`threads::Parking`; only a server
            // whose handler parks can have any).
            if conn.shared.park_request && crate::threads::stopping(it) {
                return Ok(());
            }
            // A signal arrived while a request of this batch ran: back to
            // the loop, which starts the shutdown (and its grace period)
            // before another pipelined request is served; a zero timer
            // brings the loop back here.
            if served
                && it
                    .event_loop_if_started()
                    .is_some_and(|lp| lp.signal_waiting())
            {
                conn.redrive = true;
                return Ok(());
            }
            match conn.machine.poll() {
                Event::NeedMore => {
                    if conn.unread && !conn.machine.at_eof() && !conn.dead {
                        conn.read_once();
                        continue;
                    }
                    if !conn.machine.in_request() {
                        conn.head_since = None;
                        conn.machine.shrink();
                    }
                    return Ok(());
                }
                Event::Continue => {
                    conn.write(|out, _| out.extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\n"));
                    conn.flush();
                    continue;
                }
                Event::End => {
                    conn.phase = Phase::Closing { linger: false };
                    return Ok(());
                }
                Event::Reject(status) => {
                    conn.refuse(status);
                    return Ok(());
                }
                Event::Request(r) => r,
            }
        };
        dispatch(it, c, req)?;
        served = true;
    }
}

/// Run `on request` with one request and finish it: the default answer,
/// the keep-alive decision, or the switch to WebSocket.
fn dispatch(it: &mut Interpreter, c: &ConnRef, req: Request) -> Result<(), Trap> {
    let (value, handler) = {
        let mut conn = c.borrow_mut();
        conn.seq += 1;
        conn.head_since = None;
        let seq = conn.seq;
        conn.current = Some(Current {
            seq,
            answered: false,
            keep_alive: req.head.keep_alive,
            head_only: req.head.is_head(),
            upgraded: false,
        });
        let inbound = Inbound {
            head: req.head,
            secure: conn.secure,
            local: Rc::clone(&conn.local),
            exchange: Exchange {
                conn: Rc::downgrade(c),
                seq,
            },
        };
        let value = Value::handle(HttpObj::inbound(inbound, req.body));
        (value, conn.shared.handlers.request)
    };
    let park = c.borrow().shared.park_request;
    let result = match handler {
        Some(f) if park => it.call_parkable(&Value::Func(f), &[value]).map(drop),
        Some(f) => it.call_function(&Value::Func(f), &[value]).map(drop),
        None => Ok(()),
    };
    if matches!(result, Err(Trap::Park)) {
        return super::park::parked(it, c);
    }
    finish(it, c, result)
}

/// Set the connection aside while its handler is parked (`super::park`).
pub fn set_parked(c: &ConnRef, parked: bool) {
    c.borrow_mut().parked = parked;
}

/// A parked handler has returned (`result`): finish its request, then
/// let the connection's own source carry on (the rest of its input, its
/// output, its next request).
pub fn resumed(it: &mut Interpreter, c: &ConnRef, result: Result<(), Trap>) -> Result<(), Trap> {
    {
        let mut conn = c.borrow_mut();
        conn.parked = false;
        // The wait was no idleness (no deadline ran while parked): the
        // idle deadline counts from now. Else a wait longer than
        // `FESTINA_HTTP_IDLE_SECONDS` expired the connection at the drive
        // below, before the answer was flushed: the client got nothing.
        conn.last_activity = Instant::now();
    }
    finish(it, c, result)?;
    let token = c.borrow().token;
    // Not registered yet: its first drive (which parked) registers and
    // settles it when it returns.
    if token == Token(usize::MAX) || !it.event_loop()?.has_source(token) {
        return Ok(());
    }
    // Carry on here rather than in the loop's next round: the answer
    // leaves now, then pipelined input is served. The connection's
    // source is not the one running, so what `settle` asks of the loop
    // applies at once.
    if drive(it, c, false)? == Keep::Remove {
        it.event_loop()?.deregister(token);
    }
    Ok(())
}

/// The end of `on request`: the default answer, the keep-alive decision,
/// or the switch to WebSocket.
fn finish(it: &mut Interpreter, c: &ConnRef, result: Result<(), Trap>) -> Result<(), Trap> {
    let mut conn = c.borrow_mut();
    let Some(cur) = conn.current.take() else {
        return result;
    };
    conn.shared.count_answered();
    if let Err(trap) = result {
        // Never leave the client hanging: 500, then the failure ends the
        // program (§10.10, §14.2).
        if !cur.answered {
            conn.write(|out, date| encode::plain(out, 500, true, date));
        }
        conn.flush();
        return Err(trap);
    }
    if !cur.answered {
        let close = !cur.keep_alive || conn.shared.shutting_down();
        conn.write(|out, date| encode::empty(out, 200, None, close, date));
    }
    if cur.upgraded {
        drop(conn);
        return ws::switch(it, c);
    }
    if !cur.keep_alive || conn.shared.shutting_down() {
        conn.machine.stop();
        conn.phase = Phase::Closing { linger: false };
    }
    Ok(())
}

/// Switch an answered upgrade to WebSocket: the rest of the input is the
/// start of the frame stream, and `socket` the connection's one `socket`
/// value.
pub fn into_ws(c: &ConnRef, socket: Value, config: tungstenite::protocol::WebSocketConfig) {
    let mut conn = c.borrow_mut();
    let rest = conn.machine.take_rest();
    conn.flush();
    let Link::Http(io) = std::mem::replace(&mut conn.link, Link::Gone) else {
        conn.dead = true;
        return;
    };
    let io = WsIo::new(
        io,
        conn.shared.drained_skip,
        conn.shared.final_skip,
        rest.len(),
    );
    let ws =
        WebSocket::from_partially_read(io, rest, tungstenite::protocol::Role::Server, Some(config));
    conn.link = Link::Ws(Box::new(WsLink {
        ws,
        socket,
        want_write: false,
        closing: None,
        ended: false,
        close_fired: false,
        drain_output: false,
    }));
    conn.unread = true;
}

/// Read messages and run `on socketMessage` for each.
fn run_ws(it: &mut Interpreter, c: &ConnRef) -> Result<(), Trap> {
    loop {
        let (msg, socket, handler) = {
            let mut guard = c.borrow_mut();
            let conn = &mut *guard;
            let handler = conn.shared.handlers.socket_message;
            let Link::Ws(w) = &mut conn.link else {
                return Ok(());
            };
            if w.ended {
                return Ok(());
            }
            // The read would only say `WouldBlock` (`io.rs`, "The final
            // read"): the batch is over.
            if w.ws.get_ref().nothing_left() {
                return Ok(());
            }
            let m = match w.ws.read() {
                Ok(m) => m,
                Err(e) => {
                    ws::read_error(w, e);
                    return Ok(());
                }
            };
            let payload = match &m {
                Message::Text(t) => Some(t.len()),
                Message::Binary(b) | Message::Ping(b) | Message::Pong(b) => Some(b.len()),
                _ => None,
            };
            w.ws.get_mut().parsed(payload);
            let msg = match m {
                Message::Text(t) => Vec::from(tungstenite::Bytes::from(t)),
                Message::Binary(b) => Vec::from(b),
                _ => {
                    conn.last_activity = Instant::now();
                    continue;
                }
            };
            conn.last_activity = Instant::now();
            (msg, w.socket.clone(), handler)
        };
        if let Some(f) = handler {
            let blob = Value::handle(crate::blob::BlobObj::new(msg, None));
            it.call_function(&Value::Func(f), &[socket, blob])?;
        }
    }
}

/// After the handler: write output, end the connection or register the
/// interest and deadline it needs.
pub fn settle(it: &mut Interpreter, c: &ConnRef) -> Result<Keep, Trap> {
    let mut conn = c.borrow_mut();
    conn.flush();
    if conn.wind_down() {
        drop(conn);
        return end(it, c);
    }
    conn.release_idle_buffers();
    let interest = conn.wanted_interest();
    let token = conn.token;
    let deadline = conn.deadline();
    let redrive = std::mem::take(&mut conn.redrive);
    let changed = interest != conn.interest;
    conn.interest = interest;
    let timer = conn.timer;
    drop(conn);
    let lp = it.event_loop()?;
    if changed {
        let _ = lp.reregister(token, interest);
    }
    if redrive {
        // Back to `run` after the loop has handled the waiting signal.
        lp.set_source_timer(token, Duration::ZERO, None);
    }
    if let Some(at) = deadline {
        let now = Instant::now();
        let armed = match timer {
            Some((id, when)) if when <= at => Some((id, when)),
            Some((id, _)) => {
                lp.clear_source_timer(id);
                None
            }
            None => None,
        };
        if armed.is_none() {
            let id = lp.set_source_timer(token, at.saturating_duration_since(now), None);
            c.borrow_mut().timer = Some((id, at));
        }
    }
    Ok(Keep::Keep)
}

/// The connection ends: `on socketClose` (once, for a WebSocket), then
/// the loop drops it.
pub fn end(it: &mut Interpreter, c: &ConnRef) -> Result<Keep, Trap> {
    let fire = {
        let mut conn = c.borrow_mut();
        conn.dead = true;
        let handler = conn.shared.handlers.socket_close;
        match &mut conn.link {
            Link::Ws(w) if !w.close_fired => {
                w.close_fired = true;
                w.ended = true;
                handler.map(|f| (f, w.socket.clone()))
            }
            _ => None,
        }
    };
    if let Some((f, socket)) = fire {
        it.call_function(&Value::Func(f), &[socket])?;
    }
    Ok(Keep::Remove)
}

/// Bring a connection's registration up to date after a native changed
/// it from outside its own handler (a `s.send` from a timer or another
/// connection's handler): writable interest for pending output, or an
/// immediate wake when it ended.
pub fn poke(it: &mut Interpreter, c: &ConnRef) -> Result<(), Trap> {
    let (token, interest, changed, ended) = {
        let mut conn = c.borrow_mut();
        if conn.in_drive {
            return Ok(());
        }
        let interest = conn.wanted_interest();
        let changed = interest != conn.interest;
        conn.interest = interest;
        let ended = conn.dead || matches!(&conn.link, Link::Ws(w) if w.ended);
        (conn.token, interest, changed, ended)
    };
    let lp = it.event_loop()?;
    if changed {
        let _ = lp.reregister(token, interest);
    }
    if ended {
        lp.set_source_timer(token, Duration::ZERO, None);
    }
    Ok(())
}
