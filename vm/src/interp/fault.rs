//! Runtime-failure diagnostics: the `file:line` of an instruction, the
//! Festina call stack printed under a failure, the messages of failed
//! field reads (`*_fault`), and the best-effort inference of a field's
//! name from the bytecode that those messages use. Everything here is
//! cold: it runs only to word a failure.
//!
//! # The call stack of a failure
//!
//! A runtime failure (`fail`, an uncaught `throw`, a failed instruction,
//! out of memory, a stack overflow) prints `fail: <message>` as the first
//! line of stderr (the format §14.2 and the reference use), then the
//! Festina call stack, innermost call first, one line per frame in the
//! manner of JavaScript engines:
//!
//! ```text
//! fail: boom
//!     at check (app.f:3)
//!     at sorter (app.f:9)
//!     at <top level> (app.f:12)
//! ```
//!
//! Each line names the function and the `file:line` being executed in it
//! (for a caller, its call). A file's top-level code is `<top level>`; the
//! entry code that runs every file's top level in turn (`<main>`) is
//! left out, as it has no source line. A native that calls back into
//! Festina (a `sort` comparator, `forEach`) is a frame boundary that the
//! stack crosses: the callback's frames, then the frame of the call to
//! the native, then its callers ([`Outer`] keeps each level's frames
//! while the callback runs). A callback run by the event loop (a timer)
//! ends at its own frames. At most [`TRACE_LINES`] frames are printed:
//! beyond that, the innermost half, a line `... N more frames ...`, and
//! the outermost half (a runaway recursion shows where it started).
//!
//! The stack is recorded when a trap leaves a dispatch loop uncaught
//! (`Interpreter::handle_trap`), where every frame still exists: by the
//! time `run` reports the failure, the loops have unwound. A throw that an
//! outer loop's `try` then catches drops the record; `run` prints a record
//! only with the failure it belongs to (same message).
//!
//! [`Outer`]: super::Outer

use super::{Frame, Interpreter};
use crate::native::Trap;
use crate::opcode::{Instr, Reg};
use crate::program::Program;
use crate::types::Type;
use crate::value::Value;

/// The most frames a failure's call stack prints.
pub const TRACE_LINES: usize = 20;

/// A recorded call stack: the failure's message, the frames printed
/// (function and instruction, innermost first; a `None` marks the place
/// of the frames left out) and how many were left out.
#[derive(Clone, Debug)]
pub(super) struct Trace {
    message: String,
    frames: Vec<Option<(u32, usize)>>,
    omitted: usize,
}

impl Interpreter {
    /// Every frame of the Festina call stack, innermost first, as
    /// (function, instruction): the current frame at instruction `pc`,
    /// its callers, then each outer loop's native call and its callers.
    /// Leaves out the synthetic entry function `<main>`.
    fn stack_frames(&self, pc: usize) -> impl Iterator<Item = (u32, usize)> + '_ {
        let ret_pc = |f: &Frame| {
            let start = self.fns[f.func as usize].code as usize;
            ((f.ret as usize - start) / std::mem::size_of::<Instr>()).saturating_sub(1)
        };
        let inner = std::iter::once((self.cur.func, pc))
            .chain(self.frames.iter().rev().map(move |f| (f.func, ret_pc(f))));
        let outer = self.outer.iter().rev().flat_map(move |o| {
            o.site
                .into_iter()
                .chain(o.frames.iter().rev().map(move |f| (f.func, ret_pc(f))))
        });
        inner
            .chain(outer)
            .filter(|&(f, _)| self.program.functions[f as usize].name != "<main>")
    }

    /// Record the call stack for the failure `message` raised at
    /// instruction `pc` of the current frame, unless one is recorded for
    /// it already (by the inner loop it came from).
    pub(super) fn record_trace(&mut self, message: &str, pc: usize) {
        if self.trace.as_ref().is_some_and(|t| t.message == message) {
            return;
        }
        let total = self.stack_frames(pc).count();
        let half = TRACE_LINES / 2;
        let (frames, omitted) = if total <= TRACE_LINES {
            (self.stack_frames(pc).map(Some).collect(), 0)
        } else {
            let head = self.stack_frames(pc).take(half).map(Some);
            let tail = self.stack_frames(pc).skip(total - half).map(Some);
            (head.chain([None]).chain(tail).collect(), total - 2 * half)
        };
        self.trace = Some(Trace {
            message: message.to_string(),
            frames,
            omitted,
        });
    }

    /// The lines of the call stack recorded for the failure `message`
    /// (see the module documentation), or nothing; forgets the record.
    pub(super) fn render_trace(&mut self, message: &str) -> String {
        let Some(t) = self.trace.take().filter(|t| t.message == message) else {
            return String::new();
        };
        let mut out = String::new();
        for f in &t.frames {
            match *f {
                Some((func, pc)) => {
                    let name = self.program.functions[func as usize].name.as_str();
                    let name = if name.starts_with("<top:") {
                        "<top level>"
                    } else {
                        name
                    };
                    out.push_str(&format!("    at {name} ({})\n", self.loc(func, pc)));
                }
                None => out.push_str(&format!("    ... {} more frames ...\n", t.omitted)),
            }
        }
        out
    }

    pub(super) fn loc(&self, func: u32, pc: usize) -> String {
        let f = &self.program.functions[func as usize];
        let file = self
            .program
            .files
            .get(f.file as usize)
            .map_or("?", |s| s.as_str());
        // The appended `ReturnVoid` (pc == len) reports the last line.
        let line = f.lines.get(pc).or(f.lines.last()).copied().unwrap_or(0);
        format!("{file}:{line}")
    }

    /// The failure for a field access that found no struct.
    #[cold]
    #[inline(never)]
    pub(super) fn field_fault(
        &self,
        fidx: u32,
        pc: usize,
        obj: Reg,
        field: u16,
        verb: &str,
    ) -> Trap {
        let name = infer_field_name(&self.program, fidx, pc, obj, field);
        Trap::Fail(format!(
            "field '{name}' {verb} through null at {}",
            self.loc(fidx, pc)
        ))
    }

    #[cold]
    #[inline(never)]
    pub(super) fn enum_field_fault(
        &self,
        fidx: u32,
        pc: usize,
        obj: Reg,
        idx: u32,
        base: usize,
    ) -> Trap {
        let r = &self.program.enum_fields[idx as usize];
        let at = self.loc(fidx, pc);
        let enum_name = self
            .program
            .enums
            .get(r.enum_id as usize)
            .map_or("?", |e| e.name.as_str());
        let v = match self.r(base + obj as usize) {
            Value::Enum(b) => b.value.clone(),
            other => other.clone(),
        };
        // The reference's wording (after edition 0.44), with our location.
        if v.is_null() {
            return Trap::Fail(format!(
                "field '{}' accessed on a null {enum_name} value at {at}",
                r.name
            ));
        }
        let owner = self
            .program
            .structs
            .get(r.sid as usize)
            .map_or("?", |x| x.name.as_str());
        Trap::Fail(format!(
            "field '{}' is only valid when this {enum_name} value is a {owner} at {at}",
            r.name
        ))
    }
}

/// Best-effort name of field `field` of the struct type held by register
/// `obj` at instruction `pc`: the compiled code carries no register types,
/// so follow the register's most recent writer backwards (a cold path, run
/// only to word a failure message).
#[cold]
pub(super) fn infer_field_name(p: &Program, fidx: u32, pc: usize, obj: Reg, field: u16) -> String {
    let sid = infer_struct(p, fidx, pc, obj, 0);
    let by_sid = sid
        .and_then(|s| p.structs.get(s as usize))
        .and_then(|r| r.fields.get(field as usize));
    if let Some(f) = by_sid {
        return f.name.clone();
    }
    // A table row (§8.10): its columns, or the rowid slot after them.
    if let Some(Type::Table(t)) = infer_type(p, fidx, pc, obj, 0) {
        if let Some(r) = p.tables.get(t as usize) {
            return r
                .fields
                .get(field as usize)
                .map_or_else(|| "rowid".to_string(), |f| f.name.clone());
        }
    }
    // Fall back to the one name every struct (and table) with that field
    // index agrees on.
    let mut names = p
        .structs
        .iter()
        .chain(p.tables.iter())
        .filter_map(|r| r.fields.get(field as usize))
        .map(|f| f.name.as_str());
    if let Some(first) = names.next() {
        if names.all(|n| n == first) {
            return first.to_string();
        }
    }
    format!("#{field}")
}

pub(super) fn infer_type(p: &Program, fidx: u32, pc: usize, reg: Reg, depth: u32) -> Option<Type> {
    if depth > 16 {
        return None;
    }
    let code = &p.functions[fidx as usize].code;
    for j in (0..pc.min(code.len())).rev() {
        use Instr::*;
        match code[j] {
            NewStruct { dst, sid } if dst == reg => return Some(Type::Struct(sid)),
            Move { dst, src } if dst == reg => return infer_type(p, fidx, j, src, depth + 1),
            GetGlobal { dst, g } if dst == reg => {
                return p.globals.get(g as usize).map(|g| g.ty.clone())
            }
            GetField { dst, obj, field } | GetFieldViv { dst, obj, field } if dst == reg => {
                let sid = infer_struct(p, fidx, j, obj, depth + 1)?;
                return p
                    .structs
                    .get(sid as usize)?
                    .fields
                    .get(field as usize)
                    .map(|f| f.ty.clone());
            }
            ArrGet { dst, arr, .. } | ArrPop { dst, arr } if dst == reg => {
                return infer_type(p, fidx, j, arr, depth + 1)?.elem().cloned();
            }
            MapGet { dst, map, .. } if dst == reg => {
                return infer_type(p, fidx, j, map, depth + 1)?.elem().cloned();
            }
            EnumField { dst, idx, .. } if dst == reg => {
                let r = p.enum_fields.get(idx as usize)?;
                return p
                    .structs
                    .get(r.sid as usize)?
                    .fields
                    .get(r.field as usize)
                    .map(|f| f.ty.clone());
            }
            // `clear` nulls the register without changing its type: look
            // further back.
            Clear { .. } => {}
            ins if ins.writes().reg() == Some(reg) => return None,
            _ => {}
        }
    }
    None
}

pub(super) fn infer_struct(p: &Program, fidx: u32, pc: usize, reg: Reg, depth: u32) -> Option<u32> {
    match infer_type(p, fidx, pc, reg, depth)? {
        Type::Struct(s) => Some(s),
        Type::Manual(t) => match *t {
            Type::Struct(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}
