//! The transfer form of a thread message (§20.4): a deep copy of a value
//! built only from `Send` data, made on the sending thread and rebuilt
//! into fresh values of the receiving interpreter's heap.
//!
//! No `Rc` ever crosses: texts become `String`s, arrays, maps and structs
//! become vectors of transfers, handles (`blob`, `img`, `aud`) go through
//! their [`Handle::send_copy`](festina_vm::value::Handle::send_copy) hook.
//! The copy shares nothing with the original, so mutating either side
//! never changes the other. A function value is its index in the shared,
//! immutable program and crosses as that index.

use festina_vm::interp::Interpreter;
use festina_vm::native::Trap;
use festina_vm::value::{EnumBox, SentHandle, Value};
use std::rc::Rc;

/// Deepest nesting a message may have (arrays of arrays of ...): deeper
/// values are refused with a runtime failure instead of exhausting the
/// stack of the copying thread.
pub const MAX_DEPTH: usize = 2_000;

/// A value on its way to another thread. `Send`: see the module doc.
pub enum Transfer {
    /// `null` (any type but `float`).
    Null,
    /// `int`, `color`.
    Int(i64),
    /// `float` (NaN is the float `null`).
    Float(f64),
    /// `bool`.
    Bool(bool),
    /// A function value (an index into the shared program).
    Func(u32),
    /// `text`.
    Text(String),
    /// `ascii`.
    Ascii(Vec<u8>),
    /// A struct: its id and its fields in order.
    Struct(u32, Vec<Transfer>),
    /// An array's items.
    Arr(Vec<Transfer>),
    /// A map's entries in insertion order.
    Map(Vec<(String, Transfer)>),
    /// A boxed member of a mixed enum.
    Enum(u16, Box<Transfer>),
    /// A handle's deep copy.
    Handle(Box<dyn SentHandle>),
}

impl Transfer {
    /// The deep copy of `v`. Errors (a runtime failure): a value that
    /// cannot cross threads (a table row, a `regex`, an `http` value...;
    /// the checker refuses their types, so only a value reached through a
    /// manually managed field can get here) or nesting deeper than
    /// [`MAX_DEPTH`].
    pub fn of(v: &Value) -> Result<Transfer, Trap> {
        Self::copy(v, 0)
    }

    fn copy(v: &Value, depth: usize) -> Result<Transfer, Trap> {
        if depth > MAX_DEPTH {
            return Err(Trap::Fail(format!(
                "a thread message may nest at most {MAX_DEPTH} levels deep"
            )));
        }
        let d = depth + 1;
        Ok(match v {
            Value::Null | Value::Weak(_) => Transfer::Null,
            Value::Int(i) => Transfer::Int(*i),
            Value::Float(f) => Transfer::Float(*f),
            Value::Bool(b) => Transfer::Bool(*b),
            Value::Func(f) => Transfer::Func(*f),
            Value::Text(t) => Transfer::Text(t.as_str().to_string()),
            Value::Ascii(a) => Transfer::Ascii(a.as_ref().clone()),
            Value::Struct(s) => {
                if s.is_row() {
                    return Err(unsendable("a table row"));
                }
                let fields = s
                    .fields()
                    .iter()
                    .map(|f| Self::copy(f, d))
                    .collect::<Result<_, _>>()?;
                Transfer::Struct(s.sid(), fields)
            }
            Value::Arr(a) => Transfer::Arr(
                a.to_vec()
                    .iter()
                    .map(|x| Self::copy(x, d))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Map(m) => {
                let mut out = Vec::with_capacity(m.len());
                for i in 0..m.len() {
                    if let Some((k, x)) = m.entry(i) {
                        out.push((k.to_string(), Self::copy(&x, d)?));
                    }
                }
                Transfer::Map(out)
            }
            Value::Enum(b) => Transfer::Enum(b.member, Box::new(Self::copy(&b.value, d)?)),
            Value::Handle(h) => match h.as_dyn().send_copy() {
                Some(c) => Transfer::Handle(c),
                None => return Err(unsendable(&format!("a {} value", h.type_name()))),
            },
        })
    }

    /// The value again, made of fresh objects of `it`'s heap.
    pub fn into_value(self, it: &mut Interpreter) -> Value {
        match self {
            Transfer::Null => Value::Null,
            Transfer::Int(i) => Value::Int(i),
            Transfer::Float(f) => Value::Float(f),
            Transfer::Bool(b) => Value::Bool(b),
            Transfer::Func(f) => Value::Func(f),
            Transfer::Text(s) => Value::text(s),
            Transfer::Ascii(b) => Value::ascii(b),
            Transfer::Struct(sid, fields) => {
                let Some(v) = it.new_struct(sid) else {
                    return Value::Null;
                };
                if let Value::Struct(s) = &v {
                    for (i, f) in fields.into_iter().enumerate() {
                        let f = f.into_value(it);
                        s.set(i, f);
                    }
                }
                v
            }
            Transfer::Arr(items) => {
                let items = items.into_iter().map(|x| x.into_value(it)).collect();
                it.new_arr(items)
            }
            Transfer::Map(entries) => {
                let v = it.new_map();
                if let Value::Map(m) = &v {
                    for (k, x) in entries {
                        let x = x.into_value(it);
                        m.set(&k, x);
                    }
                }
                v
            }
            Transfer::Enum(member, value) => {
                let value = value.into_value(it);
                Value::Enum(Rc::new(EnumBox { member, value }))
            }
            Transfer::Handle(h) => h.into_value(),
        }
    }
}

fn unsendable(what: &str) -> Trap {
    Trap::Fail(format!("{what} cannot be sent to another thread (§20.4)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use festina_vm::opcode::Instr;
    use festina_vm::program::{Function, Program};
    use std::sync::Arc;

    /// An interpreter of a program with nothing in it but an empty entry.
    fn interp(program: &Arc<Program>) -> Interpreter {
        Interpreter::new(Arc::clone(program), &[]).expect("load")
    }

    fn program() -> Arc<Program> {
        let mut f = Function::hand_written("<main>", 0, 1, vec![Instr::ReturnVoid {}]);
        f.returns_value = false;
        Arc::new(Program {
            files: vec!["t.f".into()],
            functions: vec![f],
            ..Program::default()
        })
    }

    #[test]
    fn a_copy_rebuilt_on_another_thread_shares_nothing() {
        let p = program();
        let mut it = interp(&p);
        let inner = it.new_arr(vec![Value::Int(1), Value::Int(2)]);
        let map = it.new_map();
        if let Value::Map(m) = &map {
            m.set("xs", inner.clone());
            m.set("name", Value::text("ünïcode"));
        }
        let boxed = Value::Enum(Rc::new(EnumBox {
            member: 1,
            value: Value::Float(2.5),
        }));
        let v = it.new_arr(vec![
            map,
            Value::ascii(b"ab".to_vec()),
            boxed,
            Value::Null,
            Value::Bool(true),
            Value::Func(0),
        ]);
        let before = it.render(&v);
        let sent = Transfer::of(&v).expect("sendable");
        let p2 = Arc::clone(&p);
        // The transfer form is `Send`: it crosses to a thread with its own
        // interpreter, which rebuilds and mutates its copy.
        let (copy_before, copy_after) = std::thread::spawn(move || {
            let mut other = interp(&p2);
            let copy = sent.into_value(&mut other);
            let shown = other.render(&copy);
            if let Value::Arr(a) = &copy {
                if let Some(Value::Map(m)) = a.get(0) {
                    if let Some(Value::Arr(xs)) = m.get("xs") {
                        xs.push(Value::Int(99));
                    }
                    m.set("name", Value::text("changed"));
                }
                a.push(Value::Int(7));
            }
            (shown, other.render(&copy))
        })
        .join()
        .expect("thread");
        assert_eq!(copy_before, before);
        assert_ne!(copy_after, before);
        assert_eq!(it.render(&v), before, "the original never changes");
        // And the other way: changing the original after the send leaves a
        // copy made before it alone.
        let sent = Transfer::of(&v).expect("sendable");
        if let Value::Arr(xs) = &inner {
            xs.push(Value::Int(3));
        }
        let mut third = interp(&p);
        let copy = sent.into_value(&mut third);
        assert_eq!(third.render(&copy), before);
    }

    #[test]
    fn too_deep_and_unsendable_values_are_refused() {
        let p = program();
        let mut it = interp(&p);
        let mut v = it.new_arr(Vec::new());
        for _ in 0..MAX_DEPTH + 5 {
            v = it.new_arr(vec![v]);
        }
        assert!(matches!(Transfer::of(&v), Err(Trap::Fail(m)) if m.contains("nest")));
        struct NotSendable;
        impl festina_vm::value::Handle for NotSendable {
            fn type_name(&self) -> &'static str {
                "regex"
            }
        }
        let h = Value::handle(NotSendable);
        assert!(matches!(Transfer::of(&h), Err(Trap::Fail(m)) if m.contains("regex")));
    }
}
