//! The event loop of one execution context (§12.1–§12.5).
//!
//! # Design
//!
//! Every piece of a Festina thread's code runs on one OS thread, one
//! piece at a time (§12.1). After the entry function returns,
//! [`Interpreter::run`] calls [`Interpreter::run_event_loop`], which
//! multiplexes every pending source through **one** [`mio::Poll`] until
//! nothing keeps the program alive (§12.2); the program then exits with
//! status 0.
//!
//! **Ownership and threads.** The loop state is an [`EventLoop`] owned by
//! the [`Interpreter`] of its thread, created on first use (the first
//! timer, job, source or mailbox), so a program that never uses it pays
//! nothing and keeps the operating system's default signal behaviour.
//! Nothing is global: a second interpreter on another thread (a Festina
//! `thread`) has its own loop. Everything in the loop runs on that one
//! thread except the worker threads of background jobs and the senders of
//! mailboxes, which reach it only through channels and the poll's
//! [`mio::Waker`]. Natives and the standard library's facilities reach
//! the loop through the interpreter's accessors
//! ([`Interpreter::event_loop`], [`Interpreter::event_loop_if_started`])
//! and keep their own per-interpreter state beside it
//! ([`Interpreter::ext_mut`], see `interp/extensions.rs`).
//!
//! **What the loop multiplexes**, one part per file:
//!
//! | part | file | how it wakes the poll | what it delivers | keeps the program alive |
//! |---|---|---|---|---|
//! | timers | `timers.rs` | the earliest deadline is the poll's timeout | due `setTimeout`/`setInterval` callbacks; source timers (idle timeouts) and frame ticks, given to their source's handler | `setTimeout`/`setInterval` timers do; source timers do not |
//! | jobs | `workers.rs` | [`WAKER`], from a worker thread | the continuation of a finished one-shot background job (§12.5) | while in flight |
//! | mailboxes | `mailbox.rs` | [`WAKER`], from any thread | each message of a long-lived channel to its handler (thread messages, client completions) | if opened so |
//! | sources | `sources.rs` | their file descriptor, under their own [`Token`] ([`FIRST_SOURCE`] and up) | readiness to a [`SourceHandler`], told its token; it may re-register its interest (read, write, both) | if the handler says so |
//! | signals | `signals.rs` | the signal pipe, under [`SIGNALS`] | `SIGINT`/`SIGTERM`: shutdown hooks, then the end of the program like `close(128 + signal)` | -- |
//!
//! A window, whose library exposes no file descriptor, is a source
//! without one, woken by a frame tick ([`EventLoop::set_frame_tick`]).
//!
//! **One iteration** ([`Interpreter::run_event_loop`]), a small state
//! machine -- *running* until a signal with shutdown hooks makes it
//! *draining* (see `signals.rs`):
//! 1. stop if nothing keeps the program alive: no `setTimeout`/
//!    `setInterval` timer, no job in flight, no mailbox or registered
//!    source that keeps it alive (draining: no source); draining also
//!    stops when the grace period is over;
//! 2. flush buffered stdout, then poll, with the time to the earliest
//!    timer deadline (or the end of the grace period) as the timeout
//!    (none: block until something is ready);
//! 3. a received signal runs the shutdown hooks or ends the program;
//! 4. the continuation of every finished job runs, in completion order;
//! 5. every mailbox with queued messages delivers them (a bounded batch
//!    each, in arrival order);
//! 6. each ready registered source is given to its handler;
//! 7. every timer due at the poll's return fires, in deadline order,
//!    equal deadlines in the order they were armed; a timer cleared by an
//!    earlier callback of the same round does not fire; a repeating timer
//!    is re-armed one period after its previous deadline (or one period
//!    from now when that has passed, so a slow callback never causes a
//!    burst).
//!
//! **What the poll reported, before the timers** (steps 4 to 6, then 7):
//! what the poll reports arrived while the previous round ran, and a
//! timer due at once was usually armed by that round's last callback
//! (a `setTimeout(frame, 0)` animation, an overdue frame tick), so it is
//! the later of the two. Serving the timers first made a request that
//! arrived during one frame wait for that frame *and* the next (1.5
//! frames on average instead of 0.5: `benches/RESULTS.md`, "Window: an
//! HTTP request beside an open window"). The switch
//! [`crate::switches::NO_READY_FIRST`] restores timers-first. Node.js
//! gets the same effect from its phase order (timers, then the poll's
//! I/O callbacks before the next timers).
//!
//! A callback, continuation, mailbox handler or source handler runs with
//! the whole [`Interpreter`] at hand (the loop is not borrowed meanwhile;
//! a running handler or mailbox is out of its table, and what is asked of
//! it meanwhile is applied when it returns), so it may arm timers, start
//! jobs, open mailboxes and register sources. Any [`Trap`] it returns
//! ends the loop and goes to `run`, which reports it like the entry
//! function's: a `throw` that escapes a callback ends the program like
//! `fail` (§10.10).

mod mailbox;
mod signals;
mod sources;
mod timers;
mod workers;

pub use mailbox::{MailboxId, MailboxSender, BATCH};
pub use mio::event::Source;
pub use mio::{Interest, Token};
pub use signals::ShutdownHook;
pub use sources::{Keep, Readiness, SourceHandler};
pub use timers::TimerId;
pub use workers::{Continuation, JobResult, Work, MAX_WORKERS};

use crate::interp::Interpreter;
use crate::native::Trap;
use mio::{Events, Poll, Waker};
use std::io;
use std::sync::Arc;
use std::time::Instant;

/// Token of the waker that worker threads and mailbox senders use.
pub const WAKER: Token = Token(0);
/// Token of the signal pipe.
pub const SIGNALS: Token = Token(1);
/// First token handed to a registered source.
pub const FIRST_SOURCE: usize = 2;

/// The event loop state of one interpreter; see the module documentation.
pub struct EventLoop {
    poll: Poll,
    events: Events,
    waker: Arc<Waker>,
    timers: timers::Timers,
    jobs: workers::Jobs,
    mailboxes: mailbox::Mailboxes,
    sources: sources::Sources,
    signals: signals::Signals,
    /// What the poll reported is handled before the due timers (off:
    /// [`crate::switches::NO_READY_FIRST`]; see the module documentation).
    ready_first: bool,
}

impl std::fmt::Debug for EventLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventLoop")
            .field("timers", &self.timers.calls())
            .field("jobs", &self.jobs.in_flight())
            .field("mailboxes", &self.mailbox_count())
            .field("sources", &self.source_count())
            .finish()
    }
}

impl EventLoop {
    /// A new loop: a poll, its waker, and (when `signals` is true, on
    /// POSIX) `SIGINT`/`SIGTERM` routed to it. Errors: the operating
    /// system refused a poll instance, the waker or the signal handlers.
    pub fn new(signals: bool) -> io::Result<EventLoop> {
        let poll = Poll::new()?;
        let waker = Arc::new(Waker::new(poll.registry(), WAKER)?);
        let mut lp = EventLoop {
            poll,
            events: Events::with_capacity(1024),
            waker,
            timers: timers::Timers::default(),
            jobs: workers::Jobs::new(),
            mailboxes: mailbox::Mailboxes::default(),
            sources: sources::Sources::new(FIRST_SOURCE),
            signals: signals::Signals::default(),
            ready_first: !crate::switches::disabled(crate::switches::NO_READY_FIRST),
        };
        if signals {
            lp.install_signals()?;
        }
        Ok(lp)
    }

    /// True while something keeps the program alive (§12.2): a
    /// `setTimeout`/`setInterval` timer, a job whose continuation has not
    /// run, or a mailbox or registered source that keeps it alive. During
    /// a graceful shutdown only the registered sources and the jobs count.
    pub fn alive(&self) -> bool {
        let sources = self.sources.alive() > 0 || self.jobs.in_flight() > 0;
        if self.signals.shutdown.is_some() {
            return sources;
        }
        sources || self.timers.calls() > 0 || self.mailboxes.alive() > 0
    }

    /// Wait for the next round of events (timeout: the earliest timer
    /// deadline, or the end of a grace period) and sort them. Interrupted
    /// waits return an empty round.
    fn wait(&mut self) -> Result<Round, Trap> {
        let mut deadline = self.timers.next_deadline();
        if let Some((_, end)) = self.signals.shutdown {
            deadline = Some(deadline.map_or(end, |d| d.min(end)));
        }
        let timeout = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        match self.poll.poll(&mut self.events, timeout) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => self.events.clear(),
            Err(e) => return Err(Trap::Fail(format!("the event loop failed: {e}"))),
        }
        let mut round = Round {
            now: Instant::now(),
            signal: None,
            completions: Vec::new(),
            mailboxes: Vec::new(),
            ready: Vec::new(),
        };
        let mut check_signals = false;
        for ev in self.events.iter() {
            match ev.token() {
                WAKER => {}
                SIGNALS => check_signals = true,
                t => round.ready.push((
                    t,
                    Readiness {
                        readable: ev.is_readable(),
                        writable: ev.is_writable(),
                        closed: ev.is_read_closed() || ev.is_write_closed() || ev.is_error(),
                    },
                )),
            }
        }
        if check_signals {
            round.signal = self.signals.pending();
        }
        // Completions and mailbox flags are read every round, woken or
        // not: a wake that raced the previous poll leaves them ready
        // without a fresh event.
        round.completions = self.jobs.completed();
        round.mailboxes = self.mailboxes.pending();
        Ok(round)
    }
}

/// What one poll delivered.
struct Round {
    /// When the poll returned: timers due by then fire this round.
    now: Instant,
    /// The first pending signal, if any.
    signal: Option<i32>,
    completions: Vec<workers::Completion>,
    mailboxes: Vec<MailboxId>,
    ready: Vec<(Token, Readiness)>,
}

impl Drop for EventLoop {
    fn drop(&mut self) {
        // Workers finish their current job and stop.
        self.jobs.close();
    }
}

impl Interpreter {
    /// Run the event loop until nothing keeps the program alive (§12.2).
    /// `Ok` means the program should exit with status 0; a `Trap` ends the
    /// program as the entry function's would (a signal arrives as
    /// `Trap::Exit(128 + signal)`, §12.3, after a graceful shutdown if
    /// hooks asked for one). Without a loop (no timer, job, mailbox or
    /// source was ever started) this returns at once.
    pub fn run_event_loop(&mut self) -> Result<(), Trap> {
        loop {
            let Some(lp) = self.event_loop_if_started() else {
                return Ok(());
            };
            if let Some((code, end)) = lp.signals.shutdown {
                if !lp.alive() || Instant::now() >= end {
                    return Err(Trap::Exit(code));
                }
            } else if !lp.alive() {
                return Ok(());
            }
            // Output produced so far appears before the program goes idle
            // (stdout to a pipe is block-buffered otherwise).
            self.flush_output();
            let Some(lp) = self.event_loop_if_started() else {
                return Ok(());
            };
            let round = lp.wait()?;
            if let Some(sig) = round.signal {
                self.handle_signal(sig)?;
            }
            let ready_first = self.event_loop_if_started().is_some_and(|l| l.ready_first);
            if !ready_first {
                self.fire_due_timers(round.now)?;
            }
            for c in round.completions {
                let done = self.event_loop_if_started().and_then(|l| l.jobs.take(c.id));
                if let Some(done) = done {
                    done(self, c.result)?;
                }
            }
            for id in round.mailboxes {
                self.run_mailbox(id)?;
            }
            for (token, readiness) in round.ready {
                self.run_source(token, |h, it| h.ready(it, token, readiness))?;
            }
            if ready_first {
                self.fire_due_timers(round.now)?;
            }
        }
    }

    /// Fire every timer due at `now` (step 7 of a round).
    fn fire_due_timers(&mut self, now: Instant) -> Result<(), Trap> {
        while let Some((id, action)) = self
            .event_loop_if_started()
            .and_then(|l| l.timers.pop_due(now))
        {
            match action {
                timers::TimerAction::Call(func) => {
                    self.call_function(&crate::value::Value::Func(func), &[])?;
                }
                timers::TimerAction::Wake(token) => {
                    self.run_source(token, |h, it| h.timer(it, token, id))?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source without a descriptor that keeps the program alive.
    struct Bare;

    impl SourceHandler for Bare {
        fn source(&mut self) -> Option<&mut dyn Source> {
            None
        }

        fn ready(&mut self, _: &mut Interpreter, _: Token, _: Readiness) -> Result<Keep, Trap> {
            Ok(Keep::Keep)
        }
    }

    #[test]
    fn a_token_is_registered_under_again_only_once_its_source_is_gone() {
        let mut lp = EventLoop::new(false).expect("poll");
        // Never handed out: refused.
        assert!(!lp.token_free(lp.next_token()));
        assert!(!lp.token_free(WAKER));
        let t = lp
            .register(Box::new(Bare), Interest::READABLE)
            .expect("register");
        assert!(lp.has_source(t) && lp.alive());
        assert!(!lp.token_free(t));
        let err = lp.register_under(t, Box::new(Bare), Interest::READABLE);
        assert_eq!(err.map_err(|e| e.kind()), Err(io::ErrorKind::AlreadyExists));
        lp.deregister(t);
        assert!(!lp.alive());
        assert!(lp.token_free(t));
        lp.register_under(t, Box::new(Bare), Interest::READABLE)
            .expect("a free token");
        assert!(lp.has_source(t) && lp.alive());
        // `register` still hands out fresh tokens.
        let u = lp
            .register(Box::new(Bare), Interest::READABLE)
            .expect("register");
        assert_ne!(t, u);
    }

    #[test]
    fn loop_without_work_is_not_alive() {
        let mut lp = EventLoop::new(false).expect("poll");
        assert!(!lp.alive());
        let id = lp.set_timer(0, 10, false);
        assert!(lp.alive());
        lp.clear_timer(id);
        assert!(!lp.alive());
        lp.clear_timer(12345);
        // A source timer alone does not keep the program alive, and a
        // program's clearTimeout cannot clear it.
        let t = lp.set_source_timer(Token(99), std::time::Duration::from_secs(1), None);
        assert!(!lp.alive());
        lp.clear_timer(t);
        assert!(lp.rearm_source_timer(t, std::time::Duration::from_secs(2)));
        lp.clear_source_timer(t);
        assert!(!lp.rearm_source_timer(t, std::time::Duration::from_secs(2)));
        let (id, _tx) = lp.open_mailbox(|_, _: u8| Ok(()), false);
        assert!(!lp.alive());
        lp.set_mailbox_keeps_alive(id, true);
        assert!(lp.alive());
        lp.close_mailbox(id);
        assert!(!lp.alive());
    }
}
