//! The event loop of one execution context (§12.1, §12.2, §12.4, §12.5,
//! §12.3 signals).
//!
//! # Design
//!
//! Every piece of main-program code runs on one OS thread, one piece at a
//! time (§12.1). After the entry function returns, [`Interpreter::run`]
//! calls [`Interpreter::run_event_loop`], which multiplexes every pending
//! source through **one** [`mio::Poll`] until nothing keeps the program
//! alive (§12.2), then the program exits with status 0.
//!
//! The loop state is an [`EventLoop`] owned by the [`Interpreter`] of its
//! thread (created lazily, on the first timer or background job, so a
//! program that never uses it pays nothing and keeps the operating
//! system's default signal behaviour). Nothing is global: a second
//! interpreter on another thread has its own loop.
//!
//! Sources, each under a fixed or allocated [`Token`]:
//!
//! | source | token | what it delivers |
//! |---|---|---|
//! | timer heap | none: the earliest deadline is the poll timeout | due `setTimeout`/`setInterval` callbacks |
//! | [`mio::Waker`] | [`WAKER`] | completions sent by worker threads (background loads; later thread replies and client requests) over an `mpsc` channel |
//! | signal pipe (`signal-hook-mio`) | [`SIGNALS`] | `SIGINT`/`SIGTERM` (POSIX) |
//! | registered sources | [`FIRST_SOURCE`] and up | any [`mio::event::Source`] wrapped in a [`SourceHandler`]: listening sockets, connections, a window's display connection |
//!
//! One iteration ([`Interpreter::run_event_loop`]):
//! 1. stop if nothing keeps the program alive: no timer, no job in flight,
//!    no registered source that [`SourceHandler::keeps_alive`];
//! 2. flush buffered stdout, then poll, with the time to the earliest
//!    timer deadline as the timeout (none: block until something is
//!    ready);
//! 3. a received signal ends the program like `close(128 + signal)`
//!    (`Trap::Exit`, so `on exit` runs first, §12.3);
//! 4. fire every timer due at the poll's return, in deadline order, equal
//!    deadlines in the order they were armed; a timer cleared by an
//!    earlier callback of the same round does not fire; an interval is
//!    re-armed one period after its previous deadline (or one period from
//!    now when the callback overran it, so a slow callback never causes a
//!    burst);
//! 5. run the continuation of every finished worker job, in completion
//!    order;
//! 6. give each ready registered source to its handler.
//!
//! A continuation or handler runs with the whole [`Interpreter`] at hand
//! (the loop is not borrowed meanwhile), so it may arm timers, start jobs
//! and register sources. Any [`Trap`] it returns ends the loop and goes
//! to `run`, which reports it like the entry function's: a `throw` that
//! escapes a callback ends the program like `fail` (§10.10).
//!
//! # Worker threads
//!
//! [`EventLoop::spawn_job`] hands a `Send` closure to a small pool of
//! worker threads (at most [`MAX_WORKERS`], started on demand). A worker
//! sends the closure's result back over the channel and wakes the poll;
//! the main thread then runs the job's continuation, which may hold
//! main-thread values (`Rc`s) because it never leaves the main thread.
//! If no worker thread can be started the job runs inline, so a job
//! always completes.
//!
//! # Signals
//!
//! When the loop is created (and signal handling was not switched off with
//! [`Interpreter::set_signal_handling`]), `SIGINT` and `SIGTERM` are routed
//! to the signal pipe. A second signal that arrives before the first was
//! handled (say, a callback stuck in an endless loop) exits the process at
//! once with `128 + signal`, without `on exit`, so a program can always be
//! interrupted.

use crate::interp::Interpreter;
use crate::native::Trap;
use mio::event::Source;
use mio::{Events, Interest, Poll, Registry, Token, Waker};
use std::any::Any;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::io;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Token of the waker that worker threads use.
pub const WAKER: Token = Token(0);
/// Token of the signal pipe.
pub const SIGNALS: Token = Token(1);
/// First token handed to a registered source.
pub const FIRST_SOURCE: usize = 2;
/// Most worker threads a loop starts for background jobs.
pub const MAX_WORKERS: usize = 4;
/// Shortest interval period: a `setInterval(f, 0)` ticks every
/// millisecond instead of spinning.
const MIN_INTERVAL: Duration = Duration::from_millis(1);
/// Longest delay honoured (about ten years); longer delays are clamped so
/// deadline arithmetic cannot overflow.
const MAX_DELAY_MS: i64 = 10 * 366 * 24 * 60 * 60 * 1000;

/// The result a worker job sends back to the main thread.
pub type JobResult = Box<dyn Any + Send>;
/// Work run on a worker thread.
pub type Work = Box<dyn FnOnce() -> JobResult + Send>;
/// What the main thread does with a finished job's result.
pub type Continuation = Box<dyn FnOnce(&mut Interpreter, JobResult) -> Result<(), Trap>>;

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
    /// Deregister and drop the handler (and the source it owns).
    Remove,
}

/// A source of events registered with the loop: a socket, a listening
/// port, a display connection. The handler owns its [`mio`] source.
pub trait SourceHandler {
    /// The underlying source, for (de)registration.
    fn source(&mut self) -> &mut dyn Source;
    /// Handle readiness on the main thread. The handler is taken out of
    /// the loop meanwhile, so it may use the whole interpreter.
    fn ready(&mut self, it: &mut Interpreter, readiness: Readiness) -> Result<Keep, Trap>;
    /// Whether this source keeps the program alive (§12.2): a listening
    /// port or an open connection does.
    fn keeps_alive(&self) -> bool {
        true
    }
}

/// One armed timer.
struct TimerEntry {
    func: u32,
    /// `Some(period)` for `setInterval`.
    period: Option<Duration>,
    /// Deadline of the current arming.
    deadline: Instant,
    /// Arming sequence number: orders equal deadlines and detects stale
    /// heap entries.
    seq: u64,
}

/// `setTimeout`/`setInterval` state: entries by id plus a min-heap of
/// `(deadline, seq, id)`; heap entries of cleared or re-armed timers are
/// skipped when they surface (and pruned when they pile up).
#[derive(Default)]
struct Timers {
    entries: HashMap<i64, TimerEntry>,
    heap: BinaryHeap<Reverse<(Instant, u64, i64)>>,
    next_id: i64,
    next_seq: u64,
}

impl Timers {
    fn arm(&mut self, id: i64, func: u32, deadline: Instant, period: Option<Duration>) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.entries.insert(
            id,
            TimerEntry {
                func,
                period,
                deadline,
                seq,
            },
        );
        self.heap.push(Reverse((deadline, seq, id)));
        if self.heap.len() > 64 + 2 * self.entries.len() {
            self.prune();
        }
    }

    /// Drop heap entries that no longer match an armed timer.
    fn prune(&mut self) {
        let entries = &self.entries;
        self.heap
            .retain(|Reverse((_, seq, id))| entries.get(id).is_some_and(|e| e.seq == *seq));
    }

    /// The earliest live deadline.
    fn next_deadline(&mut self) -> Option<Instant> {
        while let Some(Reverse((deadline, seq, id))) = self.heap.peek().copied() {
            if self.entries.get(&id).is_some_and(|e| e.seq == seq) {
                return Some(deadline);
            }
            self.heap.pop();
        }
        None
    }

    /// Pop the next timer due at or before `now`: its callback, re-arming
    /// an interval first.
    fn pop_due(&mut self, now: Instant) -> Option<u32> {
        let deadline = self.next_deadline()?;
        if deadline > now {
            return None;
        }
        let Reverse((_, _, id)) = self.heap.pop()?;
        let entry = self.entries.remove(&id)?;
        if let Some(period) = entry.period {
            let mut next = entry.deadline + period;
            let current = Instant::now();
            if next <= current {
                next = current + period;
            }
            self.arm(id, entry.func, next, Some(period));
        }
        Some(entry.func)
    }
}

/// A finished job, sent from a worker thread.
struct Completion {
    id: u64,
    result: JobResult,
}

/// Work queued for the worker pool.
struct Job {
    id: u64,
    work: Work,
}

/// The worker pool: a shared queue and the number of threads started.
struct Workers {
    queue: Option<mpsc::Sender<Job>>,
    shared_rx: Arc<Mutex<mpsc::Receiver<Job>>>,
    started: usize,
}

/// The event loop state of one interpreter; see the module documentation.
pub struct EventLoop {
    poll: Poll,
    events: Events,
    waker: Arc<Waker>,
    done_tx: mpsc::Sender<Completion>,
    done_rx: mpsc::Receiver<Completion>,
    workers: Workers,
    timers: Timers,
    jobs: HashMap<u64, Continuation>,
    next_job: u64,
    sources: HashMap<Token, Box<dyn SourceHandler>>,
    next_token: usize,
    #[cfg(unix)]
    signals: Option<signal_hook_mio::v1_0::Signals>,
}

impl std::fmt::Debug for EventLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventLoop")
            .field("timers", &self.timers.entries.len())
            .field("jobs", &self.jobs.len())
            .field("sources", &self.sources.len())
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
        let (done_tx, done_rx) = mpsc::channel();
        let (queue, rx) = mpsc::channel();
        #[cfg_attr(not(unix), allow(unused_mut))]
        let mut lp = EventLoop {
            poll,
            events: Events::with_capacity(256),
            waker,
            done_tx,
            done_rx,
            workers: Workers {
                queue: Some(queue),
                shared_rx: Arc::new(Mutex::new(rx)),
                started: 0,
            },
            timers: Timers {
                next_id: 1,
                ..Timers::default()
            },
            jobs: HashMap::new(),
            next_job: 0,
            sources: HashMap::new(),
            next_token: FIRST_SOURCE,
            #[cfg(unix)]
            signals: None,
        };
        #[cfg(unix)]
        if signals {
            lp.install_signals()?;
        }
        #[cfg(not(unix))]
        let _ = signals;
        Ok(lp)
    }

    /// Route `SIGINT`/`SIGTERM` to the poll, with the second-signal escape
    /// hatch described in the module documentation.
    #[cfg(unix)]
    fn install_signals(&mut self) -> io::Result<()> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let seen = Arc::new(AtomicBool::new(false));
        for sig in [SIGINT, SIGTERM] {
            // Order matters: the shutdown check runs before the flag is
            // set, so only a second signal exits at once.
            signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&seen))?;
            signal_hook::flag::register(sig, Arc::clone(&seen))?;
        }
        let mut signals = signal_hook_mio::v1_0::Signals::new([SIGINT, SIGTERM])?;
        self.poll
            .registry()
            .register(&mut signals, SIGNALS, Interest::READABLE)?;
        self.signals = Some(signals);
        Ok(())
    }

    /// True while something keeps the program alive (§12.2): an armed
    /// timer, a job whose continuation has not run, or a registered source
    /// that keeps it alive.
    pub fn alive(&self) -> bool {
        !self.timers.entries.is_empty()
            || !self.jobs.is_empty()
            || self.sources.values().any(|s| s.keeps_alive())
    }

    // ---- timers (§12.4) ----

    /// Arm a timer running function `func` after `delay_ms` milliseconds
    /// (negative counts as 0, more than about ten years counts as ten
    /// years), once or, with `repeat`, every `delay_ms` (at least 1 ms)
    /// until cleared. Returns its id: positive, unique for
    /// the life of the loop.
    pub fn set_timer(&mut self, func: u32, delay_ms: i64, repeat: bool) -> i64 {
        let delay = Duration::from_millis(delay_ms.clamp(0, MAX_DELAY_MS) as u64);
        let period = repeat.then(|| delay.max(MIN_INTERVAL));
        let id = self.timers.next_id;
        self.timers.next_id += 1;
        let deadline = Instant::now() + period.unwrap_or(delay);
        self.timers.arm(id, func, deadline, period);
        id
    }

    /// Cancel timer `id` (a timeout or an interval; unknown ids and ids
    /// already fired are ignored).
    pub fn clear_timer(&mut self, id: i64) {
        self.timers.entries.remove(&id);
    }

    /// Number of armed timers.
    pub fn timer_count(&self) -> usize {
        self.timers.entries.len()
    }

    // ---- worker jobs (§12.5) ----

    /// Run `work` on a worker thread; when it finishes, the loop runs
    /// `done` with its result on this thread. The job keeps the program
    /// alive until `done` has run.
    pub fn spawn_job(&mut self, work: Work, done: Continuation) {
        let id = self.next_job;
        self.next_job += 1;
        self.jobs.insert(id, done);
        let in_flight = self.jobs.len();
        if self.workers.started < MAX_WORKERS && self.workers.started < in_flight {
            self.start_worker();
        }
        let job = Job { id, work };
        let job = match (&self.workers.queue, self.workers.started) {
            (Some(q), n) if n > 0 => match q.send(job) {
                Ok(()) => return,
                Err(mpsc::SendError(job)) => job,
            },
            _ => job,
        };
        // No worker could be started: run it here; the result is picked up
        // like any other completion.
        let result = (job.work)();
        let _ = self.done_tx.send(Completion { id, result });
        let _ = self.waker.wake();
    }

    fn start_worker(&mut self) {
        let rx = Arc::clone(&self.workers.shared_rx);
        let tx = self.done_tx.clone();
        let waker = Arc::clone(&self.waker);
        let spawned = std::thread::Builder::new()
            .name("festina-worker".into())
            .spawn(move || loop {
                let job = match rx.lock() {
                    Ok(guard) => guard.recv(),
                    Err(_) => return,
                };
                let Ok(job) = job else { return };
                let result = (job.work)();
                if tx.send(Completion { id: job.id, result }).is_err() {
                    return;
                }
                let _ = waker.wake();
            });
        if spawned.is_ok() {
            self.workers.started += 1;
        }
    }

    /// Number of jobs whose continuation has not run yet.
    pub fn jobs_in_flight(&self) -> usize {
        self.jobs.len()
    }

    // ---- registered sources ----

    /// Register `handler`'s source for `interest`; returns its token.
    pub fn register(
        &mut self,
        mut handler: Box<dyn SourceHandler>,
        interest: Interest,
    ) -> io::Result<Token> {
        let token = Token(self.next_token);
        self.poll
            .registry()
            .register(handler.source(), token, interest)?;
        self.next_token += 1;
        self.sources.insert(token, handler);
        Ok(token)
    }

    /// Deregister and drop the source under `token` (unknown: no-op).
    pub fn deregister(&mut self, token: Token) {
        if let Some(mut h) = self.sources.remove(&token) {
            let _ = self.poll.registry().deregister(h.source());
        }
    }

    /// The registry, for a handler that changes its own interest.
    pub fn registry(&self) -> &Registry {
        self.poll.registry()
    }

    // ---- one iteration ----

    /// Wait for the next round of events (timeout: the earliest timer
    /// deadline) and sort them. Interrupted waits return an empty round.
    fn wait(&mut self) -> Result<Round, Trap> {
        let timeout = self
            .timers
            .next_deadline()
            .map(|d| d.saturating_duration_since(Instant::now()));
        match self.poll.poll(&mut self.events, timeout) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => self.events.clear(),
            Err(e) => return Err(Trap::Fail(format!("the event loop failed: {e}"))),
        }
        let mut round = Round {
            now: Instant::now(),
            signal: None,
            completions: Vec::new(),
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
        #[cfg(unix)]
        if check_signals {
            if let Some(s) = &mut self.signals {
                round.signal = s.pending().next();
            }
        }
        #[cfg(not(unix))]
        let _ = check_signals;
        while let Ok(c) = self.done_rx.try_recv() {
            round.completions.push(c);
        }
        Ok(round)
    }
}

/// What one poll delivered.
struct Round {
    /// When the poll returned: timers due by then fire this round.
    now: Instant,
    /// The first pending signal, if any.
    signal: Option<i32>,
    completions: Vec<Completion>,
    ready: Vec<(Token, Readiness)>,
}

impl Drop for EventLoop {
    fn drop(&mut self) {
        // Workers finish their current job and stop.
        self.workers.queue = None;
    }
}

impl Interpreter {
    /// Run the event loop until nothing keeps the program alive (§12.2).
    /// `Ok` means the program should exit with status 0; a `Trap` ends the
    /// program as the entry function's would (a signal arrives as
    /// `Trap::Exit(128 + signal)`, §12.3). Without a loop (no timer or job
    /// was ever started) this returns at once.
    pub fn run_event_loop(&mut self) -> Result<(), Trap> {
        loop {
            let Some(lp) = self.event_loop_if_started() else {
                return Ok(());
            };
            if !lp.alive() {
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
                return Err(Trap::Exit(128 + sig));
            }
            while let Some(func) = self
                .event_loop_if_started()
                .and_then(|l| l.timers.pop_due(round.now))
            {
                self.call_function(&crate::value::Value::Func(func), &[])?;
            }
            for c in round.completions {
                let done = self
                    .event_loop_if_started()
                    .and_then(|l| l.jobs.remove(&c.id));
                if let Some(done) = done {
                    done(self, c.result)?;
                }
            }
            for (token, readiness) in round.ready {
                let handler = self
                    .event_loop_if_started()
                    .and_then(|l| l.sources.remove(&token));
                let Some(mut handler) = handler else { continue };
                let keep = handler.ready(self, readiness);
                let lp = self.event_loop_if_started();
                match (keep, lp) {
                    (Ok(Keep::Keep), Some(lp)) => {
                        lp.sources.insert(token, handler);
                    }
                    (Ok(_), lp) => {
                        if let Some(lp) = lp {
                            let _ = lp.poll.registry().deregister(handler.source());
                        }
                    }
                    (Err(t), _) => return Err(t),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timers_fire_in_deadline_then_arming_order() {
        let mut t = Timers {
            next_id: 1,
            ..Timers::default()
        };
        let base = Instant::now();
        t.arm(1, 10, base + Duration::from_millis(5), None);
        t.arm(2, 20, base + Duration::from_millis(1), None);
        t.arm(3, 30, base + Duration::from_millis(5), None);
        t.arm(4, 40, base + Duration::from_millis(9), None);
        t.entries.remove(&4);
        let later = base + Duration::from_millis(50);
        let mut fired = Vec::new();
        while let Some(f) = t.pop_due(later) {
            fired.push(f);
        }
        assert_eq!(fired, vec![20, 10, 30]);
        assert!(t.entries.is_empty());
        assert_eq!(t.next_deadline(), None);
    }

    #[test]
    fn intervals_rearm_and_stale_entries_are_pruned() {
        let mut t = Timers::default();
        let base = Instant::now();
        t.arm(1, 7, base, Some(Duration::from_millis(1000)));
        assert_eq!(t.pop_due(base), Some(7));
        assert_eq!(t.entries.len(), 1);
        assert_eq!(t.pop_due(base), None);
        for i in 0..1000 {
            t.arm(100 + i, 1, base, None);
            t.entries.remove(&(100 + i));
        }
        assert!(t.heap.len() < 200, "{}", t.heap.len());
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
    }
}
