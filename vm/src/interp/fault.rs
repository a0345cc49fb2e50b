//! Runtime-failure diagnostics: the `file:line` of an instruction, the
//! messages of failed field reads (`*_fault`), and the best-effort
//! inference of a field's name from the bytecode that those messages use.
//! Everything here is cold: it runs only to word a failure.

use super::Interpreter;
use crate::native::Trap;
use crate::opcode::{Instr, Reg};
use crate::program::Program;
use crate::types::Type;
use crate::value::Value;

impl Interpreter {
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
