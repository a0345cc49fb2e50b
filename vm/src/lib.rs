//! The Festina virtual machine: bytecode format, values, heap, interpreter.
//!
//! Design (see each module for details):
//! - [`opcode`]: the register instruction set, declared once.
//! - [`program`]: the immutable loaded program, shared between threads.
//! - [`types`]: static types, also used by the VM to render and zero values.
//! - [`value`]: the 16-byte run-time [`value::Value`].
//! - [`heap`]: reference counting with cycle collection for structs,
//!   arrays and maps.
//! - [`interp`]: the [`interp::Interpreter`]: loading, the dispatch loop,
//!   calls, unwinding, failure diagnostics and the natives' API, one part
//!   per file.
//! - [`native`]: the native-intrinsic registry types ([`native::NativeEntry`],
//!   [`native::Trap`]).
//! - [`render`]: text form of values (§8.21), including C `%g` floats.
//! - [`verify`]: load-time checks that let the loop trust every operand.
//! - [`liveness`]: the register-liveness check (no register is read after
//!   a `Release` of it), run by the verifier in debug builds.
//! - [`switches`]: the `FESTINA_NO_*` variables that turn optimisations
//!   off (`FESTINA_NO_FUSION`, `FESTINA_NO_FAST_TIER`, the umbrella
//!   `FESTINA_NO_OPT`).
//! - [`register_windows`]: load-time inference of functions whose registers only
//!   ever hold scalars (their returns release nothing).
//! - [`disasm`]: the readable listing (`--emit-bytecode`).
//! - [`serialize`]: the versioned binary form of a program (bundles).
//! - [`row`]: the layout of table rows (§8.10, §15.5): columns, `rowid`
//!   and which columns are defined.
//! - [`event_loop`]: the per-interpreter event loop (timers, background
//!   jobs, signals, registered sources; §12).
//! - [`stdout`]: the process's standard output: one buffer for every
//!   interpreter, written by a watchdog thread within 20 ms of a `log`,
//!   and on every way out of the process (§16.5).
//! - [`oom`]: running out of memory as a runtime failure: fallible growth
//!   paths, and the global allocator's last resort.
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
//! # Frames, calls, dispatch and exceptions
//! Described once, in the module documentation of [`interp`]: register
//! windows on one register stack, the one frame-push path and depth
//! check, natives calling back into Festina, the two dispatch tiers, and
//! unwinding to `try` handlers.
#![warn(missing_docs)]

pub mod block_cache;
pub mod disasm;
pub mod event_loop;
pub mod heap;
pub mod interleave;
pub mod interp;
pub mod liveness;
pub mod native;
pub mod oom;
pub mod opcode;
pub mod program;
pub mod register_windows;
pub mod render;
pub mod row;
pub mod serialize;
pub mod stdout;
pub mod switches;
pub mod types;
pub mod value;
pub mod verify;
