//! Timers (§12.4): `setTimeout`, `setInterval`, `clearTimeout`,
//! `clearInterval`, on the interpreter's event loop
//! ([`festina_vm::event_loop`]).
//!
//! | native        | Festina form                | result |
//! |---------------|-----------------------------|--------|
//! | `set_timeout` | `setTimeout(fn, delayMs)`   | timer id (int, positive) |
//! | `set_interval`| `setInterval(fn, delayMs)`  | timer id |
//! | `clear_timer` | `clearTimeout(id)`, `clearInterval(id)` | void |
//!
//! `fn` is checked at compile time to be the bare name of a declared
//! zero-parameter `void` function, so it arrives as a function value. A
//! negative delay counts as 0; an interval's period is at least 1 ms. The
//! two clear functions are interchangeable; an unknown id is ignored.

use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::Value;

/// The natives of this module, for the registry.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "set_timeout",
            func: set_timeout,
        },
        NativeEntry {
            name: "set_interval",
            func: set_interval,
        },
        NativeEntry {
            name: "clear_timer",
            func: clear_timer,
        },
    ]
}

fn arm(it: &mut Interpreter, args: &[Value], repeat: bool) -> Result<Value, Trap> {
    let Some(Value::Func(f)) = args.first() else {
        return Err(Trap::Fail(format!(
            "a timer needs a declared function at {}",
            it.location()
        )));
    };
    let f = *f;
    let ms = args.get(1).map_or(0, Value::as_int);
    Ok(Value::Int(it.event_loop()?.set_timer(f, ms, repeat)))
}

/// `setTimeout(fn, delayMs)`.
fn set_timeout(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    arm(it, args, false)
}

/// `setInterval(fn, delayMs)`.
fn set_interval(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    arm(it, args, true)
}

/// `clearTimeout(id)` / `clearInterval(id)`.
fn clear_timer(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let id = args.first().map_or(0, Value::as_int);
    if let Some(lp) = it.event_loop_if_started() {
        lp.clear_timer(id);
    }
    Ok(Value::Null)
}
