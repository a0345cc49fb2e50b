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
