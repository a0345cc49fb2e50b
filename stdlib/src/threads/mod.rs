//! Threads, pools and messages (§20): one OS thread and one
//! [`Interpreter`] per Festina thread instance, sharing nothing but the
//! immutable program; values cross only as deep copies ([`Transfer`]).
//!
//! # Design
//!
//! **Who owns what.**
//! - The compiled program is shared (`Arc<Program>`); each instance runs
//!   its own interpreter ([`Interpreter::sibling`] →
//!   [`festina_vm::interp::Sibling::load`]) with its own heap, its own
//!   globals (a thread's private state lives in global slots that only
//!   its own code reads, so every pool instance has its own copy) and its
//!   own event loop, which never takes signals.
//! - [`System`] (`Arc`, `Send + Sync`) is the one shared table: per
//!   declared thread its [`Decl`] (instance count, function indexes of
//!   its init and handlers) and per instance a [`Slot`]: the sender of
//!   the instance's inbox (a mailbox of its loop, `None` while stopped),
//!   `alive`, the sent/processed message counters behind `drain()`, the
//!   join handle. Also the main program's inbox sender and `busy`, the
//!   count of units of work anywhere (queued or running messages and
//!   replies, running `on load`s).
//! - Every interpreter holds a [`Ctx`] extension: the `Arc<System>` and
//!   which instance it is (`None` for main). Main's `Ctx` owns the
//!   shutdown: when it is dropped (interpreter teardown, at program end,
//!   `close` or a failure) every live instance is killed (its `on
//!   exit(0)` runs) and joined.
//!
//! **Messages.** An [`Envelope`] goes into the receiver's mailbox
//! (`festina_vm::event_loop::MailboxSender`: a channel plus the loop's
//! waker, so delivery is event-driven and one sender's order is kept):
//! - `Message`: from main or an instance, the [`Transfer`] and the
//!   sender's callback (a function index) when the send chained
//!   `.callback(fn)`; delivered to `on message(worker, msg)` with a
//!   `worker` handle ([`Worker`]) that can `reply` once, only while the
//!   handler runs.
//! - `Reply`: the answer and the callback; delivered on the sender's own
//!   thread (main's, or the sending worker's, §20.4).
//! - `Kill`: the last envelope an instance ever receives (its sender is
//!   taken out of the slot first); envelopes queued before it are dropped
//!   unprocessed, then `on exit(0)` runs and the loop ends.
//! - `Idle` (main only): `busy` reached zero; main re-checks whether its
//!   inbox keeps the program alive.
//!
//! **Liveness** (§12.2, §20.2). Main's inbox keeps the program alive
//! while `busy > 0`: a thread that has work (messages, replies, a load)
//! keeps the program running; threads that all idle do not, and the
//! program ends when main's work ends (then every thread is killed, `on
//! exit(0)` first). Instances keep their own loop alive until killed.
//!
//! **Pools** (§20.6): a send without an index goes to the first idle
//! instance (sent == processed) after a round-robin cursor, else to the
//! cursor's instance; it never blocks.
//!
//! **Failures** (§20.2, §14): an uncaught failure or throw in an
//! instance is reported like the main program's (`fail: ...` and the
//! stack on stderr) and ends the whole process with status 1, as the
//! reference does.

mod transfer;

pub use transfer::{Transfer, MAX_DEPTH};

use festina_vm::event_loop::{MailboxId, MailboxSender};
use festina_vm::interp::{Interpreter, Sibling};
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::{Handle, Value};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// A declared thread (§20.1): what `thread_declare` gives.
#[derive(Clone, Debug)]
pub struct Decl {
    /// Instances: 1 for `thread NAME`, N for a pool.
    pub instances: usize,
    /// The function that initializes the private state.
    pub init: u32,
    /// `on load()`, `on message(worker, msg)`, `on exit(code)`.
    pub load: Option<u32>,
    /// See [`Decl::load`].
    pub message: Option<u32>,
    /// See [`Decl::load`].
    pub exit: Option<u32>,
    /// The HTTP handlers (§20.8): `request`, `upgrade`, `socketMessage`,
    /// `socketClose`, for the instance's own server.
    pub http: [Option<u32>; 4],
}

/// A unit of work of a thread instance held while a request handler of
/// its is parked at the client (`net::park`): main's inbox keeps the
/// program alive meanwhile (§20.2, "Liveness" above), as it would while
/// the handler ran. Ends when dropped (the handler finished, or its
/// wait was dropped with the thread's loop).
pub struct WorkUnit(Arc<System>);

impl Drop for WorkUnit {
    fn drop(&mut self) {
        self.0.end();
    }
}

/// A [`WorkUnit`] when this interpreter is a thread instance; `None` for
/// main, whose own loop keeps the program alive while a source waits.
pub fn work_unit(it: &Interpreter) -> Option<WorkUnit> {
    let ctx = it.ext::<Ctx>()?;
    if !matches!(ctx.me, Party::Instance(..)) {
        return None;
    }
    ctx.sys.begin();
    Some(WorkUnit(Arc::clone(&ctx.sys)))
}

/// The functions that run before this interpreter's handlers do: a
/// thread instance's initializer and `on load` (§20.2), or main's entry
/// function (§6.3). What they write is settled before any handler runs
/// (`festina_vm::interleave`).
pub fn startup_functions(it: &Interpreter) -> Vec<u32> {
    if let Some(Ctx {
        sys,
        me: Party::Instance(t, _),
        ..
    }) = it.ext::<Ctx>()
    {
        if let Some(d) = sys.decls.get(*t as usize) {
            return std::iter::once(d.init).chain(d.load).collect();
        }
    }
    vec![it.program().entry]
}

/// The event names of [`Decl::http`], in order.
const HTTP_EVENTS: [&str; 4] = ["request", "upgrade", "socketMessage", "socketClose"];

/// Who sent a message: main, or instance `(thread, index)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Party {
    /// The main program.
    Main,
    /// Instance `.1` of declared thread `.0`.
    Instance(u32, u32),
}

/// What goes into an inbox; see the module documentation.
pub enum Envelope {
    /// A message for `on message`.
    Message {
        /// The sender.
        from: Party,
        /// The deep copy.
        msg: Transfer,
        /// The sender's callback for a reply.
        callback: Option<u32>,
    },
    /// A reply, for the callback on the sender's thread.
    Reply {
        /// The callback (a function index).
        callback: u32,
        /// The answer.
        value: Transfer,
    },
    /// A live HTTP connection handed over by `giveRequest` (§20.9): the
    /// network facility's `HandOff`, served by the instance's own server,
    /// with the function that serves it (the network facility's, passed
    /// along so that this module, which is core, never names the network
    /// code: a runtime without the network links none of it).
    Connection(Box<dyn std::any::Any + Send>, Adopter),
    /// Stop the instance (after dropping what is queued).
    Kill,
    /// `busy` reached zero (main only).
    Idle,
}

/// One instance's shared state.
#[derive(Default)]
pub struct Slot {
    inbox: Mutex<Option<MailboxSender<Envelope>>>,
    alive: AtomicBool,
    killed: AtomicBool,
    /// Messages sent to the instance (under the inbox lock).
    sent: AtomicUsize,
    /// Messages processed or dropped, with its condition for `drain()`.
    done: Mutex<usize>,
    done_cv: Condvar,
    join: Mutex<Option<JoinHandle<()>>>,
}

/// The shared table of every thread of the program.
pub struct System {
    decls: Vec<Decl>,
    slots: Vec<Vec<Arc<Slot>>>,
    cursors: Vec<AtomicUsize>,
    main: Mutex<Option<MailboxSender<Envelope>>>,
    busy: AtomicUsize,
    sibling: Sibling,
}

/// The per-interpreter extension: the system and who this is.
pub struct Ctx {
    sys: Arc<System>,
    me: Party,
    /// Main only: its inbox.
    main_box: Option<MailboxId>,
}

/// Main's declarations before `thread_start` (an extension).
#[derive(Default)]
struct Pending(Vec<Decl>);

impl System {
    fn slot(&self, tid: u32, idx: u32) -> Option<&Arc<Slot>> {
        self.slots.get(tid as usize)?.get(idx as usize)
    }

    /// One unit of work more.
    fn begin(&self) {
        self.busy.fetch_add(1, Ordering::AcqRel);
    }

    /// One unit of work less; at zero, tell main.
    fn end(&self) {
        if self.busy.fetch_sub(1, Ordering::AcqRel) == 1 {
            if let Ok(g) = self.main.lock() {
                if let Some(tx) = g.as_ref() {
                    let _ = tx.send(Envelope::Idle);
                }
            }
        }
    }

    /// Send `env` to `to`; a message counts as work until processed.
    /// Sends to a stopped instance or a closed inbox are dropped.
    fn send(&self, to: Party, env: Envelope) {
        let counts = matches!(
            env,
            Envelope::Message { .. } | Envelope::Reply { .. } | Envelope::Connection(..)
        );
        let is_msg = matches!(env, Envelope::Message { .. } | Envelope::Connection(..));
        match to {
            Party::Main => {
                let Ok(g) = self.main.lock() else { return };
                if let Some(tx) = g.as_ref() {
                    if counts {
                        self.begin();
                    }
                    if tx.send(env).is_err() && counts {
                        self.end();
                    }
                }
            }
            Party::Instance(t, i) => {
                let Some(slot) = self.slot(t, i) else { return };
                let Ok(g) = slot.inbox.lock() else { return };
                if let Some(tx) = g.as_ref() {
                    if counts {
                        self.begin();
                    }
                    if is_msg {
                        slot.sent.fetch_add(1, Ordering::AcqRel);
                    }
                    if tx.send(env).is_err() {
                        if counts {
                            self.end();
                        }
                        if is_msg {
                            slot.processed();
                        }
                    }
                }
            }
        }
    }

    /// The instance a send without an index goes to (§20.6).
    fn route(&self, tid: u32) -> u32 {
        let n = self.slots.get(tid as usize).map_or(0, Vec::len);
        if n <= 1 {
            return 0;
        }
        let start = self.cursors[tid as usize].fetch_add(1, Ordering::Relaxed) % n;
        for k in 0..n {
            let i = (start + k) % n;
            let s = &self.slots[tid as usize][i];
            if s.alive.load(Ordering::Acquire) && s.is_idle() {
                return i as u32;
            }
        }
        start as u32
    }
}

impl Slot {
    fn is_idle(&self) -> bool {
        let done = self.done.lock().map_or(0, |d| *d);
        self.sent.load(Ordering::Acquire) <= done
    }

    fn processed(&self) {
        if let Ok(mut d) = self.done.lock() {
            *d += 1;
        }
        self.done_cv.notify_all();
    }
}

/// The `worker` of `on message(worker:thread, msg)` (§8.17, §20.4): who
/// sent the message and, while the handler runs, how to answer it once.
pub struct Worker {
    from: Party,
    callback: Option<u32>,
    /// Cleared by the first reply and when the handler returns (a stashed
    /// `thread` value replies to nothing).
    can_reply: Cell<bool>,
}

impl Handle for Worker {
    fn type_name(&self) -> &'static str {
        "thread"
    }
}

fn ctx(it: &Interpreter) -> Result<&Ctx, Trap> {
    it.ext::<Ctx>()
        .ok_or_else(|| Trap::Fail("threads are not running".to_string()))
}

fn func_arg(v: &Value) -> Option<u32> {
    match v {
        Value::Func(f) => Some(*f),
        _ => None,
    }
}

/// `thread_declare(tid, instances, init, load, message, exit, request,
/// upgrade, socketMessage, socketClose)`: record a declared thread (in
/// `tid` order) before `thread_start`.
fn thread_declare(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let decl = Decl {
        instances: a[1].as_int().max(0) as usize,
        init: func_arg(&a[2]).unwrap_or(0),
        load: func_arg(&a[3]),
        message: func_arg(&a[4]),
        exit: func_arg(&a[5]),
        http: [
            a.get(6).and_then(func_arg),
            a.get(7).and_then(func_arg),
            a.get(8).and_then(func_arg),
            a.get(9).and_then(func_arg),
        ],
    };
    it.ext_or_insert_with(Pending::default).0.push(decl);
    Ok(Value::Null)
}

/// `thread_start()`: open main's inbox and start every declared instance
/// (§20.2: before the first top-level statement); returns once each has
/// its inbox, so that messages sent from here on are queued for it.
fn thread_start(it: &mut Interpreter, _: &[Value]) -> Result<Value, Trap> {
    let decls = it.take_ext::<Pending>().map(|p| p.0).unwrap_or_default();
    let slots = decls
        .iter()
        .map(|d| {
            (0..d.instances)
                .map(|_| Arc::new(Slot::default()))
                .collect()
        })
        .collect();
    let sys = Arc::new(System {
        cursors: decls.iter().map(|_| AtomicUsize::new(0)).collect(),
        decls,
        slots,
        main: Mutex::new(None),
        busy: AtomicUsize::new(0),
        sibling: it.sibling(),
    });
    let lp = it.event_loop()?;
    let (id, tx) = lp.open_mailbox(main_envelope, false);
    if let Ok(mut g) = sys.main.lock() {
        *g = Some(tx);
    }
    it.set_ext(Ctx {
        sys: Arc::clone(&sys),
        me: Party::Main,
        main_box: Some(id),
    });
    for (t, d) in sys.decls.iter().enumerate() {
        for i in 0..d.instances {
            start_instance(&sys, t as u32, i as u32)?;
        }
    }
    keep_main_alive(it);
    Ok(Value::Null)
}

/// Main's inbox keeps the program alive while any work is in flight.
fn keep_main_alive(it: &mut Interpreter) {
    let Some(c) = it.ext::<Ctx>() else { return };
    let (Some(id), busy) = (c.main_box, c.sys.busy.load(Ordering::Acquire) > 0) else {
        return;
    };
    if let Some(lp) = it.event_loop_if_started() {
        lp.set_mailbox_keeps_alive(id, busy);
    }
}

/// Start instance `(t, i)` on its own OS thread and wait for its inbox.
fn start_instance(sys: &Arc<System>, t: u32, i: u32) -> Result<(), Trap> {
    let slot = Arc::clone(&sys.slots[t as usize][i as usize]);
    slot.killed.store(false, Ordering::Release);
    slot.alive.store(true, Ordering::Release);
    sys.begin(); // the instance's init and `on load`
    let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<(), String>>();
    let sys2 = Arc::clone(sys);
    let spawned = std::thread::Builder::new()
        .name(format!("festina-thread-{t}-{i}"))
        .spawn(move || {
            run_instance(sys2, t, i, ready_tx);
            // The instance's interpreter is gone: its thread's cached
            // small blocks go back to the system allocator.
            festina_vm::block_cache::release_thread_cache();
        });
    let handle = match spawned {
        Ok(h) => h,
        Err(e) => {
            slot.alive.store(false, Ordering::Release);
            sys.end();
            return Err(Trap::Fail(format!("cannot start a thread: {e}")));
        }
    };
    if let Ok(mut j) = slot.join.lock() {
        *j = Some(handle);
    }
    match ready_rx.recv() {
        Ok(Ok(())) => Ok(()),
        Ok(Err(m)) => Err(Trap::Fail(m)),
        Err(_) => Err(Trap::Fail("a thread ended before it started".to_string())),
    }
}

/// The body of an instance's OS thread.
fn run_instance(
    sys: Arc<System>,
    t: u32,
    i: u32,
    ready: std::sync::mpsc::Sender<Result<(), String>>,
) {
    let mut it = sys.sibling.clone().load();
    let slot = Arc::clone(&sys.slots[t as usize][i as usize]);
    let opened = it
        .event_loop()
        .map(|lp| lp.open_mailbox(instance_envelope, true));
    let tx = match opened {
        Ok((_, tx)) => tx,
        Err(_) => {
            slot.alive.store(false, Ordering::Release);
            sys.end();
            let _ = ready.send(Err("cannot start a thread's event loop".to_string()));
            return;
        }
    };
    if let Ok(mut g) = slot.inbox.lock() {
        *g = Some(tx);
    }
    it.set_ext(Ctx {
        sys: Arc::clone(&sys),
        me: Party::Instance(t, i),
        main_box: None,
    });
    let _ = ready.send(Ok(()));
    let decl = sys.decls[t as usize].clone();
    // The body's handlers, for its own HTTP server (§20.8).
    it.set_handlers(
        HTTP_EVENTS
            .iter()
            .zip(decl.http)
            .filter_map(|(e, f)| f.map(|f| (e.to_string(), f)))
            .collect(),
    );
    let mut result = it.call_function(&Value::Func(decl.init), &[]).map(|_| ());
    if result.is_ok() {
        if let Some(load) = decl.load {
            result = it.call_function(&Value::Func(load), &[]).map(|_| ());
        }
    }
    it.flush_output();
    sys.end();
    if result.is_ok() {
        result = it.run_event_loop();
    }
    match result {
        Ok(()) | Err(Trap::Exit(_)) => {}
        Err(trap) => fail_process(&mut it, trap),
    }
    it.flush_output();
    if let Ok(mut g) = slot.inbox.lock() {
        *g = None;
    }
    drop(it);
    slot.alive.store(false, Ordering::Release);
    slot.done_cv.notify_all();
}

/// §20.2: an uncaught failure or throw in an instance is reported like
/// the main program's, then the whole process ends (as the reference
/// does), before anything else of the instance runs or is counted done.
fn fail_process(it: &mut Interpreter, trap: Trap) -> ! {
    it.flush_output();
    let code = it.report_trap(trap);
    festina_vm::stdout::flush();
    std::process::exit(code);
}

/// The result of an instance's handler: a failure ends the process.
fn or_fail(it: &mut Interpreter, r: Result<(), Trap>) -> Result<(), Trap> {
    match r {
        Err(Trap::Exit(c)) => Err(Trap::Exit(c)),
        Err(trap) => fail_process(it, trap),
        Ok(()) => Ok(()),
    }
}

/// An instance's inbox handler.
fn instance_envelope(it: &mut Interpreter, env: Envelope) -> Result<(), Trap> {
    let c = ctx(it)?;
    let sys = Arc::clone(&c.sys);
    let Party::Instance(t, i) = c.me else {
        return Ok(());
    };
    let slot = Arc::clone(&sys.slots[t as usize][i as usize]);
    let killed = slot.killed.load(Ordering::Acquire);
    match env {
        Envelope::Message {
            from,
            msg,
            callback,
        } => {
            let r = if killed {
                Ok(())
            } else {
                let h = sys.decls[t as usize].message;
                deliver_message(it, h, from, msg, callback)
            };
            let r = or_fail(it, r);
            it.flush_output();
            slot.processed();
            sys.end();
            r
        }
        Envelope::Reply { callback, value } => {
            let r = if killed {
                Ok(())
            } else {
                let v = value.into_value(it);
                it.call_function(&Value::Func(callback), &[v]).map(|_| ())
            };
            let r = or_fail(it, r);
            it.flush_output();
            sys.end();
            r
        }
        Envelope::Connection(h, adopt) => {
            let r = if killed { Ok(()) } else { adopt(it, h) };
            let r = or_fail(it, r);
            it.flush_output();
            slot.processed();
            sys.end();
            r
        }
        Envelope::Kill => {
            // A request handler parked at the client finishes first, as
            // one blocked in `send()` would have (see [`Parking`]).
            if let Some(p) = it.ext_mut::<Parking>() {
                if p.count > 0 {
                    p.kill = true;
                    return Ok(());
                }
            }
            stop_now(it)
        }
        Envelope::Idle => Ok(()),
    }
}

/// The end of an instance that was killed: `on exit(0)`, then the end of
/// its loop.
fn stop_now(it: &mut Interpreter) -> Result<(), Trap> {
    let c = ctx(it)?;
    let exit = match c.me {
        Party::Instance(t, _) => c.sys.decls.get(t as usize).and_then(|d| d.exit),
        Party::Main => None,
    };
    if let Some(exit) = exit {
        it.call_function(&Value::Func(exit), &[Value::Int(0)])?;
    }
    it.flush_output();
    Err(Trap::Exit(0))
}

/// Request handlers of this interpreter parked at the client
/// (`net::park`), and whether a kill waits for them (an extension). A
/// kill that arrives meanwhile is kept until the last one has answered:
/// an instance takes its kill after the handler it is running (§20.2),
/// and a parked handler is still running. Meanwhile the instance
/// dispatches no new request ([`stopping`]).
#[derive(Default)]
pub struct Parking {
    count: usize,
    kill: bool,
}

/// A handler of this interpreter parked.
pub fn parking_begin(it: &mut Interpreter) {
    it.ext_or_insert_with(Parking::default).count += 1;
}

/// A parked handler finished; when a kill was waiting for it and it was
/// the last, the instance stops now (`Err(Trap::Exit(0))` after its `on
/// exit(0)`).
pub fn parking_end(it: &mut Interpreter) -> Result<(), Trap> {
    let p = it.ext_or_insert_with(Parking::default);
    p.count = p.count.saturating_sub(1);
    if p.count == 0 && p.kill {
        p.kill = false;
        return stop_now(it);
    }
    Ok(())
}

/// Whether a kill waits for this interpreter's parked handlers: no new
/// request is dispatched.
pub fn stopping(it: &Interpreter) -> bool {
    it.ext::<Parking>().is_some_and(|p| p.kill)
}

/// Run `on message(worker, msg)` (handler `h`) for one message.
fn deliver_message(
    it: &mut Interpreter,
    h: Option<u32>,
    from: Party,
    msg: Transfer,
    callback: Option<u32>,
) -> Result<(), Trap> {
    let Some(h) = h else { return Ok(()) };
    let worker = Value::handle(Worker {
        from,
        callback,
        can_reply: Cell::new(callback.is_some()),
    });
    let msg = msg.into_value(it);
    let r = it.call_function(&Value::Func(h), &[worker.clone(), msg]);
    if let Some(w) = worker.as_handle::<Worker>() {
        w.can_reply.set(false);
    }
    r.map(|_| ())
}

/// Main's inbox handler.
fn main_envelope(it: &mut Interpreter, env: Envelope) -> Result<(), Trap> {
    let sys = Arc::clone(&ctx(it)?.sys);
    let r = match env {
        Envelope::Message {
            from,
            msg,
            callback,
        } => {
            let h = it.program().handler("message");
            let r = deliver_message(it, h, from, msg, callback);
            sys.end();
            r
        }
        Envelope::Reply { callback, value } => {
            let v = value.into_value(it);
            let r = it.call_function(&Value::Func(callback), &[v]).map(|_| ());
            sys.end();
            r
        }
        Envelope::Kill | Envelope::Idle | Envelope::Connection(..) => Ok(()),
    };
    keep_main_alive(it);
    r
}

/// `thread_post(tid, idx, msg, callback)`: `NAME.postMessage(x)` (idx
/// -1: routed, §20.6) or `NAME[i].postMessage(x)`, with the callback of
/// `.callback(fn)` or `null`.
fn thread_post(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let c = ctx(it)?;
    let sys = Arc::clone(&c.sys);
    let from = c.me;
    let t = a[0].as_int() as u32;
    let i = match a[1].as_int() {
        -1 => sys.route(t),
        i if i < 0 => return Ok(Value::Null),
        i => i as u32,
    };
    let msg = Transfer::of(&a[2])?;
    sys.send(
        Party::Instance(t, i),
        Envelope::Message {
            from,
            msg,
            callback: func_arg(&a[3]),
        },
    );
    if from == Party::Main {
        keep_main_alive(it);
    }
    Ok(Value::Null)
}

/// What serves a connection handed over by `giveRequest` on the thread
/// that receives it (`net::adopt_connection`; see [`give_connection`]).
pub type Adopter = fn(&mut Interpreter, Box<dyn std::any::Any + Send>) -> Result<(), Trap>;

/// Send a live connection to instance `idx` of thread `tid` (-1: routed
/// to an idle instance, §20.6), for `giveRequest` (§20.9). An index out
/// of range drops it (closing the connection).
pub fn give_connection(
    it: &mut Interpreter,
    tid: i64,
    idx: i64,
    h: Box<dyn std::any::Any + Send>,
    adopt: Adopter,
) -> Result<(), Trap> {
    let sys = Arc::clone(&ctx(it)?.sys);
    let t = tid as u32;
    let i = match idx {
        -1 => sys.route(t),
        i if i < 0 => return Ok(()),
        i => i as u32,
    };
    sys.send(Party::Instance(t, i), Envelope::Connection(h, adopt));
    keep_main_alive(it);
    Ok(())
}

/// `thread_post_main(msg, callback)`: a bare `postMessage(x)` in a
/// thread body, to main.
fn thread_post_main(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let c = ctx(it)?;
    let sys = Arc::clone(&c.sys);
    let from = c.me;
    let msg = Transfer::of(&a[0])?;
    sys.send(
        Party::Main,
        Envelope::Message {
            from,
            msg,
            callback: func_arg(&a[1]),
        },
    );
    Ok(Value::Null)
}

/// `thread_in_range(tid, idx)`: whether `NAME[idx]` is an instance.
fn thread_in_range(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let sys = &ctx(it)?.sys;
    let (t, i) = (a[0].as_int(), a[1].as_int());
    let n = sys.slots.get(t as usize).map_or(0, Vec::len) as i64;
    Ok(Value::Bool(i >= 0 && i < n))
}

/// An instance's slot with the system it belongs to.
type Found = (Arc<System>, Arc<Slot>);

/// The slot of `(tid, idx)` arguments (out of range: `None`).
fn slot_of(it: &Interpreter, a: &[Value]) -> Result<Option<Found>, Trap> {
    let sys = Arc::clone(&ctx(it)?.sys);
    let (t, i) = (a[0].as_int(), a[1].as_int());
    if t < 0 || i < 0 {
        return Ok(None);
    }
    let slot = sys.slot(t as u32, i as u32).cloned();
    Ok(slot.map(|s| (sys, s)))
}

/// `thread_kill(tid, idx)`: `NAME.kill()` (§20.2): queued messages and
/// callbacks are dropped, `on exit(0)` runs, and the call returns once
/// the instance has stopped.
fn thread_kill(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    if let Some((_, slot)) = slot_of(it, a)? {
        kill_slot(&slot);
    }
    keep_main_alive(it);
    Ok(Value::Null)
}

fn kill_slot(slot: &Slot) {
    slot.killed.store(true, Ordering::Release);
    let tx = slot.inbox.lock().ok().and_then(|mut g| g.take());
    if let Some(tx) = tx {
        let _ = tx.send(Envelope::Kill);
    }
    let handle = slot.join.lock().ok().and_then(|mut g| g.take());
    if let Some(h) = handle {
        let _ = h.join();
    }
    slot.alive.store(false, Ordering::Release);
}

/// `thread_live(tid, idx, fn)`: `NAME.live(fn)` restarts a killed
/// instance (fresh state, `on load` again) and calls `fn(true)`; on a
/// live instance it calls `fn(false)` (our choice, docs/threads.md).
fn thread_live(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let Some((sys, slot)) = slot_of(it, a)? else {
        return Ok(Value::Null);
    };
    let restarted = if slot.alive.load(Ordering::Acquire) {
        false
    } else {
        start_instance(&sys, a[0].as_int() as u32, a[1].as_int() as u32)?;
        true
    };
    keep_main_alive(it);
    it.call_function(&a[2], &[Value::Bool(restarted)])?;
    Ok(Value::Null)
}

/// `thread_is_alive(tid, idx)`: `NAME.isAlive()`; `false` out of range.
fn thread_is_alive(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Bool(
        slot_of(it, a)?.is_some_and(|(_, s)| s.alive.load(Ordering::Acquire)),
    ))
}

/// `thread_drain(tid, idx)`: `NAME.drain()` blocks until every message
/// queued so far has been processed (or the instance stopped).
fn thread_drain(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let Some((_, slot)) = slot_of(it, a)? else {
        return Ok(Value::Null);
    };
    it.flush_output();
    let target = slot.sent.load(Ordering::Acquire);
    let Ok(mut done) = slot.done.lock() else {
        return Ok(Value::Null);
    };
    while *done < target && slot.alive.load(Ordering::Acquire) {
        done = match slot
            .done_cv
            .wait_timeout(done, std::time::Duration::from_millis(50))
        {
            Ok((d, _)) => d,
            Err(_) => return Ok(Value::Null),
        };
    }
    Ok(Value::Null)
}

/// `thread_worker_main(worker)`: `worker.main` (§8.17).
fn thread_worker_main(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Bool(
        a[0].as_handle::<Worker>()
            .is_some_and(|w| w.from == Party::Main),
    ))
}

/// `thread_reply(worker, x)`: `worker.reply(x)` answers the message being
/// handled, at most once; otherwise a no-op (§20.4).
fn thread_reply(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let Some(w) = a[0].as_handle::<Worker>() else {
        return Ok(Value::Null);
    };
    let (Some(callback), true) = (w.callback, w.can_reply.get()) else {
        return Ok(Value::Null);
    };
    w.can_reply.set(false);
    let to = w.from;
    let value = Transfer::of(&a[1])?;
    let sys = Arc::clone(&ctx(it)?.sys);
    sys.send(to, Envelope::Reply { callback, value });
    Ok(Value::Null)
}

impl Drop for Ctx {
    /// Main's context ends the threads (§20.2: at program exit every live
    /// thread is killed first, `on exit(0)` running).
    fn drop(&mut self) {
        if self.me != Party::Main {
            return;
        }
        if let Ok(mut g) = self.sys.main.lock() {
            *g = None;
        }
        for slots in &self.sys.slots {
            for s in slots {
                if s.alive.load(Ordering::Acquire) {
                    kill_slot(s);
                }
            }
        }
        festina_vm::stdout::flush();
    }
}

/// The natives of this module, for `Interpreter::new`.
pub fn natives() -> Vec<NativeEntry> {
    macro_rules! entries {
        ($($name:ident),*) => {
            vec![$(NativeEntry { name: stringify!($name), func: $name }),*]
        };
    }
    entries!(
        thread_declare,
        thread_start,
        thread_post,
        thread_post_main,
        thread_in_range,
        thread_kill,
        thread_live,
        thread_is_alive,
        thread_drain,
        thread_worker_main,
        thread_reply
    )
}
