//! The `text` methods the reference added after edition 0.44 (§16.3 as
//! it stands today), and `ascii.toInt()`.
//!
//! | native              | Festina form              | result |
//! |---------------------|---------------------------|--------|
//! | `text_slice`        | `s.slice(start, end)`     | `text`: code points `[start, end)`, both ends clamped to `[0, length]`; empty when `end <= start` |
//! | `text_index_of`     | `s.indexOf(t)`            | `int`: code-point index of the first `t`, or `-1`; `''` is found at 0 |
//! | `text_index_of_from`| `s.indexOf(t, start)`     | the same, searching from code point `start` (clamped to `[0, length]`) |
//! | `text_starts_with`  | `s.startsWith(t)`         | `bool` |
//! | `text_ends_with`    | `s.endsWith(t)`           | `bool` |
//! | `text_to_upper`     | `s.toUpperCase()`         | `text` with ASCII letters upper-cased, every other character unchanged |
//! | `text_to_lower`     | `s.toLowerCase()`         | `text` with ASCII letters lower-cased |
//! | `text_repeat`       | `s.repeat(n)`             | `text`: `n` copies; empty for `n <= 0`; a result over [`MAX_REPEAT_BYTES`] is a runtime failure |
//! | `text_to_float`     | `s.toFloat()`             | `float`: see [`parse_float_prefix`]; `null` (NaN) when no number starts the text |
//! | `ascii_to_int`      | `a.toInt()`               | `int`, exactly as `text.toInt()` |
//!
//! Every index counts code points, as `s[i]`, `.length` and
//! `.charCodeAt(i)` do (§8.4), so `indexOf`'s answer is a position
//! `slice` takes. A null receiver reads as the empty text (README,
//! decisions); a null text argument reads as empty too.

use crate::text::{int_arg, is_space, parse_int_prefix, str_arg};
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::Value;

/// The longest text `repeat` builds (1 GiB); more is a runtime failure
/// rather than an exhausted machine.
pub const MAX_REPEAT_BYTES: usize = 1 << 30;

/// The natives of this module, for `Interpreter::new`.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "text_slice",
            func: text_slice,
        },
        NativeEntry {
            name: "text_index_of",
            func: text_index_of,
        },
        NativeEntry {
            name: "text_index_of_from",
            func: text_index_of,
        },
        NativeEntry {
            name: "text_starts_with",
            func: text_starts_with,
        },
        NativeEntry {
            name: "text_ends_with",
            func: text_ends_with,
        },
        NativeEntry {
            name: "text_to_upper",
            func: text_to_upper,
        },
        NativeEntry {
            name: "text_to_lower",
            func: text_to_lower,
        },
        NativeEntry {
            name: "text_repeat",
            func: text_repeat,
        },
        NativeEntry {
            name: "text_to_float",
            func: text_to_float,
        },
        NativeEntry {
            name: "ascii_to_int",
            func: ascii_to_int,
        },
    ]
}

/// Byte offset of code point `cp` in `s` (`s.len()` at or past the end).
fn byte_of(s: &str, cp: usize) -> usize {
    if s.is_ascii() {
        return cp.min(s.len());
    }
    s.char_indices().nth(cp).map_or(s.len(), |(b, _)| b)
}

/// Number of code points in `s[..byte]`.
fn cp_of(s: &str, byte: usize) -> usize {
    if s.is_ascii() {
        byte
    } else {
        s[..byte].chars().count()
    }
}

/// `n` clamped to `[0, len]`.
fn clamp(n: i64, len: usize) -> usize {
    n.clamp(0, len as i64) as usize
}

fn text_slice(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let s = str_arg(args, 0);
    let len = if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    };
    let (start, end) = (clamp(int_arg(args, 1), len), clamp(int_arg(args, 2), len));
    if end <= start {
        return Ok(Value::text(""));
    }
    let (a, b) = (byte_of(s, start), byte_of(s, end));
    Ok(Value::text(&s[a..b]))
}

/// `s.indexOf(t)` and `s.indexOf(t, start)`.
fn text_index_of(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let (s, t) = (str_arg(args, 0), str_arg(args, 1));
    let from_cp = if args.len() > 2 {
        let len = if s.is_ascii() {
            s.len()
        } else {
            s.chars().count()
        };
        clamp(int_arg(args, 2), len)
    } else {
        0
    };
    let from = byte_of(s, from_cp);
    Ok(Value::Int(match s[from..].find(t) {
        Some(b) => cp_of(s, from + b) as i64,
        None => -1,
    }))
}

fn text_starts_with(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Bool(str_arg(args, 0).starts_with(str_arg(args, 1))))
}

fn text_ends_with(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Bool(str_arg(args, 0).ends_with(str_arg(args, 1))))
}

fn text_to_upper(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::text(str_arg(args, 0).to_ascii_uppercase()))
}

fn text_to_lower(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::text(str_arg(args, 0).to_ascii_lowercase()))
}

fn text_repeat(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let s = str_arg(args, 0);
    let n = int_arg(args, 1);
    if n <= 0 || s.is_empty() {
        return Ok(Value::text(""));
    }
    match (n as u64).checked_mul(s.len() as u64) {
        Some(total) if total <= MAX_REPEAT_BYTES as u64 => Ok(Value::text(s.repeat(n as usize))),
        _ => Err(Trap::Fail(format!(
            "repeat: {n} copies of a text of {} bytes is more than {MAX_REPEAT_BYTES} bytes at {}",
            s.len(),
            it.location()
        ))),
    }
}

fn text_to_float(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Float(
        parse_float_prefix(str_arg(args, 0)).unwrap_or(f64::NAN),
    ))
}

fn ascii_to_int(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(parse_int_prefix(str_arg(args, 0)).map_or(Value::Null, Value::Int))
}

/// `text.toFloat()` (§16.3): leading ASCII whitespace, an optional sign,
/// decimal digits with an optional `.` and fraction (at least one digit
/// in all), and an optional exponent (`e` or `E`, an optional sign and at
/// least one digit; without digits the `e` is not part of the number).
/// Whatever follows is ignored. `inf`, `nan` and hexadecimal forms are
/// not numbers here (`'0x10'` reads `0`, the digit before the `x`).
/// `None` when no number starts the text.
pub fn parse_float_prefix(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && is_space(b[i]) {
        i += 1;
    }
    let start = i;
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let int_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        frac_digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if int_digits > 0 || frac_digits > 0 {
            i += 1 + frac_digits;
        }
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp_digits = b[j..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp_digits > 0 {
            i = j + exp_digits;
        }
    }
    s[start..i].parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_prefixes() {
        let p = parse_float_prefix;
        assert_eq!(p("12"), Some(12.0));
        assert_eq!(p("  -2.5xyz"), Some(-2.5));
        assert_eq!(p(".5"), Some(0.5));
        assert_eq!(p("5."), Some(5.0));
        assert_eq!(p("1e3"), Some(1000.0));
        assert_eq!(p("1e"), Some(1.0));
        assert_eq!(p("1e+"), Some(1.0));
        assert_eq!(p("2E-2x"), Some(0.02));
        assert_eq!(p("0x10"), Some(0.0));
        assert_eq!(p("inf"), None);
        assert_eq!(p("nan"), None);
        assert_eq!(p("abc"), None);
        assert_eq!(p("."), None);
        assert_eq!(p("-"), None);
        assert_eq!(p(""), None);
    }

    #[test]
    fn code_point_positions() {
        assert_eq!(byte_of("héllo", 2), 3);
        assert_eq!(byte_of("héllo", 99), 6);
        assert_eq!(cp_of("héllo wörld", 7), 6);
    }
}
