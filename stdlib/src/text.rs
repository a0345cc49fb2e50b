//! Methods of `int`, `text` and `ascii`, and `environment` (§8.3–§8.5,
//! §16.2, §16.3).
//!
//! | native              | Festina form            | result |
//! |---------------------|-------------------------|--------|
//! | `int_to_char`       | `i.toChar()`            | `text`: the code point's UTF-8 (empty for 0); `null` if negative, above `0x10FFFF` or a surrogate |
//! | `text_to_int`       | `s.toInt()`             | `int`: ASCII whitespace, optional sign, digits, rest ignored; `null` without digits or beyond 64 bits |
//! | `text_to_ascii`     | `s.toAscii()`           | `ascii`, or `null` if a character is not ASCII |
//! | `text_trim`         | `s.trim()`              | `text` without leading/trailing ASCII whitespace |
//! | `text_char_code_at` | `s.charCodeAt(i)`       | `int`: code point `i`, or `null` |
//! | `text_split`        | `s.split(sep)`          | `arr[text]`; empty pieces kept; an empty `sep` splits per code point |
//! | `text_replace`      | `s.replace(find, repl)` | `text` with the first occurrence replaced |
//! | `ascii_slice`       | `a.slice(start, end)`   | `ascii` bytes `[start, end)`, negative positions from the end, clamped |
//! | `env_get`           | `environment.NAME`      | `text`, or `null` when unset |
//!
//! A null `text` or `ascii` receiver reads as empty (as `.length` reads 0,
//! §8.4); a null `int` argument reads 0.

use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::Value;

/// The natives of this module, for `Interpreter::new`.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "int_to_char",
            func: int_to_char,
        },
        NativeEntry {
            name: "text_to_int",
            func: text_to_int,
        },
        NativeEntry {
            name: "text_to_ascii",
            func: text_to_ascii,
        },
        NativeEntry {
            name: "text_trim",
            func: text_trim,
        },
        NativeEntry {
            name: "text_char_code_at",
            func: text_char_code_at,
        },
        NativeEntry {
            name: "text_split",
            func: text_split,
        },
        NativeEntry {
            name: "text_replace",
            func: text_replace,
        },
        NativeEntry {
            name: "ascii_slice",
            func: ascii_slice,
        },
        NativeEntry {
            name: "env_get",
            func: env_get,
        },
    ]
}

/// Argument `i` as a string slice; null (or absent) reads as empty.
pub(crate) fn str_arg(args: &[Value], i: usize) -> &str {
    args.get(i).and_then(Value::as_str).unwrap_or("")
}

/// Argument `i` as an int; null (or absent) reads 0.
pub(crate) fn int_arg(args: &[Value], i: usize) -> i64 {
    args.get(i).map_or(0, Value::as_int)
}

/// The text for code point `cp`, or `None` if it is not a Unicode scalar
/// value (negative, above `0x10FFFF`, or a surrogate).
pub fn char_of(cp: i64) -> Option<char> {
    u32::try_from(cp).ok().and_then(char::from_u32)
}

fn int_to_char(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(match args.first() {
        // A text never holds NUL (§7.5.2 has no `\0`): code point 0 is
        // the empty text, as the reference's C string would be.
        Some(Value::Int(0)) => Value::text(""),
        Some(Value::Int(i)) => char_of(*i).map_or(Value::Null, |c| Value::text(c.to_string())),
        _ => Value::Null,
    })
}

/// C's `isspace` in the "C" locale: space, `\t`, `\n`, `\v`, `\f`, `\r`.
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// Parse like `text.toInt()` (§16.3): skip ASCII whitespace, take an
/// optional sign and the decimal digits that follow, ignore the rest.
/// `None` if there are no digits or the value does not fit in an `i64`.
pub fn parse_int_prefix(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && is_space(b[i]) {
        i += 1;
    }
    let neg = match b.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let start = i;
    // Accumulate negatively so i64::MIN is reachable.
    let mut acc: i64 = 0;
    while let Some(&d) = b.get(i) {
        if !d.is_ascii_digit() {
            break;
        }
        acc = acc.checked_mul(10)?.checked_sub((d - b'0') as i64)?;
        i += 1;
    }
    if i == start {
        return None;
    }
    if neg {
        Some(acc)
    } else {
        acc.checked_neg()
    }
}

fn text_to_int(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(parse_int_prefix(str_arg(args, 0)).map_or(Value::Null, Value::Int))
}

fn text_to_ascii(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(match args.first() {
        Some(Value::Text(t)) if t.as_str().is_ascii() => Value::ascii(t.as_str().as_bytes()),
        Some(Value::Text(_)) => Value::Null,
        _ => Value::ascii(Vec::new()),
    })
}

/// `s` without leading and trailing ASCII whitespace ([`is_space`]).
pub fn trim_ascii_space(s: &str) -> &str {
    // Trimming ASCII bytes never splits a multi-byte character.
    s.trim_matches(|c: char| c.is_ascii() && is_space(c as u8))
}

fn text_trim(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let s = str_arg(args, 0);
    let t = trim_ascii_space(s);
    if t.len() == s.len() {
        if let Some(v @ Value::Text(_)) = args.first() {
            return Ok(v.clone());
        }
    }
    Ok(Value::text(t))
}

fn text_char_code_at(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let i = int_arg(args, 1);
    if i < 0 {
        return Ok(Value::Null);
    }
    // O(1) on ASCII-only text, amortized O(1) for sequential positions
    // otherwise (the text's code-point cursor).
    let c = match args.first() {
        Some(Value::Text(t)) => t.char_at(i as usize),
        _ => None,
    };
    Ok(c.map_or(Value::Null, |c| Value::Int(c as i64)))
}

/// `s.split(sep)` (§16.3): empty pieces kept; an empty separator yields
/// one piece per code point (none for an empty `s`).
pub fn split_text(s: &str, sep: &str) -> Vec<Value> {
    if sep.is_empty() {
        let mut buf = [0u8; 4];
        return s
            .chars()
            .map(|c| Value::text(&*c.encode_utf8(&mut buf)))
            .collect();
    }
    s.split(sep).map(Value::text).collect()
}

fn text_split(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let items = split_text(str_arg(args, 0), str_arg(args, 1));
    Ok(it.new_arr(items))
}

fn text_replace(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let s = str_arg(args, 0);
    let find = str_arg(args, 1);
    let repl = str_arg(args, 2);
    Ok(Value::text(s.replacen(find, repl, 1)))
}

/// Resolve JS-style slice bounds against `len`: a negative position
/// counts from the end, then both are clamped to `[0, len]`; an end
/// before the start gives an empty range.
pub fn slice_bounds(start: i64, end: i64, len: usize) -> (usize, usize) {
    let n = len as i64;
    let fix = |p: i64| {
        if p < 0 {
            n.saturating_add(p).max(0)
        } else {
            p.min(n)
        }
    };
    let (a, b) = (fix(start), fix(end));
    (a as usize, b.max(a) as usize)
}

fn ascii_slice(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let bytes: &[u8] = match args.first() {
        Some(Value::Ascii(a)) => a,
        _ => &[],
    };
    let (a, b) = slice_bounds(int_arg(args, 1), int_arg(args, 2), bytes.len());
    Ok(Value::ascii(&bytes[a..b]))
}

fn env_get(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let name = str_arg(args, 0);
    if name.is_empty() || name.contains(['=', '\0']) {
        return Ok(Value::Null);
    }
    Ok(match std::env::var_os(name) {
        Some(v) => Value::text(v.to_string_lossy().into_owned()),
        None => Value::Null,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_int_prefixes() {
        assert_eq!(parse_int_prefix("42"), Some(42));
        assert_eq!(parse_int_prefix("  \t-17abc"), Some(-17));
        assert_eq!(parse_int_prefix("+8"), Some(8));
        assert_eq!(parse_int_prefix("abc"), None);
        assert_eq!(parse_int_prefix("-"), None);
        assert_eq!(parse_int_prefix(""), None);
        assert_eq!(parse_int_prefix("- 5"), None);
        assert_eq!(parse_int_prefix("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_int_prefix("9223372036854775807"), Some(i64::MAX));
        assert_eq!(parse_int_prefix("9223372036854775808"), None);
        assert_eq!(parse_int_prefix("007"), Some(7));
        assert_eq!(parse_int_prefix("1.9"), Some(1));
    }

    #[test]
    fn chars_and_trim() {
        assert_eq!(char_of(65), Some('A'));
        assert_eq!(char_of(0x1F600), Some('😀'));
        assert_eq!(char_of(-1), None);
        assert_eq!(char_of(0xD800), None);
        assert_eq!(char_of(0x110000), None);
        assert_eq!(trim_ascii_space(" \t\x0b\x0cé x \r\n"), "é x");
        assert_eq!(trim_ascii_space("\u{a0}x\u{a0}"), "\u{a0}x\u{a0}");
    }

    #[test]
    fn slices() {
        assert_eq!(slice_bounds(1, 3, 5), (1, 3));
        assert_eq!(slice_bounds(-2, 5, 5), (3, 5));
        assert_eq!(slice_bounds(3, 1, 5), (3, 3));
        assert_eq!(slice_bounds(-10, 100, 5), (0, 5));
        assert_eq!(slice_bounds(i64::MIN, i64::MAX, 5), (0, 5));
    }
}
