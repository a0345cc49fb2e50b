//! `SIGINT` and `SIGTERM` (§12.3).
//!
//! When the loop is created (and signal handling was not switched off
//! with [`Interpreter::set_signal_handling`]), both signals are routed to
//! a pipe registered with the poll under [`super::SIGNALS`]. What a
//! signal does:
//!
//! - with no shutdown hook, it ends the program at once like
//!   `close(128 + signal)` (`Trap::Exit`, so `on exit` runs first);
//! - with hooks ([`EventLoop::on_shutdown`]; an HTTP server closes its
//!   listeners in one), every hook runs once, in the order added, and
//!   says how long it needs for the work already in flight (open
//!   connections finishing their responses). The program then ends like
//!   `close(128 + signal)` as soon as no registered source keeps it alive
//!   (timers and mailboxes no longer do; they still run meanwhile), or
//!   when the longest grace period asked for has passed, whichever comes
//!   first;
//! - a second signal that arrives before the first was handled, or
//!   during the grace period (a callback stuck in an endless loop, an
//!   impatient user), exits the process at once with `128 + signal`,
//!   without `on exit`, so a program can always be interrupted.
//!
//! The handlers are process-wide (that is how signals work); the loop
//! removes its own when it is dropped. While a loop has them, the stdout
//! watchdog ([`crate::stdout`]), which otherwise writes the buffered
//! output and then lets these signals end the program, leaves them to the
//! loop ([`crate::stdout::loop_takes_signals`]).
//!
//! [`Interpreter::set_signal_handling`]: crate::interp::Interpreter::set_signal_handling

use super::EventLoop;
use crate::interp::Interpreter;
use crate::native::Trap;
use std::io;
use std::time::{Duration, Instant};

/// A shutdown hook: runs once when `SIGINT`/`SIGTERM` arrives (with the
/// signal's number) and gives the grace period it needs, if any.
pub type ShutdownHook = Box<dyn FnOnce(&mut Interpreter, i32) -> Result<Option<Duration>, Trap>>;

/// The signal pipe, the process-wide registrations to undo on drop, the
/// hooks, and the state of a shutdown in progress.
#[derive(Default)]
pub(super) struct Signals {
    #[cfg(unix)]
    pipe: Option<signal_hook_mio::v1_0::Signals>,
    #[cfg(unix)]
    ids: Vec<signal_hook::SigId>,
    hooks: Vec<ShutdownHook>,
    /// Set once a signal started a graceful shutdown: the exit status and
    /// the end of the grace period.
    pub(super) shutdown: Option<(i32, Instant)>,
    /// Whether this loop told the stdout watchdog that it handles the
    /// signals ([`crate::stdout::loop_takes_signals`]).
    taken: bool,
    /// Set (by the signal handler) once `SIGINT`/`SIGTERM` has arrived.
    #[cfg(unix)]
    seen: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Signals {
    /// The first signal received since the last look, if any.
    pub(super) fn pending(&mut self) -> Option<i32> {
        #[cfg(unix)]
        if let Some(p) = &mut self.pipe {
            return p.pending().next();
        }
        None
    }
}

impl Drop for Signals {
    fn drop(&mut self) {
        #[cfg(unix)]
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
        if self.taken {
            crate::stdout::loop_takes_signals(false);
        }
    }
}

impl EventLoop {
    /// Route `SIGINT`/`SIGTERM` to the poll, with the second-signal escape
    /// hatch described in the module documentation.
    #[cfg(unix)]
    pub(super) fn install_signals(&mut self) -> io::Result<()> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        use std::sync::atomic::AtomicBool;
        use std::sync::Arc;
        // From now on the stdout watchdog, which flushes and ends a
        // program without a loop on these signals, leaves them to us.
        crate::stdout::loop_takes_signals(true);
        self.signals.taken = true;
        let seen = Arc::new(AtomicBool::new(false));
        for sig in [SIGINT, SIGTERM] {
            // Order matters: the shutdown check runs before the flag is
            // set, so only a second signal exits at once.
            let id = signal_hook::flag::register_conditional_shutdown(
                sig,
                128 + sig,
                Arc::clone(&seen),
            )?;
            self.signals.ids.push(id);
            self.signals
                .ids
                .push(signal_hook::flag::register(sig, Arc::clone(&seen))?);
        }
        let mut pipe = signal_hook_mio::v1_0::Signals::new([SIGINT, SIGTERM])?;
        self.poll
            .registry()
            .register(&mut pipe, super::SIGNALS, mio::Interest::READABLE)?;
        self.signals.pipe = Some(pipe);
        self.signals.seen = Some(seen);
        Ok(())
    }

    /// Without POSIX signals there is nothing to route.
    #[cfg(not(unix))]
    pub(super) fn install_signals(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// Add a hook that runs when `SIGINT`/`SIGTERM` arrives, before the
    /// program ends, and may ask for a grace period (see the module
    /// documentation). Hooks run once, in the order added.
    pub fn on_shutdown(&mut self, hook: ShutdownHook) {
        self.signals.hooks.push(hook);
    }

    /// Whether `SIGINT`/`SIGTERM` has arrived and the loop has not handled
    /// it yet: a source serving a batch of work (a connection's pipelined
    /// requests) returns to the loop, so that the shutdown and its grace
    /// period start now rather than after the whole batch. One atomic
    /// load.
    pub fn signal_waiting(&self) -> bool {
        #[cfg(unix)]
        if let Some(seen) = &self.signals.seen {
            return self.signals.shutdown.is_none()
                && seen.load(std::sync::atomic::Ordering::Relaxed);
        }
        false
    }

    /// Whether a graceful shutdown is in progress.
    pub fn shutting_down(&self) -> bool {
        self.signals.shutdown.is_some()
    }
}

impl Interpreter {
    /// Handle signal `sig`: with no hook, end the program at once like
    /// `close(128 + sig)`; otherwise run the hooks and start the grace
    /// period they ask for (none: end at once too).
    pub(super) fn handle_signal(&mut self, sig: i32) -> Result<(), Trap> {
        let code = 128 + sig;
        let hooks = match self.event_loop_if_started() {
            Some(lp) if lp.signals.shutdown.is_none() => std::mem::take(&mut lp.signals.hooks),
            // Already shutting down: the second-signal handler exits the
            // process; this is reached only if it raced the pipe.
            _ => return Err(Trap::Exit(code)),
        };
        if hooks.is_empty() {
            return Err(Trap::Exit(code));
        }
        let mut grace = Duration::ZERO;
        for hook in hooks {
            if let Some(g) = hook(self, sig)? {
                grace = grace.max(g);
            }
        }
        if grace.is_zero() {
            return Err(Trap::Exit(code));
        }
        if let Some(lp) = self.event_loop_if_started() {
            lp.signals.shutdown = Some((code, Instant::now() + grace));
        }
        Ok(())
    }
}
