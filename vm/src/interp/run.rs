//! `run`: the entry function, then the event loop while anything keeps
//! the program alive, then `on exit` and the exit status; buffered
//! stdout; teardown (also on drop).

use super::{FinishHook, Interpreter};
use crate::native::Trap;
use crate::value::Value;
use std::io::Write;

/// Capacity of the buffer of a sink given by
/// [`Interpreter::set_output`]; the process's stdout has its own
/// ([`crate::stdout::BUFFER`]).
pub(super) const OUT_BUFFER: usize = 1 << 16;

/// Where `log` output goes: the process's stdout (shared by every
/// interpreter of the process, see [`crate::stdout`]) or a sink of this
/// interpreter's own (tests, embedders: [`Interpreter::set_output`]).
pub(super) enum Output {
    /// File descriptor 1, through [`crate::stdout`].
    Process,
    /// A sink given by [`Interpreter::set_output`].
    Local(LocalOutput),
}

/// A sink of one interpreter, block-buffered or flushed per line.
pub(super) struct LocalOutput {
    pub(super) buf: Vec<u8>,
    pub(super) sink: Box<dyn Write>,
    pub(super) line_flush: bool,
    /// The first write error, and whether it has been reported.
    pub(super) error: Option<std::io::Error>,
    pub(super) reported: bool,
}

impl Output {
    /// Append `bytes` (and a newline when `newline`) under the sink's
    /// flushing policy.
    #[inline]
    pub(super) fn write(&mut self, bytes: &[u8], newline: bool) {
        match self {
            Output::Process => crate::stdout::write(bytes, newline),
            Output::Local(o) => {
                o.buf.extend_from_slice(bytes);
                if newline {
                    o.buf.push(b'\n');
                }
                if (o.line_flush && newline) || o.buf.len() >= OUT_BUFFER {
                    o.flush();
                }
            }
        }
    }

    pub(super) fn flush(&mut self) {
        match self {
            Output::Process => crate::stdout::flush(),
            Output::Local(o) => o.flush(),
        }
    }

    /// Whether a write failed and nobody has reported it yet (cheap).
    #[inline]
    pub(super) fn error_pending(&self) -> bool {
        match self {
            Output::Process => crate::stdout::error_pending(),
            Output::Local(o) => o.error.is_some() && !o.reported,
        }
    }

    /// The unreported write error's message, marking it reported.
    pub(super) fn take_error(&mut self) -> Option<String> {
        match self {
            Output::Process => crate::stdout::take_error(),
            Output::Local(o) if !o.reported => {
                o.reported = true;
                o.error.as_ref().map(crate::stdout::os_message)
            }
            Output::Local(_) => None,
        }
    }
}

impl LocalOutput {
    fn flush(&mut self) {
        if !self.buf.is_empty() && self.error.is_none() {
            if let Err(e) = self
                .sink
                .write_all(&self.buf)
                .and_then(|()| self.sink.flush())
            {
                // A closed pipe is not the program's failure: drop the bytes.
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    self.error = Some(e);
                }
            }
        }
        self.buf.clear();
    }
}

impl Interpreter {
    /// Run the entry function with `argv`, then the event loop while
    /// anything keeps the program alive (§12.2); returns the exit status:
    /// 0 normally, the code given to `close` (or `128 + signal` for a
    /// handled `SIGINT`/`SIGTERM`), 1 after a runtime failure or an
    /// uncaught throw, in the entry function or any callback (having
    /// printed `fail: <message>` to stderr). Before exiting through
    /// `close` or a signal, the top-level `on exit(code)` handler runs
    /// with the same code (§12.3); it does not run on a normal end or
    /// after a failure.
    pub fn run(&mut self, argv: Vec<String>) -> i32 {
        self.argv = argv;
        let mut result = self.execute();
        if result.is_ok() {
            result = self.run_event_loop();
        }
        if let Err(Trap::Exit(code)) = result {
            result = self.run_exit_handler(code);
        }
        let mut code = match result {
            Ok(()) => 0,
            Err(t) => self.report_trap(t),
        };
        if let Some(mut hook) = self.finish.take() {
            code = hook(self, code);
        }
        self.out.flush();
        // A write to stdout that failed after the last `log` (at the final
        // flush, or by the watchdog): reported here, and never a success.
        if let Some(m) = self.out.take_error() {
            self.write_stderr(&format!("fail: cannot write to stdout: {m}\n"));
            if code == 0 {
                code = 1;
            }
        }
        self.teardown();
        code
    }

    /// Report `trap` the way the end of a program does (§14.2): `fail:
    /// <message>` and the Festina call stack on stderr for a failure or
    /// an uncaught throw; returns the exit status it means (1, or the
    /// code of `close`). Used by `run` and by the runner of a Festina
    /// thread, whose uncaught failure ends the process (§20.2).
    pub fn report_trap(&mut self, trap: Trap) -> i32 {
        match trap {
            Trap::Exit(c) => c,
            Trap::FailReported => 1,
            Trap::Park => {
                self.write_stderr("fail: internal error: a call parked where none may\n");
                1
            }
            Trap::Fail(m) | Trap::Throw(m) => {
                let stack = self.render_trace(&m);
                self.write_stderr(&format!("fail: {m}\n{stack}"));
                1
            }
        }
    }

    /// Call `hook` when the program has finished, however it finished (an
    /// ordinary end, `close(code)`, a runtime failure, whose `fail:` line
    /// comes first): after its own output, before anything is released;
    /// the exit status becomes what `hook` returns. `festina test` prints
    /// its report this way.
    pub fn set_finish_hook(&mut self, hook: FinishHook) {
        self.finish = Some(hook);
    }

    /// §12.3: run the top-level `on exit(code:int)` handler, if declared,
    /// then exit with `code`. A `close(c)` inside the handler exits with
    /// `c` at once (the handler does not run again); a failure or throw in
    /// it is reported as usual.
    pub(super) fn run_exit_handler(&mut self, code: i32) -> Result<(), Trap> {
        let Some(h) = self.program.handler("exit") else {
            return Err(Trap::Exit(code));
        };
        self.call_function(&Value::Func(h), &[Value::Int(code as i64)])?;
        Err(Trap::Exit(code))
    }

    pub(super) fn execute(&mut self) -> Result<(), Trap> {
        let entry = self.program.entry;
        if let Err(stop) = self.ensure_regs(self.fns[entry as usize].nregs as usize) {
            let at = self.loc(entry, 0);
            return Err(Trap::Fail(self.call_stop_message(stop, entry, &at)));
        }
        let r = self.dispatch(entry, 0).map(|_| ());
        if r.is_ok() {
            // Every frame has returned: callbacks run later (timers,
            // events) start at the bottom of the register stack.
            self.native_top = 0;
        }
        r
    }

    /// Release every register, frame, handler and global, then collect
    /// remaining cycles.
    pub(super) fn teardown(&mut self) {
        self.event_loop = None;
        self.frames.clear();
        self.handlers.clear();
        self.regs.clear();
        self.argv_value = None;
        self.sites.clear();
        for g in self.globals.iter_mut() {
            *g = Value::Null;
        }
        self.heap.collect_cycles();
        // Native-module state last: it may own resources (the database
        // connection) that values released above were using.
        self.exts.clear();
    }
}

impl Drop for Interpreter {
    fn drop(&mut self) {
        self.out.flush();
        self.teardown();
    }
}
