//! Listening ports and the per-interpreter server state (§19.1, §19.8,
//! §12.3).
//!
//! # Ownership
//!
//! The first `openPort`/`openSecurePort` of an interpreter creates its
//! [`Server`] (in the interpreter's extension store) and the [`Shared`]
//! state every connection of that interpreter points to: the handler
//! functions (looked up once), the caps and timeouts, the `Date` cache,
//! the registry of live connections (a slab of weak references, for the
//! shutdown) and the counters. A listener is a [`Listener`] source
//! registered with the event loop, owning its `mio` listening socket; a
//! connection is a `ConnSource` (`conn.rs`). All of it lives on the
//! interpreter's thread: a Festina `thread` with HTTP handlers has its
//! own `Server`, listeners and connections (§20.8).
//!
//! # Ports
//!
//! A port listens on every interface, IPv6 and IPv4 (one dual-stack
//! socket on `[::]`, or `0.0.0.0` where IPv6 is missing), unless the
//! environment variable `FESTINA_HTTP_HOST` names one address to listen
//! on. A port out of range, in use, or already open in this interpreter
//! makes `openPort` a silent no-op (§2.3); so does `closePort` of a port
//! not open. An accept that fails for lack of descriptors is retried
//! 100 ms later (the pending connections wait in the backlog).
//!
//! # Shutdown (§12.3)
//!
//! `SIGINT`/`SIGTERM` run the hook added with the first port: listeners
//! close at once; idle keep-alive connections close at once; WebSockets
//! get a close frame (1001, going away); requests in progress finish
//! (their responses say `Connection: close`). The program then ends
//! (with `on exit`) when no connection is left, or after the grace period
//! (10 s; `FESTINA_SHUTDOWN_GRACE_SECONDS` changes it).
//!
//! # Knobs (environment, read once per interpreter)
//!
//! | variable | default | what |
//! |---|---|---|
//! | `FESTINA_HTTP_HOST` | all interfaces | the one address to listen on |
//! | `FESTINA_HTTP_IDLE_SECONDS` | 15 | the idle and request-head timeout |
//! | `FESTINA_SHUTDOWN_GRACE_SECONDS` | 10 | the grace period of a shutdown |
//! | `FESTINA_HTTP_STATS` | off | at exit, print `http: N connections accepted, M requests answered` on stderr |

use super::conn::{self, Conn, ConnRef, ConnSource};
use super::encode::DateCache;
use super::io::Io;
use super::proto::{Limits, INITIAL_BUFFER};
use super::tls;
use festina_vm::event_loop::{Interest, Keep, Readiness, SourceHandler, TimerId, Token};
use festina_vm::interp::Interpreter;
use festina_vm::native::Trap;
use festina_vm::switches;
use festina_vm::value::Value;
use mio::event::Source;
use mio::net::{TcpListener, TcpStream};
use rustls::ServerConfig;
use socket2::{Domain, Protocol, Socket, Type};
use std::cell::{Cell, Ref, RefCell};
use std::io::ErrorKind;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::os::fd::AsRawFd;
use std::rc::{Rc, Weak};
use std::sync::Arc;
use std::time::Duration;

/// Most recycled buffers of each kind kept (256 of 4 KiB: 1 MiB).
const POOL: usize = 256;

/// The program's HTTP and WebSocket handlers (§11.5), as function
/// indexes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Handlers {
    /// `on request(req:http)`.
    pub request: Option<u32>,
    /// `on upgrade(s:socket)`.
    pub upgrade: Option<u32>,
    /// `on socketMessage(s:socket, msg:blob)`.
    pub socket_message: Option<u32>,
    /// `on socketClose(s:socket)`.
    pub socket_close: Option<u32>,
}

/// What every connection of one interpreter shares; see the module
/// documentation.
pub struct Shared {
    /// The handlers.
    pub handlers: Handlers,
    /// The caps of a request.
    pub limits: Limits,
    /// The idle and head timeout.
    pub idle: Duration,
    grace: Duration,
    date: RefCell<DateCache>,
    shutting_down: Cell<bool>,
    conns: RefCell<Vec<Option<Weak<RefCell<Conn>>>>>,
    free: RefCell<Vec<usize>>,
    accepted: Cell<u64>,
    answered: Cell<u64>,
    stats: bool,
    /// Read a new connection at once (`FESTINA_NO_EAGER_READ` turns it
    /// off: wait for readiness).
    pub eager_read: bool,
    /// Give an idle connection's buffers back to the pools
    /// (`FESTINA_NO_IDLE_RELEASE` turns it off: a connection keeps its
    /// buffers while it lives).
    pub idle_release: bool,
    /// Park `on request` at the blocking client (`super::park`): the
    /// handler is self-contained (`festina_vm::interleave`) and
    /// `FESTINA_NO_PARK` is not set.
    pub park_request: bool,
    /// Skip a WebSocket's read after a short read proved the socket empty
    /// (`FESTINA_NO_DRAINED_SKIP` turns it off: see `io::WsIo`).
    pub drained_skip: bool,
    /// A WebSocket's read after a batch is skipped when nothing can be
    /// left (`conn.rs`, `run_ws`; `FESTINA_NO_FINAL_READ` off).
    pub final_skip: bool,
    /// Input buffers of closed connections, for the next ones (see
    /// [`Shared::buffer`]).
    inputs: RefCell<Vec<Vec<u8>>>,
    /// Their output buffers (empty, with their capacity).
    outputs: RefCell<Vec<Vec<u8>>>,
}

impl Shared {
    fn new(it: &Interpreter) -> Shared {
        let seconds = super::client_pool::seconds;
        let request = it.handler("request");
        let park_request = request.is_some_and(|f| {
            !switches::disabled(switches::NO_PARK)
                && festina_vm::interleave::self_contained(
                    it.program(),
                    f,
                    &crate::threads::startup_functions(it),
                    &super::park::order_free,
                )
        });
        Shared {
            park_request,
            handlers: Handlers {
                request,
                upgrade: it.handler("upgrade"),
                socket_message: it.handler("socketMessage"),
                socket_close: it.handler("socketClose"),
            },
            limits: Limits::default(),
            idle: seconds("FESTINA_HTTP_IDLE_SECONDS", 15.0),
            grace: seconds("FESTINA_SHUTDOWN_GRACE_SECONDS", 10.0),
            date: RefCell::new(DateCache::default()),
            shutting_down: Cell::new(false),
            conns: RefCell::new(Vec::new()),
            free: RefCell::new(Vec::new()),
            accepted: Cell::new(0),
            answered: Cell::new(0),
            stats: std::env::var_os("FESTINA_HTTP_STATS").is_some(),
            eager_read: !switches::disabled(switches::NO_EAGER_READ),
            idle_release: !switches::disabled(switches::NO_IDLE_RELEASE),
            drained_skip: !switches::disabled(switches::NO_DRAINED_SKIP),
            final_skip: !switches::disabled(switches::NO_FINAL_READ),
            inputs: RefCell::new(Vec::new()),
            outputs: RefCell::new(Vec::new()),
        }
    }

    /// The `Date` value for a response written now.
    pub fn date(&self) -> Ref<'_, [u8]> {
        {
            let mut d = self.date.borrow_mut();
            d.get();
        }
        Ref::map(self.date.borrow(), |d| d.current())
    }

    /// Whether a shutdown is in progress (responses then close their
    /// connections).
    pub fn shutting_down(&self) -> bool {
        self.shutting_down.get()
    }

    /// An input buffer of [`INITIAL_BUFFER`] bytes (their content is
    /// whatever a closed connection left: only bytes read are ever
    /// looked at): a closed connection's, or a new one. A connection's
    /// buffers go back to these pools when it ends ([`Shared::recycle`]),
    /// so a server that sees one connection per request allocates no
    /// buffer per connection.
    pub fn buffer(&self) -> Vec<u8> {
        self.inputs
            .borrow_mut()
            .pop()
            .unwrap_or_else(|| vec![0; INITIAL_BUFFER])
    }

    /// An empty output buffer with room for [`INITIAL_BUFFER`] bytes.
    pub fn out_buffer(&self) -> Vec<u8> {
        self.outputs
            .borrow_mut()
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(INITIAL_BUFFER))
    }

    /// Give back a connection's input buffer (`input`) or output buffer,
    /// kept only at its first size, and at most [`POOL`] of each.
    pub fn recycle(&self, mut buf: Vec<u8>, input: bool) {
        let (pool, fits) = if input {
            (&self.inputs, buf.len() == INITIAL_BUFFER)
        } else {
            buf.clear();
            (&self.outputs, buf.capacity() == INITIAL_BUFFER)
        };
        if let (true, Ok(mut pool)) = (fits, pool.try_borrow_mut()) {
            if pool.len() < POOL {
                pool.push(buf);
            }
        }
    }

    /// Count one answered request.
    pub fn count_answered(&self) {
        self.answered.set(self.answered.get() + 1);
    }

    /// A slot in the registry for a new connection.
    fn enroll(&self) -> usize {
        if let Some(i) = self.free.borrow_mut().pop() {
            return i;
        }
        let mut conns = self.conns.borrow_mut();
        conns.push(None);
        conns.len() - 1
    }

    /// Forget the connection in `slot` (it is being dropped).
    pub fn forget(&self, slot: usize) {
        if let (Ok(mut conns), Ok(mut free)) =
            (self.conns.try_borrow_mut(), self.free.try_borrow_mut())
        {
            if let Some(s) = conns.get_mut(slot) {
                *s = None;
                free.push(slot);
            }
        }
    }

    /// The live connections, strongly (a snapshot).
    fn live(&self) -> Vec<ConnRef> {
        self.conns
            .borrow()
            .iter()
            .flatten()
            .filter_map(Weak::upgrade)
            .collect()
    }
}

/// The server state of one interpreter (its extension).
pub struct Server {
    shared: Rc<Shared>,
    /// Open listeners: port and token (two per port where IPv6 and IPv4
    /// need separate sockets).
    listeners: Vec<(u16, Token)>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.shared.stats {
            eprintln!(
                "http: {} connections accepted, {} requests answered",
                self.shared.accepted.get(),
                self.shared.answered.get()
            );
        }
    }
}

/// The interpreter's server, created with its shutdown hook on first use.
fn server(it: &mut Interpreter) -> Result<Rc<Shared>, Trap> {
    if let Some(s) = it.ext::<Server>() {
        return Ok(Rc::clone(&s.shared));
    }
    let shared = Rc::new(Shared::new(it));
    it.set_ext(Server {
        shared: Rc::clone(&shared),
        listeners: Vec::new(),
    });
    it.event_loop()?.on_shutdown(Box::new(shutdown));
    Ok(shared)
}

/// The shutdown hook (see the module documentation).
fn shutdown(it: &mut Interpreter, _signal: i32) -> Result<Option<Duration>, Trap> {
    let Some(s) = it.ext_mut::<Server>() else {
        return Ok(None);
    };
    let shared = Rc::clone(&s.shared);
    let listeners = std::mem::take(&mut s.listeners);
    shared.shutting_down.set(true);
    let lp = it.event_loop()?;
    for (_, token) in listeners {
        lp.deregister(token);
    }
    for c in shared.live() {
        let idle = c.borrow().is_idle_http();
        if idle {
            let token = c.borrow().token();
            it.event_loop()?.deregister(token);
        } else if c.borrow_mut().ws().is_some() {
            c.borrow_mut()
                .ws_close(tungstenite::protocol::frame::coding::CloseCode::Away);
            conn::poke(it, &c)?;
        }
    }
    Ok(Some(shared.grace))
}

/// A listening socket registered with the loop.
struct Listener {
    socket: TcpListener,
    tls: Option<Arc<ServerConfig>>,
    shared: Rc<Shared>,
    /// `host:port` for requests without `Host`.
    local: Rc<str>,
    retry: Option<TimerId>,
}

impl SourceHandler for Listener {
    fn source(&mut self) -> Option<&mut dyn Source> {
        Some(&mut self.socket)
    }

    fn ready(&mut self, it: &mut Interpreter, token: Token, _r: Readiness) -> Result<Keep, Trap> {
        self.accept(it, token)
    }

    fn timer(&mut self, it: &mut Interpreter, token: Token, timer: TimerId) -> Result<Keep, Trap> {
        if self.retry == Some(timer) {
            self.retry = None;
        }
        self.accept(it, token)
    }
}

impl Listener {
    /// Accept every pending connection.
    fn accept(&mut self, it: &mut Interpreter, token: Token) -> Result<Keep, Trap> {
        loop {
            match self.socket.accept() {
                Ok((stream, _peer)) => self.adopt(it, stream)?,
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(Keep::Keep),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.raw_os_error() == Some(libc::ECONNABORTED) => {}
                Err(_) => {
                    // Out of descriptors or memory: try again shortly.
                    if self.retry.is_none() {
                        let id = it.event_loop()?.set_source_timer(
                            token,
                            Duration::from_millis(100),
                            None,
                        );
                        self.retry = Some(id);
                    }
                    return Ok(Keep::Keep);
                }
            }
        }
    }

    /// Register a new connection.
    fn adopt(&mut self, it: &mut Interpreter, stream: TcpStream) -> Result<(), Trap> {
        let _ = stream.set_nodelay(true);
        let fd = stream.as_raw_fd();
        let io = match &self.tls {
            Some(cfg) => match rustls::ServerConnection::new(Arc::clone(cfg)) {
                Ok(tls) => Io::tls(stream, tls),
                Err(_) => return Ok(()),
            },
            None => Io::Plain(stream),
        };
        self.shared.accepted.set(self.shared.accepted.get() + 1);
        let slot = self.shared.enroll();
        let c: ConnRef = Rc::new(RefCell::new(Conn::new(
            io,
            Rc::clone(&self.shared),
            slot,
            Rc::clone(&self.local),
        )));
        self.shared.conns.borrow_mut()[slot] = Some(Rc::downgrade(&c));
        if !conn::start(it, &c, self.shared.eager_read)? {
            return Ok(());
        }
        register(it, c, fd)
    }
}

/// Register a connection that lives on after its first drive with the
/// loop, then settle it. The token is known once registered; a refused
/// registration drops the connection (closing it).
fn register(it: &mut Interpreter, c: ConnRef, fd: std::os::fd::RawFd) -> Result<(), Trap> {
    let handler = Box::new(ConnSource::new(Rc::clone(&c), fd));
    if let Ok(token) = it.event_loop()?.register(handler, Interest::READABLE) {
        c.borrow_mut().set_token(token);
        if conn::settle(it, &c)? == Keep::Remove {
            it.event_loop()?.deregister(token);
        }
    }
    Ok(())
}

/// Serve a connection handed over by another thread (§20.9) as one of
/// this interpreter's own: its request goes to this interpreter's `on
/// request`, and the connection then lives in this loop (keep-alive and
/// all) until it ends.
pub fn adopt_handed(it: &mut Interpreter, h: conn::HandOff) -> Result<(), Trap> {
    let shared = server(it)?;
    let fd = h.stream.as_raw_fd();
    shared.accepted.set(shared.accepted.get() + 1);
    let slot = shared.enroll();
    let c: ConnRef = Rc::new(RefCell::new(Conn::new(
        Io::Plain(h.stream),
        Rc::clone(&shared),
        slot,
        Rc::from(h.local),
    )));
    shared.conns.borrow_mut()[slot] = Some(Rc::downgrade(&c));
    if !conn::resume(it, &c, &h.rest, h.request)? {
        return Ok(());
    }
    register(it, c, fd)
}

/// The addresses to listen on for `port` (see the module documentation).
fn addresses(port: u16) -> Result<Vec<SocketAddr>, ()> {
    match std::env::var("FESTINA_HTTP_HOST") {
        Ok(host) if !host.trim().is_empty() => {
            let host = host.trim().trim_start_matches('[').trim_end_matches(']');
            let ip: IpAddr = host.parse().map_err(|_| ())?;
            Ok(vec![SocketAddr::new(ip, port)])
        }
        _ => Ok(vec![
            SocketAddr::new(IpAddr::V6(Ipv6Addr::UNSPECIFIED), port),
            SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), port),
        ]),
    }
}

/// A listening socket on `addr`, dual-stack for `[::]`.
fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let domain = if addr.is_ipv6() {
        Domain::IPV6
    } else {
        Domain::IPV4
    };
    let socket = Socket::new(domain, Type::STREAM, Some(Protocol::TCP))?;
    if addr.is_ipv6() {
        socket.set_only_v6(!addr.ip().is_unspecified())?;
    }
    socket.set_reuse_address(true)?;
    socket.set_nonblocking(true)?;
    socket.bind(&addr.into())?;
    socket.listen(4096)?;
    Ok(TcpListener::from_std(socket.into()))
}

/// Open `port`, over TLS with `tls` (the silent no-ops of the module
/// documentation).
fn open(it: &mut Interpreter, port: i64, tls: Option<Arc<ServerConfig>>) -> Result<(), Trap> {
    let Ok(port) = u16::try_from(port) else {
        return Ok(());
    };
    if port == 0 {
        return Ok(());
    }
    let shared = server(it)?;
    if it
        .ext::<Server>()
        .is_some_and(|s| s.listeners.iter().any(|(p, _)| *p == port))
    {
        return Ok(());
    }
    let Ok(addrs) = addresses(port) else {
        return Ok(());
    };
    // The first address that binds: `[::]` covers IPv4 too.
    let Some((socket, addr)) = addrs.into_iter().find_map(|a| bind(a).ok().map(|s| (s, a))) else {
        return Ok(());
    };
    let local: Rc<str> = match addr.ip() {
        ip if ip.is_unspecified() => format!("127.0.0.1:{port}").into(),
        IpAddr::V6(ip) => format!("[{ip}]:{port}").into(),
        IpAddr::V4(ip) => format!("{ip}:{port}").into(),
    };
    let listener = Listener {
        socket,
        tls,
        shared,
        local,
        retry: None,
    };
    let Ok(token) = it
        .event_loop()?
        .register(Box::new(listener), Interest::READABLE)
    else {
        return Ok(());
    };
    if let Some(s) = it.ext_mut::<Server>() {
        s.listeners.push((port, token));
    }
    Ok(())
}

/// `openPort(port)`.
pub fn open_port(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let port = args.first().map_or(0, Value::as_int);
    open(it, port, None)?;
    Ok(Value::Null)
}

/// `openSecurePort(port, key)`: an unusable key is a runtime failure
/// (§19.8, §14.2), checked before the port.
pub fn open_secure_port(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let port = args.first().map_or(0, Value::as_int);
    let pem = args
        .get(1)
        .and_then(Value::as_handle::<crate::blob::BlobObj>)
        .map(|b| b.bytes().clone())
        .unwrap_or_default();
    let config = tls::server_config(&pem)
        .map_err(|e| Trap::Fail(format!("openSecurePort: {e} at {}", it.location())))?;
    open(it, port, Some(config))?;
    Ok(Value::Null)
}

/// `closePort(port)`.
pub fn close_port(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Ok(port) = u16::try_from(args.first().map_or(0, Value::as_int)) else {
        return Ok(Value::Null);
    };
    let tokens: Vec<Token> = match it.ext_mut::<Server>() {
        Some(s) => {
            let (gone, kept) = s.listeners.iter().partition(|(p, _)| *p == port);
            s.listeners = kept;
            gone.into_iter().map(|(_, t): (u16, Token)| t).collect()
        }
        None => return Ok(Value::Null),
    };
    if let Some(lp) = it.event_loop_if_started() {
        for t in tokens {
            lp.deregister(t);
        }
    }
    Ok(Value::Null)
}
