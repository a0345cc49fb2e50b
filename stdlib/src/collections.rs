//! Methods of `arr[T]`, `amor arr[T]` and `map[T]` (§8.7, §8.8, §16.3).
//!
//! | native         | Festina form                  | result |
//! |----------------|-------------------------------|--------|
//! | `arr_unshift`  | `xs.unshift(v)`               | new length |
//! | `arr_shift`    | `xs.shift()`                  | removed first element, or `null` when empty |
//! | `arr_splice`   | `xs.splice(start, count[, insert])` | removed elements (a new array) |
//! | `arr_index_of` | `xs.indexOf(v)`               | first index, or `-1` |
//! | `arr_sort`     | `xs.sort(cmp)`                | nothing; stable, in place |
//! | `arr_join`     | `xs.join(sep)`                | `text` |
//! | `map_for_each` | `m.forEach(fn)`               | nothing; `fn(value, key)` per entry |
//! | `map_keys`     | `m.keys()`                    | `arr[text]`, a fresh snapshot |
//! | `map_values`   | `m.values()`                  | `arr[T]`, a fresh snapshot |
//!
//! A null array or map reads as empty; adding elements to a null array
//! (`unshift`, `splice` with a non-empty insert) is a runtime failure,
//! as for `push`.

use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::render;
use festina_vm::value::Value;

/// The natives of this module, for `Interpreter::new`.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "arr_unshift",
            func: arr_unshift,
        },
        NativeEntry {
            name: "arr_shift",
            func: arr_shift,
        },
        NativeEntry {
            name: "arr_splice",
            func: arr_splice,
        },
        NativeEntry {
            name: "arr_index_of",
            func: arr_index_of,
        },
        NativeEntry {
            name: "arr_sort",
            func: arr_sort,
        },
        NativeEntry {
            name: "arr_join",
            func: arr_join,
        },
        NativeEntry {
            name: "map_for_each",
            func: map_for_each,
        },
        NativeEntry {
            name: "map_keys",
            func: map_keys,
        },
        NativeEntry {
            name: "map_values",
            func: map_values,
        },
    ]
}

fn null_array(it: &Interpreter, what: &str) -> Trap {
    Trap::Fail(format!("{what} a null array at {}", it.location()))
}

fn arr_unshift(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(Value::Arr(a)) = args.first() else {
        return Err(null_array(it, "unshift onto"));
    };
    a.insert(0, args.get(1).cloned().unwrap_or(Value::Null))
        .map_err(|_| {
            it.out_of_memory(format_args!("growing an array to {} elements", a.len() + 1))
        })?;
    Ok(Value::Int(a.len() as i64))
}

fn arr_shift(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(match args.first() {
        Some(Value::Arr(a)) => a.remove(0).unwrap_or(Value::Null),
        _ => Value::Null,
    })
}

/// The range `splice(start, count)` removes from an array of `len`
/// elements: a negative `start` counts from the end; both are clamped.
pub fn splice_range(start: i64, count: i64, len: usize) -> (usize, usize) {
    let n = len as i64;
    let s = if start < 0 {
        n.saturating_add(start).max(0)
    } else {
        start.min(n)
    };
    let c = count.clamp(0, n - s);
    (s as usize, (s + c) as usize)
}

fn arr_splice(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let insert = match args.get(3) {
        Some(Value::Arr(ins)) => ins.to_vec(),
        _ => Vec::new(),
    };
    let a = match args.first() {
        Some(Value::Arr(a)) => a.clone(),
        _ if insert.is_empty() => return Ok(it.new_arr(Vec::new())),
        _ => return Err(null_array(it, "splice into")),
    };
    let start = args.get(1).map_or(0, Value::as_int);
    let count = args.get(2).map_or(0, Value::as_int);
    let mut items = a.to_vec();
    let (lo, hi) = splice_range(start, count, items.len());
    let grown = items.len() + insert.len() - (hi - lo);
    festina_vm::oom::grow(&mut items, insert.len())
        .map_err(|_| it.out_of_memory(format_args!("growing an array to {grown} elements")))?;
    let removed: Vec<Value> = items.splice(lo..hi, insert).collect();
    let old = a.replace_all(items);
    drop(old);
    Ok(it.new_arr(removed))
}

/// `indexOf` equality (§16.3): scalars by value (a null float is equal to
/// nothing), `text`/`ascii` by content, enum values by member and held
/// value, everything else (structs, arrays, maps, handles) by identity.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Enum(x), Value::Enum(y)) => x.member == y.member && same(&x.value, &y.value),
        _ => a == b,
    }
}

fn arr_index_of(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(Value::Arr(a)) = args.first() else {
        return Ok(Value::Int(-1));
    };
    let needle = args.get(1).cloned().unwrap_or(Value::Null);
    let mut i = 0;
    while let Some(e) = a.get(i) {
        if same(&e, &needle) {
            return Ok(Value::Int(i as i64));
        }
        i += 1;
    }
    Ok(Value::Int(-1))
}

/// Stable merge sort of `items` with a fallible "is `a` after `b`"
/// comparison; the first error stops the sort and is returned (the
/// caller's array is untouched then, since this sorts a copy).
pub fn merge_sort<E>(
    items: Vec<Value>,
    mut after: impl FnMut(&Value, &Value) -> Result<bool, E>,
) -> Result<Vec<Value>, E> {
    let n = items.len();
    if n < 2 {
        return Ok(items);
    }
    let mut src: Vec<Option<Value>> = items.into_iter().map(Some).collect();
    let mut dst: Vec<Option<Value>> = (0..n).map(|_| None).collect();
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j, mut k) = (lo, mid, lo);
            while i < mid && j < hi {
                let take_right = match (&src[i], &src[j]) {
                    (Some(a), Some(b)) => after(a, b)?,
                    _ => false,
                };
                if take_right {
                    dst[k] = src[j].take();
                    j += 1;
                } else {
                    dst[k] = src[i].take();
                    i += 1;
                }
                k += 1;
            }
            while i < mid {
                dst[k] = src[i].take();
                i += 1;
                k += 1;
            }
            while j < hi {
                dst[k] = src[j].take();
                j += 1;
                k += 1;
            }
            lo = hi;
        }
        std::mem::swap(&mut src, &mut dst);
        width *= 2;
    }
    Ok(src.into_iter().flatten().collect())
}

fn arr_sort(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(Value::Arr(a)) = args.first() else {
        return Ok(Value::Null);
    };
    let a = a.clone();
    let cmp = args.get(1).cloned().unwrap_or(Value::Null);
    let items = a.to_vec();
    if items.len() < 2 {
        return Ok(Value::Null);
    }
    let sorted = merge_sort(items, |x, y| {
        let r = it.call_function(&cmp, &[x.clone(), y.clone()])?;
        Ok::<bool, Trap>(r.as_int() > 0 && matches!(r, Value::Int(_)))
    })?;
    let old = a.replace_all(sorted);
    drop(old);
    Ok(Value::Null)
}

/// The text of one `join` element: its text form, a null as empty.
fn join_piece(v: &Value, out: &mut String) {
    match v {
        Value::Null => {}
        Value::Text(t) => out.push_str(t.as_str()),
        Value::Ascii(a) => out.push_str(&String::from_utf8_lossy(a)),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Float(f) if f.is_nan() => {}
        Value::Float(f) => render::render_float(*f, out),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        _ => {}
    }
}

fn arr_join(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let sep = crate::text::str_arg(args, 1);
    let mut out = String::new();
    if let Some(Value::Arr(a)) = args.first() {
        let mut i = 0;
        while let Some(e) = a.get(i) {
            if i > 0 {
                out.push_str(sep);
            }
            join_piece(&e, &mut out);
            i += 1;
        }
    }
    Ok(Value::text(out))
}

fn map_for_each(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(Value::Map(m)) = args.first() else {
        return Ok(Value::Null);
    };
    let f = args.get(1).cloned().unwrap_or(Value::Null);
    // A snapshot: the callback may change the map.
    let mut entries = Vec::with_capacity(m.len());
    let mut i = 0;
    while let Some((k, v)) = m.entry(i) {
        entries.push((k, v));
        i += 1;
    }
    for (k, v) in entries {
        it.call_function(&f, &[v, Value::text(&*k)])?;
    }
    Ok(Value::Null)
}

fn map_keys(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let items = match args.first() {
        Some(Value::Map(m)) => m.keys().iter().map(|k| Value::text(&**k)).collect(),
        _ => Vec::new(),
    };
    Ok(it.new_arr(items))
}

fn map_values(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let mut items = Vec::new();
    if let Some(Value::Map(m)) = args.first() {
        let mut i = 0;
        while let Some((_, v)) = m.entry(i) {
            items.push(v);
            i += 1;
        }
    }
    Ok(it.new_arr(items))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_ranges() {
        assert_eq!(splice_range(1, 2, 5), (1, 3));
        assert_eq!(splice_range(-2, 1, 5), (3, 4));
        assert_eq!(splice_range(-10, 2, 5), (0, 2));
        assert_eq!(splice_range(4, 10, 5), (4, 5));
        assert_eq!(splice_range(7, 1, 5), (5, 5));
        assert_eq!(splice_range(1, -3, 5), (1, 1));
        assert_eq!(splice_range(i64::MIN, i64::MAX, 5), (0, 5));
    }

    #[test]
    fn merge_sort_is_stable_and_stops_on_error() {
        let items: Vec<Value> = [3, 1, 2, 1, 3, 0]
            .iter()
            .enumerate()
            .map(|(i, k)| Value::Int(k * 10 + i as i64))
            .collect();
        let sorted = merge_sort(items.clone(), |a, b| {
            Ok::<bool, ()>(a.as_int() / 10 > b.as_int() / 10)
        })
        .unwrap();
        let got: Vec<i64> = sorted.iter().map(Value::as_int).collect();
        assert_eq!(got, vec![5, 11, 13, 22, 30, 34]);
        let mut calls = 0;
        let r = merge_sort(items, |_, _| {
            calls += 1;
            if calls == 3 {
                Err("boom")
            } else {
                Ok(false)
            }
        });
        assert_eq!(r.unwrap_err(), "boom");
    }
}
