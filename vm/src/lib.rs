//! The Festina virtual machine: bytecode format, values, heap, interpreter.
//!
//! Design (see each module for details):
//! - [`opcode`]: the register instruction set, declared once.
//! - [`program`]: the immutable loaded program, shared between threads.
//! - [`types`]: static types, also used by the VM to render and zero values.
//! - [`value`]: the 16-byte run-time [`value::Value`].
//! - [`heap`]: reference counting with cycle collection for structs,
//!   arrays and maps.
//! - [`interp`]: the [`interp::Interpreter`] and its dispatch loop.
//! - [`native`]: the native-intrinsic registry types ([`native::NativeEntry`],
//!   [`native::Trap`]).
//! - [`render`]: text form of values (§8.21), including C `%g` floats.
//! - [`verify`]: load-time checks that let the loop trust every operand.
//! - [`liveness`]: the register-liveness check (no register is read after
//!   a `Release` of it), run by the verifier in debug builds.
//! - [`switches`]: the `FESTINA_NO_*` variables that turn optimisations
//!   off.
//! - [`windows`]: load-time inference of functions whose registers only
//!   ever hold scalars (their returns release nothing).
//! - [`disasm`]: the readable listing (`--emit-bytecode`).
//! - [`serialize`]: the versioned binary form of a program (bundles).
//! - [`row`]: the layout of table rows (§8.10, §15.5): columns, `rowid`
//!   and which columns are defined.
//! - [`event_loop`]: the per-interpreter event loop (timers, background
//!   jobs, signals, registered sources; §12).
//!
//! # Values
//! A [`value::Value`] is a 16-byte enum: a tag plus one 8-byte payload.
//! `int`, `float`, `bool`, `color` (as an int) and `func` (a function
//! index) are inline; `text`/`ascii` are `Rc`s to immutable buffers (text's
//! copy semantics are kept by never mutating a shared buffer: the in-place
//! `AppendText` only mutates when it holds the sole reference, otherwise it
//! copies, which makes `s = s + x` loops amortized linear); structs, arrays
//! and maps are counted pointers into the [`heap`]; mixed-enum boxes and
//! stdlib handles are plain `Rc`s. Clone retains and drop releases, so
//! values die deterministically when a register, field or element is
//! overwritten or a frame returns (§13.1). The float null is a NaN;
//! everything else's null is `Value::Null`. Typed instructions match the
//! variant the checker promised and fall back (null int reads 0) without
//! ever panicking.
//!
//! # Reference counting and cycles
//! Heap objects carry a header (count, colour bits, owning heap). Releases
//! that reach zero free the payload iteratively (a pending queue keeps the
//! Rust stack flat down million-node lists). Types that can reach
//! themselves (`Record::may_cycle`, or the VM's own analysis of field
//! types) and arrays/maps that have held a heap value are *tracked*: a
//! release to a non-zero count buffers them as possible cycle roots, and
//! when the buffer passes a threshold (checked at allocation sites) or at
//! teardown the heap runs Bacon–Rajan synchronous trial deletion: subtract
//! internal edges from the roots' reachable subgraph, restore everything
//! still referenced from outside, free the rest. Edges through enum boxes
//! are not walked (§13.3), which only makes the collector more
//! conservative: a cycle still reachable from outside is never touched.
//!
//! # Frames and calls
//! One `Vec<Value>` register stack; a frame is a window `[base, base +
//! nregs)`. `Call { base: b }` starts the callee's window at the caller's
//! `base + b` where the arguments already sit (Lua-style) and pushes a
//! small saved-frame record; nothing else is initialised (the code
//! generator writes every register before reading it). Return releases
//! every managed value of the callee's window (its locals and temporaries)
//! and writes the result to the caller's `R[dst]`.
//! The dispatch loop never recurses in Rust and runs in two tiers, a
//! call-free fast path for the common cases and a full step for the rest
//! (see [`interp`]); depth is capped at
//! [`interp::MAX_FRAMES`] (`stack overflow in function 'f' at file:line`).
//! Programs are verified once at load, so register, constant and jump
//! operands are trusted in the loop; the interpreter keeps its own copy of
//! each function's code with a `ReturnVoid` appended so fetching needs no
//! bounds check.
//!
//! A native that calls back into Festina (a `sort` comparator, a `forEach`
//! callback, a timer) uses `Interpreter::call_function`: the callee's
//! window starts above the calling frame's window and a nested run of the
//! same dispatch loop, with its own frame and handler stacks, runs until
//! that function returns. A throw it does not catch unwinds its frames and
//! comes back to the native as `Trap::Throw`, which the native returns so
//! the caller's `try` receives it (§13.7). Nesting is capped at
//! `interp::MAX_NATIVE_DEPTH`.
//!
//! # Exceptions and failures
//! `TryEnter` pushes a handler (frame depth, base, catch register, target).
//! A throw pops the newest handler, unwinds the frames above it nulling
//! their windows (releasing their values, §13.7), stores the text and
//! jumps; with no handler it becomes a runtime failure. Runtime failures
//! print `fail: <message>` on stderr (after flushing stdout) and exit 1;
//! messages name the source position as `file:line` from the function's
//! line table.
#![warn(missing_docs)]

pub mod disasm;
pub mod event_loop;
pub mod heap;
pub mod interp;
pub mod liveness;
pub mod native;
pub mod opcode;
pub mod program;
pub mod render;
pub mod row;
pub mod serialize;
pub mod switches;
pub mod types;
pub mod value;
pub mod verify;
pub mod windows;
