//! The interpreter: one Festina execution context running verified
//! register bytecode.
//!
//! # Design
//!
//! An [`Interpreter`] owns all mutable state of one Festina thread: the
//! register stack, the saved call frames, the exception-handler stack,
//! the globals, the heap, buffered stdout, argv, the per-call-site values
//! and per-facility state of the standard library, and the event loop.
//! The [`Program`] is shared and immutable (`Arc<Program>`), so several
//! interpreters (one per OS thread) can run one program; nothing here is
//! global and nothing is shared between interpreters.
//!
//! The parts, in the manner of Lua's `lvm.c` / `ldo.c` / `ldebug.c`:
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` (this file) | the design, the interpreter's state and the records of frames and handlers |
//! | `load.rs` | program loading: verification, binding natives, per-program tables, the interpreter's own copy of the code with the load-time pairings (`fuse_pairs`), the optimisation switches |
//! | `dispatch.rs` | the dispatch loop alone: the full step and the fast tier side by side, and the list of instructions the fast tier handles |
//! | `call.rs` | calls and returns: the one frame-push path with the one depth check, window entry and release, nested loops for natives calling back ([`Interpreter::call_function`]) |
//! | `unwind.rs` | routing a trap to the newest `try` handler, unwinding the frames above it |
//! | `fault.rs` | runtime-failure diagnostics: `file:line`, the `*_fault` messages and the name inference they use |
//! | `ops.rs` | value operations the full step calls (comparisons, text, vivification, enum tags, the collection trigger) |
//! | `store.rs` | register stores that skip the release when the old value is a scalar |
//! | `api.rs` | the natives' API: output, argv, values, call-site values, the event loop and per-facility state (`extensions.rs`) |
//! | `run.rs` | `run`: the entry function, the event loop, `on exit`, the exit status, teardown |
//!
//! # Frames and calls
//!
//! Calls use Lua-style register windows on one `Vec<Value>` register
//! stack. The current frame's registers are `regs[base .. base + nregs]`
//! (`R[0]` at `base`). `Call { dst, base: b, func }` starts the callee's
//! window at the caller's `base + b`, where the code generator has put
//! the arguments; nothing else is initialised, as the code generator
//! writes every register before reading it (a register may hold a stale
//! scalar, never a managed value nobody owns: every write releases what
//! it overwrites). A call pushes a small saved-frame record (`Frame`:
//! the caller's function, window and return address, and the register
//! receiving the result) through the one push path,
//! `Interpreter::push_frame`, which also holds the one depth check
//! (at most [`MAX_FRAMES`] frames: a runtime failure `stack overflow in
//! function 'f' at file:line`). The stacks grow only in
//! `Interpreter::make_room`, on the cold path, which also bounds the
//! register stack at [`MAX_REGISTERS`] (256 MiB: the same `stack
//! overflow`, so that recursion through large frames is bounded by
//! memory) and reserves fallibly (`out of memory growing the register
//! stack ...`, see [`crate::oom`]). On return every managed value in the
//! callee's window is released at once (§13.1; scalars own nothing and
//! are left), and the result is written into the caller's `R[dst]` (left
//! untouched by `ReturnVoid`). Consequently a call clobbers the caller's
//! registers `R[b..]`: the code generator puts argument blocks above
//! every live register. The Rust stack stays flat: Festina calls push a
//! record, never recurse in Rust.
//!
//! A native that calls back into Festina (a `sort` comparator, a
//! `forEach` callback, a timer, an event handler) uses
//! [`Interpreter::call_function`]: the callee's window starts above the
//! window of the frame whose `CallNative` is in progress, and a nested run
//! of the same dispatch loop, with its own frame and handler stacks (the
//! outer ones are set aside meanwhile, on the interpreter's `outer`
//! stack, where a failure's call stack finds them), runs until that
//! function returns.
//! A throw it does not catch unwinds its frames and comes back to the
//! native as `Trap::Throw`, which the native returns so that the caller's
//! `try` receives it (§13.7). Nesting is capped at [`MAX_NATIVE_DEPTH`]
//! (each level is a Rust-level loop, so the Rust stack bounds it).
//!
//! # Dispatch
//!
//! Two tiers over the same code (`dispatch.rs`). The fast tier,
//! `Interpreter::run_fast`, is a small function without a single call in
//! it: it runs the common cases of the hot instructions (int and float
//! arithmetic, compare-and-branch, scalar moves, int array reads, scalar
//! field reads, calls and returns whose windows hold only scalars) with
//! `ip`, `fp` and the current frame in machine registers, and returns at
//! the first instruction it does not handle. The full step,
//! `Interpreter::dispatch_loop`, runs any instruction with every rule of
//! its semantics (releases, vivification, traps, natives), then hands
//! back to the fast tier when the next instruction has a fast path. The
//! two agree by construction -- the fast tier leaves before writing
//! anything whenever a case is not its own -- and by test: the golden
//! corpus and the interpreter's tests run a second time with the fast
//! tier off (`FESTINA_NO_FAST_TIER=1`, implied by `FESTINA_NO_OPT=1`,
//! [`crate::switches`]). The environment is read once, when the
//! interpreter is created; the full step tests the resulting flag only on
//! its way into the fast tier, a transition that costs about 40
//! instructions anyway. (A second, tier-free copy of the loop selected
//! once per call was tried: with two copies LLVM stopped inlining six
//! helpers of the full step, `Value::append_text` among them, which cost
//! 4 % more instructions on `string_concat`; benches/RESULTS.md.) The
//! current frame
//! (`Interpreter::cur`) is kept in the interpreter rather than in locals,
//! so that the full step's loop carries only `ip`, `fp` and `self`.
//!
//! Each arm of `run_fast` ends with its own copy of the dispatch jump
//! (threaded dispatch), which the CPU predicts far better than one shared
//! jump; LLVM makes the copies when the tail-duplication limits are raised,
//! which the workspace's `.cargo/config.toml` does (benches/RESULTS.md).
//!
//! At load the interpreter copies each function's code (with a
//! `ReturnVoid` appended, so fetching needs no bounds check), pairs some
//! instructions that always run back to back (`AddIntImmCmpJump`,
//! `MulAddInt`; not with `FESTINA_NO_FUSION`, see [`crate::switches`]),
//! and [`crate::register_windows`] finds the functions whose
//! registers only ever hold scalars: their returns skip the release scan.
//! Programs are verified once at load ([`crate::verify`]), so register,
//! constant and jump operands are trusted in the loop.
//!
//! # Exceptions and failures
//!
//! `TryEnter` pushes a `Handler` recording the frame depth, the frame's
//! base, the catch register and the continuation pc. `Throw` (or a
//! native's `Trap::Throw`) pops the newest handler, unwinds the frames
//! above it (nulling their windows, which releases their values, §13.7),
//! stores the text in the catch register and jumps (`unwind.rs`). With no
//! handler, it is a runtime failure with the thrown text. Returning from
//! a frame drops any handlers that frame left open (`return` inside
//! `try`, §10.8). Runtime failures print `fail: <message>` on stderr
//! (after flushing stdout), then the Festina call stack recorded when the
//! trap left its dispatch loop, and exit 1; messages name the source
//! position as `file:line` from the function's line table (`fault.rs`).
//! Running out of memory is one of them ([`crate::oom`]): the growth
//! paths of the full step (`Concat`, `AppendText`, `ArrPush`, `MapSet`,
//! calls) fail with `out of memory growing ...`, and after the emergency
//! reserve was spent the full step fails at the next allocation site,
//! native call or map store.
//!
//! # Output
//!
//! stdout is the process's ([`crate::stdout`]): one buffer shared by every
//! interpreter of the process, flushed per line on a terminal and
//! otherwise when full, by a watchdog thread at most 20 ms after a line
//! was logged, before anything is written to stderr (so failure messages
//! come after the output that preceded them), before a child process
//! starts, before the event loop waits, and on every way out of `run`.
//! An embedder or test may give an interpreter its own sink instead
//! (`Interpreter::set_output`; `run.rs`, `Output`). A failed write is
//! reported once, as a runtime failure at the next `log`
//! (`Interpreter::output_status`) or when `run` ends.

mod api;
mod call;
mod dispatch;
mod extensions;
mod fault;
mod load;
mod ops;
mod park;
mod run;
mod store;
mod unwind;

pub use extensions::Extensions;
pub use load::{LoadError, Sibling};
pub use park::Parked;

use crate::event_loop::EventLoop;
use crate::heap::Heap;
use crate::native::NativeFn;
use crate::opcode::{Instr, Reg};
use crate::program::Program;
use crate::value::Value;
use load::SidTags;
use run::Output;
use std::fmt;
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;

/// Maximum call depth before a `stack overflow` runtime failure.
pub const MAX_FRAMES: usize = 100_000;

/// Maximum length of the register stack: 256 MiB of registers. A call
/// whose window would end above it is a `stack overflow` runtime failure,
/// so that recursion in a function with many registers (20,000 locals
/// take 320 KB a frame) is bounded by memory, not only by
/// [`MAX_FRAMES`].
pub const MAX_REGISTERS: usize = (256 << 20) / std::mem::size_of::<Value>();

/// Maximum nesting of natives calling back into Festina
/// ([`Interpreter::call_function`], e.g. a `sort` comparator that sorts):
/// each level is a Rust-level dispatch loop, so the Rust stack bounds it.
pub const MAX_NATIVE_DEPTH: usize = 200;

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
    /// release (see [`crate::register_windows`]).
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

/// The state of a dispatch loop set aside while a native it called runs
/// Festina code through [`Interpreter::call_function`] (kept on the
/// interpreter, not in locals, so a failure's call stack can see every
/// level; see `fault.rs`).
struct Outer {
    frames: Vec<Frame>,
    handlers: Vec<Handler>,
    /// The native call in progress in the outer loop (its function and
    /// instruction), or `None` when no loop was running (an event-loop
    /// callback, `on exit`).
    site: Option<(u32, usize)>,
    /// The outer `Interpreter::cur_loc` and `Interpreter::native_top`.
    cur_loc: (u32, usize),
    native_top: usize,
}

/// How a field-bearing struct slot vivifies (§8.9.2).
#[derive(Clone, Copy, Debug)]
enum Viv {
    None,
    Struct(u32),
    Arr,
    Map,
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
    /// The dispatch loops set aside by [`Interpreter::call_function`],
    /// innermost last.
    outer: Vec<Outer>,
    /// Dispatch loops running now (0 between the entry function's end and
    /// an event-loop callback).
    loops: u32,
    /// The Festina call stack of the newest trap that left a dispatch loop
    /// uncaught (see `fault.rs`), reported with it by `run`.
    trace: Option<fault::Trace>,
    /// The frame the innermost dispatch loop is running.
    cur: Cur,
    /// Per-call-site values kept by natives (compiled regexes, §8.15),
    /// keyed by the `CallNative`'s function and instruction index.
    sites: hashbrown::HashMap<(u32, usize), Value>,
    /// Per-interpreter state of the standard library's facilities, one
    /// value per Rust type (the database connection, §15.1); see
    /// [`Extensions`]. Dropped at teardown, after every value.
    exts: Extensions,
    /// The event loop (timers, background jobs, sources), created on first
    /// use; see [`crate::event_loop`].
    event_loop: Option<Box<EventLoop>>,
    /// Whether a newly created event loop takes over `SIGINT`/`SIGTERM`.
    signals: bool,
    /// Whether the dispatch loop hands the common cases to the fast tier
    /// (`run_fast`); off with `FESTINA_NO_FAST_TIER=1` or
    /// `FESTINA_NO_OPT=1`, read once at load.
    fast_tier: bool,
    /// Run by [`Interpreter::run`] once the program has finished; see
    /// [`Interpreter::set_finish_hook`].
    finish: Option<FinishHook>,
    /// The event handlers of this interpreter when they are not the
    /// program's top-level ones: a Festina thread's own (§20.8); see
    /// [`Interpreter::set_handlers`].
    own_handlers: Option<Vec<(String, u32)>>,
    /// The [`Interpreter::native_depth`] at which a native may park (see
    /// `park.rs`); 0: none may.
    park_depth: usize,
    /// Where the dispatch loop stopped for the last [`Trap::Park`].
    park_point: Option<park::ParkPoint>,
    /// The call the last [`Trap::Park`] set aside, until its caller takes
    /// it ([`Interpreter::take_parked`]).
    parked: Option<Parked>,
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
    // ---- register access --------------------------------------------------

    #[inline(always)]
    fn r(&self, i: usize) -> &Value {
        debug_assert!(i < self.regs.len());
        // SAFETY: the verifier guarantees every register operand is below
        // the function's `nregs`, and `call`/`execute` keep
        // `regs.len() >= base + nregs` for the current frame.
        unsafe { self.regs.get_unchecked(i) }
    }
}
