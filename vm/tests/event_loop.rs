//! The event loop on hand-built programs: timers calling Festina
//! functions, worker jobs and their continuations, registered `mio`
//! sources, traps out of callbacks, and `on exit` around `close`.

use festina_vm::event_loop::{Keep, Readiness, SourceHandler};
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::opcode::Instr::{self, *};
use festina_vm::program::{EventHandler, Function, Program};
use festina_vm::value::Value;
use mio::event::Source;
use mio::net::UnixStream;
use mio::Interest;
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
    fn source(&mut self) -> &mut dyn Source {
        &mut self.stream
    }
    fn ready(&mut self, _it: &mut Interpreter, r: Readiness) -> Result<Keep, Trap> {
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
