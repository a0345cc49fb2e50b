//! Text form of values (§8.21).
//!
//! - `int`: decimal. `float`: C's `printf("%g")` (6 significant digits,
//!   trailing zeros stripped, exponent form when the exponent is below -4
//!   or at least 6, with at least two exponent digits); a non-finite float
//!   renders `null`. `bool`: `true`/`false`. A float whose shortest
//!   round-trip digits number at most 6 (`21.5`, `0.25`) is written from
//!   them, which is the same text; the rest go through exact-precision
//!   formatting (`FESTINA_NO_SHORT_FLOAT` sends every float that way).
//! - `text`/`ascii` at top level: the string itself.
//! - Structs, rows, arrays, maps: compact JSON (`{"id":7,"xs":[1,2]}`),
//!   fields in declaration order, map entries in iteration order, strings
//!   escaped with `\"`, `\\`, `\n`, `\r`, `\t` and `\u00XX` for other
//!   control characters (raw UTF-8 otherwise). A table row renders its
//!   defined columns only: one the query did not select, or that `delete`
//!   removed, is omitted (§8.21, §15.5); its `rowid` is not a column.
//! - A `weak` field renders `null`: rendering never follows a weak
//!   reference (a back-reference such as a parent pointer is not part of
//!   the value, and following it would render a whole tree from each of
//!   its nodes).
//! - A null field renders `null`, except a never-reached struct field of
//!   array type (`[]`) or map type (`{}`): those are empty values created on
//!   first reach (§8.9.2), so they already are empty.
//! - A boxed enum renders its member value as JSON, also at top level (a
//!   held text appears quoted, §8.21); a handle renders `"<blob>"`
//!   (its type name); a function value has no text form and renders `null`.
//! - Containers nested deeper than [`MAX_DEPTH`] render `null`, which also
//!   stops self-referencing cycles.
//!
//! # Speed
//!
//! Rendering is on the path of every JSON response and every `log` of a
//! struct, so the common cases skip the general machinery: an int is
//! written by `itoa` rather than through `core::fmt` (a `write!` of a
//! one-digit int cost about 650 instructions, by callgrind, more than
//! the rest of a small struct's rendering), a string with nothing to
//! escape is copied whole after one scan, and [`render_to_text`] (a
//! struct, array or map's `toText`, which every JSON response body goes
//! through) renders into a per-thread scratch buffer and copies the
//! result once into a text of exactly its size: no growth by doubling
//! however large the text, and no spare capacity kept by a small one.
//! `FESTINA_NO_FAST_RENDER` ([`crate::switches::NO_FAST_RENDER`]) turns
//! the scratch buffer off (a fresh 256-byte buffer instead), with the
//! same output.

use crate::program::Program;
use crate::types::Type;
use crate::value::Value;
use std::cell::RefCell;
use std::fmt::Write;
use std::sync::OnceLock;

/// Whether [`render_to_text`] uses its scratch buffer (see "Speed"): read
/// once per process from `FESTINA_NO_FAST_RENDER` / `FESTINA_NO_OPT`.
pub fn fast() -> bool {
    static FAST: OnceLock<bool> = OnceLock::new();
    crate::switches::enabled_once(&FAST, crate::switches::NO_FAST_RENDER)
}

/// The scratch buffer of [`render_to_text`] keeps at most this capacity
/// between renders (bytes); a larger one is given back.
const SCRATCH_KEEP: usize = 16 * 1024;

thread_local! {
    static SCRATCH: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Render `v` at top level (as [`render`]) into a new `String` of exactly
/// its length (see "Speed").
pub fn render_to_text(program: &Program, v: &Value, null_empty: bool) -> String {
    if !fast() {
        // A container renders to tens or hundreds of bytes: start with
        // room for that rather than growing from nothing.
        let mut s = match v {
            Value::Struct(_) | Value::Arr(_) | Value::Map(_) => String::with_capacity(256),
            _ => String::new(),
        };
        render(program, v, null_empty, &mut s);
        return s;
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            scratch.clear();
            render(program, v, null_empty, &mut scratch);
            let s = String::from(scratch.as_str());
            if scratch.capacity() > SCRATCH_KEEP {
                *scratch = String::new();
            }
            s
        }
        Err(_) => {
            let mut s = String::new();
            render(program, v, null_empty, &mut s);
            s
        }
    })
}

/// Containers at this nesting depth (the top-level container is depth 0)
/// or deeper render as `null` (§8.21 "depth is capped at 32").
pub const MAX_DEPTH: usize = 32;

/// Format a finite float like C's `printf("%g", x)`. Non-finite values
/// give `nan`, `inf` or `-inf` (callers rendering Festina values print
/// `null` for those instead, see [`render_float`]).
pub fn format_g(x: f64, out: &mut String) {
    if x.is_nan() {
        out.push_str("nan");
        return;
    }
    if x.is_infinite() {
        out.push_str(if x < 0.0 { "-inf" } else { "inf" });
        return;
    }
    if x.is_sign_negative() {
        out.push('-');
    }
    let a = x.abs();
    if a == 0.0 {
        out.push('0');
        return;
    }
    if short_floats() && format_g_short(a, out) {
        return;
    }
    format_g_exact(a, out)
}

/// `%g` of a finite `a > 0` by exact-precision formatting (the general
/// path).
fn format_g_exact(a: f64, out: &mut String) {
    // %e with precision P-1 = 5 decides the exponent (after rounding).
    let e = format!("{a:.5e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        out.push_str(strip_zeros(mant));
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let _ = write!(out, "{:02}", exp.unsigned_abs());
    } else {
        let prec = (5 - exp) as usize;
        let f = format!("{a:.prec$}");
        out.push_str(strip_zeros(&f));
    }
}

/// Whether the shortest-digits path of [`format_g`] is on (off with
/// `FESTINA_NO_SHORT_FLOAT` or `FESTINA_NO_OPT`; read once per process).
fn short_floats() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    crate::switches::enabled_once(&ON, crate::switches::NO_SHORT_FLOAT)
}

/// `%g` of a finite `a > 0` from its shortest round-trip digits (zmij,
/// Schubfach), when there are at most 6 of them; false (nothing written)
/// otherwise.
///
/// Why this equals `%g`: the shortest digits `d` name the decimal closest
/// to `a` with the fewest digits that reads back as `a`, so `a` lies
/// within half a unit in the last place (2^-53 relative) of `d`. With at
/// most 6 significant digits, `d` is a point of the 6-digit grid that
/// `%g` rounds `a` to, and the grid's half-spacing (5·10^-6 relative at
/// least) is far wider than that distance, so rounding `a` to 6 digits
/// gives `d` itself, with `d`'s exponent (this needs the 53 bits of a
/// normal float: subnormals take the general path). Trailing zeros are what `%g`
/// strips. The exact-precision formatting of the general path falls back
/// to bignum arithmetic for many values; this path never does (values
/// such as `21.5` or `0.25`, what programs mostly print, take it).
fn format_g_short(a: f64, out: &mut String) -> bool {
    // A subnormal has fewer than 53 bits: its shortest digits may stand
    // for a wide interval (5e-324 is 4.94066e-324).
    if !a.is_normal() {
        return false;
    }
    if format_g_decimal(a, out) {
        return true;
    }
    let mut buf = zmij::Buffer::new();
    let shortest = buf.format_finite(a);
    // In %g's fixed range zmij writes plain decimals too ("123.5",
    // "0.0001", "100000.0"): with a ".0" dropped, that is %g's text.
    if (1e-4..1e6).contains(&a) && !shortest.contains('e') {
        let t = shortest.strip_suffix(".0").unwrap_or(shortest);
        let significant = t
            .bytes()
            .skip_while(|&b| b == b'0' || b == b'.')
            .filter(u8::is_ascii_digit)
            .count();
        if significant > 6 {
            return false;
        }
        out.push_str(t);
        return true;
    }
    let s = shortest.as_bytes();
    let (mant, exp) = match s.iter().position(|&b| b == b'e' || b == b'E') {
        Some(i) => {
            let Some(e) = std::str::from_utf8(&s[i + 1..])
                .ok()
                .and_then(|e| e.trim_start_matches('+').parse::<i32>().ok())
            else {
                return false;
            };
            (&s[..i], e)
        }
        None => (s, 0),
    };
    // The significant digits (leading zeros skipped, at most 6 kept) and
    // where the decimal point sits among all the mantissa's digits.
    let mut digits = [0u8; 6];
    let mut n = 0;
    let mut seen = 0i32; // mantissa digits so far, zeros included
    let mut point = None;
    let mut first = None; // index (among all digits) of the first nonzero
    for &b in mant {
        match b {
            b'.' => point = Some(seen),
            b'0'..=b'9' => {
                if first.is_none() && b != b'0' {
                    first = Some(seen);
                }
                if let (Some(f), true) = (first, b != b'0') {
                    // Zeros before this digit are significant.
                    let at = (seen - f) as usize;
                    if at >= digits.len() {
                        return false;
                    }
                    for d in &mut digits[n..at] {
                        *d = b'0';
                    }
                    digits[at] = b;
                    n = at + 1;
                }
                seen += 1;
            }
            _ => return false,
        }
    }
    let Some(first) = first else {
        return false;
    };
    let point = point.unwrap_or(seen);
    // The exponent of the first significant digit.
    let e10 = exp + point - first - 1;
    let digits = &digits[..n];
    fn text(d: &[u8]) -> &str {
        std::str::from_utf8(d).unwrap_or("")
    }
    if !(-4..6).contains(&e10) {
        out.push_str(text(&digits[..1]));
        if n > 1 {
            out.push('.');
            out.push_str(text(&digits[1..]));
        }
        out.push('e');
        out.push(if e10 < 0 { '-' } else { '+' });
        let _ = write!(out, "{:02}", e10.unsigned_abs());
    } else if e10 >= 0 {
        let int_len = e10 as usize + 1;
        if n <= int_len {
            out.push_str(text(digits));
            for _ in n..int_len {
                out.push('0');
            }
        } else {
            out.push_str(text(&digits[..int_len]));
            out.push('.');
            out.push_str(text(&digits[int_len..]));
        }
    } else {
        out.push_str("0.");
        for _ in 0..(-e10 - 1) {
            out.push('0');
        }
        out.push_str(text(digits));
    }
    true
}

/// Powers of ten that are exact doubles, for [`format_g_decimal`].
const EXACT_POW10: [f64; 10] = [1.0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/// `%g` of a normal `a > 0` that is a short decimal: `m / 10^k` with
/// `m < 10^6` and `k <= 9`, in `%g`'s fixed range (`21.5`, `0.25`, `1200`:
/// what readings and prices are). False (nothing written) otherwise.
///
/// `k` is the first power for which `a * 10^k` (rounded) is a whole
/// number `m`; the decimal is taken only if `m / 10^k`, a correctly
/// rounded division of two exact doubles, is `a` itself: then the decimal
/// `m·10^-k` reads back as `a`, has at most 6 significant digits, and
/// is what `%g` prints (the argument of [`format_g_short`]), once its
/// trailing fractional zeros are dropped. Each candidate costs a
/// multiplication, where the shortest-digits search costs a few hundred
/// instructions.
fn format_g_decimal(a: f64, out: &mut String) -> bool {
    if !(1e-4..1e6).contains(&a) {
        return false;
    }
    for (k, &p) in EXACT_POW10.iter().enumerate() {
        let scaled = a * p;
        if scaled >= 1e6 {
            return false;
        }
        if scaled.fract() != 0.0 {
            continue;
        }
        if scaled / p != a {
            return false;
        }
        let (mut m, mut k) = (scaled as u64, k);
        while k > 0 && m % 10 == 0 {
            m /= 10;
            k -= 1;
        }
        let mut buf = itoa::Buffer::new();
        let d = buf.format(m);
        if k == 0 {
            out.push_str(d);
        } else if d.len() > k {
            let (int, frac) = d.split_at(d.len() - k);
            out.push_str(int);
            out.push('.');
            out.push_str(frac);
        } else {
            out.push_str("0.");
            for _ in d.len()..k {
                out.push('0');
            }
            out.push_str(d);
        }
        return true;
    }
    false
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// A float as Festina renders it: `%g`, or `null` when not finite.
pub fn render_float(x: f64, out: &mut String) {
    if x.is_finite() {
        format_g(x, out)
    } else {
        out.push_str("null")
    }
}

/// Render `v` at top level (log, templates, `toText`, throw). `null_empty`:
/// a null renders as the empty text instead of `null` (`ToText` mode 1).
pub fn render(program: &Program, v: &Value, null_empty: bool, out: &mut String) {
    match v {
        Value::Null => {
            if !null_empty {
                out.push_str("null")
            }
        }
        Value::Text(t) => out.push_str(t.as_str()),
        Value::Ascii(a) => out.push_str(&String::from_utf8_lossy(a)),
        // §8.21: an enum renders as JSON, so a held text appears quoted.
        Value::Enum(b) => render_json(program, &b.value, 0, out),
        // §8.21: the handle type's own text form (a blob's bytes up to
        // the first NUL, by default the type name).
        Value::Handle(h) => h.as_dyn().render_text(out),
        other => render_json(program, other, 0, out),
    }
}

/// Render `v` to a fresh string (top level, null renders `null`).
pub fn to_string(program: &Program, v: &Value) -> String {
    let mut s = String::new();
    render(program, v, false, &mut s);
    s
}

/// Render `v` as JSON at nesting `depth`.
pub fn render_json(program: &Program, v: &Value, depth: usize, out: &mut String) {
    match v {
        // A weak field is a back-reference, not part of the value: it is
        // never followed (a tree's parent pointers would otherwise render
        // the whole tree from every node).
        Value::Null | Value::Func(_) | Value::Weak(_) => out.push_str("null"),
        Value::Int(i) => out.push_str(itoa::Buffer::new().format(*i)),
        Value::Float(f) => render_float(*f, out),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Text(t) => json_string(t.as_str(), out),
        Value::Ascii(a) => json_string(&String::from_utf8_lossy(a), out),
        Value::Enum(b) => render_json(program, &b.value, depth, out),
        Value::Handle(h) => {
            out.push_str("\"<");
            out.push_str(h.type_name());
            out.push_str(">\"");
        }
        _ if depth >= MAX_DEPTH => out.push_str("null"),
        Value::Struct(s) if !s.is_row() && flat() && render_flat(program, s, out) => {}
        Value::Struct(s) => {
            let rec = if s.is_row() {
                program.tables.get(s.sid() as usize)
            } else {
                program.structs.get(s.sid() as usize)
            };
            out.push('{');
            // A row renders its columns only (not the rowid or the
            // definedness flags), omitting those the query did not select
            // or `delete` removed (§8.21, §15.5; see `crate::row`).
            let n = if s.is_row() {
                rec.map_or(0, |r| r.fields.len()).min(s.len())
            } else {
                s.len()
            };
            let mut first = true;
            for i in 0..n {
                if s.is_row() && !crate::row::is_defined(s, n, i) {
                    continue;
                }
                let field = rec.and_then(|r| r.fields.get(i));
                // A field name is an identifier: nothing in it to escape.
                out.push_str(if first { "\"" } else { ",\"" });
                first = false;
                out.push_str(field.map_or("?", |f| f.name.as_str()));
                out.push_str("\":");
                // Rendering only reads: the field is borrowed in place.
                s.with(i, |fv| {
                    if fv.is_null() {
                        out.push_str(match field.map(|f| f.ty.strip_manual()) {
                            Some(Type::Arr(_)) | Some(Type::Amor(_)) => "[]",
                            Some(Type::Map(_)) => "{}",
                            _ => "null",
                        });
                    } else {
                        render_json(program, fv, depth + 1, out);
                    }
                })
                .unwrap_or_else(|| out.push_str("null"));
            }
            out.push('}');
        }
        Value::Arr(a) => {
            out.push('[');
            let mut i = 0;
            while a
                .with(i, |e| {
                    if i > 0 {
                        out.push(',');
                    }
                    render_json(program, e, depth + 1, out);
                })
                .is_some()
            {
                i += 1;
            }
            out.push(']');
        }
        Value::Map(m) => {
            out.push('{');
            let mut i = 0;
            while let Some((k, e)) = m.entry(i) {
                if i > 0 {
                    out.push(',');
                }
                json_string(&k, out);
                out.push(':');
                render_json(program, &e, depth + 1, out);
                i += 1;
            }
            out.push('}');
        }
    }
}

/// Whether structs of plain fields render in one pass ([`render_flat`]):
/// off with `FESTINA_NO_FLAT_RENDER` or `FESTINA_NO_OPT` (read once per
/// process).
fn flat() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    crate::switches::enabled_once(&ON, crate::switches::NO_FLAT_RENDER)
}

/// Render a struct (not a row) whose fields are all ints, floats, bools,
/// texts or nulls of such types, in one pass over its fields: each key
/// written with its separator and colon, each value by its own writer,
/// with none of the general path's per-field recursion and checks (a
/// reading or a record of a query is such a struct). Returns false,
/// having written nothing, for any other struct (a field holding a
/// container, enum, handle or function, a null of a container type, a
/// field count not the declaration's); the general path renders it.
/// Same text as the general path.
fn render_flat(
    program: &Program,
    s: &crate::heap::Ref<crate::heap::StructObj>,
    out: &mut String,
) -> bool {
    let Some(rec) = program.structs.get(s.sid() as usize) else {
        return false;
    };
    let start = out.len();
    let done = s.with_fields(|fields| {
        if fields.len() != rec.fields.len() {
            return false;
        }
        out.push('{');
        for (i, (field, v)) in rec.fields.iter().zip(fields).enumerate() {
            out.push_str(if i == 0 { "\"" } else { ",\"" });
            out.push_str(&field.name);
            out.push_str("\":");
            match v {
                Value::Int(n) => out.push_str(itoa::Buffer::new().format(*n)),
                Value::Float(x) => render_float(*x, out),
                Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Value::Text(t) => json_string(t.as_str(), out),
                Value::Null
                    if !matches!(
                        field.ty.strip_manual(),
                        Type::Arr(_) | Type::Amor(_) | Type::Map(_)
                    ) =>
                {
                    out.push_str("null")
                }
                _ => return false,
            }
        }
        out.push('}');
        true
    });
    if !done {
        out.truncate(start);
    }
    done
}

/// Append `s` as a JSON string literal (quotes included).
pub fn json_string(s: &str, out: &mut String) {
    // Most texts (and every field name) need no escape: one copy.
    if !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push('"');
        out.push_str(s);
        out.push('"');
        return;
    }
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0..=0x1f => None,
            _ => continue,
        };
        out.push_str(&s[start..i]);
        match esc {
            Some(e) => out.push_str(e),
            None => {
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::Heap;
    use crate::program::{Field, Record};

    fn g(x: f64) -> String {
        let mut s = String::new();
        render_float(x, &mut s);
        s
    }

    #[test]
    fn percent_g_matches_c() {
        let cases: &[(f64, &str)] = &[
            (0.1 + 0.2, "0.3"),
            (1.0, "1"),
            (100000.0, "100000"),
            (1000000.0, "1e+06"),
            (1234567.0, "1.23457e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            #[allow(clippy::approx_constant)]
            (3.14159265, "3.14159"),
            (-2.5, "-2.5"),
            (1e12, "1e+12"),
            (3.5, "3.5"),
            (0.0, "0"),
            (-0.0, "-0"),
            (123456.5, "123456"),
            (999999.5, "1e+06"),
            (9.9999995, "10"),
            (1e-300, "1e-300"),
            (1.7976931348623157e308, "1.79769e+308"),
            (0.000123456789, "0.000123457"),
            (12345.678, "12345.7"),
            (-1e-7, "-1e-07"),
            (2.0 / 3.0, "0.666667"),
            (1e100, "1e+100"),
            (5e-324, "4.94066e-324"),
        ];
        for &(x, want) in cases {
            assert_eq!(g(x), want, "for {x:e}");
        }
        assert_eq!(g(f64::NAN), "null");
        assert_eq!(g(f64::INFINITY), "null");
        assert_eq!(g(f64::NEG_INFINITY), "null");
    }

    /// The shortest-digits path gives what the exact path gives, for
    /// every value it takes (the rest falls through to the exact path).
    #[test]
    fn short_path_matches_exact() {
        let mut taken = 0;
        let mut check = |x: f64| {
            let (mut a, mut b) = (String::new(), String::new());
            if format_g_short(x, &mut a) {
                format_g_exact(x, &mut b);
                assert_eq!(a, b, "for {x:e}");
                taken += 1;
            }
        };
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15_u64);
        for _ in 0..200_000 {
            // Random bit patterns, and short decimals at every scale.
            let bits = f64::from_bits(next() >> 1);
            if bits.is_finite() && bits > 0.0 {
                check(bits);
            }
            let digits = (next() % 1_000_000) as f64;
            let scale = 10f64.powi((next() % 40) as i32 - 20);
            check(digits * scale);
            check(digits / 10f64.powi((next() % 12) as i32));
        }
        for k in -310..310 {
            check(10f64.powi(k));
            check(1.5 * 10f64.powi(k));
            check(999_999.0 * 10f64.powi(k));
        }
        for x in [
            5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            0.1,
            0.25,
            21.5,
            123456.0,
            100000.0,
        ] {
            check(x);
        }
        assert!(taken > 100_000, "the short path took only {taken} values");
    }

    /// A xorshift64 generator of test values from `seed` (non-zero).
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// The short-decimal path alone gives what the exact path gives, on
    /// decimals of up to 6 digits at every scale it takes and on values
    /// near them.
    #[test]
    fn decimal_path_matches_exact() {
        let mut taken = 0;
        let mut check = |x: f64| {
            let (mut a, mut b) = (String::new(), String::new());
            if x.is_normal() && x > 0.0 && format_g_decimal(x, &mut a) {
                format_g_exact(x, &mut b);
                assert_eq!(a, b, "for {x:e}");
                taken += 1;
            }
        };
        let mut next = xorshift(0x2545_f491_4f6c_dd1d_u64);
        for _ in 0..200_000 {
            let digits = (next() % 1_000_000) as f64;
            let k = (next() % 12) as i32;
            let x = digits / 10f64.powi(k);
            check(x);
            check(f64::from_bits(x.to_bits() + 1));
            check(f64::from_bits(x.to_bits().saturating_sub(1)));
            check(digits * 10f64.powi(k - 6));
        }
        for x in [
            0.1 + 0.2,
            0.0001,
            0.00012345,
            999_999.0,
            999_999.5,
            100_000.0,
            0.3,
            1.0,
            12.5,
        ] {
            check(x);
        }
        assert!(taken > 100_000, "the decimal path took only {taken} values");
    }

    /// A struct of plain fields renders in one pass with the general
    /// path's text; any other struct is left to the general path, with
    /// nothing written.
    #[test]
    fn flat_structs_render_as_the_general_path() {
        let field = |name: &str, ty: Type| Field {
            name: name.into(),
            ty,
        };
        let program = Program {
            structs: vec![
                Record {
                    name: "R".into(),
                    fields: vec![
                        field("id", Type::Int),
                        field("sensor", Type::Text),
                        field("value", Type::Float),
                        field("ok", Type::Bool),
                        field("note", Type::Text),
                        field("nan", Type::Float),
                    ],
                    may_cycle: false,
                },
                Record {
                    name: "C".into(),
                    fields: vec![field("xs", Type::Arr(Box::new(Type::Int)))],
                    may_cycle: false,
                },
            ],
            ..Program::default()
        };
        let heap = Heap::new();
        let r = heap.new_struct(
            0,
            false,
            vec![
                Value::Int(-12),
                Value::text("a\"b\n"),
                Value::Float(21.5),
                Value::Bool(true),
                Value::Null,
                Value::Float(f64::NAN),
            ]
            .into(),
            false,
        );
        let want = r#"{"id":-12,"sensor":"a\"b\n","value":21.5,"ok":true,"note":null,"nan":null}"#;
        let mut out = String::from("x");
        assert!(render_flat(&program, &r, &mut out));
        assert_eq!(out, format!("x{want}"));
        assert_eq!(to_string(&program, &Value::Struct(r)), want);
        // A container field (null or not): the general path's.
        for v in [Value::Null, Value::Arr(heap.new_arr(vec![Value::Int(1)]))] {
            let c = heap.new_struct(1, false, vec![v].into(), false);
            let mut out = String::from("x");
            assert!(!render_flat(&program, &c, &mut out));
            assert_eq!(out, "x");
        }
        let c = heap.new_struct(1, false, vec![Value::Null].into(), false);
        assert_eq!(to_string(&program, &Value::Struct(c)), r#"{"xs":[]}"#);
    }

    #[test]
    fn render_to_text_gives_an_exact_text() {
        let program = Program::default();
        let heap = Heap::new();
        let a = heap.new_arr(vec![
            Value::Int(-3),
            Value::text("x\"y"),
            Value::text("plain"),
        ]);
        let v = Value::Arr(a);
        let s = render_to_text(&program, &v, false);
        assert_eq!(s, r#"[-3,"x\"y","plain"]"#);
        assert_eq!(s.capacity(), s.len());
        assert_eq!(render_to_text(&program, &Value::Null, true), "");
        assert_eq!(render_to_text(&program, &Value::Null, false), "null");
    }

    #[test]
    fn json_escapes() {
        let mut s = String::new();
        json_string("a\"b\\c\nd\re\tf\u{1}g é", &mut s);
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g é\"");
    }

    #[test]
    fn structs_arrays_maps() {
        let program = Program {
            structs: vec![Record {
                name: "P".into(),
                fields: vec![
                    Field {
                        name: "id".into(),
                        ty: Type::Int,
                    },
                    Field {
                        name: "xs".into(),
                        ty: Type::Arr(Box::new(Type::Int)),
                    },
                    Field {
                        name: "m".into(),
                        ty: Type::Map(Box::new(Type::Text)),
                    },
                    Field {
                        name: "next".into(),
                        ty: Type::Struct(0),
                    },
                    Field {
                        name: "name".into(),
                        ty: Type::Text,
                    },
                ],
                may_cycle: true,
            }],
            ..Program::default()
        };
        let heap = Heap::new();
        let xs = heap.new_arr(vec![Value::Int(1), Value::Int(2)]);
        let s = heap.new_struct(
            0,
            false,
            vec![
                Value::Int(7),
                Value::Arr(xs),
                Value::Null,
                Value::Null,
                Value::text("a\"b"),
            ]
            .into(),
            true,
        );
        let v = Value::Struct(s.clone());
        assert_eq!(
            to_string(&program, &v),
            r#"{"id":7,"xs":[1,2],"m":{},"next":null,"name":"a\"b"}"#
        );
        // A self-reference is cut off at the depth cap.
        s.set(3, v.clone());
        let out = to_string(&program, &v);
        assert_eq!(out.matches("\"next\":{").count(), MAX_DEPTH - 1);
        assert!(out.contains("\"next\":null"));
        s.set(3, Value::Null);
        let m = heap.new_map();
        m.set("k", Value::text("v"));
        m.set("n", Value::Float(f64::NAN));
        assert_eq!(to_string(&program, &Value::Map(m)), r#"{"k":"v","n":null}"#);
        let a = heap.new_arr(vec![Value::text("a"), Value::Null]);
        assert_eq!(to_string(&program, &Value::Arr(a)), r#"["a",null]"#);
        let mut out = String::new();
        render(&program, &Value::Null, true, &mut out);
        assert_eq!(out, "");
        drop((s, v));
        // Free the boxes the roots buffer still holds (each holds the
        // heap), as `Interpreter`'s teardown does; without it the heap
        // leaks (Miri's leak check, scripts/miri.sh).
        heap.collect_cycles();
    }
}
