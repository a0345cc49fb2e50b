//! The client's per-thread state (§19.5): idle keep-alive connections
//! for reuse, the TLS configuration, the timeouts.
//!
//! # Ownership
//!
//! One [`ClientState`] per interpreter, in its extension store; an
//! interpreter is one OS thread (a Festina `thread` has its own), so
//! connections are reused per OS thread, as §19.5 says, and never cross
//! threads. The pool is an `Rc<RefCell<Pool>>` so that a request running
//! on the event loop (callback mode) can give its connection back when
//! it ends, from its source handler's `Drop`.
//!
//! # Reuse
//!
//! A connection goes back to the pool after a complete response that
//! allows it (HTTP/1.1 without `Connection: close`, a body not delimited
//! by the end of the connection, no stray bytes after it). A request to
//! the same scheme, host and port takes the most recently used idle
//! connection that has been idle less than [`MAX_IDLE`] and shows no
//! sign of being closed: a non-blocking peek at the socket that finds
//! neither the end of the stream nor unexpected bytes (a server that
//! closed the connection is noticed here, without sending anything).
//! A server may still close it in the moment between the check and the
//! request; `client.rs` then retries once when that is safe.
//!
//! The peek is made before every reuse, whatever the request. An
//! idempotent request on a connection the server closed would be retried
//! anyway, but bytes the server sent while the connection was idle (a
//! broken or hostile server's extra response) would otherwise be read as
//! the next request's response, and every later one would stay one
//! behind: in a proxy, one client would get another's answer. (Skipping
//! the peek for idempotent requests was an optimisation until a break
//! run showed exactly that; one `recv` with `MSG_PEEK` per reused request
//! is its price.) At most
//! [`MAX_IDLE_PER_HOST`] idle connections are kept per host and
//! [`MAX_IDLE_TOTAL`] in all (the oldest is closed first). Plain HTTP
//! and HTTPS connections are both reused.
//!
//! # Staying in the poll
//!
//! A request driven by the event loop (callback mode, or a parked
//! handler) registers its connection's socket with the loop's poll,
//! readable and writable, edge-triggered, under the token of its source
//! ([`ClientConn::registered`]). When the request ends, the connection
//! goes back to the pool still registered, and the next request that
//! takes it registers its source under the same token
//! (`EventLoop::register_under`), so a reused connection costs no
//! `epoll_ctl` at all (two per request before: an add and a delete). An
//! idle connection's readiness (the server closing it) reaches no source
//! and is ignored: the peek before reuse notices it. A source may see
//! readiness left over from the connection's previous request; it reads,
//! finds nothing, and waits again. When the token is taken (a parked
//! handler's next request, started while the source of its previous one
//! is still running), the socket moves to the new source's token with one
//! `epoll_ctl(MOD)`. A closed connection leaves the poll with its
//! descriptor. `FESTINA_NO_KEPT_REGISTRATION` deregisters every
//! connection when its request ends, as before.
//!
//! And since a registered socket reports the response's arrival, a
//! request written on a plain connection waits for readiness before its
//! first read, instead of trying a read that nearly always finds nothing
//! yet (the server has not answered in the microseconds since): one
//! `recv` less per request. A TLS connection reads at once (rustls may
//! hold data already taken from the socket). `FESTINA_NO_SEND_THEN_WAIT`
//! turns that off.
//!
//! # TLS
//!
//! rustls with the ring provider, certificate chain and host name
//! checked (webpki). The trusted roots are Mozilla's, compiled in
//! (`webpki-roots`): a program or bundle trusts the same authorities on
//! every machine, with no system certificate store needed. Certificates
//! in the PEM files named by `SSL_CERT_FILE` and `FESTINA_EXTRA_CA` are
//! trusted too (a company's own authority, a test's).
//!
//! # Knobs (environment, read once per interpreter)
//!
//! | variable | default | what |
//! |---|---|---|
//! | `FESTINA_HTTP_CONNECT_TIMEOUT_SECONDS` | 10 | the longest wait for a connection to open |
//! | `FESTINA_HTTP_TIMEOUT_SECONDS` | 30 | the longest a whole request may take, from `send()` to the end of the response |
//! | `FESTINA_EXTRA_CA`, `SSL_CERT_FILE` | -- | PEM files of extra trusted certificate authorities |

use super::io::Io;
use festina_vm::event_loop::Token;
use rustls::crypto::ring::default_provider;
use rustls::{ClientConfig, RootCertStore};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::CertificateDer;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest time an idle connection is kept for reuse.
pub const MAX_IDLE: Duration = Duration::from_secs(30);
/// Most idle connections kept for one scheme, host and port: a loop whose
/// request handlers are parked at the client (`park.rs`) has one request
/// in flight per connection it serves, and a proxy serving 50 client
/// connections should not reopen upstream connections beyond 8 of them.
pub const MAX_IDLE_PER_HOST: usize = 64;
/// Most idle connections kept in all.
pub const MAX_IDLE_TOTAL: usize = 256;

/// Where a connection goes: scheme, host (lowercased; an IPv6 address
/// without brackets) and port.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// `https://`.
    pub tls: bool,
    /// The host name or address.
    pub host: String,
    /// The port.
    pub port: u16,
}

/// An open client connection.
pub struct ClientConn {
    /// The stream (non-blocking).
    pub io: Io,
    /// Where it goes.
    pub key: Key,
    /// When it last went idle.
    pub idle_since: Instant,
    /// The token its socket is registered under with this thread's event
    /// loop (readable and writable, edge-triggered), `None` while it is
    /// not. It stays registered while idle in the pool (see "Staying in
    /// the poll" in the module documentation) and leaves the poll when it
    /// is closed.
    pub registered: Option<Token>,
}

impl ClientConn {
    /// Whether the connection looks usable: no end of stream and no
    /// unexpected bytes waiting (see the module documentation).
    fn looks_open(&self) -> bool {
        let mut b = [0u8; 1];
        matches!(self.io.tcp().peek(&mut b), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
    }
}

/// Idle connections; see the module documentation.
pub struct Pool {
    idle: Vec<ClientConn>,
    /// Response read buffers of finished requests, for the next ones
    /// (at most [`SPARE_BUFFERS`]; none with `FESTINA_NO_CLIENT_BUFFERS`).
    /// A fresh buffer is zeroed memory: 8 KiB zeroed and freed per request
    /// was a fifth of a proxied request's instructions.
    spare: Vec<Vec<u8>>,
    reuse_buffers: bool,
    /// Idle connections stay registered with the event loop (off:
    /// `FESTINA_NO_KEPT_REGISTRATION`; see the module documentation).
    pub keep_registered: bool,
    /// After a request is written on a plain connection, wait for
    /// readiness before the first read (off: `FESTINA_NO_SEND_THEN_WAIT`;
    /// see the module documentation).
    pub wait_after_send: bool,
    /// Connections opened so far (for the statistics line and tests).
    pub opened: u64,
    /// Requests that reused a connection.
    pub reused: u64,
}

impl Default for Pool {
    fn default() -> Pool {
        use festina_vm::switches::{self, disabled};
        Pool {
            idle: Vec::new(),
            spare: Vec::new(),
            reuse_buffers: !disabled(switches::NO_CLIENT_BUFFERS),
            keep_registered: !disabled(switches::NO_KEPT_REGISTRATION),
            wait_after_send: !disabled(switches::NO_SEND_THEN_WAIT),
            opened: 0,
            reused: 0,
        }
    }
}

/// Most spare response buffers a thread keeps.
pub const SPARE_BUFFERS: usize = 64;

impl Pool {
    /// A response read buffer from an earlier request (empty when there is
    /// none: the parser then makes one).
    pub fn buffer(&mut self) -> Vec<u8> {
        self.spare.pop().unwrap_or_default()
    }

    /// Keep `buf`, a finished request's read buffer, for a later one.
    pub fn recycle(&mut self, buf: Vec<u8>) {
        if self.reuse_buffers && !buf.is_empty() && self.spare.len() < SPARE_BUFFERS {
            self.spare.push(buf);
        }
    }

    /// An idle connection to `key` that looks usable (see the module
    /// documentation), taken out of the pool; stale ones met on the way
    /// are closed.
    pub fn take(&mut self, key: &Key) -> Option<ClientConn> {
        let now = Instant::now();
        while let Some(i) = self.idle.iter().rposition(|c| &c.key == key) {
            let c = self.idle.remove(i);
            if now.duration_since(c.idle_since) < MAX_IDLE && c.looks_open() {
                self.reused += 1;
                return Some(c);
            }
        }
        None
    }

    /// Keep `conn` for reuse (it is closed instead when the pool is
    /// full for its host).
    pub fn put(&mut self, mut conn: ClientConn) {
        conn.idle_since = Instant::now();
        let now = conn.idle_since;
        self.idle
            .retain(|c| now.duration_since(c.idle_since) < MAX_IDLE);
        if self.idle.iter().filter(|c| c.key == conn.key).count() >= MAX_IDLE_PER_HOST {
            let i = self.idle.iter().position(|c| c.key == conn.key);
            if let Some(i) = i {
                self.idle.remove(i);
            }
        }
        if self.idle.len() >= MAX_IDLE_TOTAL {
            self.idle.remove(0);
        }
        self.idle.push(conn);
    }

    /// Number of idle connections.
    pub fn idle(&self) -> usize {
        self.idle.len()
    }
}

/// The client state of one interpreter; see the module documentation.
pub struct ClientState {
    /// Idle connections.
    pub pool: Rc<RefCell<Pool>>,
    /// The TLS configuration, made on the first `https://` request.
    tls: Option<Arc<ClientConfig>>,
    /// The longest wait for a connection to open.
    pub connect_timeout: Duration,
    /// The longest a whole request may take.
    pub timeout: Duration,
}

impl Default for ClientState {
    fn default() -> ClientState {
        ClientState {
            pool: Rc::default(),
            tls: None,
            connect_timeout: seconds("FESTINA_HTTP_CONNECT_TIMEOUT_SECONDS", 10.0),
            timeout: seconds("FESTINA_HTTP_TIMEOUT_SECONDS", 30.0),
        }
    }
}

/// A duration in seconds from the environment variable `name`, or
/// `default` (positive and finite only; at most 10^6 s). The server's
/// timeouts are read by it too.
pub(super) fn seconds(name: &str, default: f64) -> Duration {
    let s = std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(default);
    Duration::from_secs_f64(s.min(1e6))
}

impl ClientState {
    /// The TLS configuration (made once). Errors: an extra certificate
    /// file that cannot be read or holds no certificate.
    pub fn tls(&mut self) -> Result<Arc<ClientConfig>, String> {
        if let Some(c) = &self.tls {
            return Ok(Arc::clone(c));
        }
        let mut roots = RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        for var in ["SSL_CERT_FILE", "FESTINA_EXTRA_CA"] {
            let Some(path) = std::env::var_os(var).filter(|p| !p.is_empty()) else {
                continue;
            };
            let shown = path.to_string_lossy().into_owned();
            let pem =
                std::fs::read(&path).map_err(|e| format!("{var}: cannot read {shown}: {e}"))?;
            let mut added = 0;
            for cert in CertificateDer::pem_slice_iter(&pem) {
                let cert = cert.map_err(|e| format!("{var}: {shown} is not valid PEM: {e}"))?;
                if roots.add(cert).is_ok() {
                    added += 1;
                }
            }
            if added == 0 {
                return Err(format!("{var}: {shown} holds no usable certificate"));
            }
        }
        let config = ClientConfig::builder_with_provider(Arc::new(default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS is not available: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let config = Arc::new(config);
        self.tls = Some(Arc::clone(&config));
        Ok(config)
    }
}
