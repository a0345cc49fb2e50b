//! `SIGTERM` through the event loop (§12.3): at once without shutdown
//! hooks; with hooks, after the open connections finish or the grace
//! period ends. One test in its own process: signals are process-wide.

use festina_vm::event_loop::{Keep, Readiness, SourceHandler};
use festina_vm::interp::Interpreter;
use festina_vm::native::Trap;
use festina_vm::opcode::Instr;
use festina_vm::program::{Function, Program};
use mio::event::Source;
use mio::net::UnixStream;
use mio::{Interest, Token};
use signal_hook::consts::SIGTERM;
use std::cell::RefCell;
use std::io::Read;
use std::rc::Rc;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

fn interpreter() -> Interpreter {
    let p = Program {
        files: vec!["prog.f".into()],
        functions: vec![Function::hand_written(
            "<main>",
            0,
            1,
            vec![Instr::ReturnVoid {}],
        )],
        ..Program::default()
    };
    let mut it = Interpreter::new(Arc::new(p), &[]).expect("loads");
    // The loop takes over SIGINT/SIGTERM (the default).
    it.set_signal_handling(true);
    it
}

/// One end of a socket pair that stays registered until its peer closes.
struct Conn(UnixStream);

impl SourceHandler for Conn {
    fn source(&mut self) -> Option<&mut dyn Source> {
        Some(&mut self.0)
    }
    fn ready(&mut self, _it: &mut Interpreter, _t: Token, _r: Readiness) -> Result<Keep, Trap> {
        let mut buf = [0u8; 64];
        loop {
            match self.0.read(&mut buf) {
                Ok(0) => return Ok(Keep::Remove),
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok(Keep::Keep),
                Err(_) => return Ok(Keep::Remove),
            }
        }
    }
}

fn conn(it: &mut Interpreter) -> (Token, UnixStream) {
    let (a, b) = UnixStream::pair().expect("pair");
    let t = it
        .event_loop()
        .expect("loop")
        .register(Box::new(Conn(a)), Interest::READABLE)
        .expect("register");
    (t, b)
}

#[test]
fn sigterm_ends_the_loop_at_once_or_after_a_graceful_shutdown() {
    // 1. No hook: the signal ends the program like close(128 + 15).
    let mut it = interpreter();
    let (_t, _peer) = conn(&mut it);
    signal_hook::low_level::raise(SIGTERM).expect("raise");
    let start = Instant::now();
    assert_eq!(it.run_event_loop(), Err(Trap::Exit(128 + SIGTERM)));
    assert!(start.elapsed() < Duration::from_secs(5));
    drop(it);

    // 2. A hook closes the "listener" and asks for a long grace period;
    // the open connection finishes soon after, which ends the program.
    let mut it = interpreter();
    let (listener, _listener_peer) = conn(&mut it);
    let (_c, conn_peer) = conn(&mut it);
    let calls = Rc::new(RefCell::new(Vec::new()));
    let (tell, told) = mpsc::channel::<()>();
    {
        let calls = Rc::clone(&calls);
        it.event_loop()
            .expect("loop")
            .on_shutdown(Box::new(move |it, sig| {
                calls.borrow_mut().push(sig);
                let lp = it.event_loop()?;
                lp.deregister(listener);
                assert!(lp.shutting_down() || !lp.has_source(listener));
                let _ = tell.send(());
                Ok(Some(Duration::from_secs(30)))
            }));
    }
    // The client closes its connection once the shutdown has begun.
    let closer = std::thread::spawn(move || {
        told.recv().expect("the hook ran");
        std::thread::sleep(Duration::from_millis(50));
        drop(conn_peer);
    });
    // A timer that would keep a running program alive does not hold a
    // draining one.
    it.event_loop().expect("loop").set_timer(0, 60_000, false);
    signal_hook::low_level::raise(SIGTERM).expect("raise");
    let start = Instant::now();
    assert_eq!(it.run_event_loop(), Err(Trap::Exit(128 + SIGTERM)));
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    closer.join().expect("closer");
    assert_eq!(*calls.borrow(), vec![SIGTERM], "the hook ran once");
    assert!(it.event_loop().expect("loop").shutting_down());
    drop(it);

    // 3. A connection that never finishes: the grace period ends it.
    let mut it = interpreter();
    let (_c, _stuck_peer) = conn(&mut it);
    const GRACE: Duration = Duration::from_millis(300);
    it.event_loop()
        .expect("loop")
        .on_shutdown(Box::new(|_, _| Ok(Some(GRACE))));
    signal_hook::low_level::raise(SIGTERM).expect("raise");
    let start = Instant::now();
    assert_eq!(it.run_event_loop(), Err(Trap::Exit(128 + SIGTERM)));
    let took = start.elapsed();
    assert!(took >= GRACE, "{took:?}");
    assert!(took < Duration::from_secs(20), "{took:?}");
}
