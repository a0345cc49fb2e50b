//! Registered sources: listening sockets, connections, a window -- each a
//! [`SourceHandler`] under its own [`Token`].
//!
//! A handler owns its `mio` source (or has none: a window, woken by its
//! frame tick) and is given readiness events and its own timers with the
//! token it was registered under. While a handler runs it is taken out of
//! the table, so it may use the whole interpreter (call Festina code,
//! register other sources, arm timers); what is asked of its own token
//! meanwhile -- a new interest, its removal -- is recorded and applied
//! when it is put back. [`EventLoop::register`] never hands a token out
//! twice, so a readiness event left over from a removed source finds
//! nothing. The one exception is [`EventLoop::register_under`]: the owner
//! of a descriptor that stays registered after its source is gone (the
//! HTTP client's pooled connections, registered once for as long as they
//! live) registers the next source that uses it under the same token. That
//! source may then see readiness left over from the descriptor's earlier
//! use, and takes it in stride (a read that would block).
//!
//! Interest follows mio's `tcp_server` example: a connection is
//! registered readable; when its output cannot all be written at once it
//! asks for `READABLE | WRITABLE` (or `WRITABLE` alone, to stop reading
//! while its output drains) with [`EventLoop::reregister`], and for
//! `READABLE` again once the output is gone. A re-registration to the
//! interest a source already has costs nothing.

use super::timers::TimerId;
use super::{EventLoop, FIRST_SOURCE};
use crate::interp::Interpreter;
use crate::native::Trap;
use hashbrown::HashMap;
use mio::event::Source;
use mio::{Interest, Token};
use std::io;

/// Readiness of a registered source, as reported by one poll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Readiness {
    /// Data can be read (or a connection accepted).
    pub readable: bool,
    /// Data can be written.
    pub writable: bool,
    /// The peer closed its side, or the source reported an error.
    pub closed: bool,
}

/// What a [`SourceHandler`] wants after handling an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Stay registered.
    Keep,
    /// Deregister and drop the handler (and the source it owns), with the
    /// source's timers.
    Remove,
}

/// A source of events registered with the loop: a listening port, a
/// connection, a window. The handler owns its [`mio`] source. Every
/// method runs on the loop's thread, one handler at a time.
pub trait SourceHandler {
    /// The underlying source, for (de)registration; `None` for a handler
    /// that has no file descriptor and is woken only by its timers (a
    /// window's frame tick, [`EventLoop::set_frame_tick`]).
    fn source(&mut self) -> Option<&mut dyn Source>;

    /// Handle readiness of the source registered under `token`. The
    /// handler is taken out of the loop meanwhile, so it may use the whole
    /// interpreter; it changes its own interest with
    /// [`EventLoop::reregister`]`(token, ..)`. A `Trap` ends the event
    /// loop like a failure in a callback.
    fn ready(
        &mut self,
        it: &mut Interpreter,
        token: Token,
        readiness: Readiness,
    ) -> Result<Keep, Trap>;

    /// Timer `timer`, armed for this source with
    /// [`EventLoop::set_source_timer`] or [`EventLoop::set_frame_tick`],
    /// is due. The default does nothing.
    fn timer(&mut self, it: &mut Interpreter, token: Token, timer: TimerId) -> Result<Keep, Trap> {
        let _ = (it, token, timer);
        Ok(Keep::Keep)
    }

    /// Whether this source keeps the program alive (§12.2): a listening
    /// port, an open connection or a window does. Asked once, when the
    /// source is registered.
    fn keeps_alive(&self) -> bool {
        true
    }
}

/// A registered handler.
pub(super) struct SourceEntry {
    handler: Box<dyn SourceHandler>,
    /// The interest registered with the poll (`None`: no source).
    interest: Option<Interest>,
    /// Whether it keeps the program alive (asked at registration).
    alive: bool,
}

/// The handler running now, out of the table, and what was asked of its
/// token meanwhile.
struct Running {
    token: Token,
    interest: Option<Interest>,
    remove: bool,
}

/// The table of registered sources.
#[derive(Default)]
pub(super) struct Sources {
    map: HashMap<Token, SourceEntry>,
    next_token: usize,
    /// Number of entries (including the running one) that keep the
    /// program alive.
    alive: usize,
    running: Option<Running>,
}

impl Sources {
    pub(super) fn new(first: usize) -> Sources {
        Sources {
            next_token: first,
            ..Sources::default()
        }
    }

    /// Number of registered sources that keep the program alive.
    pub(super) fn alive(&self) -> usize {
        self.alive
    }

    /// Take the handler under `token` out of the table to run it.
    pub(super) fn begin(&mut self, token: Token) -> Option<SourceEntry> {
        let entry = self.map.remove(&token)?;
        self.running = Some(Running {
            token,
            interest: None,
            remove: false,
        });
        Some(entry)
    }
}

impl EventLoop {
    /// Register `handler`'s source for `interest` (ignored for a handler
    /// without a source); returns its token, never reused. Errors: the
    /// operating system refused the registration.
    pub fn register(
        &mut self,
        handler: Box<dyn SourceHandler>,
        interest: Interest,
    ) -> io::Result<Token> {
        let token = Token(self.sources.next_token);
        self.insert_source(token, handler, interest)?;
        self.sources.next_token += 1;
        Ok(token)
    }

    /// Register `handler`'s source (if it has one) under `token` and put
    /// the handler in the table.
    fn insert_source(
        &mut self,
        token: Token,
        mut handler: Box<dyn SourceHandler>,
        interest: Interest,
    ) -> io::Result<()> {
        let interest = match handler.source() {
            Some(src) => {
                self.poll.registry().register(src, token, interest)?;
                Some(interest)
            }
            None => None,
        };
        let alive = handler.keeps_alive();
        self.sources.alive += alive as usize;
        self.sources.map.insert(
            token,
            SourceEntry {
                handler,
                interest,
                alive,
            },
        );
        Ok(())
    }

    /// Register `handler` under `token`, which an earlier
    /// [`EventLoop::register`] (or [`EventLoop::next_token`]) handed out
    /// and whose source is gone: for the owner of a descriptor that stays
    /// registered under that token between sources (see the module
    /// documentation). Errors: the token is not free
    /// ([`EventLoop::token_free`]; `AlreadyExists`), or the operating
    /// system refused to register the handler's own source.
    pub fn register_under(
        &mut self,
        token: Token,
        handler: Box<dyn SourceHandler>,
        interest: Interest,
    ) -> io::Result<()> {
        if !self.token_free(token) {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "the token is in use",
            ));
        }
        self.insert_source(token, handler, interest)
    }

    /// Whether `token` was handed out and no source is registered under
    /// it (nor running under it), so that [`EventLoop::register_under`]
    /// may use it.
    pub fn token_free(&self, token: Token) -> bool {
        token.0 >= FIRST_SOURCE
            && token.0 < self.sources.next_token
            && !self.sources.map.contains_key(&token)
            && self
                .sources
                .running
                .as_ref()
                .is_none_or(|r| r.token != token)
    }

    /// The token the next [`EventLoop::register`] returns (tokens are
    /// never reused): for a handler without a source that registers its
    /// own descriptor, or arms its timers, before it is itself
    /// registered (the HTTP client starting a request at once).
    pub fn next_token(&self) -> Token {
        Token(self.sources.next_token)
    }

    /// Change the interest of the source under `token` to `interest`
    /// (read, write or both). From inside that source's own handler the
    /// change is applied when the handler returns. Unknown tokens (a
    /// source already removed) and sources without a file descriptor are
    /// ignored. Errors: the operating system refused the change.
    pub fn reregister(&mut self, token: Token, interest: Interest) -> io::Result<()> {
        if let Some(r) = &mut self.sources.running {
            if r.token == token {
                r.interest = Some(interest);
                return Ok(());
            }
        }
        let Some(entry) = self.sources.map.get_mut(&token) else {
            return Ok(());
        };
        set_interest(&self.poll, token, entry, interest)
    }

    /// The interest the source under `token` is registered with (for the
    /// running handler: what it asked for, else what it had); `None` for
    /// an unknown token or a source without a file descriptor.
    pub fn interest(&self, token: Token) -> Option<Interest> {
        if let Some(r) = &self.sources.running {
            if r.token == token {
                return r.interest;
            }
        }
        self.sources.map.get(&token)?.interest
    }

    /// Deregister and drop the source under `token`, with its timers
    /// (unknown: no-op). From inside that source's own handler the removal
    /// happens when the handler returns.
    pub fn deregister(&mut self, token: Token) {
        if let Some(r) = &mut self.sources.running {
            if r.token == token {
                r.remove = true;
                return;
            }
        }
        if let Some(entry) = self.sources.map.remove(&token) {
            self.drop_source(token, entry);
        }
    }

    /// Whether a source is registered under `token` (the running one
    /// included, unless it asked to be removed).
    pub fn has_source(&self, token: Token) -> bool {
        match &self.sources.running {
            Some(r) if r.token == token => !r.remove,
            _ => self.sources.map.contains_key(&token),
        }
    }

    /// The poll's registry, for a handler registered without a source
    /// that registers its own descriptors under its own token (the HTTP
    /// client, whose connection may change while a request runs: a
    /// second address, a retry). Such a handler deregisters them itself
    /// before it gives them away; a descriptor closed while registered
    /// leaves the poll by itself.
    pub fn registry(&self) -> &mio::Registry {
        self.poll.registry()
    }

    /// Number of registered sources.
    pub fn source_count(&self) -> usize {
        self.sources.map.len() + self.sources.running.is_some() as usize
    }

    /// Put the handler that ran under `token` back, applying what it
    /// returned and what was asked of it meanwhile.
    pub(super) fn finish_source(&mut self, token: Token, mut entry: SourceEntry, keep: Keep) {
        let asked = self.sources.running.take();
        debug_assert!(asked.as_ref().is_some_and(|r| r.token == token));
        let (interest, remove) = match asked {
            Some(r) => (r.interest, r.remove),
            None => (None, false),
        };
        if keep == Keep::Remove || remove {
            self.drop_source(token, entry);
            return;
        }
        if let Some(i) = interest {
            // A refused change leaves the old interest; the source keeps
            // being served with it.
            let _ = set_interest(&self.poll, token, &mut entry, i);
        }
        self.sources.map.insert(token, entry);
    }

    /// Deregister `entry`'s source and clear its timers.
    fn drop_source(&mut self, token: Token, mut entry: SourceEntry) {
        if let Some(src) = entry.handler.source() {
            let _ = self.poll.registry().deregister(src);
        }
        self.sources.alive -= entry.alive as usize;
        self.timers.clear_source(token);
    }
}

/// Re-register `entry`'s source for `interest` if that changes anything.
fn set_interest(
    poll: &mio::Poll,
    token: Token,
    entry: &mut SourceEntry,
    interest: Interest,
) -> io::Result<()> {
    if entry.interest.is_none() || entry.interest == Some(interest) {
        return Ok(());
    }
    if let Some(src) = entry.handler.source() {
        poll.registry().reregister(src, token, interest)?;
    }
    entry.interest = Some(interest);
    Ok(())
}

impl Interpreter {
    /// Run the handler of the source under `token` with `event` (its
    /// readiness, or one of its timers), then put it back as it asks. A
    /// source that is gone is skipped.
    pub(super) fn run_source(
        &mut self,
        token: Token,
        event: impl FnOnce(&mut dyn SourceHandler, &mut Interpreter) -> Result<Keep, Trap>,
    ) -> Result<(), Trap> {
        let Some(lp) = self.event_loop_if_started() else {
            return Ok(());
        };
        let Some(mut entry) = lp.sources.begin(token) else {
            return Ok(());
        };
        let result = event(&mut *entry.handler, self);
        let keep = match &result {
            Ok(k) => *k,
            Err(_) => Keep::Keep,
        };
        if let Some(lp) = self.event_loop_if_started() {
            lp.finish_source(token, entry, keep);
        }
        result.map(|_| ())
    }
}
