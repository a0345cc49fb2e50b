//! A readable listing of a [`Program`] (`festina --emit-bytecode`).
//!
//! The listing is generated from the instruction table itself
//! ([`Instr::mnemonic`], [`Instr::operands`]), so it never disagrees with
//! the instruction set. Registers print as `r3`, jumps also show their
//! absolute target, and operands that index a program table are annotated
//! with what they name (constant value, function, global, struct, native).
//!
//! ```text
//! function 1 fib (prog.f, params 1, registers 4, returns a value)
//!   0000  L2    LoadInt     dst=r1 imm=2
//!   0002  L2    JumpIfFalse cond=r2 off=1  ; -> 0004
//! ```

use crate::opcode::Instr;
use crate::program::{Const, Program};
use crate::render;
use crate::types::TypeDisplay;
use std::fmt::Write;

/// Operand names that denote registers.
const REG_OPERANDS: &[&str] = &[
    "dst", "src", "a", "b", "obj", "arr", "idx", "map", "key", "cond", "callee", "base", "s", "i",
    "reg",
];

/// The listing of every table and function of `program`.
pub fn listing(program: &Program) -> String {
    let mut out = String::new();
    let ty = |t| {
        TypeDisplay {
            ty: t,
            names: program,
        }
        .to_string()
    };
    if !program.consts.is_empty() {
        out.push_str("constants\n");
        for (i, c) in program.consts.iter().enumerate() {
            let _ = writeln!(out, "  k{i:<4} {}", const_text(c));
        }
    }
    if !program.globals.is_empty() {
        out.push_str("globals\n");
        for (i, g) in program.globals.iter().enumerate() {
            let _ = writeln!(out, "  g{i:<4} {}: {}", g.name, ty(&g.ty));
        }
    }
    for (kind, recs) in [("struct", &program.structs), ("table", &program.tables)] {
        for (i, r) in recs.iter().enumerate() {
            let _ = write!(out, "{kind} {i} {}", r.name);
            if r.may_cycle {
                out.push_str(" (may cycle)");
            }
            out.push('\n');
            for (j, f) in r.fields.iter().enumerate() {
                let _ = writeln!(out, "  .{j} {}: {}", f.name, ty(&f.ty));
            }
        }
    }
    for (i, e) in program.enums.iter().enumerate() {
        let members: Vec<String> = e.members.iter().map(&ty).collect();
        let _ = writeln!(
            out,
            "enum {i} {} = {}{}",
            e.name,
            members.join(", "),
            if e.pure_struct { " (pure struct)" } else { "" }
        );
    }
    for (i, r) in program.enum_fields.iter().enumerate() {
        let _ = writeln!(
            out,
            "enum field {i}: {}.{} (field {})",
            program.structs.get(r.sid as usize).map_or("?", |s| &s.name),
            r.name,
            r.field
        );
    }
    if !program.natives.is_empty() {
        out.push_str("natives\n");
        for (i, n) in program.natives.iter().enumerate() {
            let _ = writeln!(out, "  n{i:<4} {n}");
        }
    }
    if !program.handlers.is_empty() {
        out.push_str("handlers\n");
        for h in &program.handlers {
            let _ = writeln!(out, "  on {} -> function {}", h.event, h.func);
        }
    }
    for (fi, f) in program.functions.iter().enumerate() {
        let file = program
            .files
            .get(f.file as usize)
            .map_or("?", |s| s.as_str());
        let _ = writeln!(
            out,
            "\nfunction {fi} {} ({file}, params {}, registers {}{}){}",
            f.name,
            f.nparams,
            f.nregs,
            if f.returns_value {
                ", returns a value"
            } else {
                ""
            },
            if fi as u32 == program.entry {
                " [entry]"
            } else {
                ""
            }
        );
        for (pc, ins) in f.code.iter().enumerate() {
            let line = f.lines.get(pc).copied().unwrap_or(0);
            let _ = write!(out, "  {pc:04}  L{line:<4} {:<12} ", ins.mnemonic());
            let ops: Vec<String> = ins
                .operands()
                .into_iter()
                .map(|(name, v)| {
                    if REG_OPERANDS.contains(&name) {
                        format!("{name}=r{v}")
                    } else {
                        format!("{name}={v}")
                    }
                })
                .collect();
            out.push_str(ops.join(" ").trim_end());
            if let Some(note) = annotate(program, pc, ins) {
                out.push_str("  ; ");
                out.push_str(&note);
            }
            out.push('\n');
        }
    }
    out
}

fn const_text(c: &Const) -> String {
    let mut s = String::new();
    match c {
        Const::Int(i) => {
            let _ = write!(s, "{i}");
        }
        Const::Float(f) => render::format_g(*f, &mut s),
        Const::Text(t) => render::json_string(t, &mut s),
        Const::Ascii(a) => {
            s.push_str("ascii ");
            render::json_string(&String::from_utf8_lossy(a), &mut s);
        }
    }
    s
}

fn annotate(p: &Program, pc: usize, ins: &Instr) -> Option<String> {
    let target = |off: i32| format!("-> {:04}", pc as i64 + 1 + off as i64);
    let fname = |f: u32| {
        p.functions
            .get(f as usize)
            .map_or("?".to_string(), |f| f.name.clone())
    };
    Some(match *ins {
        Instr::LoadConst { k, .. } => p.consts.get(k as usize).map_or("?".into(), const_text),
        Instr::LoadFunc { func, .. } => fname(func),
        Instr::Jump { off } | Instr::JumpIfTrue { off, .. } | Instr::JumpIfFalse { off, .. } => {
            target(off)
        }
        Instr::JumpLtInt { off, .. }
        | Instr::JumpLeInt { off, .. }
        | Instr::JumpEqInt { off, .. }
        | Instr::JumpNeInt { off, .. }
        | Instr::JumpLtIntImm { off, .. }
        | Instr::JumpLeIntImm { off, .. }
        | Instr::JumpGtIntImm { off, .. }
        | Instr::JumpGeIntImm { off, .. }
        | Instr::JumpEqIntImm { off, .. }
        | Instr::JumpNeIntImm { off, .. }
        | Instr::JumpLtFloat { off, .. }
        | Instr::JumpLeFloat { off, .. }
        | Instr::JumpNotLtFloat { off, .. }
        | Instr::JumpNotLeFloat { off, .. } => target(off as i32),
        Instr::TryEnter { off, .. } => format!("catch {}", target(off)),
        Instr::Call { func, .. } => fname(func as u32),
        Instr::CallNative { id, .. } => p.natives.get(id as usize)?.clone(),
        Instr::GetGlobal { g, .. } | Instr::GetGlobalViv { g, .. } | Instr::SetGlobal { g, .. } => {
            p.globals.get(g as usize)?.name.clone()
        }
        Instr::NewStruct { sid, .. } => p.structs.get(sid as usize)?.name.clone(),
        Instr::EnumTag { enum_id, .. } | Instr::EnumTypeof { enum_id, .. } => {
            p.enums.get(enum_id as usize)?.name.clone()
        }
        Instr::EnumField { idx, .. } => {
            let r = p.enum_fields.get(idx as usize)?;
            format!("{}.{}", p.structs.get(r.sid as usize)?.name, r.name)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Function;

    #[test]
    fn lists_functions_and_annotates() {
        let p = Program {
            files: vec!["prog.f".into()],
            consts: vec![Const::Text("hi".into()), Const::Float(0.5)],
            functions: vec![Function {
                name: "<main>".into(),
                file: 0,
                nparams: 0,
                nregs: 3,
                returns_value: false,
                code: vec![
                    Instr::LoadConst { dst: 0, k: 0 },
                    Instr::AddInt { dst: 2, a: 0, b: 1 },
                    Instr::Jump { off: -3 },
                    Instr::CallNative {
                        dst: 0,
                        base: 0,
                        id: 0,
                        argc: 1,
                    },
                ],
                lines: vec![1, 2, 3, 4],
            }],
            natives: vec!["log".into()],
            ..Program::default()
        };
        let l = listing(&p);
        assert!(l.contains("k1    0.5"), "{l}");
        assert!(
            l.contains("function 0 <main> (prog.f, params 0, registers 3) [entry]"),
            "{l}"
        );
        assert!(
            l.contains("  0000  L1    LoadConst    dst=r0 k=0  ; \"hi\""),
            "{l}"
        );
        assert!(
            l.contains("  0001  L2    AddInt       dst=r2 a=r0 b=r1\n"),
            "{l}"
        );
        assert!(l.contains("Jump         off=-3  ; -> 0000"), "{l}");
        assert!(l.contains("; log"), "{l}");
    }
}
