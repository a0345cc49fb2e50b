//! The interpreter: one dispatch loop over verified register bytecode.
//!
//! An [`Interpreter`] owns all mutable state of one Festina thread: the
//! register stack, saved call frames, globals, the exception-handler
//! stack, the heap, buffered stdout and argv. The [`Program`] is shared and
//! immutable (`Arc<Program>`).
//!
//! # Frames
//! Calls use Lua-style register windows. The current frame's registers are
//! `regs[base .. base + nregs]`. `Call { dst, base: b, func }` starts the
//! callee's window at the caller's `base + b`, where the arguments already
//! are; nothing else is initialised, as the code generator writes every
//! register before reading it (a register may hold a stale scalar, never a
//! managed value nobody owns: every write releases what it overwrites). On
//! return every managed value in the callee's window is released at once
//! (§13.1; scalars own nothing and are left), and the result is written into
//! the caller's `R[dst]` (left untouched by `ReturnVoid`). Consequently a
//! call clobbers the caller's registers `R[b..]`: the code generator puts
//! argument blocks above every live register. The Rust stack stays flat:
//! Festina calls push a [`Frame`] record, never recurse in Rust. Depth is
//! limited to [`MAX_FRAMES`] (a runtime failure `stack overflow in function
//! 'f' at file:line`).
//!
//! # Dispatch
//! Two tiers over the same code. `Interpreter::run_fast` is a small
//! function without a single call in it: it runs the common cases of the
//! hot instructions (int and float arithmetic, compare-and-branch, scalar
//! moves, int array reads, scalar field reads, calls and returns whose
//! windows hold only scalars) with `ip`, `fp` and the current frame in
//! machine registers, and returns at the first instruction it does not
//! handle. The full step in `dispatch_loop` runs any instruction with every
//! rule of its semantics (releases, vivification, traps, natives), then
//! hands back to the fast tier when the next instruction has a fast path.
//! The two agree by construction: the fast tier leaves before writing
//! anything whenever a case is not its own. The current frame
//! (`Interpreter::cur`) is kept in the interpreter rather than in locals,
//! so that the full step's loop carries only `ip`, `fp` and `self`.
//!
//! Each arm of `run_fast` ends with its own copy of the dispatch jump
//! (threaded dispatch), which the CPU predicts far better than one shared
//! jump; LLVM makes the copies when the tail-duplication limits are raised,
//! which the workspace's `.cargo/config.toml` does (benches/RESULTS.md).
//!
//! At load the interpreter copies each function's code and pairs some
//! instructions that always run back to back (`AddIntImmCmpJump`,
//! `MulAddInt`; not with `FESTINA_NO_FUSION`, see [`crate::switches`]),
//! and [`crate::windows`] finds the functions whose
//! registers only ever hold scalars: their returns skip the release scan.
//!
//! # Exceptions
//! `TryEnter` pushes a handler recording the frame depth, the frame's base,
//! the catch register and the continuation pc. `Throw` (or a native's
//! `Trap::Throw`) pops the newest handler, unwinds the frames above it
//! (nulling their windows, which releases their values, §13.7), stores the
//! text in the catch register and jumps. With no handler, it is a runtime
//! failure with the thrown text. Returning from a frame drops any handlers
//! that frame left open (`return` inside `try`, §10.8).
//!
//! # Output
//! stdout goes through a buffer owned by the interpreter. When stdout is a
//! terminal every `log` line is flushed at once (§16.5); otherwise (a pipe
//! or file) lines are block-buffered for speed and flushed when the buffer
//! fills, before anything is written to stderr (so failure messages come
//! after the output that preceded them), and at exit.

use crate::event_loop::EventLoop;
use crate::heap::Heap;
use crate::native::{NativeEntry, NativeFn, Trap};
use crate::opcode::{Instr, Reg};
use crate::program::{Const, Program};
use crate::render;
use crate::types::Type;
use crate::value::{EnumBox, TextObj, Value};
use std::fmt;
use std::io::{IsTerminal, Write};
use std::rc::Rc;
use std::sync::Arc;

/// Maximum call depth before a `stack overflow` runtime failure.
pub const MAX_FRAMES: usize = 100_000;

/// Maximum nesting of natives calling back into Festina
/// ([`Interpreter::call_function`], e.g. a `sort` comparator that sorts):
/// each level is a Rust-level dispatch loop, so the Rust stack bounds it.
pub const MAX_NATIVE_DEPTH: usize = 200;

/// Flush the stdout buffer when it grows past this many bytes.
const OUT_BUFFER: usize = 1 << 16;

/// A program could not be loaded: it failed verification or names a
/// native the registry does not provide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// Human-readable reason.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LoadError {}

/// A saved caller frame.
#[derive(Clone, Copy, Debug)]
struct Frame {
    func: u32,
    /// The caller's window size (saves a lookup on return).
    nregs: u32,
    /// The caller's next instruction (into `Interpreter::code`, whose
    /// boxes never move).
    ret: *const Instr,
    base: usize,
    /// Caller register receiving the result.
    dst: Reg,
}

/// What a call needs to know of a function, in one small record built at
/// load: where its code starts (the interpreter's own copy, which never
/// moves) and its window size.
#[derive(Clone, Copy, Debug)]
struct FnInfo {
    code: *const Instr,
    nregs: u32,
    /// The window only ever holds scalars: a return has nothing to
    /// release (see [`crate::windows`]).
    scalar: bool,
}

/// The frame the dispatch loop is running: function, register window
/// base and size. Kept in the interpreter rather than in locals of the
/// loop so that the loop's hot state is only `ip` and `fp`.
#[derive(Clone, Copy, Debug, Default)]
struct Cur {
    func: u32,
    base: usize,
    nregs: usize,
}

/// An active `try`.
#[derive(Clone, Copy, Debug)]
struct Handler {
    /// `frames.len()` when entered: the handler's frame level.
    depth: usize,
    func: u32,
    base: usize,
    reg: Reg,
    target: usize,
}

/// How a field-bearing struct slot vivifies (§8.9.2).
#[derive(Clone, Copy, Debug)]
enum Viv {
    None,
    Struct(u32),
    Arr,
    Map,
}

/// Stdout sink with the flushing policy described in the module docs.
struct Output {
    buf: Vec<u8>,
    sink: Box<dyn Write>,
    line_flush: bool,
}

impl Output {
    fn flush(&mut self) {
        if !self.buf.is_empty() {
            // A closed pipe is not the program's failure: drop the bytes.
            let _ = self.sink.write_all(&self.buf);
            self.buf.clear();
        }
        let _ = self.sink.flush();
    }
}

/// Per-program tables computed once at load.
struct Tables {
    /// Zero-valued field slots per struct (§8.2).
    struct_zero: Vec<Box<[Value]>>,
    /// Whether instances of each struct are cycle-collection candidates.
    struct_tracked: Vec<bool>,
    /// Vivification kind of each field of each struct.
    field_viv: Vec<Vec<Viv>>,
    /// Per enum: member index holding each struct id (`u16::MAX`: none).
    enum_sid_tag: Vec<SidTags>,
    /// The constant pool as values (texts built once, then shared).
    consts: Vec<Value>,
    /// Member names of each enum as text values.
    enum_names: Vec<Vec<Value>>,
}

/// The member index of each struct id in one enum: a table indexed by
/// struct id when the enum's struct ids are dense enough, otherwise sorted
/// pairs (so that many enums over many structs stay small).
enum SidTags {
    Dense(Vec<u16>),
    Sparse(Vec<(u32, u16)>),
}

impl SidTags {
    fn new(e: &crate::program::Enum) -> SidTags {
        let mut pairs: Vec<(u32, u16)> = Vec::new();
        for (m, ty) in e.members.iter().enumerate() {
            if let Type::Struct(sid) = ty.strip_manual() {
                pairs.push((*sid, u16::try_from(m).unwrap_or(u16::MAX)));
            }
        }
        // The first member holding a struct wins (a stable sort keeps them
        // in member order).
        pairs.sort_by_key(|(sid, _)| *sid);
        pairs.dedup_by_key(|(sid, _)| *sid);
        let len = pairs
            .iter()
            .map(|(s, _)| *s as usize + 1)
            .max()
            .unwrap_or(0);
        if len <= 8 * pairs.len() + 64 {
            let mut t = vec![u16::MAX; len];
            for (sid, m) in pairs {
                t[sid as usize] = m;
            }
            SidTags::Dense(t)
        } else {
            SidTags::Sparse(pairs)
        }
    }

    /// The member holding struct `sid`, or `u16::MAX`.
    fn get(&self, sid: u32) -> u16 {
        match self {
            SidTags::Dense(t) => t.get(sid as usize).copied().unwrap_or(u16::MAX),
            SidTags::Sparse(p) => p
                .binary_search_by_key(&sid, |(s, _)| *s)
                .map_or(u16::MAX, |i| p[i].1),
        }
    }
}

/// One Festina execution context (one per OS thread). See the module
/// documentation for frames, unwinding and output.
pub struct Interpreter {
    program: Arc<Program>,
    natives: Vec<NativeFn>,
    tables: Tables,
    /// Each function's code with a `ReturnVoid` appended, so falling off
    /// the end returns and the fetch needs no bounds check.
    code: Rc<[Box<[Instr]>]>,
    /// Per function: code start and window size (see [`FnInfo`]).
    fns: Box<[FnInfo]>,
    regs: Vec<Value>,
    frames: Vec<Frame>,
    handlers: Vec<Handler>,
    globals: Vec<Value>,
    heap: Rc<Heap>,
    out: Output,
    err: Box<dyn Write>,
    argv: Vec<String>,
    argv_value: Option<Value>,
    arg_buf: Vec<Value>,
    /// Function and instruction index of the native call in progress.
    cur_loc: (u32, usize),
    /// First register above the window of the frame whose `CallNative` is
    /// in progress: where [`Interpreter::call_function`] starts a callee.
    native_top: usize,
    /// Nesting of [`Interpreter::call_function`] dispatch loops.
    native_depth: usize,
    /// The frame the innermost dispatch loop is running.
    cur: Cur,
    /// Per-call-site values kept by natives (compiled regexes, §8.15),
    /// keyed by the `CallNative`'s function and instruction index.
    sites: hashbrown::HashMap<(u32, usize), Value>,
    /// Per-interpreter state of standard-library modules, one value per
    /// Rust type (the database connection, §15.1); see
    /// [`Interpreter::ext_mut`]. Dropped at teardown, after every value.
    exts: Vec<Box<dyn std::any::Any>>,
    /// The event loop (timers, background jobs, sources), created on first
    /// use; see [`crate::event_loop`].
    event_loop: Option<Box<EventLoop>>,
    /// Whether a newly created event loop takes over `SIGINT`/`SIGTERM`.
    signals: bool,
    /// Run by [`Interpreter::run`] once the program has finished; see
    /// [`Interpreter::set_finish_hook`].
    finish: Option<FinishHook>,
}

/// What [`Interpreter::run`] calls once the program has finished: given
/// the interpreter (output still open, values not yet released) and the
/// exit status, it returns the status to exit with.
pub type FinishHook = Box<dyn FnMut(&mut Interpreter, i32) -> i32>;

impl fmt::Debug for Interpreter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Interpreter")
            .field("frames", &self.frames.len())
            .field("registers", &self.regs.len())
            .field("live_objects", &self.heap.live())
            .finish()
    }
}

impl Interpreter {
    /// Load `program`: verify it (see [`crate::verify`]) and bind every
    /// name in `program.natives` to the entry of `natives` with that name.
    /// Errors: a verification failure, or an unknown native name.
    pub fn new(program: Arc<Program>, natives: &[NativeEntry]) -> Result<Interpreter, LoadError> {
        crate::verify::verify(&program).map_err(|e| LoadError {
            message: format!("invalid program: {e}"),
        })?;
        let mut bound = Vec::with_capacity(program.natives.len());
        for name in &program.natives {
            match natives.iter().find(|e| e.name == name) {
                Some(e) => bound.push(e.func),
                None => {
                    return Err(LoadError {
                        message: format!(
                            "the program calls the native function '{name}', which this build of festina does not provide"
                        ),
                    })
                }
            }
        }
        let tables = build_tables(&program);
        let fuse = !crate::switches::disabled(crate::switches::NO_FUSION);
        let code = program
            .functions
            .iter()
            .map(|f| {
                let mut c = f.code.clone();
                if fuse {
                    fuse_pairs(&mut c);
                }
                c.push(Instr::ReturnVoid {});
                c.into_boxed_slice()
            })
            .collect::<Rc<[Box<[Instr]>]>>();
        let scalar = crate::windows::scalar_windows(&program);
        let fns = program
            .functions
            .iter()
            .zip(code.iter())
            .zip(scalar)
            .map(|((f, c), scalar)| FnInfo {
                code: c.as_ptr(),
                nregs: f.nregs as u32,
                scalar,
            })
            .collect();
        let globals = program.globals.iter().map(|g| zero_scalar(&g.ty)).collect();
        let stdout = std::io::stdout();
        let line_flush = stdout.is_terminal();
        Ok(Interpreter {
            natives: bound,
            tables,
            code,
            fns,
            regs: Vec::new(),
            frames: Vec::new(),
            handlers: Vec::new(),
            globals,
            heap: Heap::new(),
            out: Output {
                buf: Vec::with_capacity(OUT_BUFFER),
                sink: Box::new(stdout),
                line_flush,
            },
            err: Box::new(std::io::stderr()),
            argv: Vec::new(),
            argv_value: None,
            arg_buf: Vec::new(),
            cur_loc: (program.entry, 0),
            native_top: 0,
            native_depth: 0,
            cur: Cur::default(),
            sites: hashbrown::HashMap::new(),
            exts: Vec::new(),
            event_loop: None,
            signals: true,
            finish: None,
            program,
        })
    }

    /// Call `hook` when the program has finished, however it finished (an
    /// ordinary end, `close(code)`, a runtime failure, whose `fail:` line
    /// comes first): after its own output, before anything is released;
    /// the exit status becomes what `hook` returns. `festina test` prints
    /// its report this way.
    pub fn set_finish_hook(&mut self, hook: FinishHook) {
        self.finish = Some(hook);
    }

    /// Redirect stdout and stderr (tests, embedding). `line_flush`: flush
    /// stdout after every line.
    pub fn set_output(&mut self, out: Box<dyn Write>, err: Box<dyn Write>, line_flush: bool) {
        self.out.flush();
        self.out.sink = out;
        self.out.line_flush = line_flush;
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

    /// Write one line (plus `\n`) to stdout under the flushing policy.
    pub fn write_line(&mut self, s: &str) {
        self.out.buf.extend_from_slice(s.as_bytes());
        self.out.buf.push(b'\n');
        if self.out.line_flush || self.out.buf.len() >= OUT_BUFFER {
            self.out.flush();
        }
    }

    /// Write raw bytes to stdout (buffered).
    pub fn write_stdout(&mut self, b: &[u8]) {
        self.out.buf.extend_from_slice(b);
        if self.out.buf.len() >= OUT_BUFFER {
            self.out.flush();
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

    /// `file:line` of the instruction being executed (inside a native: the
    /// `CallNative`).
    pub fn location(&self) -> String {
        self.loc(self.cur_loc.0, self.cur_loc.1)
    }

    /// Render a value as text (§8.21), top-level form.
    pub fn render(&self, v: &Value) -> String {
        render::to_string(&self.program, v)
    }

    /// Call the Festina function `func` (a [`Value::Func`]) with `args`
    /// from inside a native, running a nested dispatch loop until it
    /// returns, and yield its result (`Value::Null` for a `void`
    /// function). Used by natives that call back into Festina: `sort`'s
    /// comparator, `forEach`'s callback (§16.3), timers and events.
    ///
    /// The callee's window starts above the window of the frame whose
    /// `CallNative` is in progress, so nothing of the caller is touched. A
    /// `throw` the callee does not catch unwinds its frames (releasing
    /// their values, §13.7) and comes back as `Err(Trap::Throw)`: the
    /// native returns it and the caller's `try` receives it. Other traps
    /// (`fail`, `close`) propagate the same way.
    ///
    /// Errors: a runtime failure for a null or out-of-range function
    /// value, a wrong argument count, or nesting deeper than
    /// [`MAX_NATIVE_DEPTH`] (`stack overflow`).
    pub fn call_function(&mut self, func: &Value, args: &[Value]) -> Result<Value, Trap> {
        let f = match func {
            Value::Func(f) if (*f as usize) < self.program.functions.len() => *f,
            _ => {
                return Err(Trap::Fail(format!(
                    "call of a null function value at {}",
                    self.location()
                )))
            }
        };
        let (nparams, nregs) = {
            let cf = &self.program.functions[f as usize];
            (cf.nparams as usize, cf.nregs as usize)
        };
        if args.len() != nparams {
            return Err(Trap::Fail(format!(
                "function '{}' takes {nparams} arguments, given {} at {}",
                self.program.functions[f as usize].name,
                args.len(),
                self.location()
            )));
        }
        if self.native_depth >= MAX_NATIVE_DEPTH {
            return Err(Trap::Fail(format!(
                "stack overflow in function '{}' at {}",
                self.program.functions[f as usize].name,
                self.location()
            )));
        }
        let start = self.native_top;
        self.ensure_regs(start + nregs.max(nparams));
        for (i, a) in args.iter().enumerate() {
            self.regs[start + i] = a.clone();
        }
        let frames = std::mem::take(&mut self.frames);
        let handlers = std::mem::take(&mut self.handlers);
        let (saved_loc, saved_top) = (self.cur_loc, self.native_top);
        self.native_depth += 1;
        let result = self.dispatch(f, start);
        self.native_depth -= 1;
        if result.is_err() {
            // The frames the trap left behind still hold values: release
            // everything above the caller's window (where no managed value
            // lived before the call).
            for r in &mut self.regs[start..] {
                *r = Value::Null;
            }
        }
        self.frames = frames;
        self.handlers = handlers;
        self.cur_loc = saved_loc;
        self.native_top = saved_top;
        result
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

    /// The state of type `T` a native module keeps in this interpreter
    /// (set with [`Interpreter::set_ext`]), if any. Such state belongs to
    /// this interpreter (one per thread, no global state) and is dropped
    /// when the run ends, after every Festina value: the database
    /// connection (§15.1) lives here and is closed that way.
    pub fn ext_mut<T: std::any::Any>(&mut self) -> Option<&mut T> {
        self.exts.iter_mut().find_map(|b| b.downcast_mut::<T>())
    }

    /// Keep `v` as this interpreter's state of type `T`, replacing (and
    /// dropping) any earlier one.
    pub fn set_ext<T: std::any::Any>(&mut self, v: T) {
        match self.ext_mut::<T>() {
            Some(slot) => *slot = v,
            None => self.exts.push(Box::new(v)),
        }
    }

    /// A fresh struct `sid` with every field at its zero value (§8.2),
    /// like `NewStruct`; `None` if `sid` is not a struct of the program.
    pub fn new_struct(&mut self, sid: u32) -> Option<Value> {
        let fields = self.tables.struct_zero.get(sid as usize)?.clone();
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
            Err(Trap::Exit(c)) => c,
            Err(Trap::FailReported) => 1,
            Err(Trap::Fail(m)) | Err(Trap::Throw(m)) => {
                self.write_stderr(&format!("fail: {m}\n"));
                1
            }
        };
        if let Some(mut hook) = self.finish.take() {
            code = hook(self, code);
        }
        self.out.flush();
        self.teardown();
        code
    }

    /// §12.3: run the top-level `on exit(code:int)` handler, if declared,
    /// then exit with `code`. A `close(c)` inside the handler exits with
    /// `c` at once (the handler does not run again); a failure or throw in
    /// it is reported as usual.
    fn run_exit_handler(&mut self, code: i32) -> Result<(), Trap> {
        let Some(h) = self.program.handler("exit") else {
            return Err(Trap::Exit(code));
        };
        self.call_function(&Value::Func(h), &[Value::Int(code as i64)])?;
        Err(Trap::Exit(code))
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

    /// Release every register, frame, handler and global, then collect
    /// remaining cycles.
    fn teardown(&mut self) {
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

    /// Read global `g` (tests, natives).
    pub fn global(&self, g: usize) -> Option<&Value> {
        self.globals.get(g)
    }

    fn loc(&self, func: u32, pc: usize) -> String {
        let f = &self.program.functions[func as usize];
        let file = self
            .program
            .files
            .get(f.file as usize)
            .map_or("?", |s| s.as_str());
        // The appended `ReturnVoid` (pc == len) reports the last line.
        let line = f.lines.get(pc).or(f.lines.last()).copied().unwrap_or(0);
        format!("{file}:{line}")
    }

    // ---- register access --------------------------------------------------

    #[inline(always)]
    fn r(&self, i: usize) -> &Value {
        debug_assert!(i < self.regs.len());
        // SAFETY: the verifier guarantees every register operand is below
        // the function's `nregs`, and `call`/`execute` keep
        // `regs.len() >= base + nregs` for the current frame.
        unsafe { self.regs.get_unchecked(i) }
    }

    // ---- the dispatch loop ----------------------------------------------------

    fn execute(&mut self) -> Result<(), Trap> {
        let r = self.dispatch(self.program.entry, 0).map(|_| ());
        if r.is_ok() {
            // Every frame has returned: callbacks run later (timers,
            // events) start at the bottom of the register stack.
            self.native_top = 0;
        }
        r
    }

    /// Run function `entry` with its register window at `start` (its
    /// arguments already in place) until it returns: the one dispatch
    /// loop, used for the entry function and, nested, by
    /// [`Interpreter::call_function`]. A throw that no handler of this
    /// loop catches comes back as `Err(Trap::Throw)`.
    fn dispatch(&mut self, entry: u32, start: usize) -> Result<Value, Trap> {
        // A nested loop (a native calling back into Festina) runs its own
        // frames; the outer loop's current frame comes back afterwards.
        let outer = self.cur;
        self.cur = Cur {
            func: entry,
            nregs: self.fns[entry as usize].nregs as usize,
            base: start,
        };
        let r = self.dispatch_loop();
        self.cur = outer;
        r
    }

    /// The loop of [`Interpreter::dispatch`], starting at `self.cur`.
    ///
    /// Only `ip`, `fp` and `self` live in machine registers across the
    /// loop: the current frame (`self.cur`), the program and everything
    /// else stay in memory and are read by calls, returns and cold paths
    /// only. Keeping the loop-carried set this small is what lets LLVM keep
    /// `ip` and `fp` out of stack slots (benches/RESULTS.md, step 8).
    fn dispatch_loop(&mut self) -> Result<Value, Trap> {
        // Keeps the code (which `ip`, `FnInfo::code` and `Frame::ret` point
        // into) alive for the whole loop.
        let _code = Rc::clone(&self.code);
        // The next instruction.
        let mut ip: *const Instr = self.fns[self.cur.func as usize].code;
        self.ensure_regs(self.cur.base + self.cur.nregs);
        // The current frame's registers: `fp` points at `R[0]`. Set at the
        // top of every step, and refreshed (`sync_fp!`) within a step that
        // changes the frame or may reallocate the register stack (returns,
        // natives) before it uses a register again. A step that ends after
        // changing the frame (calls, traps) leaves it to the next one.
        let mut fp: *mut Value;
        macro_rules! sync_fp {
            () => {
                debug_assert!(self.cur.base + self.cur.nregs <= self.regs.len());
                // SAFETY: every path that changes `self.cur.base` or grows the
                // register stack keeps `regs.len() >= self.cur.base + self.cur.nregs`.
                fp = unsafe { self.regs.as_mut_ptr().add(self.cur.base) }
            };
        }
        // `R[x]` of the current frame, shared or mutable. Each use is a
        // short-lived reference: an arm computes what it reads before it
        // writes its destination.
        macro_rules! reg {
            ($x:expr) => {{
                debug_assert!(self.cur.base + ($x as usize) < self.regs.len());
                // SAFETY: the verifier guarantees every register operand is
                // below the function's `self.cur.nregs`, and `fp` points at `R[0]`
                // of a window of `self.cur.nregs` live registers (see `sync_fp!`).
                unsafe { &*fp.add($x as usize) }
            }};
        }
        macro_rules! regm {
            ($x:expr) => {{
                debug_assert!(self.cur.base + ($x as usize) < self.regs.len());
                // SAFETY: as in `reg!`.
                unsafe { &mut *fp.add($x as usize) }
            }};
        }

        // The index of the next instruction in the current function (for
        // line numbers, handler targets and native call sites).
        macro_rules! pc_now {
            () => {
                // SAFETY: `ip` always points into the current function's
                // code, which starts at `FnInfo::code`.
                unsafe { ip.offset_from(self.fns[self.cur.func as usize].code) as usize }
            };
        }
        // `ip` moved by a jump offset (relative to the next instruction).
        macro_rules! jump {
            ($off:expr) => {
                // SAFETY: the verifier keeps every jump target inside the
                // function's code.
                ip = unsafe { ip.offset($off as isize) }
            };
        }
        // A conditional branch: `jump!` when `$c` holds.
        macro_rules! branch_if {
            ($c:expr, $off:expr) => {
                if $c {
                    jump!($off)
                }
            };
        }

        // Resume at a handler (after a throw) or propagate the trap.
        macro_rules! trap {
            ($t:expr) => {{
                let t: Trap = $t;
                let h = self.handle_trap(t)?;
                self.cur.func = h.func;
                self.cur.nregs = self.fns[self.cur.func as usize].nregs as usize;
                self.cur.base = h.base;
                // SAFETY: the verifier keeps handler targets inside the code.
                ip = unsafe { self.fns[self.cur.func as usize].code.add(h.target) };
                continue;
            }};
        }
        macro_rules! fail {
            ($($arg:tt)*) => {{
                let m = format!($($arg)*);
                trap!(Trap::Fail(format!("{} at {}", m, self.loc(self.cur.func, pc_now!() - 1))))
            }};
        }

        // The operand of the `ExtraArg` after a wide instruction (the
        // verifier guarantees one follows), which is then skipped.
        macro_rules! extra_arg {
            () => {{
                // SAFETY: `ip` points at the instruction after the wide one,
                // an `ExtraArg` inside the code (verified).
                let Instr::ExtraArg { arg } = (unsafe { *ip }) else {
                    unreachable!("verified: an ExtraArg follows a wide instruction")
                };
                jump!(1);
                arg
            }};
        }
        macro_rules! enum_tag {
            ($dst:expr, $src:expr, $id:expr) => {{
                let id: u32 = $id;
                match self.enum_tag(reg!($src), id) {
                    Some(t) => assign(regm!($dst), Value::Int(t as i64)),
                    None => fail!(
                        "typeof applied to a null {} value",
                        self.program.enums[id as usize].name
                    ),
                }
            }};
        }
        macro_rules! enum_typeof {
            ($dst:expr, $src:expr, $id:expr) => {{
                let id: u32 = $id;
                match self.enum_tag(reg!($src), id) {
                    Some(t) => {
                        let v = self.tables.enum_names[id as usize]
                            .get(t as usize)
                            .cloned()
                            .unwrap_or(Value::Null);
                        assign(regm!($dst), v);
                    }
                    None => fail!(
                        "typeof applied to a null {} value",
                        self.program.enums[id as usize].name
                    ),
                }
            }};
        }
        macro_rules! enum_field {
            ($dst:expr, $obj:expr, $idx:expr) => {{
                let idx: u32 = $idx;
                let r = &self.program.enum_fields[idx as usize];
                let v = match reg!($obj) {
                    Value::Struct(s) if s.sid() == r.sid && !s.is_row() => s.get(r.field as usize),
                    Value::Enum(b) => match &b.value {
                        Value::Struct(s) if s.sid() == r.sid => s.get(r.field as usize),
                        _ => None,
                    },
                    _ => None,
                };
                match v {
                    Some(v) => assign(regm!($dst), v),
                    None => trap!(self.enum_field_fault(
                        self.cur.func,
                        pc_now!() - 1,
                        $obj,
                        idx,
                        self.cur.base
                    )),
                }
            }};
        }

        loop {
            // The common cases run in `run_fast`, a small function of its
            // own, where `ip` and `fp` stay in machine registers; it
            // returns at the first instruction it leaves to the full step.
            // A run of instructions it never handles (text, structs, maps,
            // natives) stays here, without a call per instruction.
            // SAFETY: `ip` points at an instruction (see the full step).
            if has_fast_path(unsafe { &*ip }) {
                ip = self.run_fast(ip);
            }
            sync_fp!();

            // ---- the full step ----------------------------------------------
            // SAFETY: every code copy ends with an appended `ReturnVoid`
            // and the verifier keeps every jump and handler target inside
            // the original code, so `ip` only ever points at instructions
            // (straight-line flow stops at the final `ReturnVoid`; a
            // return address is always the instruction after a call,
            // which is never the last).
            let ins: &Instr = unsafe { &*ip };
            ip = unsafe { ip.add(1) };
            match *ins {
                Instr::Move { dst, src } => match *reg!(src) {
                    Value::Int(i) => store_int(regm!(dst), i),
                    Value::Float(f) => store_float(regm!(dst), f),
                    Value::Bool(b) => store_bool(regm!(dst), b),
                    ref other => {
                        let v = other.clone();
                        assign(regm!(dst), v);
                    }
                },
                Instr::LoadInt { dst, imm } => store_int(regm!(dst), imm as i64),
                Instr::LoadConst { dst, k } => {
                    // SAFETY-free: verified index.
                    let v = self.tables.consts[k as usize].clone();
                    assign(regm!(dst), v);
                }
                Instr::LoadNull { dst } | Instr::Release { reg: dst } => {
                    assign(regm!(dst), Value::Null)
                }
                Instr::LoadBool { dst, value } => assign(regm!(dst), Value::Bool(value != 0)),
                Instr::LoadFunc { dst, func } => assign(regm!(dst), Value::Func(func)),
                Instr::GetGlobal { dst, g } => {
                    // SAFETY-free indexing: `g` is verified, the check is
                    // kept (globals are not the hot path's bottleneck).
                    copy_to(regm!(dst), &self.globals[g as usize]);
                }
                Instr::GetGlobalViv { dst, g } => {
                    if self.globals[g as usize].is_null() {
                        self.vivify_global(g);
                    }
                    let v = self.globals[g as usize].clone();
                    assign(regm!(dst), v);
                }
                Instr::SetGlobal { g, src } => {
                    copy_to(&mut self.globals[g as usize], reg!(src));
                }

                // ---- int arithmetic ----
                Instr::AddInt { dst, a, b } => {
                    let v = reg!(a).as_int().wrapping_add(reg!(b).as_int());
                    store_int(regm!(dst), v);
                }
                Instr::AddIntImm { dst, a, imm } => {
                    let v = reg!(a).as_int().wrapping_add(imm as i64);
                    store_int(regm!(dst), v);
                }
                Instr::SubInt { dst, a, b } => {
                    let v = reg!(a).as_int().wrapping_sub(reg!(b).as_int());
                    store_int(regm!(dst), v);
                }
                // `MulAddInt` alone is a `MulInt`; its `AddInt` runs next.
                Instr::MulInt { dst, a, b } | Instr::MulAddInt { dst, a, b } => {
                    let v = reg!(a).as_int().wrapping_mul(reg!(b).as_int());
                    store_int(regm!(dst), v);
                }
                Instr::ModInt { dst, a, b } => {
                    let d = reg!(b).as_int();
                    let v = if d == 0 {
                        Value::Null
                    } else {
                        Value::Int(reg!(a).as_int().wrapping_rem(d))
                    };
                    assign(regm!(dst), v);
                }
                Instr::NegInt { dst, a } => {
                    let v = reg!(a).as_int().wrapping_neg();
                    store_int(regm!(dst), v);
                }
                // ---- bitwise (int) ----
                Instr::AndInt { dst, a, b } => {
                    let v = reg!(a).as_int() & reg!(b).as_int();
                    store_int(regm!(dst), v);
                }
                Instr::OrInt { dst, a, b } => {
                    let v = reg!(a).as_int() | reg!(b).as_int();
                    store_int(regm!(dst), v);
                }
                Instr::XorInt { dst, a, b } => {
                    let v = reg!(a).as_int() ^ reg!(b).as_int();
                    store_int(regm!(dst), v);
                }
                Instr::ShlInt { dst, a, b } => {
                    let v = shift(reg!(a).as_int(), reg!(b).as_int(), true);
                    assign(regm!(dst), v);
                }
                Instr::ShrInt { dst, a, b } => {
                    let v = shift(reg!(a).as_int(), reg!(b).as_int(), false);
                    assign(regm!(dst), v);
                }
                Instr::NotInt { dst, a } => {
                    let v = !reg!(a).as_int();
                    store_int(regm!(dst), v);
                }
                Instr::IntToFloat { dst, a } => {
                    let v = match reg!(a) {
                        Value::Int(i) => *i as f64,
                        _ => f64::NAN,
                    };
                    store_float(regm!(dst), v);
                }

                // ---- float arithmetic ----
                Instr::AddFloat { dst, a, b } => {
                    let v = reg!(a).as_float() + reg!(b).as_float();
                    store_float(regm!(dst), v);
                }
                Instr::SubFloat { dst, a, b } => {
                    let v = reg!(a).as_float() - reg!(b).as_float();
                    store_float(regm!(dst), v);
                }
                Instr::MulFloat { dst, a, b } => {
                    let v = reg!(a).as_float() * reg!(b).as_float();
                    store_float(regm!(dst), v);
                }
                Instr::DivFloat { dst, a, b } => {
                    let d = reg!(b).as_float();
                    let v = if d == 0.0 {
                        f64::NAN
                    } else {
                        reg!(a).as_float() / d
                    };
                    store_float(regm!(dst), v);
                }
                Instr::ModFloat { dst, a, b } => {
                    let d = reg!(b).as_float();
                    let v = if d == 0.0 {
                        f64::NAN
                    } else {
                        reg!(a).as_float() % d
                    };
                    store_float(regm!(dst), v);
                }
                Instr::NegFloat { dst, a } => {
                    let v = -reg!(a).as_float();
                    store_float(regm!(dst), v);
                }

                // ---- comparisons ----
                Instr::EqInt { dst, a, b } => {
                    let v = eq_int(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::NeInt { dst, a, b } => {
                    let v = !eq_int(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::LtInt { dst, a, b } => {
                    let v = reg!(a).as_int() < reg!(b).as_int();
                    store_bool(regm!(dst), v);
                }
                Instr::LeInt { dst, a, b } => {
                    let v = reg!(a).as_int() <= reg!(b).as_int();
                    store_bool(regm!(dst), v);
                }
                Instr::EqFloat { dst, a, b } => {
                    let v = reg!(a).as_float() == reg!(b).as_float();
                    store_bool(regm!(dst), v);
                }
                Instr::NeFloat { dst, a, b } => {
                    let (x, y) = (reg!(a).as_float(), reg!(b).as_float());
                    // §8.2: a NaN (null float) is neither == nor != anything.
                    let v = !x.is_nan() && !y.is_nan() && x != y;
                    store_bool(regm!(dst), v);
                }
                Instr::LtFloat { dst, a, b } => {
                    let v = reg!(a).as_float() < reg!(b).as_float();
                    store_bool(regm!(dst), v);
                }
                Instr::LeFloat { dst, a, b } => {
                    let v = reg!(a).as_float() <= reg!(b).as_float();
                    store_bool(regm!(dst), v);
                }
                Instr::EqBool { dst, a, b } => {
                    let v = eq_scalar(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::NeBool { dst, a, b } => {
                    let v = !eq_scalar(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::EqText { dst, a, b } => {
                    let v = eq_text(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::NeText { dst, a, b } => {
                    let v = !eq_text(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::EqRef { dst, a, b } => {
                    let v = same_ref(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::NeRef { dst, a, b } => {
                    let v = !same_ref(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::IsNull { dst, src } => {
                    let v = reg!(src).is_null();
                    store_bool(regm!(dst), v);
                }
                Instr::NotNull { dst, src } => {
                    let v = !reg!(src).is_null();
                    store_bool(regm!(dst), v);
                }
                Instr::Not { dst, src } => {
                    let v = !reg!(src).as_bool();
                    store_bool(regm!(dst), v);
                }

                // ---- control flow ----
                Instr::JumpLtInt { a, b, off } => {
                    branch_if!(reg!(a).as_int() < reg!(b).as_int(), off)
                }
                Instr::JumpLeInt { a, b, off } => {
                    branch_if!(reg!(a).as_int() <= reg!(b).as_int(), off)
                }
                Instr::JumpEqInt { a, b, off } => branch_if!(eq_int(reg!(a), reg!(b)), off),
                Instr::JumpNeInt { a, b, off } => branch_if!(!eq_int(reg!(a), reg!(b)), off),
                Instr::JumpLtIntImm { a, imm, off } => {
                    branch_if!(reg!(a).as_int() < imm as i64, off)
                }
                Instr::JumpLeIntImm { a, imm, off } => {
                    branch_if!(reg!(a).as_int() <= imm as i64, off)
                }
                Instr::JumpGtIntImm { a, imm, off } => {
                    branch_if!(reg!(a).as_int() > imm as i64, off)
                }
                Instr::JumpGeIntImm { a, imm, off } => {
                    branch_if!(reg!(a).as_int() >= imm as i64, off)
                }
                Instr::JumpEqIntImm { a, imm, off } => {
                    branch_if!(matches!(*reg!(a), Value::Int(x) if x == imm as i64), off)
                }
                Instr::JumpNeIntImm { a, imm, off } => {
                    branch_if!(!matches!(*reg!(a), Value::Int(x) if x == imm as i64), off)
                }
                Instr::JumpLtFloat { a, b, off } => {
                    branch_if!(reg!(a).as_float() < reg!(b).as_float(), off)
                }
                Instr::JumpLeFloat { a, b, off } => {
                    branch_if!(reg!(a).as_float() <= reg!(b).as_float(), off)
                }
                Instr::JumpNotLtFloat { a, b, off } => {
                    // NaN: not ordered, so the branch is taken.
                    let ordered = reg!(a).as_float().partial_cmp(&reg!(b).as_float());
                    if !matches!(ordered, Some(std::cmp::Ordering::Less)) {
                        jump!(off);
                    }
                }
                Instr::JumpNotLeFloat { a, b, off } => {
                    let ordered = reg!(a).as_float().partial_cmp(&reg!(b).as_float());
                    if !matches!(
                        ordered,
                        Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
                    ) {
                        jump!(off);
                    }
                }
                Instr::AddIntImmCmpJump { dst, a, imm } => {
                    let v = reg!(a).as_int().wrapping_add(imm as i64);
                    store_int(regm!(dst), v);
                    // The branch at `ip` (guaranteed by the verifier and
                    // `fuse_pairs`) runs here, then `ip` moves
                    // past it or to its target.
                    // SAFETY: `ip` points at that branch, inside the code.
                    let (taken, off) = match unsafe { *ip } {
                        Instr::JumpLtInt { a, b, off } => {
                            (reg!(a).as_int() < reg!(b).as_int(), off)
                        }
                        Instr::JumpLeInt { a, b, off } => {
                            (reg!(a).as_int() <= reg!(b).as_int(), off)
                        }
                        // Unreachable for verified code; run it normally.
                        _ => continue,
                    };
                    // SAFETY: the branch and its target are inside the code.
                    ip = unsafe { ip.add(1) };
                    if taken {
                        jump!(off);
                    }
                }
                Instr::Jump { off } => jump!(off),
                Instr::JumpIfTrue { cond, off } => branch_if!(reg!(cond).as_bool(), off),
                Instr::JumpIfFalse { cond, off } => branch_if!(!reg!(cond).as_bool(), off),
                Instr::Call {
                    dst,
                    base: b,
                    func: callee,
                } => {
                    if self.frames.len() >= MAX_FRAMES {
                        let name = &self.program.functions[callee as usize].name;
                        fail!("stack overflow in function '{name}'");
                    }
                    // SAFETY-free: `callee` is verified against `fns`.
                    let cf = self.fns[callee as usize];
                    let new_base = self.cur.base + b as usize;
                    self.frames.push(Frame {
                        func: self.cur.func,
                        nregs: self.cur.nregs as u32,
                        ret: ip,
                        base: self.cur.base,
                        dst,
                    });
                    self.cur = Cur {
                        func: callee as u32,
                        base: new_base,
                        nregs: cf.nregs as usize,
                    };
                    ip = cf.code;
                    self.enter(new_base, cf.nregs as usize);
                }
                Instr::CallValue {
                    dst,
                    callee,
                    base: b,
                } => {
                    let target = match reg!(callee) {
                        Value::Func(f) if (*f as usize) < self.program.functions.len() => *f,
                        _ => fail!("call of a null function value"),
                    };
                    if self.frames.len() >= MAX_FRAMES {
                        let name = &self.program.functions[target as usize].name;
                        fail!("stack overflow in function '{name}'");
                    }
                    let cf = self.fns[target as usize];
                    let new_base = self.cur.base + b as usize;
                    self.enter(new_base, cf.nregs as usize);
                    self.frames.push(Frame {
                        func: self.cur.func,
                        nregs: self.cur.nregs as u32,
                        ret: ip,
                        base: self.cur.base,
                        dst,
                    });
                    self.cur.func = target;
                    self.cur.nregs = cf.nregs as usize;
                    self.cur.base = new_base;
                    ip = cf.code;
                }
                Instr::CallNative {
                    dst,
                    base: b,
                    id,
                    argc,
                } => {
                    let mut args = std::mem::take(&mut self.arg_buf);
                    let start = self.cur.base + b as usize;
                    args.extend_from_slice(&self.regs[start..start + argc as usize]);
                    self.cur_loc = (self.cur.func, pc_now!() - 1);
                    self.native_top = self.cur.base + self.cur.nregs;
                    let f = self.natives[id as usize];
                    let res = f(self, &args);
                    args.clear();
                    self.arg_buf = args;
                    // The native may have called back into Festina, which
                    // can grow (reallocate) the register stack.
                    sync_fp!();
                    match res {
                        Ok(v) => assign(regm!(dst), v),
                        Err(t) => trap!(t),
                    }
                }
                Instr::Return { src } => {
                    // A scalar is rebuilt from its payload rather than moved
                    // as 16 bytes: its tag and payload were usually just
                    // written by separate stores, which a 16-byte load
                    // cannot be forwarded from.
                    let v = match *reg!(src) {
                        Value::Int(i) => Value::Int(i),
                        Value::Float(f) => Value::Float(f),
                        Value::Bool(b) => Value::Bool(b),
                        _ => std::mem::take(regm!(src)),
                    };
                    self.leave(self.cur.base, self.cur.nregs);
                    match self.frames.pop() {
                        None => return Ok(v),
                        Some(f) => {
                            self.cur = Cur {
                                func: f.func,
                                base: f.base,
                                nregs: f.nregs as usize,
                            };
                            ip = f.ret;
                            sync_fp!();
                            assign(regm!(f.dst), v);
                        }
                    }
                }
                Instr::ReturnVoid {} => {
                    self.leave(self.cur.base, self.cur.nregs);
                    match self.frames.pop() {
                        None => return Ok(Value::Null),
                        Some(f) => {
                            self.cur = Cur {
                                func: f.func,
                                base: f.base,
                                nregs: f.nregs as usize,
                            };
                            ip = f.ret;
                        }
                    }
                }

                // ---- exceptions ----
                Instr::TryEnter { reg, off } => self.handlers.push(Handler {
                    depth: self.frames.len(),
                    func: self.cur.func,
                    base: self.cur.base,
                    reg,
                    target: (pc_now!() as isize + off as isize) as usize,
                }),
                Instr::TryExit {} => {
                    self.handlers.pop();
                }
                Instr::Throw { src } => {
                    let m = self.text_of(self.cur.base + src as usize);
                    trap!(Trap::Throw(m))
                }
                Instr::Fail { src } => {
                    let m = self.text_of(self.cur.base + src as usize);
                    trap!(Trap::Fail(m))
                }

                // ---- text ----
                Instr::Concat { dst, a, b } | Instr::ConcatAscii { dst, a, b } => {
                    let v = concat(reg!(a), reg!(b));
                    assign(regm!(dst), v);
                }
                Instr::AppendText { dst, src } => {
                    let more = reg!(src).clone();
                    regm!(dst).append_text(&more);
                }
                Instr::ToText { dst, src, mode } => {
                    let v = match reg!(src) {
                        Value::Text(t) => Value::Text(t.clone()),
                        other => to_text_slow(&self.program, other, mode != 0),
                    };
                    assign(regm!(dst), v);
                }
                Instr::TextIndex { dst, s, i } => {
                    let v = text_index(reg!(s), reg!(i).as_int());
                    assign(regm!(dst), v);
                }
                Instr::TextLen { dst, s } => {
                    let n = match reg!(s) {
                        Value::Text(t) => t.char_len() as i64,
                        Value::Ascii(a) => a.len() as i64,
                        _ => 0,
                    };
                    store_int(regm!(dst), n);
                }
                Instr::AsciiIndex { dst, s, i } => {
                    let idx = reg!(i).as_int();
                    let v = match reg!(s) {
                        Value::Ascii(a) if idx >= 0 && (idx as usize) < a.len() => {
                            Value::ascii(vec![a[idx as usize]])
                        }
                        _ => Value::Null,
                    };
                    assign(regm!(dst), v);
                }
                Instr::AsciiCodeAt { dst, s, i } => {
                    let idx = reg!(i).as_int();
                    let c = match reg!(s) {
                        Value::Ascii(a) if idx >= 0 && (idx as usize) < a.len() => {
                            Some(a[idx as usize] as i64)
                        }
                        _ => None,
                    };
                    match c {
                        Some(c) => store_int(regm!(dst), c),
                        None => assign(regm!(dst), Value::Null),
                    }
                }
                Instr::AsciiLen { dst, s } => {
                    let n = match reg!(s) {
                        Value::Ascii(a) => a.len() as i64,
                        Value::Text(t) => t.as_str().len() as i64,
                        _ => 0,
                    };
                    store_int(regm!(dst), n);
                }

                // ---- structs ----
                Instr::NewStruct { dst, sid } => {
                    self.maybe_collect();
                    let fields = self.tables.struct_zero[sid as usize].clone();
                    let tracked = self.tables.struct_tracked[sid as usize];
                    let s = self.heap.new_struct(sid, false, fields, tracked);
                    assign(regm!(dst), Value::Struct(s));
                }
                Instr::GetField { dst, obj, field } | Instr::GetFieldWeak { dst, obj, field } => {
                    let v = match reg!(obj) {
                        Value::Struct(s) => s.get(field as usize),
                        _ => None,
                    };
                    match v {
                        // Only a weak field holds a link: its target while
                        // alive, else null.
                        Some(Value::Weak(cell)) => {
                            let v = cell.upgrade().map_or(Value::Null, Value::Struct);
                            assign(regm!(dst), v)
                        }
                        Some(v) => assign(regm!(dst), v),
                        None => trap!(self.field_fault(
                            self.cur.func,
                            pc_now!() - 1,
                            obj,
                            field,
                            "read"
                        )),
                    }
                }
                Instr::GetFieldViv { dst, obj, field } => {
                    let v = match reg!(obj) {
                        Value::Struct(s) => match s.get(field as usize) {
                            Some(Value::Null) => Some(self.vivify_field(&s.clone(), field)),
                            other => other,
                        },
                        _ => None,
                    };
                    match v {
                        Some(v) => assign(regm!(dst), v),
                        None => trap!(self.field_fault(
                            self.cur.func,
                            pc_now!() - 1,
                            obj,
                            field,
                            "read"
                        )),
                    }
                }
                Instr::SetField { obj, field, src } | Instr::SetFieldWeak { obj, field, src } => {
                    let v = match (ins, reg!(src)) {
                        // A weak field keeps a link, not a count.
                        (Instr::SetFieldWeak { .. }, Value::Struct(r)) => {
                            Value::Weak(self.heap.weak_cell(r))
                        }
                        (Instr::SetFieldWeak { .. }, _) => Value::Null,
                        (_, v) => v.clone(),
                    };
                    let ok = match reg!(obj) {
                        Value::Struct(s) => s.set(field as usize, v),
                        _ => false,
                    };
                    if !ok {
                        trap!(self.field_fault(self.cur.func, pc_now!() - 1, obj, field, "written"))
                    }
                }

                // ---- enums ----
                Instr::EnumWrap { dst, src, member } => {
                    let v = match reg!(src) {
                        Value::Null => Value::Null,
                        // Already an enum value (e.g. re-wrapped): keep it.
                        Value::Enum(b) => Value::Enum(b.clone()),
                        other => Value::Enum(Rc::new(EnumBox {
                            member,
                            value: other.clone(),
                        })),
                    };
                    assign(regm!(dst), v);
                }
                Instr::EnumUnwrap { dst, src } => {
                    let v = match reg!(src) {
                        Value::Enum(b) => b.value.clone(),
                        other => other.clone(),
                    };
                    assign(regm!(dst), v);
                }
                Instr::EnumTag { dst, src, enum_id } => enum_tag!(dst, src, enum_id as u32),
                Instr::EnumTagWide { dst, src } => enum_tag!(dst, src, extra_arg!()),
                Instr::EnumTypeof { dst, src, enum_id } => {
                    enum_typeof!(dst, src, enum_id as u32)
                }
                Instr::EnumTypeofWide { dst, src } => enum_typeof!(dst, src, extra_arg!()),
                Instr::EnumField { dst, obj, idx } => enum_field!(dst, obj, idx as u32),
                Instr::EnumFieldWide { dst, obj } => enum_field!(dst, obj, extra_arg!()),
                Instr::ExtraArg { .. } => {}

                // ---- arrays ----
                Instr::NewArr { dst, cap } => {
                    self.maybe_collect();
                    let a = self.heap.new_arr(Vec::with_capacity(cap as usize));
                    assign(regm!(dst), Value::Arr(a));
                }
                Instr::NewArrFrom { dst, base: b, n } => {
                    self.maybe_collect();
                    let mut items = Vec::with_capacity(n as usize);
                    for k in 0..n {
                        items.push(copy_value(reg!(b + k)));
                    }
                    let a = self.heap.new_arr(items);
                    assign(regm!(dst), Value::Arr(a));
                }
                Instr::ArrPush { arr, src } => {
                    let v = copy_value(reg!(src));
                    match reg!(arr) {
                        Value::Arr(a) => {
                            a.push(v);
                        }
                        _ => fail!("push onto a null array"),
                    }
                }
                Instr::ArrPop { dst, arr } => {
                    let v = match reg!(arr) {
                        Value::Arr(a) => a.pop().unwrap_or(Value::Null),
                        _ => Value::Null,
                    };
                    assign(regm!(dst), v);
                }
                Instr::ArrGet { dst, arr, idx } => {
                    let i = reg!(idx).as_int();
                    // An int element is copied without a retain or a call.
                    let v = match reg!(arr) {
                        Value::Arr(a) if i >= 0 => a.with(i as usize, |v| match *v {
                            Value::Int(x) => Ok(x),
                            ref other => Err(other.clone()),
                        }),
                        _ => None,
                    };
                    match v {
                        Some(Ok(x)) => store_int(regm!(dst), x),
                        Some(Err(v)) => assign(regm!(dst), v),
                        None => {
                            let len = arr_len(reg!(arr));
                            fail!("index {i} out of range for array of length {len}")
                        }
                    }
                }
                Instr::ArrSet { arr, idx, src } => {
                    let i = reg!(idx).as_int();
                    let v = reg!(src).clone();
                    let ok = match reg!(arr) {
                        Value::Arr(a) if i >= 0 => a.set(i as usize, v),
                        _ => false,
                    };
                    if !ok {
                        let len = arr_len(reg!(arr));
                        fail!("index {i} out of range for array of length {len}")
                    }
                }
                Instr::ArrLen { dst, arr } => {
                    let n = arr_len(reg!(arr));
                    store_int(regm!(dst), n as i64);
                }

                // ---- maps ----
                Instr::NewMap { dst } => {
                    self.maybe_collect();
                    let m = self.heap.new_map();
                    assign(regm!(dst), Value::Map(m));
                }
                Instr::MapGet { dst, map, key } => {
                    let v = match (reg!(map), reg!(key)) {
                        (Value::Map(m), k) => m.get(key_str(k)).unwrap_or(Value::Null),
                        _ => Value::Null,
                    };
                    assign(regm!(dst), v);
                }
                Instr::MapSet { map, key, src } => {
                    let v = reg!(src).clone();
                    match (reg!(map), reg!(key)) {
                        (Value::Map(m), k) => m.set(key_str(k), v),
                        _ => fail!("map entry written through null"),
                    }
                }
                Instr::MapDelete { map, key } => {
                    if let (Value::Map(m), k) = (reg!(map), reg!(key)) {
                        m.delete(key_str(k));
                    }
                }

                // ---- memory ----
                Instr::Clear { reg } => {
                    let v = std::mem::take(regm!(reg));
                    crate::heap::wipe(v);
                }
            }
        }
    }

    /// The fast path of the dispatch loop: runs from `ip` the common
    /// cases of the hot instructions (int and float arithmetic, compares
    /// and branches, scalar moves, calls and returns whose windows hold
    /// only scalars) and returns the address of the first instruction it
    /// does not handle -- another instruction, a null operand, a
    /// destination holding a managed value, a full frame stack -- for the
    /// full step of [`Interpreter::dispatch_loop`] to run with every rule of
    /// its semantics. Nothing here calls a function, so LLVM keeps `ip`,
    /// `fp` and `self` in machine registers, which the big loop, with its
    /// hundred arms and their calls, cannot (benches/RESULTS.md, step 10).
    /// The current frame (`self.cur`) is kept up to date on calls and
    /// returns.
    #[inline(never)]
    fn run_fast(&mut self, mut ip: *const Instr) -> *const Instr {
        // The current frame, in machine registers while this runs; written
        // back on the way out.
        let mut cur = self.cur;
        debug_assert!(cur.base + cur.nregs <= self.regs.len());
        // SAFETY: the current window lies inside the register stack.
        let mut fp: *mut Value = unsafe { self.regs.as_mut_ptr().add(cur.base) };
        macro_rules! reg {
            ($x:expr) => {{
                // SAFETY: as in `dispatch_loop`: verified register operands,
                // `fp` at `R[0]` of the current window.
                unsafe { &*fp.add($x as usize) }
            }};
        }
        macro_rules! regm {
            ($x:expr) => {{
                // SAFETY: as in `reg!`.
                unsafe { &mut *fp.add($x as usize) }
            }};
        }
        macro_rules! jump {
            ($off:expr) => {
                // SAFETY: verified jump targets lie inside the code.
                ip = unsafe { ip.offset($off as isize) }
            };
        }
        macro_rules! branch_if {
            ($c:expr, $off:expr) => {
                if $c {
                    jump!($off)
                }
            };
        }
        loop {
            // SAFETY: as for the full step below.
            let ins: &Instr = unsafe { &*ip };
            ip = unsafe { ip.add(1) };
            macro_rules! slow {
                () => {{
                    // SAFETY: undoes the increment just above.
                    ip = unsafe { ip.sub(1) };
                    self.cur = cur;
                    return ip;
                }};
            }
            macro_rules! int {
                ($r:expr) => {
                    match *reg!($r) {
                        Value::Int(x) => x,
                        _ => slow!(),
                    }
                };
            }
            macro_rules! float {
                ($r:expr) => {
                    match *reg!($r) {
                        Value::Float(x) => x,
                        _ => slow!(),
                    }
                };
            }
            // `R[dst] := v` over a scalar; a managed old value needs a
            // release, which the full step does.
            // The value is built inside the write, from its payload, so
            // that the tag and payload are stored directly (a value built
            // first and copied as 16 bytes defeats store forwarding).
            macro_rules! put {
                ($dst:expr, Value::$variant:ident($v:expr)) => {{
                    let x = $v;
                    let slot = regm!($dst);
                    if !slot.is_scalar() {
                        slow!();
                    }
                    // SAFETY: the old scalar owns nothing.
                    unsafe { std::ptr::write(slot, Value::$variant(x)) }
                }};
            }
            match *ins {
                Instr::Move { dst, src } => match *reg!(src) {
                    Value::Int(i) => put!(dst, Value::Int(i)),
                    Value::Float(f) => put!(dst, Value::Float(f)),
                    Value::Bool(b) => put!(dst, Value::Bool(b)),
                    _ => slow!(),
                },
                Instr::LoadInt { dst, imm } => put!(dst, Value::Int(imm as i64)),
                Instr::AddInt { dst, a, b } => {
                    put!(dst, Value::Int(int!(a).wrapping_add(int!(b))))
                }
                Instr::AddIntImm { dst, a, imm } => {
                    put!(dst, Value::Int(int!(a).wrapping_add(imm as i64)))
                }
                Instr::SubInt { dst, a, b } => {
                    put!(dst, Value::Int(int!(a).wrapping_sub(int!(b))))
                }
                Instr::MulInt { dst, a, b } => {
                    put!(dst, Value::Int(int!(a).wrapping_mul(int!(b))))
                }
                Instr::MulAddInt { dst, a, b } => {
                    let m = int!(a).wrapping_mul(int!(b));
                    // SAFETY: the loader formed this only before an
                    // instruction (there is always one: the appended
                    // `ReturnVoid`).
                    match unsafe { *ip } {
                        Instr::AddInt { dst: d, a: x, b: y } => {
                            // The `AddInt`'s operands as they read after
                            // the product is stored; all read before
                            // anything is written.
                            let l = if x == dst { m } else { int!(x) };
                            let r = if y == dst { m } else { int!(y) };
                            put!(dst, Value::Int(m));
                            // SAFETY: skips the `AddInt` just run.
                            ip = unsafe { ip.add(1) };
                            // Should `d` hold a managed value, `put!`
                            // leaves with `ip` at the `AddInt`, which the
                            // full step then runs: the product is stored.
                            put!(d, Value::Int(l.wrapping_add(r)));
                        }
                        _ => put!(dst, Value::Int(m)),
                    }
                }
                Instr::ModInt { dst, a, b } => {
                    let (x, d) = (int!(a), int!(b));
                    // 0 (null result) and -1 (overflow for i64::MIN) are
                    // the full step's; for any other divisor `%` is exact.
                    if (d as u64).wrapping_add(1) <= 1 {
                        slow!();
                    }
                    put!(dst, Value::Int(x % d))
                }
                Instr::AndInt { dst, a, b } => put!(dst, Value::Int(int!(a) & int!(b))),
                Instr::OrInt { dst, a, b } => put!(dst, Value::Int(int!(a) | int!(b))),
                Instr::XorInt { dst, a, b } => put!(dst, Value::Int(int!(a) ^ int!(b))),
                Instr::ShlInt { dst, a, b } => {
                    let (x, c) = (int!(a), int!(b));
                    // A count outside 0..64 (null result) is the full step's.
                    if !(0..64).contains(&c) {
                        slow!();
                    }
                    put!(dst, Value::Int(x.wrapping_shl(c as u32)))
                }
                Instr::ShrInt { dst, a, b } => {
                    let (x, c) = (int!(a), int!(b));
                    if !(0..64).contains(&c) {
                        slow!();
                    }
                    put!(dst, Value::Int(x >> c))
                }
                Instr::AddFloat { dst, a, b } => put!(dst, Value::Float(float!(a) + float!(b))),
                Instr::SubFloat { dst, a, b } => put!(dst, Value::Float(float!(a) - float!(b))),
                Instr::MulFloat { dst, a, b } => put!(dst, Value::Float(float!(a) * float!(b))),
                Instr::LtInt { dst, a, b } => put!(dst, Value::Bool(int!(a) < int!(b))),
                Instr::LeInt { dst, a, b } => put!(dst, Value::Bool(int!(a) <= int!(b))),
                Instr::EqInt { dst, a, b } => put!(dst, Value::Bool(int!(a) == int!(b))),
                Instr::NeInt { dst, a, b } => put!(dst, Value::Bool(int!(a) != int!(b))),
                Instr::LoadBool { dst, value } => put!(dst, Value::Bool(value != 0)),
                Instr::Not { dst, src } => match *reg!(src) {
                    Value::Bool(b) => put!(dst, Value::Bool(!b)),
                    _ => slow!(),
                },
                Instr::ArrLen { dst, arr } => match reg!(arr) {
                    Value::Arr(a) => put!(dst, Value::Int(a.len() as i64)),
                    _ => slow!(),
                },
                Instr::ArrGet { dst, arr, idx } => {
                    let i = int!(idx);
                    let x = match reg!(arr) {
                        Value::Arr(a) if i >= 0 => a.with(i as usize, |v| match *v {
                            Value::Int(x) => Some(x),
                            _ => None,
                        }),
                        _ => None,
                    };
                    match x {
                        Some(Some(x)) => put!(dst, Value::Int(x)),
                        _ => slow!(),
                    }
                }
                Instr::GetField { dst, obj, field } => {
                    // A scalar field; anything else needs a retain.
                    let v = match reg!(obj) {
                        Value::Struct(s) => s.with(field as usize, |v| match *v {
                            Value::Int(x) => Some((0u8, x as u64)),
                            Value::Float(f) => Some((1, f.to_bits())),
                            Value::Bool(b) => Some((2, b as u64)),
                            _ => None,
                        }),
                        _ => None,
                    };
                    match v {
                        Some(Some((0, x))) => put!(dst, Value::Int(x as i64)),
                        Some(Some((1, x))) => put!(dst, Value::Float(f64::from_bits(x))),
                        Some(Some((_, x))) => put!(dst, Value::Bool(x != 0)),
                        _ => slow!(),
                    }
                }
                Instr::AsciiCodeAt { dst, s, i } => {
                    let i = int!(i);
                    let c = match reg!(s) {
                        Value::Ascii(a) if i >= 0 => a.get(i as usize).copied(),
                        _ => None,
                    };
                    match c {
                        Some(c) => put!(dst, Value::Int(c as i64)),
                        None => slow!(),
                    }
                }
                Instr::AsciiLen { dst, s } => match reg!(s) {
                    Value::Ascii(a) => put!(dst, Value::Int(a.len() as i64)),
                    _ => slow!(),
                },
                Instr::Jump { off } => jump!(off),
                Instr::JumpIfTrue { cond, off } => branch_if!(reg!(cond).as_bool(), off),
                Instr::JumpIfFalse { cond, off } => branch_if!(!reg!(cond).as_bool(), off),
                Instr::JumpLtInt { a, b, off } => branch_if!(int!(a) < int!(b), off),
                Instr::JumpLeInt { a, b, off } => branch_if!(int!(a) <= int!(b), off),
                Instr::JumpEqInt { a, b, off } => branch_if!(int!(a) == int!(b), off),
                Instr::JumpNeInt { a, b, off } => branch_if!(int!(a) != int!(b), off),
                Instr::JumpLtIntImm { a, imm, off } => branch_if!(int!(a) < imm as i64, off),
                Instr::JumpLeIntImm { a, imm, off } => branch_if!(int!(a) <= imm as i64, off),
                Instr::JumpGtIntImm { a, imm, off } => branch_if!(int!(a) > imm as i64, off),
                Instr::JumpGeIntImm { a, imm, off } => branch_if!(int!(a) >= imm as i64, off),
                Instr::JumpEqIntImm { a, imm, off } => branch_if!(int!(a) == imm as i64, off),
                Instr::JumpNeIntImm { a, imm, off } => branch_if!(int!(a) != imm as i64, off),
                Instr::JumpLtFloat { a, b, off } => branch_if!(float!(a) < float!(b), off),
                Instr::JumpLeFloat { a, b, off } => branch_if!(float!(a) <= float!(b), off),
                Instr::AddIntImmCmpJump { dst, a, imm } => {
                    // The sum, then the branch's operands as they read
                    // after the sum is stored (either may be `dst`),
                    // all before anything is written.
                    macro_rules! incr_operands {
                        ($x:expr, $y:expr) => {{
                            let v = int!(a).wrapping_add(imm as i64);
                            let l = if $x == dst { v } else { int!($x) };
                            let r = if $y == dst { v } else { int!($y) };
                            (v, l, r)
                        }};
                    }
                    // SAFETY: the verifier puts an int branch after it.
                    let (taken, off) = match unsafe { *ip } {
                        Instr::JumpLtInt { a: x, b: y, off } => {
                            let (v, l, r) = incr_operands!(x, y);
                            put!(dst, Value::Int(v));
                            (l < r, off)
                        }
                        Instr::JumpLeInt { a: x, b: y, off } => {
                            let (v, l, r) = incr_operands!(x, y);
                            put!(dst, Value::Int(v));
                            (l <= r, off)
                        }
                        _ => slow!(),
                    };
                    // SAFETY: the branch and its target are in the code.
                    ip = unsafe { ip.add(1) };
                    if taken {
                        jump!(off);
                    }
                }
                Instr::Call {
                    dst,
                    base: b,
                    func: callee,
                } => {
                    // SAFETY: the verifier checked `callee`.
                    let cf = unsafe { *self.fns.get_unchecked(callee as usize) };
                    let new_base = cur.base + b as usize;
                    let n = self.frames.len();
                    if n >= MAX_FRAMES
                        || n == self.frames.capacity()
                        || self.regs.len() < new_base + cf.nregs as usize
                    {
                        slow!();
                    }
                    // SAFETY: `n < capacity`, checked above.
                    unsafe {
                        self.frames.as_mut_ptr().add(n).write(Frame {
                            func: cur.func,
                            nregs: cur.nregs as u32,
                            ret: ip,
                            base: cur.base,
                            dst,
                        });
                        self.frames.set_len(n + 1);
                    }
                    cur = Cur {
                        func: callee as u32,
                        base: new_base,
                        nregs: cf.nregs as usize,
                    };
                    ip = cf.code;
                    // SAFETY: the callee's window starts at the caller's
                    // `R[b]` and fits the register stack (checked above).
                    fp = unsafe { fp.add(b as usize) };
                }
                Instr::Return { src } => {
                    // Every check before anything is written.
                    let Some(&f) = self.frames.last() else {
                        slow!()
                    };
                    if !self.handlers.is_empty() {
                        slow!();
                    }
                    // SAFETY: the window `[base, base + nregs)` is live.
                    let window =
                        unsafe { std::slice::from_raw_parts(fp as *const Value, cur.nregs) };
                    // SAFETY: `cur.func` is a verified function index.
                    let scalar_only = unsafe { self.fns.get_unchecked(cur.func as usize).scalar };
                    if !scalar_only && !window.iter().all(Value::is_scalar) {
                        slow!();
                    }
                    // SAFETY: the caller's window lies below ours in the
                    // register stack, and its `dst` is one of its registers
                    // (verified).
                    let caller = unsafe { self.regs.as_mut_ptr().add(f.base) };
                    let slot = unsafe { &mut *caller.add(f.dst as usize) };
                    if !slot.is_scalar() {
                        slow!();
                    }
                    // The result is rebuilt from its payload inside each
                    // write (see `put!`). SAFETY: the old scalar owns nothing.
                    match *reg!(src) {
                        Value::Int(i) => unsafe { std::ptr::write(slot, Value::Int(i)) },
                        Value::Float(x) => unsafe { std::ptr::write(slot, Value::Float(x)) },
                        Value::Bool(b) => unsafe { std::ptr::write(slot, Value::Bool(b)) },
                        _ => slow!(),
                    }
                    // SAFETY: `last()` was `Some`, so the length is > 0.
                    unsafe { self.frames.set_len(self.frames.len() - 1) };
                    cur = Cur {
                        func: f.func,
                        base: f.base,
                        nregs: f.nregs as usize,
                    };
                    ip = f.ret;
                    fp = caller;
                }
                // Every other instruction is the full step's. Naming each one
                // (no `_` arm) lets the jump table span every opcode, so the
                // dispatch needs no range check.
                Instr::LoadConst { .. }
                | Instr::LoadNull { .. }
                | Instr::Release { .. }
                | Instr::LoadFunc { .. }
                | Instr::GetGlobal { .. }
                | Instr::SetGlobal { .. }
                | Instr::GetGlobalViv { .. }
                | Instr::NegInt { .. }
                | Instr::NotInt { .. }
                | Instr::EqRef { .. }
                | Instr::NeRef { .. }
                | Instr::GetFieldWeak { .. }
                | Instr::SetFieldWeak { .. }
                | Instr::IntToFloat { .. }
                | Instr::DivFloat { .. }
                | Instr::ModFloat { .. }
                | Instr::NegFloat { .. }
                | Instr::EqFloat { .. }
                | Instr::NeFloat { .. }
                | Instr::LtFloat { .. }
                | Instr::LeFloat { .. }
                | Instr::EqBool { .. }
                | Instr::NeBool { .. }
                | Instr::EqText { .. }
                | Instr::NeText { .. }
                | Instr::IsNull { .. }
                | Instr::NotNull { .. }
                | Instr::JumpNotLtFloat { .. }
                | Instr::JumpNotLeFloat { .. }
                | Instr::CallValue { .. }
                | Instr::CallNative { .. }
                | Instr::ReturnVoid { .. }
                | Instr::TryEnter { .. }
                | Instr::TryExit { .. }
                | Instr::Throw { .. }
                | Instr::Fail { .. }
                | Instr::Concat { .. }
                | Instr::AppendText { .. }
                | Instr::ConcatAscii { .. }
                | Instr::ToText { .. }
                | Instr::TextIndex { .. }
                | Instr::TextLen { .. }
                | Instr::AsciiIndex { .. }
                | Instr::NewStruct { .. }
                | Instr::GetFieldViv { .. }
                | Instr::SetField { .. }
                | Instr::EnumWrap { .. }
                | Instr::EnumUnwrap { .. }
                | Instr::EnumTag { .. }
                | Instr::EnumTypeof { .. }
                | Instr::EnumField { .. }
                | Instr::EnumTagWide { .. }
                | Instr::EnumTypeofWide { .. }
                | Instr::EnumFieldWide { .. }
                | Instr::ExtraArg { .. }
                | Instr::NewArr { .. }
                | Instr::ArrPush { .. }
                | Instr::NewArrFrom { .. }
                | Instr::ArrPop { .. }
                | Instr::ArrSet { .. }
                | Instr::NewMap { .. }
                | Instr::MapGet { .. }
                | Instr::MapSet { .. }
                | Instr::MapDelete { .. }
                | Instr::Clear { .. } => slow!(),
            }
        }
    }

    /// Prepare a callee window at `new_base`: grow the register stack so
    /// that it holds `nregs` registers there. Nothing is nulled: registers
    /// above the caller's live ones hold no value anyone will read before
    /// writing it (the code generator writes every register before reading
    /// it), and each write releases what it overwrites.
    #[inline(always)]
    fn enter(&mut self, new_base: usize, nregs: usize) {
        let top = new_base + nregs;
        if self.regs.len() < top {
            self.grow_regs(top);
        }
    }

    /// Release the managed values of the current frame's window `[base,
    /// base + nregs)` (§13.1) and drop any handlers the frame left open.
    /// Scalars are left in place: they own nothing, and the next frame
    /// that uses these registers writes them before reading them.
    #[inline(always)]
    fn leave(&mut self, base: usize, nregs: usize) {
        debug_assert!(base + nregs <= self.regs.len());
        // SAFETY: the window of the frame being left lies inside the
        // register stack (`enter`/`ensure_regs` grew it when the frame
        // started, and it never shrinks).
        let window = unsafe { self.regs.get_unchecked_mut(base..base + nregs) };
        for slot in window {
            if !slot.is_scalar() {
                replace_managed(slot, Value::Null);
            }
        }
        if !self.handlers.is_empty() {
            let level = self.frames.len();
            while self.handlers.last().is_some_and(|h| h.depth >= level) {
                self.handlers.pop();
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_regs(&mut self, top: usize) {
        let want = top.max(self.regs.len() * 2).max(256);
        self.regs.resize(want, Value::Null);
    }

    fn ensure_regs(&mut self, n: usize) {
        if self.regs.len() < n {
            self.grow_regs(n);
        }
    }

    #[inline]
    fn maybe_collect(&mut self) {
        if self.heap.wants_collection() {
            self.collect_now();
        }
    }

    #[cold]
    #[inline(never)]
    fn collect_now(&mut self) {
        self.heap.collect_cycles();
    }

    /// Route a trap: a throw with a live handler unwinds to it and returns
    /// where to continue; everything else propagates.
    #[cold]
    #[inline(never)]
    fn handle_trap(&mut self, t: Trap) -> Result<Handler, Trap> {
        let (fidx, base) = (self.cur.func, self.cur.base);
        let msg = match t {
            Trap::Throw(m) => m,
            other => return Err(other),
        };
        let Some(h) = self.handlers.pop() else {
            return Err(Trap::Throw(msg));
        };
        let mut cur_func = fidx;
        let mut cur_base = base;
        while self.frames.len() > h.depth {
            let n = self.program.functions[cur_func as usize].nregs as usize;
            for i in cur_base..cur_base + n {
                self.regs[i] = Value::Null;
            }
            let f = self.frames.pop().expect("frame depth checked");
            cur_func = f.func;
            cur_base = f.base;
        }
        self.regs[h.base + h.reg as usize] = Value::text(msg);
        Ok(h)
    }

    /// The text of a register for `throw`/`fail` (already text; anything
    /// else is rendered).
    fn text_of(&self, i: usize) -> String {
        match self.r(i) {
            Value::Text(t) => t.as_str().to_string(),
            other => render::to_string(&self.program, other),
        }
    }

    fn vivify_field(&mut self, s: &crate::heap::Ref<crate::heap::StructObj>, field: u16) -> Value {
        let viv = if s.is_row() {
            Viv::None
        } else {
            self.tables
                .field_viv
                .get(s.sid() as usize)
                .and_then(|v| v.get(field as usize))
                .copied()
                .unwrap_or(Viv::None)
        };
        let v = self.fresh(viv);
        if !v.is_null() {
            s.set(field as usize, v.clone());
        }
        v
    }

    #[cold]
    #[inline(never)]
    fn vivify_global(&mut self, g: u32) {
        let viv = viv_of(&self.program.globals[g as usize].ty);
        let v = self.fresh(viv);
        self.globals[g as usize] = v;
    }

    /// A fresh empty value of a vivifying kind.
    fn fresh(&mut self, viv: Viv) -> Value {
        match viv {
            Viv::None => Value::Null,
            Viv::Struct(sid) => {
                self.maybe_collect();
                let fields = self.tables.struct_zero[sid as usize].clone();
                let tracked = self.tables.struct_tracked[sid as usize];
                Value::Struct(self.heap.new_struct(sid, false, fields, tracked))
            }
            Viv::Arr => Value::Arr(self.heap.new_arr(Vec::new())),
            Viv::Map => Value::Map(self.heap.new_map()),
        }
    }

    fn enum_tag(&self, v: &Value, enum_id: u32) -> Option<u16> {
        match v {
            Value::Null => None,
            Value::Enum(b) => Some(b.member),
            Value::Struct(s) if !s.is_row() => {
                let t = self.tables.enum_sid_tag[enum_id as usize].get(s.sid());
                if t == u16::MAX {
                    Some(classify_member(&self.program, enum_id, v))
                } else {
                    Some(t)
                }
            }
            other => Some(classify_member(&self.program, enum_id, other)),
        }
    }

    /// The failure for a field access that found no struct.
    #[cold]
    #[inline(never)]
    fn field_fault(&self, fidx: u32, pc: usize, obj: Reg, field: u16, verb: &str) -> Trap {
        let name = infer_field_name(&self.program, fidx, pc, obj, field);
        Trap::Fail(format!(
            "field '{name}' {verb} through null at {}",
            self.loc(fidx, pc)
        ))
    }

    #[cold]
    #[inline(never)]
    fn enum_field_fault(&self, fidx: u32, pc: usize, obj: Reg, idx: u32, base: usize) -> Trap {
        let r = &self.program.enum_fields[idx as usize];
        let at = self.loc(fidx, pc);
        let enum_name = self
            .program
            .enums
            .get(r.enum_id as usize)
            .map_or("?", |e| e.name.as_str());
        let v = match self.r(base + obj as usize) {
            Value::Enum(b) => b.value.clone(),
            other => other.clone(),
        };
        // The reference's wording (after edition 0.44), with our location.
        if v.is_null() {
            return Trap::Fail(format!(
                "field '{}' accessed on a null {enum_name} value at {at}",
                r.name
            ));
        }
        let owner = self
            .program
            .structs
            .get(r.sid as usize)
            .map_or("?", |x| x.name.as_str());
        Trap::Fail(format!(
            "field '{}' is only valid when this {enum_name} value is a {owner} at {at}",
            r.name
        ))
    }
}

impl Drop for Interpreter {
    fn drop(&mut self) {
        self.out.flush();
        self.teardown();
    }
}

// ---------------------------------------------------------------------------
// Out-of-line helpers.

/// `*slot = Int(x)`: a plain write (tag and payload) over any scalar, a
/// release otherwise. One compare: the scalars are the first five tags.
#[inline(always)]
fn store_int(slot: &mut Value, x: i64) {
    if slot.is_scalar() {
        // SAFETY: the old scalar owns nothing; overwriting it is exact.
        unsafe { std::ptr::write(slot, Value::Int(x)) }
    } else {
        replace_managed(slot, Value::Int(x))
    }
}

/// `*slot = Float(x)`, like [`store_int`].
#[inline(always)]
fn store_float(slot: &mut Value, x: f64) {
    if slot.is_scalar() {
        // SAFETY: the old scalar owns nothing; overwriting it is exact.
        unsafe { std::ptr::write(slot, Value::Float(x)) }
    } else {
        replace_managed(slot, Value::Float(x))
    }
}

/// `*slot = Bool(x)`, like [`store_int`].
#[inline(always)]
fn store_bool(slot: &mut Value, x: bool) {
    if slot.is_scalar() {
        // SAFETY: the old scalar owns nothing; overwriting it is exact.
        unsafe { std::ptr::write(slot, Value::Bool(x)) }
    } else {
        replace_managed(slot, Value::Bool(x))
    }
}

/// `*dst = src.clone()`, moving scalars payload-wise (no 16-byte copy of a
/// value whose payload was just written, which would stall store
/// forwarding) and retaining managed values.
#[inline(always)]
fn copy_to(dst: &mut Value, src: &Value) {
    match *src {
        Value::Int(i) => store_int(dst, i),
        Value::Float(f) => store_float(dst, f),
        Value::Bool(b) => store_bool(dst, b),
        _ => assign(dst, src.clone()),
    }
}

/// A copy of `v` (retained when managed), without a call for the scalars.
#[inline(always)]
fn copy_value(v: &Value) -> Value {
    match *v {
        Value::Int(i) => Value::Int(i),
        Value::Float(f) => Value::Float(f),
        Value::Bool(b) => Value::Bool(b),
        ref other => other.clone(),
    }
}

/// `*slot = v`, skipping the release call when the old value is scalar.
#[inline(always)]
fn assign(slot: &mut Value, v: Value) {
    if slot.is_scalar() {
        // SAFETY: the old scalar owns nothing; overwriting it is exact.
        unsafe { std::ptr::write(slot, v) }
    } else {
        replace_managed(slot, v)
    }
}

/// True for the instructions [`Interpreter::run_fast`] has a fast path
/// for (it may still leave at one of them, for a null operand or a managed
/// destination, say): the ones it names outside its final catch-all arm.
/// Only speed depends on the two lists agreeing: `run_fast` returns at
/// once from an instruction it does not handle, and the full step runs
/// every instruction.
#[inline(always)]
fn has_fast_path(ins: &Instr) -> bool {
    matches!(
        ins,
        Instr::Move { .. }
            | Instr::LoadInt { .. }
            | Instr::AddInt { .. }
            | Instr::AddIntImm { .. }
            | Instr::SubInt { .. }
            | Instr::MulInt { .. }
            | Instr::MulAddInt { .. }
            | Instr::ModInt { .. }
            | Instr::AndInt { .. }
            | Instr::OrInt { .. }
            | Instr::XorInt { .. }
            | Instr::ShlInt { .. }
            | Instr::ShrInt { .. }
            | Instr::AddFloat { .. }
            | Instr::SubFloat { .. }
            | Instr::MulFloat { .. }
            | Instr::LtInt { .. }
            | Instr::LeInt { .. }
            | Instr::EqInt { .. }
            | Instr::NeInt { .. }
            | Instr::LoadBool { .. }
            | Instr::Not { .. }
            | Instr::ArrLen { .. }
            | Instr::ArrGet { .. }
            | Instr::GetField { .. }
            | Instr::AsciiCodeAt { .. }
            | Instr::AsciiLen { .. }
            | Instr::Jump { .. }
            | Instr::JumpIfTrue { .. }
            | Instr::JumpIfFalse { .. }
            | Instr::JumpLtInt { .. }
            | Instr::JumpLeInt { .. }
            | Instr::JumpEqInt { .. }
            | Instr::JumpNeInt { .. }
            | Instr::JumpLtIntImm { .. }
            | Instr::JumpLeIntImm { .. }
            | Instr::JumpGtIntImm { .. }
            | Instr::JumpGeIntImm { .. }
            | Instr::JumpEqIntImm { .. }
            | Instr::JumpNeIntImm { .. }
            | Instr::JumpLtFloat { .. }
            | Instr::JumpLeFloat { .. }
            | Instr::AddIntImmCmpJump { .. }
            | Instr::Call { .. }
            | Instr::Return { .. }
    )
}

/// Load-time peephole on the interpreter's copy of a function's code,
/// pairing an instruction with the one after it so that both run in one
/// dispatch: an `AddIntImm` followed by an int `JumpLtInt`/`JumpLeInt` (a
/// `for` loop's update and test) becomes `AddIntImmCmpJump`, and a
/// `MulInt` whose result the next `AddInt` reads becomes `MulAddInt`. The
/// second instruction stays in place, so jumps that target it still work,
/// and indexes, hence line numbers, do not move. The rewrite only merges
/// instructions that run one after the other anyway, so the semantics
/// are unchanged.
fn fuse_pairs(code: &mut [Instr]) {
    for i in 0..code.len().saturating_sub(1) {
        if let (Instr::MulInt { dst, a, b }, Instr::AddInt { a: x, b: y, .. }) =
            (code[i], code[i + 1])
        {
            if x == dst || y == dst {
                code[i] = Instr::MulAddInt { dst, a, b };
            }
        }
        if let (
            Instr::AddIntImm { dst, a, imm },
            Instr::JumpLtInt { .. } | Instr::JumpLeInt { .. },
        ) = (code[i], code[i + 1])
        {
            code[i] = Instr::AddIntImmCmpJump { dst, a, imm };
        }
    }
}

/// Overwrite a register holding a managed value (the release runs here,
/// out of the dispatch loop).
#[inline(never)]
fn replace_managed(slot: &mut Value, v: Value) {
    *slot = v;
}

#[inline]
fn eq_int(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        _ => eq_scalar(a, b),
    }
}

fn eq_scalar(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Func(x), Value::Func(y)) => x == y,
        _ => false,
    }
}

/// `x << c` (`left`) or `x >> c` (arithmetic): null when the count is
/// negative or 64 or more (§8.3 as the reference extends it: "test, don't
/// fail", like division by zero). Bits shifted out are lost.
fn shift(x: i64, c: i64, left: bool) -> Value {
    if !(0..64).contains(&c) {
        return Value::Null;
    }
    Value::Int(if left {
        x.wrapping_shl(c as u32)
    } else {
        x >> c
    })
}

/// Reference identity of two struct, array or map values (null equals
/// null only).
fn same_ref(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Struct(x), Value::Struct(y)) => x.ptr_eq(y),
        (Value::Arr(x), Value::Arr(y)) => x.ptr_eq(y),
        (Value::Map(x), Value::Map(y)) => x.ptr_eq(y),
        (Value::Enum(x), Value::Enum(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}

fn eq_text(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Text(x), Value::Text(y)) => Rc::ptr_eq(x, y) || x.as_str() == y.as_str(),
        (Value::Ascii(x), Value::Ascii(y)) => x == y,
        (Value::Null, Value::Null) => true,
        (Value::Null, _) | (_, Value::Null) => false,
        _ => a.as_str() == b.as_str(),
    }
}

fn concat(a: &Value, b: &Value) -> Value {
    match (a, b) {
        (Value::Ascii(x), Value::Ascii(y)) => {
            let mut v = Vec::with_capacity(x.len() + y.len());
            v.extend_from_slice(x);
            v.extend_from_slice(y);
            Value::ascii(v)
        }
        _ => {
            let x = a.as_str().unwrap_or("");
            let y = b.as_str().unwrap_or("");
            let mut s = String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            Value::Text(Rc::new(TextObj::new(s)))
        }
    }
}

#[cold]
#[inline(never)]
fn to_text_slow(p: &Program, v: &Value, null_empty: bool) -> Value {
    match v {
        Value::Int(i) => Value::text(i.to_string()),
        Value::Ascii(a) => Value::text(String::from_utf8_lossy(a).into_owned()),
        other => {
            let mut s = String::new();
            render::render(p, other, null_empty, &mut s);
            Value::text(s)
        }
    }
}

fn text_index(s: &Value, i: i64) -> Value {
    let Value::Text(t) = s else {
        return Value::Null;
    };
    if i < 0 {
        return Value::Null;
    }
    match t.char_at(i as usize) {
        Some(c) => Value::text(c.to_string()),
        None => Value::Null,
    }
}

fn arr_len(v: &Value) -> usize {
    match v {
        Value::Arr(a) => a.len(),
        _ => 0,
    }
}

/// A map key from a key register: text content, or `null` for a null key
/// (spec-silent; matches the key's text form).
fn key_str(k: &Value) -> &str {
    k.as_str().unwrap_or("null")
}

/// The member of a (mixed) enum that an unboxed value belongs to, by its
/// run-time shape; the first member of that shape.
#[cold]
fn classify_member(p: &Program, enum_id: u32, v: &Value) -> u16 {
    let Some(e) = p.enums.get(enum_id as usize) else {
        return 0;
    };
    let fits = |t: &Type| -> bool {
        match (t.strip_manual(), v) {
            (Type::Int | Type::Color, Value::Int(_)) => true,
            (Type::Float, Value::Float(_)) => true,
            (Type::Bool, Value::Bool(_)) => true,
            (Type::Text, Value::Text(_)) => true,
            (Type::Ascii, Value::Ascii(_)) => true,
            (Type::Struct(sid), Value::Struct(s)) => *sid == s.sid() && !s.is_row(),
            (Type::Table(tid), Value::Struct(s)) => *tid == s.sid() && s.is_row(),
            (Type::Arr(_) | Type::Amor(_), Value::Arr(_)) => true,
            (Type::Map(_), Value::Map(_)) => true,
            (Type::Func(..), Value::Func(_)) => true,
            _ => false,
        }
    };
    e.members.iter().position(fits).unwrap_or(0) as u16
}

/// Best-effort name of field `field` of the struct type held by register
/// `obj` at instruction `pc`: the compiled code carries no register types,
/// so follow the register's most recent writer backwards (a cold path, run
/// only to word a failure message).
#[cold]
fn infer_field_name(p: &Program, fidx: u32, pc: usize, obj: Reg, field: u16) -> String {
    let sid = infer_struct(p, fidx, pc, obj, 0);
    let by_sid = sid
        .and_then(|s| p.structs.get(s as usize))
        .and_then(|r| r.fields.get(field as usize));
    if let Some(f) = by_sid {
        return f.name.clone();
    }
    // A table row (§8.10): its columns, or the rowid slot after them.
    if let Some(Type::Table(t)) = infer_type(p, fidx, pc, obj, 0) {
        if let Some(r) = p.tables.get(t as usize) {
            return r
                .fields
                .get(field as usize)
                .map_or_else(|| "rowid".to_string(), |f| f.name.clone());
        }
    }
    // Fall back to the one name every struct (and table) with that field
    // index agrees on.
    let mut names = p
        .structs
        .iter()
        .chain(p.tables.iter())
        .filter_map(|r| r.fields.get(field as usize))
        .map(|f| f.name.as_str());
    if let Some(first) = names.next() {
        if names.all(|n| n == first) {
            return first.to_string();
        }
    }
    format!("#{field}")
}

fn infer_type(p: &Program, fidx: u32, pc: usize, reg: Reg, depth: u32) -> Option<Type> {
    if depth > 16 {
        return None;
    }
    let code = &p.functions[fidx as usize].code;
    for j in (0..pc.min(code.len())).rev() {
        use Instr::*;
        match code[j] {
            NewStruct { dst, sid } if dst == reg => return Some(Type::Struct(sid)),
            Move { dst, src } if dst == reg => return infer_type(p, fidx, j, src, depth + 1),
            GetGlobal { dst, g } if dst == reg => {
                return p.globals.get(g as usize).map(|g| g.ty.clone())
            }
            GetField { dst, obj, field } | GetFieldViv { dst, obj, field } if dst == reg => {
                let sid = infer_struct(p, fidx, j, obj, depth + 1)?;
                return p
                    .structs
                    .get(sid as usize)?
                    .fields
                    .get(field as usize)
                    .map(|f| f.ty.clone());
            }
            ArrGet { dst, arr, .. } | ArrPop { dst, arr } if dst == reg => {
                return infer_type(p, fidx, j, arr, depth + 1)?.elem().cloned();
            }
            MapGet { dst, map, .. } if dst == reg => {
                return infer_type(p, fidx, j, map, depth + 1)?.elem().cloned();
            }
            EnumField { dst, idx, .. } if dst == reg => {
                let r = p.enum_fields.get(idx as usize)?;
                return p
                    .structs
                    .get(r.sid as usize)?
                    .fields
                    .get(r.field as usize)
                    .map(|f| f.ty.clone());
            }
            ins if writes(&ins) == Some(reg) => return None,
            _ => {}
        }
    }
    None
}

fn infer_struct(p: &Program, fidx: u32, pc: usize, reg: Reg, depth: u32) -> Option<u32> {
    match infer_type(p, fidx, pc, reg, depth)? {
        Type::Struct(s) => Some(s),
        Type::Manual(t) => match *t {
            Type::Struct(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// The register an instruction writes, if any (for [`infer_type`]).
fn writes(ins: &Instr) -> Option<Reg> {
    ins.operands()
        .first()
        .filter(|(n, _)| *n == "dst")
        .map(|(_, v)| *v as Reg)
}

/// Zero value of a global or field slot before first reach (§8.2): scalars
/// are 0/0.0/false, everything else null (struct, array and map slots are
/// vivified on first reach by the code).
fn zero_scalar(t: &Type) -> Value {
    match t.strip_manual() {
        Type::Int => Value::Int(0),
        Type::Float => Value::Float(0.0),
        Type::Bool => Value::Bool(false),
        _ => Value::Null,
    }
}

fn viv_of(t: &Type) -> Viv {
    match t.strip_manual() {
        Type::Struct(s) => Viv::Struct(*s),
        Type::Arr(_) | Type::Amor(_) => Viv::Arr,
        Type::Map(_) => Viv::Map,
        _ => Viv::None,
    }
}

fn build_tables(p: &Program) -> Tables {
    let struct_zero = p
        .structs
        .iter()
        .map(|r| r.fields.iter().map(|f| zero_scalar(&f.ty)).collect())
        .collect();
    let computed = cyclic_structs(p);
    let struct_tracked = p
        .structs
        .iter()
        .enumerate()
        .map(|(i, r)| r.may_cycle || computed[i])
        .collect();
    let field_viv = p
        .structs
        .iter()
        .map(|r| r.fields.iter().map(|f| viv_of(&f.ty)).collect())
        .collect();
    let enum_sid_tag = p.enums.iter().map(SidTags::new).collect();
    let consts = p
        .consts
        .iter()
        .map(|c| match c {
            Const::Int(i) => Value::Int(*i),
            Const::Float(f) => Value::Float(*f),
            Const::Text(s) => Value::text(s.as_str()),
            Const::Ascii(b) => Value::ascii(b.clone()),
        })
        .collect();
    let enum_names = p
        .enums
        .iter()
        .map(|e| {
            e.member_names
                .iter()
                .map(|n| Value::text(n.as_str()))
                .collect()
        })
        .collect();
    Tables {
        struct_zero,
        struct_tracked,
        field_viv,
        enum_sid_tag,
        consts,
        enum_names,
    }
}

/// For each struct: can a value of it reach itself through fields, array
/// elements or map values (not through enums, §13.3)? The VM's own answer,
/// combined with `Record::may_cycle` so a conservative compiler flag and
/// this analysis both count.
fn cyclic_structs(p: &Program) -> Vec<bool> {
    fn targets(t: &Type, out: &mut Vec<u32>) {
        match t {
            Type::Struct(s) => out.push(*s),
            Type::Arr(e) | Type::Amor(e) | Type::Map(e) | Type::Manual(e) => targets(e, out),
            _ => {}
        }
    }
    let n = p.structs.len();
    let edges: Vec<Vec<u32>> = p
        .structs
        .iter()
        .map(|r| {
            let mut out = Vec::new();
            for f in &r.fields {
                targets(&f.ty, &mut out);
            }
            out.retain(|&t| (t as usize) < n);
            out
        })
        .collect();
    (0..n)
        .map(|s| {
            let mut seen = vec![false; n];
            let mut stack: Vec<u32> = edges[s].clone();
            while let Some(t) = stack.pop() {
                if t as usize == s {
                    return true;
                }
                if !std::mem::replace(&mut seen[t as usize], true) {
                    stack.extend_from_slice(&edges[t as usize]);
                }
            }
            false
        })
        .collect()
}
