//! Register stores. A write releases what it overwrites; these skip the
//! release (and the call to it) when the old value is a scalar, which is
//! the common case in the dispatch loop, and write a scalar's tag and
//! payload directly (a 16-byte copy of a value whose payload was just
//! written would stall store forwarding).

use crate::value::Value;

/// `*slot = Int(x)`: a plain write (tag and payload) over any scalar, a
/// release otherwise. One compare: the scalars are the first five tags.
#[inline(always)]
pub(super) fn store_int(slot: &mut Value, x: i64) {
    if slot.is_scalar() {
        // SAFETY: the old scalar owns nothing; overwriting it is exact.
        unsafe { std::ptr::write(slot, Value::Int(x)) }
    } else {
        replace_managed(slot, Value::Int(x))
    }
}

/// `*slot = Float(x)`, like [`store_int`].
#[inline(always)]
pub(super) fn store_float(slot: &mut Value, x: f64) {
    if slot.is_scalar() {
        // SAFETY: the old scalar owns nothing; overwriting it is exact.
        unsafe { std::ptr::write(slot, Value::Float(x)) }
    } else {
        replace_managed(slot, Value::Float(x))
    }
}

/// `*slot = Bool(x)`, like [`store_int`].
#[inline(always)]
pub(super) fn store_bool(slot: &mut Value, x: bool) {
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
pub(super) fn copy_to(dst: &mut Value, src: &Value) {
    match *src {
        Value::Int(i) => store_int(dst, i),
        Value::Float(f) => store_float(dst, f),
        Value::Bool(b) => store_bool(dst, b),
        _ => assign(dst, src.clone()),
    }
}

/// A copy of `v` (retained when managed), without a call for the scalars.
#[inline(always)]
pub(super) fn copy_value(v: &Value) -> Value {
    match *v {
        Value::Int(i) => Value::Int(i),
        Value::Float(f) => Value::Float(f),
        Value::Bool(b) => Value::Bool(b),
        ref other => other.clone(),
    }
}

/// `*slot = v`, skipping the release call when the old value is scalar.
#[inline(always)]
pub(super) fn assign(slot: &mut Value, v: Value) {
    if slot.is_scalar() {
        // SAFETY: the old scalar owns nothing; overwriting it is exact.
        unsafe { std::ptr::write(slot, v) }
    } else {
        replace_managed(slot, v)
    }
}

/// Overwrite a register holding a managed value (the release runs here,
/// out of the dispatch loop).
#[inline(never)]
pub(super) fn replace_managed(slot: &mut Value, v: Value) {
    *slot = v;
}
