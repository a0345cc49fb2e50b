//! Load-time verification of a [`Program`].
//!
//! Every program the interpreter runs, whether built in memory by the
//! compiler or decoded from a bundle, is checked once so the dispatch loop
//! can rely on it without per-instruction checks:
//! - every register operand is below its function's `nregs`, and a call's
//!   argument block (`base + nparams`, `base + argc`) lies inside the
//!   caller's window;
//! - every constant, global, function, struct, enum, `enum_fields` and
//!   native index is in range;
//! - every jump and handler target stays inside its function;
//! - line tables match code, file indexes are valid, the entry function
//!   exists and takes no parameters;
//! - every type (of globals, fields, enum members and the `types` table
//!   natives index) refers to existing struct/table/enum declarations;
//! - every event handler names an existing void function, one per event;
//! - in debug builds, no register is read after a `Release` of it
//!   ([`crate::liveness`]).

use crate::opcode::{Instr, Reg};
use crate::program::{Function, Program};
use crate::types::Type;

/// Most members of one enum: member indexes are 16-bit (`EnumWrap`, the
/// tag of an enum value).
pub const MAX_ENUM_MEMBERS: usize = u16::MAX as usize + 1;

/// Check `program`; the error names the function and instruction at
/// fault.
pub fn verify(program: &Program) -> Result<(), String> {
    let nf = program.functions.len();
    if (program.entry as usize) >= nf {
        return Err(format!(
            "entry function {} does not exist ({} functions)",
            program.entry, nf
        ));
    }
    if program.functions[program.entry as usize].nparams != 0 {
        return Err("the entry function must take no parameters".into());
    }
    for g in &program.globals {
        check_type(program, &g.ty).map_err(|e| format!("global '{}': {e}", g.name))?;
    }
    for recs in [&program.structs, &program.tables] {
        for r in recs.iter() {
            if r.fields.len() > u16::MAX as usize {
                return Err(format!("record '{}' has too many fields", r.name));
            }
            for f in &r.fields {
                check_type(program, &f.ty)
                    .map_err(|e| format!("field '{}.{}': {e}", r.name, f.name))?;
            }
        }
    }
    for e in &program.enums {
        if e.member_names.len() != e.members.len() {
            return Err(format!(
                "enum '{}': member names do not match members",
                e.name
            ));
        }
        if e.members.len() > MAX_ENUM_MEMBERS {
            return Err(format!("enum '{}' has too many members", e.name));
        }
        for m in &e.members {
            check_type(program, m).map_err(|x| format!("enum '{}': {x}", e.name))?;
            if e.pure_struct && !matches!(m, Type::Struct(_)) {
                return Err(format!(
                    "enum '{}' is marked pure-struct but has a non-struct member",
                    e.name
                ));
            }
        }
    }
    for (i, ef) in program.enum_fields.iter().enumerate() {
        let ok = program
            .structs
            .get(ef.sid as usize)
            .is_some_and(|s| (ef.field as usize) < s.fields.len())
            && (ef.enum_id as usize) < program.enums.len();
        if !ok {
            return Err(format!("enum field reference {i} names no struct field"));
        }
    }
    for (i, t) in program.types.iter().enumerate() {
        check_type(program, t).map_err(|e| format!("type operand {i}: {e}"))?;
    }
    for f in &program.functions {
        verify_function(program, f).map_err(|e| format!("function '{}': {e}", f.name))?;
    }
    verify_handlers(program)?;
    // Debug builds also check register liveness (no read after a
    // release); it is a property of correct code generation, not of
    // memory safety, so release builds skip its cost.
    #[cfg(debug_assertions)]
    crate::liveness::check(program)?;
    Ok(())
}

/// Event handlers (§11.5): each names an existing function that returns
/// nothing, at most one per event, and the events the VM itself fires get
/// handlers of their fixed arity (`exit`: one parameter).
fn verify_handlers(program: &Program) -> Result<(), String> {
    for (i, h) in program.handlers.iter().enumerate() {
        let Some(f) = program.functions.get(h.func as usize) else {
            return Err(format!(
                "handler for '{}' names function {}, which does not exist",
                h.event, h.func
            ));
        };
        if f.returns_value {
            return Err(format!("handler for '{}' must not return a value", h.event));
        }
        if h.event == "exit" && f.nparams != 1 {
            return Err("handler for 'exit' must take one parameter".into());
        }
        if program.handlers[..i].iter().any(|o| o.event == h.event) {
            return Err(format!("two handlers for event '{}'", h.event));
        }
    }
    Ok(())
}

fn check_type(p: &Program, t: &Type) -> Result<(), String> {
    match t {
        Type::Struct(id) if (*id as usize) >= p.structs.len() => {
            Err(format!("unknown struct id {id}"))
        }
        Type::Table(id) if (*id as usize) >= p.tables.len() => {
            Err(format!("unknown table id {id}"))
        }
        Type::Enum(id) if (*id as usize) >= p.enums.len() => Err(format!("unknown enum id {id}")),
        Type::Arr(e) | Type::Amor(e) | Type::Map(e) | Type::Manual(e) => check_type(p, e),
        Type::Func(ps, r) => {
            for x in ps {
                check_type(p, x)?;
            }
            check_type(p, r)
        }
        _ => Ok(()),
    }
}

fn verify_function(p: &Program, f: &Function) -> Result<(), String> {
    if f.nparams > f.nregs {
        return Err(format!(
            "{} parameters but {} registers",
            f.nparams, f.nregs
        ));
    }
    if f.lines.len() != f.code.len() {
        return Err(format!(
            "line table has {} entries for {} instructions",
            f.lines.len(),
            f.code.len()
        ));
    }
    if (f.file as usize) >= p.files.len() {
        return Err(format!("file index {} out of range", f.file));
    }
    let n = f.code.len();
    for (pc, ins) in f.code.iter().enumerate() {
        check_instr(p, f, pc, n, ins)
            .map_err(|e| format!("instruction {pc} ({}): {e}", ins.mnemonic()))?;
    }
    Ok(())
}

fn check_instr(p: &Program, f: &Function, pc: usize, n: usize, ins: &Instr) -> Result<(), String> {
    let nregs = f.nregs as usize;
    let reg = |r: Reg| -> Result<(), String> {
        if (r as usize) < nregs {
            Ok(())
        } else {
            Err(format!("register r{r} beyond {nregs} registers"))
        }
    };
    let target = |off: i32| -> Result<(), String> {
        let t = pc as i64 + 1 + off as i64;
        if t < 0 || (t as usize) >= n {
            Err(format!("jump target {t} outside the function (0..{n})"))
        } else if matches!(f.code[t as usize], Instr::ExtraArg { .. }) {
            Err(format!(
                "jump target {t} is the operand of a wide instruction"
            ))
        } else {
            Ok(())
        }
    };
    use Instr::*;
    match *ins {
        Move { dst, src } => {
            reg(dst)?;
            reg(src)
        }
        LoadInt { dst, .. } | LoadNull { dst } | LoadBool { dst, .. } | NewArr { dst, .. } => {
            reg(dst)
        }
        NewMap { dst } | Release { reg: dst } => reg(dst),
        LoadConst { dst, k } => {
            reg(dst)?;
            if (k as usize) < p.consts.len() {
                Ok(())
            } else {
                Err(format!("constant {k} out of range"))
            }
        }
        LoadFunc { dst, func } => {
            reg(dst)?;
            if (func as usize) < p.functions.len() {
                Ok(())
            } else {
                Err(format!("function {func} out of range"))
            }
        }
        GetGlobal { dst: r, g } | GetGlobalViv { dst: r, g } | SetGlobal { g, src: r } => {
            reg(r)?;
            if (g as usize) < p.globals.len() {
                Ok(())
            } else {
                Err(format!("global {g} out of range"))
            }
        }
        AddInt { dst, a, b }
        | SubInt { dst, a, b }
        | MulInt { dst, a, b }
        | MulAddInt { dst, a, b }
        | ModInt { dst, a, b }
        | AddFloat { dst, a, b }
        | SubFloat { dst, a, b }
        | MulFloat { dst, a, b }
        | DivFloat { dst, a, b }
        | ModFloat { dst, a, b }
        | EqInt { dst, a, b }
        | NeInt { dst, a, b }
        | LtInt { dst, a, b }
        | LeInt { dst, a, b }
        | EqFloat { dst, a, b }
        | NeFloat { dst, a, b }
        | LtFloat { dst, a, b }
        | LeFloat { dst, a, b }
        | EqBool { dst, a, b }
        | NeBool { dst, a, b }
        | EqText { dst, a, b }
        | NeText { dst, a, b }
        | Concat { dst, a, b }
        | ConcatAscii { dst, a, b }
        | AndInt { dst, a, b }
        | OrInt { dst, a, b }
        | XorInt { dst, a, b }
        | ShlInt { dst, a, b }
        | ShrInt { dst, a, b }
        | EqRef { dst, a, b }
        | NeRef { dst, a, b } => {
            reg(dst)?;
            reg(a)?;
            reg(b)
        }
        AddIntImm { dst, a, .. }
        | NegInt { dst, a }
        | NotInt { dst, a }
        | IntToFloat { dst, a }
        | NegFloat { dst, a } => {
            reg(dst)?;
            reg(a)
        }
        IsNull { dst, src }
        | NotNull { dst, src }
        | Not { dst, src }
        | AppendText { dst, src }
        | ToText { dst, src, .. }
        | EnumWrap { dst, src, .. }
        | EnumUnwrap { dst, src } => {
            reg(dst)?;
            reg(src)
        }
        TextIndex { dst, s, i } | AsciiIndex { dst, s, i } | AsciiCodeAt { dst, s, i } => {
            reg(dst)?;
            reg(s)?;
            reg(i)
        }
        TextLen { dst, s } | AsciiLen { dst, s } => {
            reg(dst)?;
            reg(s)
        }
        JumpLtInt { a, b, off }
        | JumpLeInt { a, b, off }
        | JumpEqInt { a, b, off }
        | JumpNeInt { a, b, off }
        | JumpLtFloat { a, b, off }
        | JumpLeFloat { a, b, off }
        | JumpNotLtFloat { a, b, off }
        | JumpNotLeFloat { a, b, off } => {
            reg(a)?;
            reg(b)?;
            target(off as i32)
        }
        JumpLtIntImm { a, off, .. }
        | JumpLeIntImm { a, off, .. }
        | JumpGtIntImm { a, off, .. }
        | JumpGeIntImm { a, off, .. }
        | JumpEqIntImm { a, off, .. }
        | JumpNeIntImm { a, off, .. } => {
            reg(a)?;
            target(off as i32)
        }
        AddIntImmCmpJump { dst, a, .. } => {
            reg(dst)?;
            reg(a)?;
            // The branch is checked by its own rule.
            match f.code.get(pc + 1) {
                Some(JumpLtInt { .. }) | Some(JumpLeInt { .. }) => Ok(()),
                _ => Err(
                    "an increment-and-loop must be followed by an int compare-and-branch".into(),
                ),
            }
        }
        Jump { off } => target(off),
        JumpIfTrue { cond, off } | JumpIfFalse { cond, off } => {
            reg(cond)?;
            target(off)
        }
        Call { dst, base, func } => {
            reg(dst)?;
            let callee = p
                .functions
                .get(func as usize)
                .ok_or_else(|| format!("function {func} out of range"))?;
            if base as usize + callee.nparams as usize > nregs || base as usize > nregs {
                return Err(format!(
                    "argument block r{base}+{} exceeds {nregs} registers",
                    callee.nparams
                ));
            }
            Ok(())
        }
        CallValue { dst, callee, base } => {
            reg(dst)?;
            reg(callee)?;
            if base as usize > nregs {
                return Err(format!("call base r{base} beyond {nregs} registers"));
            }
            Ok(())
        }
        NewArrFrom { dst, base, n } => {
            reg(dst)?;
            if base as usize + n as usize > nregs {
                return Err(format!(
                    "element block r{base}+{n} exceeds {nregs} registers"
                ));
            }
            Ok(())
        }
        CallNative {
            dst,
            base,
            id,
            argc,
        } => {
            reg(dst)?;
            if (id as usize) >= p.natives.len() {
                return Err(format!("native {id} out of range"));
            }
            if base as usize + argc as usize > nregs {
                return Err(format!(
                    "argument block r{base}+{argc} exceeds {nregs} registers"
                ));
            }
            Ok(())
        }
        Return { src } => reg(src),
        ReturnVoid {} | TryExit {} => Ok(()),
        TryEnter { reg: r, off } => {
            reg(r)?;
            target(off)
        }
        Throw { src } | Fail { src } => reg(src),
        NewStruct { dst, sid } => {
            reg(dst)?;
            if (sid as usize) < p.structs.len() {
                Ok(())
            } else {
                Err(format!("struct {sid} out of range"))
            }
        }
        GetField { dst, obj, .. }
        | GetFieldViv { dst, obj, .. }
        | GetFieldWeak { dst, obj, .. } => {
            reg(dst)?;
            reg(obj)
        }
        SetField { obj, src, .. } | SetFieldWeak { obj, src, .. } => {
            reg(obj)?;
            reg(src)
        }
        EnumTag { dst, src, enum_id } | EnumTypeof { dst, src, enum_id } => {
            reg(dst)?;
            reg(src)?;
            if (enum_id as usize) < p.enums.len() {
                Ok(())
            } else {
                Err(format!("enum {enum_id} out of range"))
            }
        }
        EnumField { dst, obj, idx } => {
            reg(dst)?;
            reg(obj)?;
            if (idx as usize) < p.enum_fields.len() {
                Ok(())
            } else {
                Err(format!("enum field reference {idx} out of range"))
            }
        }
        EnumTagWide { dst, src: a }
        | EnumTypeofWide { dst, src: a }
        | EnumFieldWide { dst, obj: a } => {
            reg(dst)?;
            reg(a)?;
            let Some(ExtraArg { arg }) = f.code.get(pc + 1) else {
                return Err("a wide instruction must be followed by an ExtraArg".into());
            };
            let (n, what) = match ins {
                EnumFieldWide { .. } => (p.enum_fields.len(), "enum field reference"),
                _ => (p.enums.len(), "enum"),
            };
            if (*arg as usize) < n {
                Ok(())
            } else {
                Err(format!("{what} {arg} out of range"))
            }
        }
        ExtraArg { .. } => match pc.checked_sub(1).map(|i| &f.code[i]) {
            Some(EnumTagWide { .. } | EnumTypeofWide { .. } | EnumFieldWide { .. }) => Ok(()),
            _ => Err("an ExtraArg must follow a wide instruction".into()),
        },
        ArrPush { arr, src } => {
            reg(arr)?;
            reg(src)
        }
        ArrPop { dst, arr } | ArrLen { dst, arr } => {
            reg(dst)?;
            reg(arr)
        }
        ArrGet { dst, arr, idx } => {
            reg(dst)?;
            reg(arr)?;
            reg(idx)
        }
        ArrSet { arr, idx, src } => {
            reg(arr)?;
            reg(idx)?;
            reg(src)
        }
        MapGet { dst, map, key } => {
            reg(dst)?;
            reg(map)?;
            reg(key)
        }
        MapSet { map, key, src } => {
            reg(map)?;
            reg(key)?;
            reg(src)
        }
        MapDelete { map, key } => {
            reg(map)?;
            reg(key)
        }
        Clear { reg: r } => reg(r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Enum;

    /// A program of one entry function running `code` in 2 registers, with
    /// one enum.
    fn program(code: Vec<Instr>) -> Program {
        let lines = vec![1; code.len()];
        Program {
            files: vec!["t.f".into()],
            functions: vec![Function {
                name: "main".into(),
                file: 0,
                nparams: 0,
                nregs: 2,
                returns_value: false,
                code,
                lines,
            }],
            enums: vec![Enum {
                name: "E".into(),
                members: vec![Type::Int],
                member_names: vec!["int".into()],
                pure_struct: false,
            }],
            ..Program::default()
        }
    }

    #[test]
    fn wide_instructions_take_their_operand_from_the_extra_arg() {
        let wide = Instr::EnumTagWide { dst: 0, src: 1 };
        let ok = program(vec![wide, Instr::ExtraArg { arg: 0 }, Instr::ReturnVoid {}]);
        assert_eq!(verify(&ok), Ok(()));
        let out_of_range = program(vec![wide, Instr::ExtraArg { arg: 1 }, Instr::ReturnVoid {}]);
        assert!(verify(&out_of_range)
            .unwrap_err()
            .contains("enum 1 out of range"));
        let missing = program(vec![wide, Instr::ReturnVoid {}]);
        assert!(verify(&missing)
            .unwrap_err()
            .contains("must be followed by an ExtraArg"));
        let alone = program(vec![Instr::ExtraArg { arg: 0 }, Instr::ReturnVoid {}]);
        assert!(verify(&alone)
            .unwrap_err()
            .contains("must follow a wide instruction"));
        let jump_in = program(vec![
            Instr::Jump { off: 1 },
            wide,
            Instr::ExtraArg { arg: 0 },
            Instr::ReturnVoid {},
        ]);
        assert!(verify(&jump_in)
            .unwrap_err()
            .contains("operand of a wide instruction"));
    }
}
