//! The natives' API: what a native (or an event-loop handler, or an
//! embedder) may use of the interpreter -- output, argv, values, call-site
//! values, the event loop and each facility's own state. Natives reach
//! the interpreter only through these accessors (and
//! [`Interpreter::call_function`], in `call.rs`).

use super::run::{LocalOutput, Output, OUT_BUFFER};
use super::Interpreter;
use crate::event_loop::EventLoop;
use crate::heap::Heap;
use crate::native::Trap;
use crate::program::Program;
use crate::render;
use crate::value::Value;
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;

impl Interpreter {
    /// Redirect stdout and stderr (tests, embedding). `line_flush`: flush
    /// stdout after every line.
    pub fn set_output(&mut self, out: Box<dyn Write>, err: Box<dyn Write>, line_flush: bool) {
        self.out.flush();
        self.out = Output::Local(LocalOutput {
            buf: Vec::with_capacity(OUT_BUFFER),
            sink: out,
            line_flush,
            error: None,
            reported: false,
        });
        self.err = err;
    }

    /// The loaded program.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// The heap this interpreter allocates from.
    pub fn heap(&self) -> &Rc<Heap> {
        &self.heap
    }

    /// Number of live structs, arrays and maps (for tests and diagnostics).
    pub fn live_objects(&self) -> usize {
        self.heap.live()
    }

    /// The process arguments given to [`Interpreter::run`] (`argv[0]` is
    /// the program path).
    pub fn argv(&self) -> &[String] {
        &self.argv
    }

    /// The `argv` global object (§16.2): one `arr[text]`, created on first
    /// use; every call returns the same array.
    pub fn argv_value(&mut self) -> Value {
        if let Some(v) = &self.argv_value {
            return v.clone();
        }
        let items = self.argv.iter().map(|s| Value::text(s.as_str())).collect();
        let v = Value::Arr(self.heap.new_arr(items));
        self.argv_value = Some(v.clone());
        v
    }

    /// Write one line (plus `\n`) to stdout under the flushing policy
    /// ([`crate::stdout`]). A failed write is kept for
    /// [`Interpreter::output_status`].
    pub fn write_line(&mut self, s: &str) {
        self.out.write(s.as_bytes(), true);
    }

    /// Write raw bytes to stdout (buffered like lines).
    pub fn write_stdout(&mut self, b: &[u8]) {
        self.out.write(b, false);
    }

    /// `Err` once after a write to stdout has failed (a full disk,
    /// `> /dev/full`): the runtime failure `cannot write to stdout: No
    /// space left on device at app.f:3`, naming the line of the native
    /// now running. Natives that write lines (`log`) call it after
    /// writing; a failure found after the last of them is reported when
    /// the run ends. One atomic load when nothing failed.
    pub fn output_status(&mut self) -> Result<(), Trap> {
        if !self.out.error_pending() {
            return Ok(());
        }
        match self.out.take_error() {
            Some(m) => Err(Trap::Fail(format!(
                "cannot write to stdout: {m} at {}",
                self.location()
            ))),
            None => Ok(()),
        }
    }

    /// Flush stdout now.
    pub fn flush_output(&mut self) {
        self.out.flush();
    }

    /// Write to stderr, after flushing stdout so the two stay in order.
    pub fn write_stderr(&mut self, s: &str) {
        self.out.flush();
        let _ = self.err.write_all(s.as_bytes());
        let _ = self.err.flush();
    }

    /// The runtime failure for a growth the allocator refused (see
    /// [`crate::oom`]): `out of memory <what> at file:line`, naming the
    /// line of the native now running; `what` says what was growing to
    /// what size (`growing an array to 134217728 elements`).
    pub fn out_of_memory(&self, what: impl std::fmt::Display) -> Trap {
        Trap::Fail(format!("out of memory {what} at {}", self.location()))
    }

    /// `file:line` of the instruction being executed (inside a native: the
    /// `CallNative`).
    pub fn location(&self) -> String {
        self.loc(self.cur_loc.0, self.cur_loc.1)
    }

    /// Render a value as text (§8.21), top-level form.
    pub fn render(&self, v: &Value) -> String {
        render::to_string(&self.program, v)
    }

    /// The value the native now running stored for its call site with
    /// [`Interpreter::set_site_value`] (a compiled regex literal, §8.15).
    pub fn site_value(&self) -> Option<&Value> {
        self.sites.get(&self.cur_loc)
    }

    /// Keep `v` for the call site of the native now running, for the life
    /// of this interpreter (one per thread).
    pub fn set_site_value(&mut self, v: Value) {
        self.sites.insert(self.cur_loc, v);
    }

    /// The state of type `T` a facility keeps in this interpreter (set
    /// with [`Interpreter::set_ext`]), if any. Such state belongs to this
    /// interpreter (one per thread, no global state) and is dropped when
    /// the run ends, after every Festina value: the database connection
    /// (§15.1) lives here and is closed that way. See
    /// [`super::Extensions`].
    pub fn ext<T: std::any::Any>(&self) -> Option<&T> {
        self.exts.get::<T>()
    }

    /// [`Interpreter::ext`], mutably.
    pub fn ext_mut<T: std::any::Any>(&mut self) -> Option<&mut T> {
        self.exts.get_mut::<T>()
    }

    /// Keep `v` as this interpreter's state of type `T`, replacing (and
    /// dropping) any earlier one.
    pub fn set_ext<T: std::any::Any>(&mut self, v: T) {
        self.exts.insert(v);
    }

    /// This interpreter's state of type `T`, created by `make` on first
    /// use.
    pub fn ext_or_insert_with<T: std::any::Any>(&mut self, make: impl FnOnce() -> T) -> &mut T {
        self.exts.get_or_insert_with(make)
    }

    /// Take this interpreter's state of type `T` out (a facility shutting
    /// down before the run ends).
    pub fn take_ext<T: std::any::Any>(&mut self) -> Option<T> {
        self.exts.remove::<T>()
    }

    /// A fresh struct `sid` with every field at its zero value (§8.2),
    /// like `NewStruct`; `None` if `sid` is not a struct of the program.
    pub fn new_struct(&mut self, sid: u32) -> Option<Value> {
        let fields = self
            .heap
            .fields_like(self.tables.struct_zero.get(sid as usize)?);
        let tracked = self.tables.struct_tracked[sid as usize];
        self.maybe_collect();
        Some(Value::Struct(
            self.heap.new_struct(sid, false, fields, tracked),
        ))
    }

    /// A fresh array holding `items`.
    pub fn new_arr(&mut self, items: Vec<Value>) -> Value {
        self.maybe_collect();
        Value::Arr(self.heap.new_arr(items))
    }

    /// A fresh empty map.
    pub fn new_map(&mut self) -> Value {
        self.maybe_collect();
        Value::Map(self.heap.new_map())
    }

    /// A fresh map whose entries are made from `source` when the map is
    /// first used (see [`crate::value::MapData`], "Deferred entries").
    pub fn new_map_from(&mut self, source: Rc<dyn crate::value::MapSource>) -> Value {
        self.maybe_collect();
        Value::Map(self.heap.new_map_from(source))
    }

    /// A fresh empty map with room for `n` entries, for a native that
    /// knows how many keys it will set (a message's headers).
    pub fn new_map_with_capacity(&mut self, n: usize) -> Value {
        self.maybe_collect();
        Value::Map(self.heap.new_map_with_capacity(n))
    }

    /// The event loop of this interpreter, created on first use (with
    /// `SIGINT`/`SIGTERM` handling unless switched off). Errors: the
    /// operating system refused the poll, waker or signal handlers (a
    /// runtime failure).
    pub fn event_loop(&mut self) -> Result<&mut EventLoop, Trap> {
        if self.event_loop.is_none() {
            let lp = EventLoop::new(self.signals)
                .map_err(|e| Trap::Fail(format!("cannot start the event loop: {e}")))?;
            self.event_loop = Some(Box::new(lp));
        }
        match self.event_loop.as_deref_mut() {
            Some(lp) => Ok(lp),
            None => Err(Trap::Fail("cannot start the event loop".into())),
        }
    }

    /// The event loop if something has started it.
    pub fn event_loop_if_started(&mut self) -> Option<&mut EventLoop> {
        self.event_loop.as_deref_mut()
    }

    /// Whether an event loop created later takes over `SIGINT` and
    /// `SIGTERM` (§12.3; default on). Embedders and tests that run
    /// several interpreters in one process switch it off.
    pub fn set_signal_handling(&mut self, on: bool) {
        self.signals = on;
    }

    /// Whether the dispatch loop uses its fast tier (default: on unless
    /// `FESTINA_NO_FAST_TIER` or `FESTINA_NO_OPT` was set when the
    /// interpreter was created; see [`crate::switches`]). Results are the
    /// same either way; tests run both.
    pub fn set_fast_tier(&mut self, on: bool) {
        self.fast_tier = on;
    }

    /// Whether the fast tier is on (see [`Interpreter::set_fast_tier`]).
    pub fn fast_tier(&self) -> bool {
        self.fast_tier
    }

    /// Read global `g` (tests, natives).
    pub fn global(&self, g: usize) -> Option<&Value> {
        self.globals.get(g)
    }

    /// The function handling `event` here (§11.5): the program's
    /// top-level handler, or, after [`Interpreter::set_handlers`], only
    /// the handlers given there.
    pub fn handler(&self, event: &str) -> Option<u32> {
        match &self.own_handlers {
            Some(own) => own.iter().find(|(e, _)| e == event).map(|(_, f)| *f),
            None => self.program.handler(event),
        }
    }

    /// Make `handlers` (event name, function index) this interpreter's
    /// event handlers instead of the program's top-level ones: the
    /// runner of a Festina thread gives the thread body's handlers
    /// (§20.1, §20.8), so that its HTTP server calls them.
    pub fn set_handlers(&mut self, handlers: Vec<(String, u32)>) {
        self.own_handlers = Some(handlers);
    }
}
