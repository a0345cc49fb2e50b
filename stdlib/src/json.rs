//! JSON parsing: `text.toStruct(T)` and `text.toArr(T)` (§16.4).
//!
//! The native `json_parse(text, type_index)` parses `text` into the type
//! `Program::types[type_index]` (a struct for `toStruct`, `arr[T]` for
//! `toArr`). The checker guarantees the type has a JSON form: `int`,
//! `float`, `bool`, `text`, `ascii`, structs, arrays, maps and enums of
//! those, to any depth.
//!
//! Rules (§16.4):
//! - object keys match struct fields by name, ASCII case-insensitively;
//!   unknown keys are skipped; missing fields keep their zero values; of
//!   duplicate keys the last wins; a `map[T]` takes every key; JSON `null`
//!   is `null` for any type;
//! - an `int` takes a JSON integer with full 64-bit precision (a number
//!   with a fraction or exponent is accepted when its value is a whole
//!   number in range); a `float` takes any number; an `ascii` takes a
//!   string of ASCII characters only;
//! - an enum takes the first member whose kind fits the JSON value (for an
//!   object: the first struct or map member, preferring a struct that
//!   declares every key of the object) and that parses;
//! - `\uXXXX` escapes, surrogate pairs included, are decoded; a lone
//!   surrogate is malformed;
//! - nesting deeper than [`MAX_DEPTH`] arrays/objects throws.
//!
//! # Two paths, one result
//! The direct parser ([`direct`]) reads the text straight into Festina
//! values of the target type, without the intermediate
//! `serde_json::Value` tree (a reading of the flagship WebSocket server
//! costs about a third of the instructions that way). It handles the
//! common case only: strings without escapes, integers that fit an `i64`,
//! numbers whose value is finite, targets that are `int`, `float`, `bool`,
//! `text`, `ascii`, structs, arrays and maps of those. Whatever else it
//! meets (an escape, a shape mismatch, an enum, malformed JSON, a number
//! it does not take whole) makes it give up, dropping what it built, and
//! the text is parsed again by the general path below (serde_json into a
//! `Value`, then converted), which decides the result and every error
//! message. So the direct parser only ever returns what the general path
//! would have returned; `FESTINA_NO_DIRECT_JSON` turns it off.
//!
//! Every failure is a `throw` (§10.10) of a descriptive text, never a
//! runtime failure: malformed JSON and trailing data (`invalid JSON: ...
//! at line L column C`), too deep nesting, and a value of the wrong shape
//! (`JSON value at $.items[2].id: expected int, found string`). What was
//! built before the failure is released (reference counting).

use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::types::{Type, TypeDisplay};
use festina_vm::value::{EnumBox, Value};
use serde::Deserialize;
use serde_json::Value as J;
use std::rc::Rc;

/// Deepest nesting of arrays and objects accepted (§16.4).
pub const MAX_DEPTH: usize = 1000;

/// The natives of this module, for `Interpreter::new`.
pub fn natives() -> Vec<NativeEntry> {
    vec![NativeEntry {
        name: "json_parse",
        func: json_parse,
    }]
}

fn json_parse(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let idx = args.get(1).map_or(-1, Value::as_int);
    let program = std::sync::Arc::clone(it.program());
    let Some(ty) = usize::try_from(idx).ok().and_then(|i| program.types.get(i)) else {
        return Err(Trap::Fail(format!(
            "JSON parsing names no type ({idx}) at {}",
            it.location()
        )));
    };
    let text = match args.first() {
        Some(Value::Text(t)) => t.as_str(),
        _ => return Err(Trap::Throw("cannot parse JSON from a null text".into())),
    };
    if direct_enabled() {
        if let Some(v) = direct::parse(it, text, ty) {
            return Ok(v);
        }
    }
    let json = parse_json(text).map_err(Trap::Throw)?;
    let mut path = String::from("$");
    convert(it, &json, ty, &mut path).map_err(|e| {
        let shown = TypeDisplay {
            ty,
            names: &*program,
        };
        Trap::Throw(format!("cannot parse JSON into {shown}: {e}"))
    })
}

/// Whether the direct parser ([`direct`]) is tried first: not with
/// `FESTINA_NO_DIRECT_JSON` (or `FESTINA_NO_OPT`); read once per process.
fn direct_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    festina_vm::switches::enabled_once(&ON, festina_vm::switches::NO_DIRECT_JSON)
}

/// Parse `text` as one JSON value with nothing but whitespace after it.
/// Errors: the message to throw.
pub fn parse_json(text: &str) -> Result<J, String> {
    // Each level of nesting takes a byte: a shorter text cannot be too
    // deep.
    if text.len() > MAX_DEPTH {
        check_depth(text)?;
    }
    let mut de = serde_json::Deserializer::from_str(text);
    // Depth is bounded by `check_depth`, so serde's own (lower) limit is
    // not needed.
    de.disable_recursion_limit();
    let v = J::deserialize(&mut de).map_err(|e| format!("invalid JSON: {e}"))?;
    de.end().map_err(|e| format!("invalid JSON: {e}"))?;
    Ok(v)
}

/// Reject nesting deeper than [`MAX_DEPTH`] before parsing, so neither
/// the parser nor the conversion recurses without bound.
fn check_depth(text: &str) -> Result<(), String> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text.as_bytes() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(format!(
                        "JSON nested too deeply (more than {MAX_DEPTH} levels)"
                    ));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// What kind of JSON value `v` is, for messages.
fn kind(v: &J) -> &'static str {
    match v {
        J::Null => "null",
        J::Bool(_) => "a boolean",
        J::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        J::Number(_) => "a number",
        J::String(_) => "a string",
        J::Array(_) => "an array",
        J::Object(_) => "an object",
    }
}

/// A shape mismatch at `path`.
fn mismatch(path: &str, expected: &str, v: &J) -> String {
    format!("the value at {path} is {}, expected {expected}", kind(v))
}

/// Convert `v` into a Festina value of type `ty`. Errors: the reason,
/// naming the JSON path.
fn convert(it: &mut Interpreter, v: &J, ty: &Type, path: &mut String) -> Result<Value, String> {
    let ty = ty.strip_manual();
    if v.is_null() {
        return Ok(if *ty == Type::Float {
            Value::Float(f64::NAN)
        } else {
            Value::Null
        });
    }
    match ty {
        Type::Int => match v {
            J::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Ok(Value::Int(i))
                } else if n.is_u64() {
                    Err(format!(
                        "the integer at {path} does not fit in an int (64 bits)"
                    ))
                } else {
                    let f = n.as_f64().unwrap_or(f64::NAN);
                    if f.fract() == 0.0
                        && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f)
                    {
                        Ok(Value::Int(f as i64))
                    } else if f.fract() == 0.0 {
                        Err(format!(
                            "the integer at {path} does not fit in an int (64 bits)"
                        ))
                    } else {
                        Err(mismatch(path, "an int", v))
                    }
                }
            }
            _ => Err(mismatch(path, "an int", v)),
        },
        Type::Float => match v {
            J::Number(n) => Ok(Value::Float(n.as_f64().unwrap_or(f64::NAN))),
            _ => Err(mismatch(path, "a float", v)),
        },
        Type::Bool => match v {
            J::Bool(b) => Ok(Value::Bool(*b)),
            _ => Err(mismatch(path, "a bool", v)),
        },
        Type::Text => match v {
            J::String(s) if s.contains('\0') => Err(nul_in_string(path)),
            J::String(s) => Ok(Value::text(s.as_str())),
            _ => Err(mismatch(path, "a text", v)),
        },
        Type::Ascii => match v {
            J::String(s) if s.contains('\0') => Err(nul_in_string(path)),
            J::String(s) if s.is_ascii() => Ok(Value::ascii(s.as_bytes())),
            J::String(_) => Err(format!(
                "the string at {path} has non-ASCII characters, expected an ascii"
            )),
            _ => Err(mismatch(path, "an ascii", v)),
        },
        Type::Arr(elem) | Type::Amor(elem) => {
            let J::Array(xs) = v else {
                return Err(mismatch(path, "an array", v));
            };
            let mut items = Vec::with_capacity(xs.len());
            for (i, x) in xs.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let item = convert(it, x, elem, path)?;
                path.truncate(len);
                items.push(item);
            }
            Ok(it.new_arr(items))
        }
        Type::Map(elem) => {
            let J::Object(obj) = v else {
                return Err(mismatch(path, "an object", v));
            };
            let map = it.new_map();
            for (k, x) in obj {
                let len = path.len();
                push_key(path, k);
                if k.contains('\0') {
                    return Err(format!(
                        "the key at {path} contains a NUL character, which text cannot hold"
                    ));
                }
                let item = convert(it, x, elem, path)?;
                path.truncate(len);
                if let Value::Map(m) = &map {
                    m.set(k, item);
                }
            }
            Ok(map)
        }
        Type::Struct(sid) => {
            let J::Object(obj) = v else {
                return Err(mismatch(path, "an object", v));
            };
            let program = std::sync::Arc::clone(it.program());
            let rec = program
                .structs
                .get(*sid as usize)
                .ok_or_else(|| format!("no struct {sid} for {path}"))?;
            let s = it
                .new_struct(*sid)
                .ok_or_else(|| format!("no struct {sid} for {path}"))?;
            let Value::Struct(sref) = &s else {
                return Err(format!("no struct {sid} for {path}"));
            };
            for (k, x) in obj {
                let Some(fi) = rec
                    .fields
                    .iter()
                    .position(|f| f.name.eq_ignore_ascii_case(k))
                else {
                    continue;
                };
                // A weak field (a back-reference) is not parsed: nothing
                // would keep the parsed value alive (README).
                if matches!(rec.fields[fi].ty, Type::Weak(_)) {
                    continue;
                }
                let len = path.len();
                push_key(path, k);
                let item = convert(it, x, &rec.fields[fi].ty, path)?;
                path.truncate(len);
                sref.set(fi, item);
            }
            Ok(s)
        }
        Type::Enum(eid) => convert_enum(it, v, *eid, path),
        other => {
            let program = std::sync::Arc::clone(it.program());
            let shown = TypeDisplay {
                ty: other,
                names: &*program,
            };
            Err(format!("{shown} at {path} has no JSON form"))
        }
    }
}

/// Append `.key` (or `["key"]` for a key that is not an identifier).
fn push_key(path: &mut String, k: &str) {
    let ident = !k.is_empty()
        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !k.starts_with(|c: char| c.is_ascii_digit());
    if ident {
        path.push('.');
        path.push_str(k);
    } else {
        path.push('[');
        festina_vm::render::json_string(k, path);
        path.push(']');
    }
}

/// True if a value of member type `t` can come from JSON value `v`.
fn kind_fits(t: &Type, v: &J) -> bool {
    matches!(
        (t.strip_manual(), v),
        (Type::Int, J::Number(_))
            | (Type::Float, J::Number(_))
            | (Type::Bool, J::Bool(_))
            | (Type::Text | Type::Ascii, J::String(_))
            | (Type::Arr(_) | Type::Amor(_), J::Array(_))
            | (Type::Struct(_) | Type::Map(_), J::Object(_))
    )
}

fn convert_enum(it: &mut Interpreter, v: &J, eid: u32, path: &mut String) -> Result<Value, String> {
    let program = std::sync::Arc::clone(it.program());
    let Some(en) = program.enums.get(eid as usize) else {
        return Err(format!("no enum {eid} for {path}"));
    };
    let mut order: Vec<usize> = (0..en.members.len())
        .filter(|&m| kind_fits(&en.members[m], v))
        .collect();
    // For an object, prefer a struct member that declares every key.
    if let J::Object(obj) = v {
        let covers = |m: usize| match en.members[m].strip_manual() {
            Type::Struct(sid) => program.structs.get(*sid as usize).is_some_and(|r| {
                obj.keys()
                    .all(|k| r.fields.iter().any(|f| f.name.eq_ignore_ascii_case(k)))
            }),
            _ => false,
        };
        order.sort_by_key(|&m| !covers(m));
    }
    // Prefer `int` for integers and `float` for other numbers.
    if let J::Number(n) = v {
        let want_int = n.is_i64();
        order.sort_by_key(|&m| (*en.members[m].strip_manual() == Type::Int) != want_int);
    }
    let mut first_err = None;
    for m in order {
        match convert(it, v, &en.members[m], path) {
            Ok(val) => {
                return Ok(if en.pure_struct {
                    val
                } else {
                    Value::Enum(Rc::new(EnumBox {
                        member: m as u16,
                        value: val,
                    }))
                })
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.unwrap_or_else(|| {
        let names = en.member_names.join(", ");
        format!(
            "the value at {path} is {}, which fits no member of {} ({names})",
            kind(v),
            en.name
        )
    }))
}

/// The error for a `\u0000` in a string: `text` cannot hold a NUL (§7.5.2).
fn nul_in_string(path: &str) -> String {
    format!("the string at {path} contains a NUL character, which text cannot hold")
}

/// The direct parser (see "Two paths, one result" in the module
/// documentation): `None` whenever it cannot give the general path's
/// result itself.
mod direct {
    use super::MAX_DEPTH;
    use festina_vm::interp::Interpreter;
    use festina_vm::types::Type;
    use festina_vm::value::Value;

    /// `text` parsed into a value of type `ty`, or `None` to fall back.
    pub fn parse(it: &mut Interpreter, text: &str, ty: &Type) -> Option<Value> {
        let mut p = Parser {
            s: text,
            b: text.as_bytes(),
            i: 0,
            depth: 0,
        };
        p.ws();
        let v = p.value(it, ty)?;
        p.ws();
        (p.i == p.b.len()).then_some(v)
    }

    /// A number as the general path sees it: an integer that fits an
    /// `i64`, or a finite `f64` (JSON numbers with a fraction or an
    /// exponent).
    #[derive(Clone, Copy)]
    enum Num {
        Int(i64),
        Real(f64),
    }

    struct Parser<'a> {
        s: &'a str,
        b: &'a [u8],
        i: usize,
        depth: usize,
    }

    impl<'a> Parser<'a> {
        /// Skip JSON whitespace (space, tab, line feed, carriage return).
        fn ws(&mut self) {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
                self.i += 1;
            }
        }

        fn peek(&self) -> Option<u8> {
            self.b.get(self.i).copied()
        }

        /// Consume `word` (a literal) if it is next.
        fn literal(&mut self, word: &[u8]) -> Option<()> {
            if self.b.get(self.i..self.i + word.len())? == word {
                self.i += word.len();
                Some(())
            } else {
                None
            }
        }

        /// A string without escapes or control characters, after its
        /// opening quote.
        fn string(&mut self) -> Option<&'a str> {
            if self.peek()? != b'"' {
                return None;
            }
            let start = self.i + 1;
            let mut j = start;
            loop {
                match *self.b.get(j)? {
                    b'"' => break,
                    b'\\' | 0..=0x1f => return None,
                    _ => j += 1,
                }
            }
            self.i = j + 1;
            // The quotes are ASCII, so both ends are character
            // boundaries: a slice of the text, not checked again.
            self.s.get(start..j)
        }

        /// A JSON number (strict grammar: no leading zeros, digits after
        /// a point and in an exponent).
        fn number(&mut self) -> Option<Num> {
            let start = self.i;
            let neg = self.peek() == Some(b'-');
            if neg {
                self.i += 1;
            }
            match self.peek()? {
                b'0' => self.i += 1,
                b'1'..=b'9' => self.digits(),
                _ => return None,
            }
            let int_end = self.i;
            let mut real = false;
            if self.peek() == Some(b'.') {
                self.i += 1;
                if !self.peek()?.is_ascii_digit() {
                    return None;
                }
                self.digits();
                real = true;
            }
            if let Some(b'e' | b'E') = self.peek() {
                self.i += 1;
                if let Some(b'+' | b'-') = self.peek() {
                    self.i += 1;
                }
                if !self.peek()?.is_ascii_digit() {
                    return None;
                }
                self.digits();
                real = true;
            }
            // ASCII digits, signs, points and exponents only.
            let s = self.s.get(start..self.i)?;
            if real {
                let f: f64 = s.parse().ok()?;
                return f.is_finite().then_some(Num::Real(f));
            }
            // `-0` is a float for serde_json; integers past `i64` are
            // read differently by it: both go the general way.
            if neg && int_end - start == 2 && self.b[start + 1] == b'0' {
                return None;
            }
            s.parse().ok().map(Num::Int)
        }

        fn digits(&mut self) {
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.i += 1;
            }
        }

        /// Enter an array or object: `None` past the depth limit (the
        /// general path reports it).
        fn enter(&mut self) -> Option<()> {
            self.depth += 1;
            self.i += 1;
            (self.depth <= MAX_DEPTH).then_some(())
        }

        /// After an element or member: `true` for a comma (another
        /// follows), `false` for the closing `close`.
        fn next_or_close(&mut self, close: u8) -> Option<bool> {
            self.ws();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    self.ws();
                    Some(true)
                }
                c if c == close => {
                    self.i += 1;
                    self.depth -= 1;
                    Some(false)
                }
                _ => None,
            }
        }

        /// `{`, whitespace, and whether the object is empty (`}` read).
        fn open_object(&mut self) -> Option<bool> {
            self.enter()?;
            self.ws();
            if self.peek()? == b'}' {
                self.i += 1;
                self.depth -= 1;
                return Some(true);
            }
            Some(false)
        }

        /// A member's key and colon, leaving the parser at its value.
        fn key(&mut self) -> Option<&'a str> {
            let k = self.string()?;
            self.ws();
            if self.peek()? != b':' {
                return None;
            }
            self.i += 1;
            self.ws();
            Some(k)
        }

        /// A value of type `ty` (the general path's `convert` rules).
        fn value(&mut self, it: &mut Interpreter, ty: &Type) -> Option<Value> {
            let ty = ty.strip_manual();
            if self.peek()? == b'n' {
                self.literal(b"null")?;
                return Some(if *ty == Type::Float {
                    Value::Float(f64::NAN)
                } else {
                    Value::Null
                });
            }
            match ty {
                Type::Int => match self.number()? {
                    Num::Int(i) => Some(Value::Int(i)),
                    Num::Real(_) => None,
                },
                Type::Float => match self.number()? {
                    Num::Int(i) => Some(Value::Float(i as f64)),
                    Num::Real(f) => Some(Value::Float(f)),
                },
                Type::Bool => match self.peek()? {
                    b't' => self.literal(b"true").map(|_| Value::Bool(true)),
                    b'f' => self.literal(b"false").map(|_| Value::Bool(false)),
                    _ => None,
                },
                Type::Text => self.string().map(Value::text),
                Type::Ascii => {
                    let s = self.string()?;
                    s.is_ascii().then(|| Value::ascii(s.as_bytes()))
                }
                Type::Arr(elem) | Type::Amor(elem) => {
                    if self.peek()? != b'[' {
                        return None;
                    }
                    self.enter()?;
                    self.ws();
                    let mut items = Vec::new();
                    if self.peek()? == b']' {
                        self.i += 1;
                        self.depth -= 1;
                    } else {
                        loop {
                            items.push(self.value(it, elem)?);
                            if !self.next_or_close(b']')? {
                                break;
                            }
                        }
                    }
                    Some(it.new_arr(items))
                }
                Type::Map(elem) => {
                    if self.peek()? != b'{' {
                        return None;
                    }
                    let map = it.new_map();
                    if self.open_object()? {
                        return Some(map);
                    }
                    let Value::Map(m) = &map else {
                        return None;
                    };
                    loop {
                        let k = self.key()?;
                        let v = self.value(it, elem)?;
                        m.set(k, v);
                        if !self.next_or_close(b'}')? {
                            break;
                        }
                    }
                    Some(map)
                }
                Type::Struct(sid) => {
                    if self.peek()? != b'{' {
                        return None;
                    }
                    let program = std::sync::Arc::clone(it.program());
                    let rec = program.structs.get(*sid as usize)?;
                    let s = it.new_struct(*sid)?;
                    if self.open_object()? {
                        return Some(s);
                    }
                    let Value::Struct(sref) = &s else {
                        return None;
                    };
                    loop {
                        let k = self.key()?;
                        let field = rec
                            .fields
                            .iter()
                            .position(|f| f.name.eq_ignore_ascii_case(k));
                        match field {
                            // A weak field is not parsed (as in the
                            // general path).
                            Some(fi) if !matches!(rec.fields[fi].ty, Type::Weak(_)) => {
                                let v = self.value(it, &rec.fields[fi].ty)?;
                                sref.set(fi, v);
                            }
                            _ => self.skip()?,
                        }
                        if !self.next_or_close(b'}')? {
                            break;
                        }
                    }
                    Some(s)
                }
                _ => None,
            }
        }

        /// Validate and skip any JSON value (a member no field takes).
        fn skip(&mut self) -> Option<()> {
            match self.peek()? {
                b'n' => self.literal(b"null"),
                b't' => self.literal(b"true"),
                b'f' => self.literal(b"false"),
                b'"' => self.string().map(|_| ()),
                b'[' => {
                    self.enter()?;
                    self.ws();
                    if self.peek()? == b']' {
                        self.i += 1;
                        self.depth -= 1;
                        return Some(());
                    }
                    loop {
                        self.skip()?;
                        if !self.next_or_close(b']')? {
                            return Some(());
                        }
                    }
                }
                b'{' => {
                    if self.open_object()? {
                        return Some(());
                    }
                    loop {
                        self.key()?;
                        self.skip()?;
                        if !self.next_or_close(b'}')? {
                            return Some(());
                        }
                    }
                }
                _ => self.number().map(|_| ()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_limit() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse_json(&ok).is_ok());
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        let e = parse_json(&deep).unwrap_err();
        assert!(e.contains("nested too deeply"), "{e}");
        // Brackets inside strings do not count.
        let s = format!("[\"{}\"]", "[".repeat(5000));
        assert!(parse_json(&s).is_ok());
        // A huge unclosed prefix fails fast, without recursion.
        assert!(parse_json(&"[".repeat(1_000_000)).is_err());
    }

    #[test]
    fn malformed_inputs_are_errors() {
        for bad in [
            "",
            "{",
            "{\"a\":1",
            "[1,2",
            "{\"a\":1} x",
            "[1] [2]",
            "\"\\x\"",
            "\"\\ud800\"",
            "{'a':1}",
            "[1,]",
            "nul",
            "01",
        ] {
            assert!(parse_json(bad).is_err(), "{bad:?} parsed");
        }
        let v = parse_json(" {\"a\":\"\\ud83d\\ude00\\u00e9\"} \n").unwrap();
        assert_eq!(v["a"], "😀é");
        let v = parse_json("[9223372036854775807,-9223372036854775808]").unwrap();
        assert_eq!(v[0].as_i64(), Some(i64::MAX));
        assert_eq!(v[1].as_i64(), Some(i64::MIN));
    }

    #[test]
    fn duplicate_keys_keep_first_position_last_value() {
        let v = parse_json("{\"a\":1,\"b\":2,\"a\":3}").unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(v["a"], 3);
    }
}
