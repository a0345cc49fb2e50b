//! The event loop on hand-built programs: timers calling Festina
//! functions, worker jobs and their continuations, registered `mio`
//! sources (a listener registering connections, re-registration while
//! output is pending, idle timeouts, frame ticks), what the poll reported
//! before the timers due in one round, mailboxes fed from
//! other threads, traps out of callbacks, and `on exit` around `close`.

use festina_vm::event_loop::{Keep, Readiness, SourceHandler, TimerId};
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::opcode::Instr::{self, *};
use festina_vm::program::{EventHandler, Function, Program};
use festina_vm::value::Value;
use mio::event::Source;
use mio::net::UnixStream;
use mio::{Interest, Token};
use std::cell::{Cell, RefCell};
use std::io::{Read, Write};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

thread_local! {
    static MARKS: RefCell<Vec<i64>> = const { RefCell::new(Vec::new()) };
}

/// `mark(n)`: record `n`.
fn t_mark(_it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    MARKS.with(|m| m.borrow_mut().push(a[0].as_int()));
    Ok(Value::Null)
}

fn t_throw(_it: &mut Interpreter, _a: &[Value]) -> Result<Value, Trap> {
    Err(Trap::Throw("from a callback".into()))
}

fn t_close(_it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    Err(Trap::Exit(a[0].as_int() as i32))
}

const NATIVES: &[NativeEntry] = &[
    NativeEntry {
        name: "mark",
        func: t_mark,
    },
    NativeEntry {
        name: "throw",
        func: t_throw,
    },
    NativeEntry {
        name: "close",
        func: t_close,
    },
];
const MARK: u16 = 0;
const THROW: u16 = 1;
const CLOSE: u16 = 2;

fn void_func(name: &str, nparams: u16, nregs: u16, code: Vec<Instr>) -> Function {
    let lines = (1..=code.len() as u32).collect();
    Function {
        name: name.into(),
        file: 0,
        nparams,
        nregs,
        returns_value: false,
        code,
        lines,
    }
}

/// A function that calls `mark(n)`.
fn marker(n: i32) -> Function {
    void_func(
        &format!("mark{n}"),
        0,
        1,
        vec![
            LoadInt { dst: 0, imm: n },
            CallNative {
                dst: 0,
                base: 0,
                id: MARK,
                argc: 1,
            },
            ReturnVoid {},
        ],
    )
}

/// Entry (function 0) does nothing; then `extra` functions.
fn interpreter(extra: Vec<Function>) -> Interpreter {
    let mut functions = vec![void_func("<main>", 0, 1, vec![ReturnVoid {}])];
    functions.extend(extra);
    let p = Program {
        files: vec!["prog.f".into()],
        functions,
        entry: 0,
        natives: vec!["mark".into(), "throw".into(), "close".into()],
        ..Program::default()
    };
    let mut it = Interpreter::new(Arc::new(p), NATIVES).expect("loads");
    it.set_signal_handling(false);
    it
}

fn marks() -> Vec<i64> {
    MARKS.with(|m| std::mem::take(&mut *m.borrow_mut()))
}

#[test]
fn timers_call_functions_in_deadline_order() {
    marks();
    let mut it = interpreter(vec![marker(1), marker(2), marker(3)]);
    let start = Instant::now();
    {
        let lp = it.event_loop().expect("loop");
        lp.set_timer(3, 40, false);
        lp.set_timer(1, 10, false);
        let gone = lp.set_timer(2, 20, false);
        lp.set_timer(2, 25, false);
        lp.clear_timer(gone);
        assert_eq!(lp.timer_count(), 3);
    }
    it.run_event_loop().expect("runs");
    assert!(start.elapsed() >= Duration::from_millis(40));
    assert_eq!(marks(), vec![1, 2, 3]);
    assert_eq!(it.event_loop().expect("loop").timer_count(), 0);
}

#[test]
fn no_loop_returns_at_once() {
    let mut it = interpreter(vec![]);
    assert!(it.event_loop_if_started().is_none());
    it.run_event_loop().expect("nothing to do");
}

#[test]
fn jobs_run_on_workers_and_continue_on_this_thread() {
    let mut it = interpreter(vec![]);
    let sum = Rc::new(Cell::new(0u64));
    let main = std::thread::current().id();
    for i in 0..10u64 {
        let sum = Rc::clone(&sum);
        it.event_loop().expect("loop").spawn_job(
            Box::new(move || {
                std::thread::sleep(Duration::from_millis(5));
                Box::new((i, std::thread::current().id()))
            }),
            Box::new(move |_it, r| {
                let (i, worker) = *r.downcast::<(u64, std::thread::ThreadId)>().expect("type");
                assert_ne!(worker, main);
                assert_eq!(std::thread::current().id(), main);
                sum.set(sum.get() + i);
                Ok(())
            }),
        );
    }
    assert_eq!(it.event_loop().expect("loop").jobs_in_flight(), 10);
    it.run_event_loop().expect("runs");
    assert_eq!(sum.get(), 45);
    assert_eq!(it.event_loop().expect("loop").jobs_in_flight(), 0);
}

#[test]
fn a_throw_out_of_a_callback_ends_the_loop() {
    marks();
    let thrower = void_func(
        "boom",
        0,
        1,
        vec![
            CallNative {
                dst: 0,
                base: 0,
                id: THROW,
                argc: 0,
            },
            ReturnVoid {},
        ],
    );
    let mut it = interpreter(vec![thrower, marker(7)]);
    {
        let lp = it.event_loop().expect("loop");
        lp.set_timer(1, 1, false);
        lp.set_timer(2, 200, false);
    }
    let r = it.run_event_loop();
    assert_eq!(r, Err(Trap::Throw("from a callback".into())));
    assert!(marks().is_empty());
}

/// Reads everything from one end of a socket pair, then removes itself.
struct Reader {
    stream: UnixStream,
    got: Rc<RefCell<Vec<u8>>>,
    alive: bool,
}

impl SourceHandler for Reader {
    fn source(&mut self) -> Option<&mut dyn Source> {
        Some(&mut self.stream)
    }
    fn ready(&mut self, _it: &mut Interpreter, _token: Token, r: Readiness) -> Result<Keep, Trap> {
        let mut buf = [0u8; 64];
        loop {
            match self.stream.read(&mut buf) {
                Ok(0) => return Ok(Keep::Remove),
                Ok(n) => self.got.borrow_mut().extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(_) => return Ok(Keep::Remove),
            }
        }
        Ok(if r.closed { Keep::Remove } else { Keep::Keep })
    }
    fn keeps_alive(&self) -> bool {
        self.alive
    }
}

#[test]
fn registered_sources_are_dispatched_until_removed() {
    let mut it = interpreter(vec![]);
    let (a, mut b) = UnixStream::pair().expect("pair");
    let got = Rc::new(RefCell::new(Vec::new()));
    let reader = Reader {
        stream: a,
        got: Rc::clone(&got),
        alive: true,
    };
    it.event_loop()
        .expect("loop")
        .register(Box::new(reader), Interest::READABLE)
        .expect("register");
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(20));
        b.write_all(b"hello ").expect("write");
        std::thread::sleep(Duration::from_millis(20));
        b.write_all(b"loop").expect("write");
        drop(b);
    });
    it.run_event_loop().expect("runs");
    writer.join().expect("writer");
    assert_eq!(&*got.borrow(), b"hello loop");
}

#[test]
fn sources_that_do_not_keep_alive_do_not_hold_the_program() {
    let mut it = interpreter(vec![]);
    let (a, _b) = UnixStream::pair().expect("pair");
    let reader = Reader {
        stream: a,
        got: Rc::default(),
        alive: false,
    };
    let lp = it.event_loop().expect("loop");
    let token = lp
        .register(Box::new(reader), Interest::READABLE)
        .expect("register");
    assert!(!lp.alive());
    lp.deregister(token);
    it.run_event_loop().expect("returns at once");
}

#[test]
fn close_runs_the_exit_handler_with_its_code() {
    marks();
    // Entry: close(3). Function 1: on exit(code) -> mark(code).
    let entry = void_func(
        "<main>",
        0,
        1,
        vec![
            LoadInt { dst: 0, imm: 3 },
            CallNative {
                dst: 0,
                base: 0,
                id: CLOSE,
                argc: 1,
            },
            ReturnVoid {},
        ],
    );
    let on_exit = void_func(
        "<on exit>",
        1,
        1,
        vec![
            CallNative {
                dst: 0,
                base: 0,
                id: MARK,
                argc: 1,
            },
            ReturnVoid {},
        ],
    );
    let p = Program {
        files: vec!["prog.f".into()],
        functions: vec![entry, on_exit],
        entry: 0,
        natives: vec!["mark".into(), "throw".into(), "close".into()],
        handlers: vec![EventHandler {
            event: "exit".into(),
            func: 1,
        }],
        ..Program::default()
    };
    let mut it = Interpreter::new(Arc::new(p), NATIVES).expect("loads");
    assert_eq!(it.run(vec!["prog.f".into()]), 3);
    assert_eq!(marks(), vec![3]);
}

#[test]
fn a_bad_handler_table_is_refused() {
    let p = Program {
        files: vec!["prog.f".into()],
        functions: vec![void_func("<main>", 0, 1, vec![ReturnVoid {}])],
        entry: 0,
        handlers: vec![EventHandler {
            event: "exit".into(),
            func: 0,
        }],
        ..Program::default()
    };
    let e = Interpreter::new(Arc::new(p.clone()), NATIVES).unwrap_err();
    assert!(e.message.contains("'exit' must take one parameter"), "{e}");
    let mut q = p;
    q.handlers[0] = EventHandler {
        event: "x".into(),
        func: 9,
    };
    let e = Interpreter::new(Arc::new(q), NATIVES).unwrap_err();
    assert!(e.message.contains("does not exist"), "{e}");
}

// ---- re-registration: a listener, and a connection whose output drains ----

/// Accepts one connection, registers a [`Responder`] for it (readable),
/// with an idle timeout when `idle` says so, then removes itself.
struct Listener {
    listener: mio::net::TcpListener,
    log: Rc<RefCell<Log>>,
    idle: Option<Duration>,
}

/// What the handlers saw.
#[derive(Default)]
struct Log {
    /// Every interest a connection asked for, in order.
    interests: Vec<Interest>,
    /// Writable events handled.
    writable_events: usize,
    /// Requests read.
    requests: usize,
    /// When each request was read, and when the idle timeout fired.
    reads_at: Vec<Instant>,
    timeout_at: Option<Instant>,
    /// The connection's token.
    token: Option<Token>,
}

impl SourceHandler for Listener {
    fn source(&mut self) -> Option<&mut dyn Source> {
        Some(&mut self.listener)
    }
    fn ready(&mut self, it: &mut Interpreter, _token: Token, _r: Readiness) -> Result<Keep, Trap> {
        let (stream, _) = match self.listener.accept() {
            Ok(s) => s,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok(Keep::Keep),
            Err(e) => panic!("accept: {e}"),
        };
        let lp = it.event_loop()?;
        let idle = Rc::new(Cell::new(None));
        let conn = Responder {
            stream,
            input: Vec::new(),
            out: Vec::new(),
            sent: 0,
            log: Rc::clone(&self.log),
            idle: Rc::clone(&idle),
        };
        let token = lp
            .register(Box::new(conn), Interest::READABLE)
            .expect("register the connection");
        assert_eq!(lp.interest(token), Some(Interest::READABLE));
        if let Some(after) = self.idle {
            // The connection's timer, armed once its token is known.
            idle.set(Some((lp.set_source_timer(token, after, None), after)));
        }
        self.log.borrow_mut().token = Some(token);
        Ok(Keep::Remove)
    }
}

/// Reads requests `"<n>\n"` and answers each with `n` bytes of a
/// pattern. When the answer cannot be written at once it stops reading
/// and asks for writability (mio's `tcp_server` pattern), and asks for
/// readability again when the answer is out. With an idle timeout, a
/// connection that stays silent for it is closed.
struct Responder<S> {
    stream: S,
    input: Vec<u8>,
    out: Vec<u8>,
    sent: usize,
    log: Rc<RefCell<Log>>,
    /// The idle timer and its length, if any.
    idle: Rc<Cell<Option<(TimerId, Duration)>>>,
}

fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

impl<S: Read + Write> Responder<S> {
    /// Write what is pending; true when everything is out.
    fn flush(&mut self) -> bool {
        while self.sent < self.out.len() {
            match self.stream.write(&self.out[self.sent..]) {
                Ok(n) => self.sent += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
                Err(e) => panic!("write: {e}"),
            }
        }
        self.out.clear();
        self.sent = 0;
        true
    }

    fn ask(&self, it: &mut Interpreter, token: Token, interest: Interest) -> Result<(), Trap> {
        let lp = it.event_loop()?;
        lp.reregister(token, interest).expect("reregister");
        // The running handler's own request is visible at once.
        assert_eq!(lp.interest(token), Some(interest));
        self.log.borrow_mut().interests.push(interest);
        Ok(())
    }
}

impl<S: Source + Read + Write> SourceHandler for Responder<S> {
    fn source(&mut self) -> Option<&mut dyn Source> {
        Some(&mut self.stream)
    }
    fn ready(&mut self, it: &mut Interpreter, token: Token, r: Readiness) -> Result<Keep, Trap> {
        if r.writable && !self.out.is_empty() {
            self.log.borrow_mut().writable_events += 1;
            if self.flush() {
                self.ask(it, token, Interest::READABLE)?;
            }
            return Ok(Keep::Keep);
        }
        let mut buf = [0u8; 4096];
        loop {
            match self.stream.read(&mut buf) {
                Ok(0) => return Ok(Keep::Remove),
                Ok(n) => self.input.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(_) => return Ok(Keep::Remove),
            }
        }
        while let Some(end) = self.input.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.input.drain(..=end).collect();
            let n: usize = std::str::from_utf8(&line[..end])
                .expect("utf-8")
                .trim()
                .parse()
                .expect("a length");
            {
                let mut log = self.log.borrow_mut();
                log.requests += 1;
                log.reads_at.push(Instant::now());
            }
            if let Some((id, after)) = self.idle.get() {
                assert!(it.event_loop()?.rearm_source_timer(id, after));
            }
            self.out.extend(pattern(n));
            if !self.flush() {
                self.ask(it, token, Interest::WRITABLE)?;
                return Ok(Keep::Keep);
            }
        }
        Ok(if r.closed { Keep::Remove } else { Keep::Keep })
    }
    fn timer(&mut self, it: &mut Interpreter, token: Token, id: TimerId) -> Result<Keep, Trap> {
        assert_eq!(self.idle.get().map(|(t, _)| t), Some(id));
        self.log.borrow_mut().timeout_at = Some(Instant::now());
        // Removal by token from inside the handler takes effect when it
        // returns.
        let lp = it.event_loop()?;
        lp.deregister(token);
        assert!(!lp.has_source(token));
        Ok(Keep::Keep)
    }
}

fn listener() -> (mio::net::TcpListener, std::net::SocketAddr) {
    let l = mio::net::TcpListener::bind("127.0.0.1:0".parse().expect("address")).expect("bind");
    let addr = l.local_addr().expect("address");
    (l, addr)
}

/// Read exactly `n` bytes and check they are the pattern.
fn read_answer(s: &mut impl Read, n: usize) {
    let mut got = vec![0u8; n];
    s.read_exact(&mut got).expect("the whole answer");
    assert!(got == pattern(n), "the answer's bytes");
}

#[test]
fn a_connection_switches_to_writable_while_output_is_pending_and_back() {
    let mut it = interpreter(vec![]);
    // A real socket pair: the loop serves one end, a client thread the
    // other. (Unix sockets keep fixed buffers of a few hundred kilobytes;
    // TCP on loopback grows them to tens of megabytes.)
    let (server, mut client) = std::os::unix::net::UnixStream::pair().expect("pair");
    server.set_nonblocking(true).expect("nonblocking");
    let log = Rc::new(RefCell::new(Log::default()));
    let token = it
        .event_loop()
        .expect("loop")
        .register(
            Box::new(Responder {
                stream: UnixStream::from_std(server),
                input: Vec::new(),
                out: Vec::new(),
                sent: 0,
                log: Rc::clone(&log),
                idle: Rc::default(),
            }),
            Interest::READABLE,
        )
        .expect("register");
    // Answers far larger than the socket buffers, read only after a pause:
    // the server must wait for writability, several times.
    const BIG: usize = 4 << 20;
    let peer = std::thread::spawn(move || {
        client
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        for n in [BIG, 10, BIG] {
            client
                .write_all(format!("{n}\n").as_bytes())
                .expect("request");
            std::thread::sleep(Duration::from_millis(20));
            read_answer(&mut client, n);
        }
        // Closing ends the connection; nothing then keeps the loop alive.
    });
    it.run_event_loop().expect("runs");
    peer.join().expect("client");
    let log = log.borrow();
    assert_eq!(log.requests, 3);
    assert_eq!(
        log.interests,
        vec![
            Interest::WRITABLE,
            Interest::READABLE,
            Interest::WRITABLE,
            Interest::READABLE
        ],
        "writable while the big answers drained, readable again after"
    );
    assert!(log.writable_events >= 2, "{}", log.writable_events);
    let lp = it.event_loop().expect("loop");
    assert_eq!(lp.source_count(), 0, "the connection removed itself");
    assert!(!lp.has_source(token));
    assert_eq!(lp.interest(token), None);
}

#[test]
fn a_source_timer_closes_an_idle_connection() {
    let mut it = interpreter(vec![]);
    let (l, addr) = listener();
    let log = Rc::new(RefCell::new(Log::default()));
    const IDLE: Duration = Duration::from_millis(300);
    it.event_loop()
        .expect("loop")
        .register(
            Box::new(Listener {
                listener: l,
                log: Rc::clone(&log),
                idle: Some(IDLE),
            }),
            Interest::READABLE,
        )
        .expect("register");
    let client = std::thread::spawn(move || {
        let mut s = std::net::TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        // Three requests, each well within the idle timeout of the
        // previous one, then silence.
        for _ in 0..3 {
            s.write_all(b"1\n").expect("request");
            read_answer(&mut s, 1);
            std::thread::sleep(IDLE / 3);
        }
        let silent = Instant::now();
        let mut rest = Vec::new();
        s.read_to_end(&mut rest).expect("closed by the server");
        assert!(rest.is_empty());
        silent.elapsed()
    });
    let start = Instant::now();
    it.run_event_loop().expect("runs");
    let silence = client.join().expect("client");
    let log = log.borrow();
    assert_eq!(log.requests, 3, "each request re-armed the timer");
    let fired = log.timeout_at.expect("the idle timer fired");
    let last = *log.reads_at.last().expect("reads");
    assert!(
        fired - last >= IDLE,
        "{:?} after the last request",
        fired - last
    );
    // Re-arming postponed the first deadline (`start + IDLE`).
    assert!(fired - start > IDLE, "{:?}", fired - start);
    assert!(silence >= IDLE / 2, "{silence:?}");
    assert_eq!(it.event_loop().expect("loop").source_count(), 0);
}

// ---- frame ticks: a source without a file descriptor ----

/// A window-like source: no descriptor, woken by its frame tick; after
/// `frames` ticks it removes itself (by token, from inside its handler).
struct Ticker {
    ticks: Rc<RefCell<Vec<Instant>>>,
    frames: usize,
}

impl SourceHandler for Ticker {
    fn source(&mut self) -> Option<&mut dyn Source> {
        None
    }
    fn ready(&mut self, _it: &mut Interpreter, _t: Token, _r: Readiness) -> Result<Keep, Trap> {
        panic!("a source without a descriptor is never ready");
    }
    fn timer(&mut self, it: &mut Interpreter, token: Token, _id: TimerId) -> Result<Keep, Trap> {
        let mut ticks = self.ticks.borrow_mut();
        ticks.push(Instant::now());
        if ticks.len() == self.frames {
            it.event_loop()?.deregister(token);
        }
        Ok(Keep::Keep)
    }
}

#[test]
fn frame_ticks_wake_a_source_without_a_descriptor_beside_timers() {
    marks();
    let mut it = interpreter(vec![marker(1)]);
    let ticks = Rc::new(RefCell::new(Vec::new()));
    const PERIOD: Duration = Duration::from_millis(20);
    let start = Instant::now();
    {
        let lp = it.event_loop().expect("loop");
        let token = lp
            .register(
                Box::new(Ticker {
                    ticks: Rc::clone(&ticks),
                    frames: 5,
                }),
                Interest::READABLE,
            )
            .expect("register");
        assert_eq!(lp.interest(token), None, "no descriptor, no interest");
        lp.set_frame_tick(token, PERIOD);
        // A program timer in the middle of the frames.
        lp.set_timer(1, 50, false);
        assert!(lp.alive(), "the window keeps the program alive");
    }
    it.run_event_loop().expect("runs");
    let ticks = ticks.borrow();
    assert_eq!(ticks.len(), 5);
    for (i, t) in ticks.iter().enumerate() {
        // Tick i is due one period after tick i - 1 was due: never early.
        assert!(
            *t - start >= PERIOD * (i as u32 + 1),
            "tick {i} at {:?}",
            *t - start
        );
    }
    for w in ticks.windows(2) {
        // Never a burst, however late a tick ran.
        assert!(w[1] - w[0] >= PERIOD / 4, "{:?}", w[1] - w[0]);
    }
    assert_eq!(marks(), vec![1]);
    let lp = it.event_loop().expect("loop");
    assert_eq!(lp.source_count(), 0);
}

// ---- the order within a round ----

/// Marks `n` when readable, then removes itself.
struct MarkWhenReady {
    stream: UnixStream,
    n: i64,
}

impl SourceHandler for MarkWhenReady {
    fn source(&mut self) -> Option<&mut dyn Source> {
        Some(&mut self.stream)
    }
    fn ready(&mut self, _it: &mut Interpreter, _t: Token, _r: Readiness) -> Result<Keep, Trap> {
        MARKS.with(|m| m.borrow_mut().push(self.n));
        Ok(Keep::Remove)
    }
    fn keeps_alive(&self) -> bool {
        true
    }
}

#[test]
fn what_the_poll_reported_is_handled_before_the_timers_due() {
    // A request that arrived during a frame and the next frame's
    // `setTimeout(frame, 0)`, both ready when the poll returns: the
    // request first (module docs of `event_loop`), unless switched off.
    marks();
    let mut it = interpreter(vec![marker(1)]);
    let (a, mut b) = UnixStream::pair().expect("pair");
    b.write_all(b"GET /").expect("write");
    {
        let lp = it.event_loop().expect("loop");
        lp.register(
            Box::new(MarkWhenReady { stream: a, n: 2 }),
            Interest::READABLE,
        )
        .expect("register");
        lp.set_timer(1, 0, false);
    }
    // the timer is due, not merely about to be, when the poll returns
    std::thread::sleep(Duration::from_millis(5));
    it.run_event_loop().expect("runs");
    let timers_first = festina_vm::switches::disabled(festina_vm::switches::NO_READY_FIRST);
    let want = if timers_first { vec![1, 2] } else { vec![2, 1] };
    assert_eq!(marks(), want);
}

// ---- mailboxes ----

#[test]
fn mailboxes_deliver_each_senders_messages_in_order_on_this_thread() {
    let mut it = interpreter(vec![]);
    const SENDERS: u32 = 3;
    const EACH: u32 = 20_000;
    let got: Rc<RefCell<Vec<(u32, u32)>>> = Rc::default();
    let main = std::thread::current().id();
    let lp = it.event_loop().expect("loop");
    let sink = Rc::clone(&got);
    let id_cell: Rc<Cell<u64>> = Rc::default();
    let own_id = Rc::clone(&id_cell);
    let (id, tx) = lp.open_mailbox(
        move |it: &mut Interpreter, msg: (u32, u32)| {
            assert_eq!(std::thread::current().id(), main);
            let mut got = sink.borrow_mut();
            got.push(msg);
            if got.len() == (SENDERS * EACH) as usize {
                // Closing from inside its own handler: takes effect when
                // the handler returns; nothing then keeps the loop alive.
                it.event_loop()?.close_mailbox(own_id.get());
            }
            Ok(())
        },
        true,
    );
    id_cell.set(id);
    assert!(
        lp.alive(),
        "an open mailbox that says so keeps the program alive"
    );
    assert_eq!(lp.mailbox_count(), 1);
    let senders: Vec<_> = (0..SENDERS)
        .map(|s| {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for i in 0..EACH {
                    tx.send((s, i)).expect("the mailbox is open");
                }
            })
        })
        .collect();
    it.run_event_loop().expect("runs");
    for s in senders {
        s.join().expect("sender");
    }
    let got = got.borrow();
    assert_eq!(got.len(), (SENDERS * EACH) as usize, "nothing lost");
    for s in 0..SENDERS {
        let seq: Vec<u32> = got.iter().filter(|m| m.0 == s).map(|m| m.1).collect();
        assert!(seq.iter().copied().eq(0..EACH), "sender {s}'s order kept");
    }
    assert_eq!(it.event_loop().expect("loop").mailbox_count(), 0);
    assert_eq!(tx.send((9, 9)), Err((9, 9)), "a closed mailbox refuses");
}

#[test]
fn a_mailbox_that_does_not_keep_alive_does_not_hold_the_program() {
    let mut it = interpreter(vec![]);
    let lp = it.event_loop().expect("loop");
    let (id, tx) = lp.open_mailbox(|_: &mut Interpreter, _: u8| Ok(()), false);
    assert!(!lp.alive());
    it.run_event_loop().expect("returns at once");
    // Still open: a message sent now waits for the next run.
    tx.send(1).expect("open");
    let lp = it.event_loop().expect("loop");
    lp.set_mailbox_keeps_alive(id, true);
    assert!(lp.alive());
    lp.close_mailbox(id);
    assert!(!lp.alive());
    assert_eq!(tx.send(2), Err(2));
}
