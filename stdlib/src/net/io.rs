//! A connection's byte stream: a plain TCP stream or TLS over one
//! (§19.8; the server's side of TLS, or the client's for `https://`,
//! §19.5), both non-blocking, behind one interface ([`Io`]) that the
//! HTTP side of a connection and tungstenite's WebSocket (which takes any
//! `Read + Write`) use alike.
//!
//! Every write reaches the socket through `send(2)` with `MSG_NOSIGNAL`
//! (what the standard library's `TcpStream::write` does on Linux), never
//! through `writev(2)`, so a peer that vanished makes a write fail with
//! `EPIPE` instead of raising `SIGPIPE`, which `festina` leaves at its
//! default (killing) action. [`NoSignal`] is the one writer handed to
//! rustls, whose vectored writes would otherwise use `writev`.
//!
//! With TLS, plaintext written is encrypted into rustls' buffer (bounded
//! by rustls' own limit: a write it cannot take is `WouldBlock`, so the
//! caller keeps its bytes) and sent as the socket takes it; reading
//! drives the handshake as needed. Readiness is edge-triggered, so a
//! TLS read is only known to have drained the socket when it says
//! `WouldBlock` ([`Io::drained`]).

use mio::net::TcpStream;
use mio::Interest;
use rustls::Connection;
use std::io::{self, Read, Write};
use std::net::Shutdown;

/// A writer over the socket that only ever uses `send(2)` (see the
/// module documentation).
pub struct NoSignal<'a>(pub &'a TcpStream);

impl Write for NoSignal<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut s = self.0;
        s.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A connection's stream; see the module documentation.
pub enum Io {
    /// Plain TCP.
    Plain(TcpStream),
    /// TLS over TCP.
    Tls(Box<TlsIo>),
}

/// TLS over a TCP stream.
pub struct TlsIo {
    tcp: TcpStream,
    tls: Connection,
    eof: bool,
}

impl Io {
    /// TLS over `tcp` with the server or client state `tls`.
    pub fn tls(tcp: TcpStream, tls: impl Into<Connection>) -> Io {
        Io::Tls(Box::new(TlsIo {
            tcp,
            tls: tls.into(),
            eof: false,
        }))
    }

    /// Drive a TLS handshake as far as the socket allows: `None` once it
    /// is complete (and for plain TCP), else the readiness to wait for.
    /// Errors: the peer closed the connection, or TLS failed (a bad
    /// certificate, a protocol error: `InvalidData` carrying rustls'
    /// error, after the alert rustls queued was sent).
    pub fn handshake(&mut self) -> io::Result<Option<Interest>> {
        let Io::Tls(t) = self else {
            return Ok(None);
        };
        loop {
            match t.flush_tls() {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    return Ok(Some(Interest::WRITABLE));
                }
                Err(e) => return Err(e),
            }
            if !t.tls.is_handshaking() {
                return Ok(None);
            }
            let mut tcp = &t.tcp;
            match t.tls.read_tls(&mut tcp) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the connection closed during the TLS handshake",
                    ))
                }
                Ok(_) => {
                    if let Err(e) = t.tls.process_new_packets() {
                        let _ = t.flush_tls();
                        return Err(io::Error::new(io::ErrorKind::InvalidData, e));
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    return Ok(Some(Interest::READABLE));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Whether this is plain TCP (no TLS layer that may hold data already
    /// read from the socket).
    pub fn is_plain(&self) -> bool {
        matches!(self, Io::Plain(_))
    }

    /// The TCP stream underneath.
    pub fn tcp(&self) -> &TcpStream {
        match self {
            Io::Plain(s) => s,
            Io::Tls(t) => &t.tcp,
        }
    }

    /// The TCP stream underneath, for (de)registration with a poll.
    pub fn tcp_mut(&mut self) -> &mut TcpStream {
        match self {
            Io::Plain(s) => s,
            Io::Tls(t) => &mut t.tcp,
        }
    }

    /// Whether this is a TLS stream.
    pub fn is_tls(&self) -> bool {
        matches!(self, Io::Tls(_))
    }

    /// Whether a read of `n` bytes into a buffer of `room` bytes proves
    /// that nothing more is waiting (plain TCP: a short read; TLS: never,
    /// only `WouldBlock` proves it).
    pub fn drained(&self, n: usize, room: usize) -> bool {
        match self {
            Io::Plain(_) => n < room,
            Io::Tls(_) => false,
        }
    }

    /// Whether encrypted bytes wait to be sent (TLS only).
    pub fn pending(&self) -> bool {
        match self {
            Io::Plain(_) => false,
            Io::Tls(t) => t.tls.wants_write(),
        }
    }

    /// Close the sending side (after a TLS close_notify), keeping the
    /// descriptor open: it is closed when the connection is dropped,
    /// after it left the event loop.
    pub fn shutdown_write(&mut self) {
        if let Io::Tls(t) = self {
            t.tls.send_close_notify();
            let _ = t.flush_tls();
        }
        let _ = self.tcp().shutdown(Shutdown::Write);
    }
}

impl TlsIo {
    /// Send what rustls holds, until done or the socket is full
    /// (`WouldBlock`).
    fn flush_tls(&mut self) -> io::Result<()> {
        while self.tls.wants_write() {
            match self.tls.write_tls(&mut NoSignal(&self.tcp)) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(_) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.tls.reader().read(buf) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                // The peer closed TCP without close_notify: the end all
                // the same.
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(0),
                Err(e) => return Err(e),
            }
            if self.eof {
                return Ok(0);
            }
            let mut tcp = &self.tcp;
            match self.tls.read_tls(&mut tcp) {
                Ok(0) => self.eof = true,
                Ok(_) => {
                    if let Err(e) = self.tls.process_new_packets() {
                        // Send the alert rustls queued, then fail.
                        let _ = self.flush_tls();
                        return Err(io::Error::new(io::ErrorKind::InvalidData, e));
                    }
                    // Handshake messages go out as soon as they exist.
                    match self.flush_tls() {
                        Ok(()) => {}
                        Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                        Err(e) => return Err(e),
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }

    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut n = self.tls.writer().write(buf)?;
        if n == 0 && !buf.is_empty() {
            // rustls' buffer is full: make room by sending.
            self.flush_tls()?;
            n = self.tls.writer().write(buf)?;
            if n == 0 {
                return Err(io::ErrorKind::WouldBlock.into());
            }
        }
        match self.flush_tls() {
            Ok(()) => Ok(n),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(n),
            Err(e) => Err(e),
        }
    }
}

/// The stream under an upgraded connection's WebSocket: the [`Io`] and
/// what the last reads proved. tungstenite reads until a read says
/// `WouldBlock`, which costs a `recv(2)` per message that only says "no
/// more"; readiness is edge-triggered, so a plain read shorter than the
/// buffer already proved the socket empty until the next readiness
/// report ([`WsIo::readable`]), and the next read answers `WouldBlock`
/// without asking the kernel. Not after readiness reported the peer's end
/// of input (which comes with no byte: reads go on until one returns
/// it), not for TLS (only `WouldBlock` proves it drained), and not with
/// `FESTINA_NO_DRAINED_SKIP`.
///
/// # The final read
/// Even a read answered without the kernel costs tungstenite a
/// zero-filled read buffer (4 KiB, see `ws.rs`) and its parsing steps, so
/// the connection asks whether a read can find anything at all
/// ([`WsIo::nothing_left`]): not when the socket is proved empty *and*
/// tungstenite's buffer holds no byte. The second is counted here: the
/// bytes handed to tungstenite minus those of the frames it returned, a
/// frame's size taken as its payload plus the shortest masked header
/// (6, 8 or 14 bytes). That is the size of a frame a client sends with
/// minimal length encoding; a longer encoding, a message in fragments or
/// a frame returned as anything but a data, ping or pong message make the
/// real count larger, never smaller, and the count is then no longer
/// trusted ([`WsIo::parsed`]): every read of that connection goes to
/// tungstenite, as with `FESTINA_NO_FINAL_READ`.
pub struct WsIo {
    /// The stream.
    pub io: Io,
    /// A short read proved the socket empty since the last readiness.
    drained: bool,
    /// Reads go to the kernel every time (end of input reported, or the
    /// switch set).
    every_read: bool,
    /// Bytes handed to tungstenite and not yet counted in a frame it
    /// returned (see "The final read").
    unparsed: usize,
    /// `unparsed` is exact: every frame so far was counted.
    counted: bool,
}

impl WsIo {
    /// `io` under a WebSocket, with `rest` bytes of input already read
    /// (handed to tungstenite with it); `skip` false keeps every read
    /// (`FESTINA_NO_DRAINED_SKIP`), `final_skip` false every read through
    /// tungstenite (`FESTINA_NO_FINAL_READ`).
    pub fn new(io: Io, skip: bool, final_skip: bool, rest: usize) -> WsIo {
        WsIo {
            io,
            drained: false,
            every_read: !skip,
            unparsed: rest,
            counted: final_skip,
        }
    }

    /// tungstenite returned a message: `Some(n)` for a data, ping or
    /// pong message of `n` payload bytes (counted as one frame of the
    /// shortest masked header), `None` for anything else, which makes the
    /// count no longer trusted.
    pub fn parsed(&mut self, payload: Option<usize>) {
        let Some(n) = payload else {
            self.counted = false;
            return;
        };
        let header = 6 + if n < 126 {
            0
        } else if n < 65_536 {
            2
        } else {
            8
        };
        match self.unparsed.checked_sub(n + header) {
            Some(left) => self.unparsed = left,
            // More than was read: the count is wrong, stop trusting it.
            None => self.counted = false,
        }
    }

    /// Whether a read through tungstenite now is certain to find nothing
    /// (see "The final read"): the socket is proved empty and every byte
    /// read was a frame already returned.
    pub fn nothing_left(&self) -> bool {
        self.counted && self.drained && !self.every_read && self.unparsed == 0
    }

    /// Readiness reported the socket readable (`closed`: its peer's end
    /// of input, or an error, too).
    pub fn readable(&mut self, closed: bool) {
        self.drained = false;
        self.every_read |= closed;
    }
}

impl Read for WsIo {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.drained && !buf.is_empty() {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        let n = self.io.read(buf)?;
        self.unparsed = self.unparsed.saturating_add(n);
        if n > 0 && !self.every_read && self.io.drained(n, buf.len()) {
            self.drained = true;
        }
        Ok(n)
    }
}

impl Write for WsIo {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.io.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.io.flush()
    }
}

impl Read for Io {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Io::Plain(s) => s.read(buf),
            Io::Tls(t) => t.read(buf),
        }
    }
}

impl Write for Io {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Io::Plain(s) => NoSignal(s).write(buf),
            Io::Tls(t) => t.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Io::Plain(_) => Ok(()),
            Io::Tls(t) => t.flush_tls(),
        }
    }
}
