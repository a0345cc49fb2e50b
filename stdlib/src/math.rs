//! The `Math` namespace (§16.2): natives `math_<name>`.
//!
//! - `floor`, `ceil`, `round`, `trunc` (`float → int`): `null` for a null
//!   (NaN) or infinite argument, or when the rounded value is outside the
//!   `int` range. `round` rounds halves away from zero (C's `round`:
//!   `Math.round(-2.5)` is `-3`).
//! - `floorDiv(a, b)`: the floor of `a / b` (rounding toward negative
//!   infinity); `null` when `b` is 0; `floorDiv(int min, -1)` wraps like
//!   all int overflow.
//! - `sqrt abs exp sin cos tan asin acos atan log log2 log10`, `pow`,
//!   `atan2`: IEEE results; a result that is not a number (`sqrt(-1)`) is
//!   the float `null`, an infinite one renders `null`.
//! - `min`, `max`: the smaller/larger; `null` if either is `null`.
//! - `random()`: uniform in `[0, 1)`, from a generator seeded per process
//!   (not cryptographic).
//!
//! `float` parameters receive `int` arguments already promoted (§8.3).

use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, NativeFn, Trap};
use festina_vm::value::Value;

/// The natives of this module, for `Interpreter::new`.
pub fn natives() -> Vec<NativeEntry> {
    let table: &[(&'static str, NativeFn)] = &[
        ("math_floor", floor),
        ("math_ceil", ceil),
        ("math_round", round),
        ("math_trunc", trunc),
        ("math_floorDiv", floor_div),
        ("math_sqrt", sqrt),
        ("math_abs", abs),
        ("math_exp", exp),
        ("math_sin", sin),
        ("math_cos", cos),
        ("math_tan", tan),
        ("math_asin", asin),
        ("math_acos", acos),
        ("math_atan", atan),
        ("math_log", log),
        ("math_log2", log2),
        ("math_log10", log10),
        ("math_pow", pow),
        ("math_min", min),
        ("math_max", max),
        ("math_atan2", atan2),
        ("math_random", random),
    ];
    table
        .iter()
        .map(|&(name, func)| NativeEntry { name, func })
        .collect()
}

fn f(args: &[Value], i: usize) -> f64 {
    args.get(i).map_or(f64::NAN, Value::as_float)
}

/// `x` already rounded to a whole number, as an `int`; `None` for NaN,
/// infinities and values outside the `i64` range.
pub fn to_int(x: f64) -> Option<i64> {
    // 2^63 is exactly representable; every float below it converts.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    (x.is_finite() && (-LIMIT..LIMIT).contains(&x)).then_some(x as i64)
}

fn rounded(args: &[Value], op: fn(f64) -> f64) -> Result<Value, Trap> {
    Ok(to_int(op(f(args, 0))).map_or(Value::Null, Value::Int))
}

fn floor(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    rounded(a, f64::floor)
}
fn ceil(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    rounded(a, f64::ceil)
}
fn round(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    rounded(a, f64::round)
}
fn trunc(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    rounded(a, f64::trunc)
}

/// Floor division: the quotient rounded toward negative infinity; `None`
/// for a zero divisor.
pub fn floor_div_int(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    let q = a.wrapping_div(b);
    if a.wrapping_rem(b) != 0 && ((a < 0) != (b < 0)) {
        Some(q.wrapping_sub(1))
    } else {
        Some(q)
    }
}

fn floor_div(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let x = a.first().map_or(0, Value::as_int);
    let y = a.get(1).map_or(0, Value::as_int);
    Ok(floor_div_int(x, y).map_or(Value::Null, Value::Int))
}

fn unary(a: &[Value], op: fn(f64) -> f64) -> Result<Value, Trap> {
    Ok(Value::Float(op(f(a, 0))))
}

fn sqrt(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::sqrt)
}
fn abs(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::abs)
}
fn exp(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::exp)
}
fn sin(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::sin)
}
fn cos(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::cos)
}
fn tan(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::tan)
}
fn asin(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::asin)
}
fn acos(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::acos)
}
fn atan(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::atan)
}
fn log(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::ln)
}
fn log2(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::log2)
}
fn log10(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    unary(a, f64::log10)
}

fn pow(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Float(f(a, 0).powf(f(a, 1))))
}

fn atan2(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Float(f(a, 0).atan2(f(a, 1))))
}

fn min(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let (x, y) = (f(a, 0), f(a, 1));
    Ok(Value::Float(if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.min(y)
    }))
}

fn max(_: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let (x, y) = (f(a, 0), f(a, 1));
    Ok(Value::Float(if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.max(y)
    }))
}

fn random(_: &mut Interpreter, _: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Float(fastrand::f64()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_range() {
        assert_eq!(to_int(3.0), Some(3));
        assert_eq!(to_int(-(2f64.powi(63))), Some(i64::MIN));
        assert_eq!(to_int(2f64.powi(63)), None);
        assert_eq!(to_int(f64::NAN), None);
        assert_eq!(to_int(f64::NEG_INFINITY), None);
        assert_eq!((-2.5f64).round(), -3.0);
    }

    #[test]
    fn floor_division() {
        assert_eq!(floor_div_int(7, 2), Some(3));
        assert_eq!(floor_div_int(-7, 2), Some(-4));
        assert_eq!(floor_div_int(7, -2), Some(-4));
        assert_eq!(floor_div_int(-7, -2), Some(3));
        assert_eq!(floor_div_int(-8, 2), Some(-4));
        assert_eq!(floor_div_int(1, 0), None);
        assert_eq!(floor_div_int(i64::MIN, -1), Some(i64::MIN));
    }
}
