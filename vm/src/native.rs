//! Native intrinsics: the registry entries the VM binds `Program::natives`
//! names to when it loads a program (see `Interpreter::new`).
//!
//! A native receives the interpreter (for output, argv, the program and the
//! heap) and its arguments, already evaluated and converted to the
//! parameter types by the checker, and returns a value (`Value::Null` for
//! a `void` intrinsic) or a [`Trap`]. A native may call Festina functions
//! with `Interpreter::call_function`; it must pass on any trap that
//! returns (a `throw` out of the callback then reaches the caller's
//! `try`), and it must not keep a borrow of a heap payload across the call.
//! Per-call-site state (a compiled regex literal) lives in
//! `Interpreter::site_value`/`set_site_value`.

use crate::interp::Interpreter;
use crate::value::Value;

/// Signature of a native function: arguments in parameter order.
pub type NativeFn = fn(&mut Interpreter, &[Value]) -> Result<Value, Trap>;

/// One registry entry: the name a `Program` refers to and its function.
#[derive(Clone, Copy, Debug)]
pub struct NativeEntry {
    /// Name as listed in `Program::natives` (e.g. `log`, `fail_fields`).
    pub name: &'static str,
    /// The implementation.
    pub func: NativeFn,
}

/// Non-local outcomes of a native call (and of the interpreter's own
/// failures).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trap {
    /// Runtime failure (§14.2): print `fail: <message>` to stderr, exit 1.
    Fail(String),
    /// Throw this text to the nearest `catch` (§10.10); uncaught, it is a
    /// `Fail` with the same message.
    Throw(String),
    /// Exit now with this status (`close(code)`, §12.3), flushing output.
    Exit(i32),
    /// The native already reported a failure itself (e.g. the JSON line of
    /// `fail(msg, fields)`, §14.2): exit with status 1 and print nothing.
    FailReported,
    /// Not a failure: the native started a wait on the event loop and the
    /// call that made it is set aside until the wait ends (only when
    /// [`crate::interp::Interpreter::may_park`]; see `interp/park.rs`).
    Park,
}
