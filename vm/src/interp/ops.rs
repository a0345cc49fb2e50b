//! Value operations the full step calls out of line: equality,
//! concatenation and indexing of texts, rendering to text, vivification
//! of struct, array and map slots (§8.9.2), enum member tags, and the
//! trigger of the cycle collector at allocation sites.

use super::load::viv_of;
use super::{Interpreter, Viv};
use crate::oom::OutOfMemory;
use crate::program::Program;
use crate::render;
use crate::types::Type;
use crate::value::{TextObj, Value};
use std::rc::Rc;

impl Interpreter {
    #[inline]
    pub(super) fn maybe_collect(&mut self) {
        if self.heap.wants_collection() {
            self.collect_now();
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn collect_now(&mut self) {
        self.heap.collect_cycles();
    }

    pub(super) fn vivify_field(
        &mut self,
        s: &crate::heap::Ref<crate::heap::StructObj>,
        field: u16,
    ) -> Value {
        let viv = if s.is_row() {
            Viv::None
        } else {
            self.tables
                .field_viv
                .get(s.sid() as usize)
                .and_then(|v| v.get(field as usize))
                .copied()
                .unwrap_or(Viv::None)
        };
        let v = self.fresh(viv);
        if !v.is_null() {
            s.set(field as usize, v.clone());
        }
        v
    }

    #[cold]
    #[inline(never)]
    pub(super) fn vivify_global(&mut self, g: u32) {
        let viv = viv_of(&self.program.globals[g as usize].ty);
        let v = self.fresh(viv);
        self.globals[g as usize] = v;
    }

    /// A fresh empty value of a vivifying kind.
    pub(super) fn fresh(&mut self, viv: Viv) -> Value {
        match viv {
            Viv::None => Value::Null,
            Viv::Struct(sid) => {
                self.maybe_collect();
                let fields = self
                    .heap
                    .fields_like(&self.tables.struct_zero[sid as usize]);
                let tracked = self.tables.struct_tracked[sid as usize];
                Value::Struct(self.heap.new_struct(sid, false, fields, tracked))
            }
            Viv::Arr => Value::Arr(self.heap.new_arr(Vec::new())),
            Viv::Map => Value::Map(self.heap.new_map()),
        }
    }

    pub(super) fn enum_tag(&self, v: &Value, enum_id: u32) -> Option<u16> {
        match v {
            Value::Null => None,
            Value::Enum(b) => Some(b.member),
            Value::Struct(s) if !s.is_row() => {
                let t = self.tables.enum_sid_tag[enum_id as usize].get(s.sid());
                if t == u16::MAX {
                    Some(classify_member(&self.program, enum_id, v))
                } else {
                    Some(t)
                }
            }
            other => Some(classify_member(&self.program, enum_id, other)),
        }
    }
}

#[inline]
pub(super) fn eq_int(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        _ => eq_scalar(a, b),
    }
}

pub(super) fn eq_scalar(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Func(x), Value::Func(y)) => x == y,
        _ => false,
    }
}

/// `x << c` (`left`) or `x >> c` (arithmetic): null when the count is
/// negative or 64 or more (§8.3 as the reference extends it: "test, don't
/// fail", like division by zero). Bits shifted out are lost.
pub(super) fn shift(x: i64, c: i64, left: bool) -> Value {
    if !(0..64).contains(&c) {
        return Value::Null;
    }
    Value::Int(if left {
        x.wrapping_shl(c as u32)
    } else {
        x >> c
    })
}

/// Reference identity of two struct, array or map values (null equals
/// null only).
pub(super) fn same_ref(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Struct(x), Value::Struct(y)) => x.ptr_eq(y),
        (Value::Arr(x), Value::Arr(y)) => x.ptr_eq(y),
        (Value::Map(x), Value::Map(y)) => x.ptr_eq(y),
        (Value::Enum(x), Value::Enum(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}

pub(super) fn eq_text(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Text(x), Value::Text(y)) => Rc::ptr_eq(x, y) || x.as_str() == y.as_str(),
        (Value::Ascii(x), Value::Ascii(y)) => x == y,
        (Value::Null, Value::Null) => true,
        (Value::Null, _) | (_, Value::Null) => false,
        _ => a.as_str() == b.as_str(),
    }
}

pub(super) fn concat(a: &Value, b: &Value) -> Result<Value, OutOfMemory> {
    match (a, b) {
        (Value::Ascii(x), Value::Ascii(y)) => Ok(Value::ascii(crate::oom::concat_bytes(x, y)?)),
        _ => {
            let x = a.as_str().unwrap_or("");
            let y = b.as_str().unwrap_or("");
            let s = crate::oom::concat_str(x, y)?;
            Ok(Value::Text(Rc::new(TextObj::new(s))))
        }
    }
}

/// The byte length of a text or ascii value (0 for anything else), for
/// out-of-memory messages.
pub(super) fn text_bytes(v: &Value) -> usize {
    match v {
        Value::Text(t) => t.as_str().len(),
        Value::Ascii(a) => a.len(),
        _ => 0,
    }
}

#[cold]
#[inline(never)]
pub(super) fn to_text_slow(p: &Program, v: &Value, null_empty: bool) -> Value {
    match v {
        Value::Int(i) => Value::text(i.to_string()),
        Value::Ascii(a) => Value::text(String::from_utf8_lossy(a).into_owned()),
        other => Value::text(render::render_to_text(p, other, null_empty)),
    }
}

pub(super) fn text_index(s: &Value, i: i64) -> Value {
    let Value::Text(t) = s else {
        return Value::Null;
    };
    if i < 0 {
        return Value::Null;
    }
    match t.char_at(i as usize) {
        Some(c) => Value::text(c.to_string()),
        None => Value::Null,
    }
}

pub(super) fn arr_len(v: &Value) -> usize {
    match v {
        Value::Arr(a) => a.len(),
        _ => 0,
    }
}

/// A map key from a key register: text content, or `null` for a null key
/// (spec-silent; matches the key's text form).
pub(super) fn key_str(k: &Value) -> &str {
    k.as_str().unwrap_or("null")
}

/// The member of a (mixed) enum that an unboxed value belongs to, by its
/// run-time shape; the first member of that shape.
#[cold]
pub(super) fn classify_member(p: &Program, enum_id: u32, v: &Value) -> u16 {
    let Some(e) = p.enums.get(enum_id as usize) else {
        return 0;
    };
    let fits = |t: &Type| -> bool {
        match (t.strip_manual(), v) {
            (Type::Int | Type::Color, Value::Int(_)) => true,
            (Type::Float, Value::Float(_)) => true,
            (Type::Bool, Value::Bool(_)) => true,
            (Type::Text, Value::Text(_)) => true,
            (Type::Ascii, Value::Ascii(_)) => true,
            (Type::Struct(sid), Value::Struct(s)) => *sid == s.sid() && !s.is_row(),
            (Type::Table(tid), Value::Struct(s)) => *tid == s.sid() && s.is_row(),
            (Type::Arr(_) | Type::Amor(_), Value::Arr(_)) => true,
            (Type::Map(_), Value::Map(_)) => true,
            (Type::Func(..), Value::Func(_)) => true,
            _ => false,
        }
    };
    e.members.iter().position(fits).unwrap_or(0) as u16
}
