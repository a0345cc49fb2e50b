//! Register-liveness check: no register is read after a release of it.
//!
//! The code generator gives up a dead value by overwriting its register
//! with `Release` (§13.1): a temporary whose value has been consumed, the
//! locals of a block that ends, the registers an interrupted `try` body
//! held. A read of such a register before it is written again reads a
//! value the generator already gave up, and since `Release` stores null the
//! program silently computes with null: exactly the miscompilation where a
//! release owed on a register lands after the register was reused for a
//! new value (issue 10, item 0). A call has the same effect on the
//! caller's registers from its argument base up (the callee's window,
//! released on return), so they count as released too.
//!
//! # The analysis
//! A forward may-dataflow over a function's basic blocks. The state is the
//! set of registers that are *dead* on some path: released or clobbered by
//! a call, and not written since. Each instruction first checks its reads
//! against the state, then applies its effects: a write makes its register
//! live, a `Release` makes it dead, a `Call`/`CallValue` makes the callee's
//! window dead and then writes its result. Block entry states are the union
//! over the predecessors; states only grow, so the worklist reaches a
//! fixpoint. Edges: fall-through, jump targets and `TryEnter` to its
//! handler (a throw inside the body is taken to arrive with the state at
//! `TryEnter` and the catch register written: the generator's handler
//! releases every register above the catch register before reading any).
//! `Return`, `ReturnVoid`, `Throw` and `Fail` end a path. At a function's
//! start every register counts as live (parameters, and registers the code
//! writes before reading).
//!
//! [`crate::verify::verify`] runs [`check`] in debug builds; the test suite
//! runs it explicitly over the golden and fuzz corpora in every build
//! profile.

use crate::opcode::{Instr, Reg};
use crate::program::{Function, Program};
use std::ops::Range;

/// Check every function of `program`. Errors name the function, the
/// instruction and the register read after its release.
pub fn check(program: &Program) -> Result<(), String> {
    for f in &program.functions {
        check_function(program, f).map_err(|e| format!("function '{}': {e}", f.name))?;
    }
    Ok(())
}

/// What one instruction does to registers, in order: reads, then the
/// registers it kills (a release or a call's window), then its write.
#[derive(Default)]
struct Effects {
    /// Single registers read.
    reads: [Option<Reg>; 3],
    /// A block of consecutive registers read (call arguments, array
    /// literal elements).
    read_block: Range<usize>,
    /// Registers made dead.
    kills: Range<usize>,
    /// The register written last (made live).
    write: Option<Reg>,
}

fn effects(p: &Program, nregs: usize, ins: &Instr) -> Effects {
    use Instr::*;
    let r = |a: Reg| Some(a);
    let mut e = Effects::default();
    match *ins {
        Move { src, .. } => e.reads[0] = r(src),
        LoadInt { .. }
        | LoadConst { .. }
        | LoadNull { .. }
        | LoadBool { .. }
        | LoadFunc { .. }
        | GetGlobal { .. }
        | GetGlobalViv { .. }
        | NewStruct { .. }
        | NewArr { .. }
        | NewMap { .. } => {}
        SetGlobal { src, .. } | Throw { src } | Fail { src } | Return { src } => {
            e.reads[0] = r(src)
        }
        AddInt { a, b, .. }
        | SubInt { a, b, .. }
        | MulInt { a, b, .. }
        | MulAddInt { a, b, .. }
        | ModInt { a, b, .. }
        | AddFloat { a, b, .. }
        | SubFloat { a, b, .. }
        | MulFloat { a, b, .. }
        | DivFloat { a, b, .. }
        | ModFloat { a, b, .. }
        | EqInt { a, b, .. }
        | NeInt { a, b, .. }
        | LtInt { a, b, .. }
        | LeInt { a, b, .. }
        | EqFloat { a, b, .. }
        | NeFloat { a, b, .. }
        | LtFloat { a, b, .. }
        | LeFloat { a, b, .. }
        | EqBool { a, b, .. }
        | NeBool { a, b, .. }
        | EqText { a, b, .. }
        | NeText { a, b, .. }
        | Concat { a, b, .. }
        | ConcatAscii { a, b, .. }
        | AndInt { a, b, .. }
        | OrInt { a, b, .. }
        | XorInt { a, b, .. }
        | ShlInt { a, b, .. }
        | ShrInt { a, b, .. }
        | EqRef { a, b, .. }
        | NeRef { a, b, .. }
        | TextIndex { s: a, i: b, .. }
        | AsciiIndex { s: a, i: b, .. }
        | AsciiCodeAt { s: a, i: b, .. }
        | ArrGet { arr: a, idx: b, .. }
        | MapGet { map: a, key: b, .. } => e.reads = [r(a), r(b), None],
        AddIntImm { a, .. }
        | AddIntImmCmpJump { a, .. }
        | NegInt { a, .. }
        | NotInt { a, .. }
        | IntToFloat { a, .. }
        | NegFloat { a, .. }
        | IsNull { src: a, .. }
        | NotNull { src: a, .. }
        | Not { src: a, .. }
        | ToText { src: a, .. }
        | TextLen { s: a, .. }
        | AsciiLen { s: a, .. }
        | GetField { obj: a, .. }
        | GetFieldViv { obj: a, .. }
        | GetFieldWeak { obj: a, .. }
        | EnumWrap { src: a, .. }
        | EnumUnwrap { src: a, .. }
        | EnumTag { src: a, .. }
        | EnumTypeof { src: a, .. }
        | EnumField { obj: a, .. }
        | EnumTagWide { src: a, .. }
        | EnumTypeofWide { src: a, .. }
        | EnumFieldWide { obj: a, .. }
        | ArrPop { arr: a, .. }
        | ArrLen { arr: a, .. } => e.reads[0] = r(a),
        AppendText { dst, src } => e.reads = [r(dst), r(src), None],
        Clear { reg } => e.reads[0] = r(reg),
        Release { reg } => e.kills = reg as usize..reg as usize + 1,
        Jump { .. } | ReturnVoid {} | TryExit {} | ExtraArg { .. } => {}
        TryEnter { .. } => {}
        JumpIfTrue { cond, .. } | JumpIfFalse { cond, .. } => e.reads[0] = r(cond),
        JumpLtInt { a, b, .. }
        | JumpLeInt { a, b, .. }
        | JumpEqInt { a, b, .. }
        | JumpNeInt { a, b, .. }
        | JumpLtFloat { a, b, .. }
        | JumpLeFloat { a, b, .. }
        | JumpNotLtFloat { a, b, .. }
        | JumpNotLeFloat { a, b, .. } => e.reads = [r(a), r(b), None],
        JumpLtIntImm { a, .. }
        | JumpLeIntImm { a, .. }
        | JumpGtIntImm { a, .. }
        | JumpGeIntImm { a, .. }
        | JumpEqIntImm { a, .. }
        | JumpNeIntImm { a, .. } => e.reads[0] = r(a),
        SetField { obj, src, .. } | SetFieldWeak { obj, src, .. } => {
            e.reads = [r(obj), r(src), None]
        }
        ArrPush { arr, src } => e.reads = [r(arr), r(src), None],
        ArrSet { arr, idx, src } => e.reads = [r(arr), r(idx), r(src)],
        MapSet { map, key, src } => e.reads = [r(map), r(key), r(src)],
        MapDelete { map, key } => e.reads = [r(map), r(key), None],
        NewArrFrom { base, n, .. } => {
            e.read_block = base as usize..base as usize + n as usize;
        }
        CallNative { base, argc, .. } => {
            e.read_block = base as usize..base as usize + argc as usize;
        }
        Call { base, func, .. } => {
            let callee = p.functions.get(func as usize);
            let nparams = callee.map_or(0, |c| c.nparams as usize);
            let window = callee.map_or(nregs, |c| c.nregs as usize);
            e.read_block = base as usize..base as usize + nparams;
            e.kills = base as usize..(base as usize + window).min(nregs);
        }
        CallValue { callee, base, .. } => {
            // The arity is only known at run time: the arguments are not
            // checked, and the callee may use every register from `base`.
            e.reads[0] = r(callee);
            e.kills = base as usize..nregs;
        }
    }
    // The write is the instruction set's own declaration, except for
    // `Release`, which kills its register instead, and `TryEnter`, whose
    // catch register is written on the edge to its handler.
    e.write = match *ins {
        Release { .. } | TryEnter { .. } => None,
        _ => ins.writes().reg(),
    };
    e
}

/// The successors of the instruction at `pc` (of `n`), besides falling
/// through when `falls` is true.
fn targets(ins: &Instr, pc: usize) -> (Option<usize>, bool) {
    use Instr::*;
    let to = |off: i64| usize::try_from(pc as i64 + 1 + off).ok();
    match *ins {
        Jump { off } => (to(off.into()), false),
        JumpIfTrue { off, .. } | JumpIfFalse { off, .. } | TryEnter { off, .. } => {
            (to(off.into()), true)
        }
        JumpLtInt { off, .. }
        | JumpLeInt { off, .. }
        | JumpEqInt { off, .. }
        | JumpNeInt { off, .. }
        | JumpLtIntImm { off, .. }
        | JumpLeIntImm { off, .. }
        | JumpGtIntImm { off, .. }
        | JumpGeIntImm { off, .. }
        | JumpEqIntImm { off, .. }
        | JumpNeIntImm { off, .. }
        | JumpLtFloat { off, .. }
        | JumpLeFloat { off, .. }
        | JumpNotLtFloat { off, .. }
        | JumpNotLeFloat { off, .. } => (to(off.into()), true),
        Return { .. } | ReturnVoid {} | Throw { .. } | Fail { .. } => (None, false),
        _ => (None, true),
    }
}

/// A set of registers, one bit each.
#[derive(Clone, PartialEq)]
struct RegSet(Vec<u64>);

impl RegSet {
    fn new(nregs: usize) -> RegSet {
        RegSet(vec![0; nregs.div_ceil(64)])
    }
    fn has(&self, r: usize) -> bool {
        self.0.get(r / 64).is_some_and(|w| w >> (r % 64) & 1 == 1)
    }
    fn set(&mut self, r: usize, on: bool) {
        if let Some(w) = self.0.get_mut(r / 64) {
            if on {
                *w |= 1 << (r % 64);
            } else {
                *w &= !(1 << (r % 64));
            }
        }
    }
    /// `self |= other`; true if `self` grew.
    fn union(&mut self, other: &RegSet) -> bool {
        let mut grew = false;
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            let v = *a | *b;
            grew |= v != *a;
            *a = v;
        }
        grew
    }
}

/// Check one function (see the module documentation).
pub fn check_function(p: &Program, f: &Function) -> Result<(), String> {
    let code = &f.code;
    let n = code.len();
    let nregs = f.nregs as usize;
    if n == 0 {
        return Ok(());
    }
    // Basic blocks: a leader starts each.
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    for (pc, ins) in code.iter().enumerate() {
        let (to, falls) = targets(ins, pc);
        if let Some(t) = to.filter(|&t| t < n) {
            leader[t] = true;
        }
        if to.is_some() || !falls {
            leader[pc + 1] = true;
        }
    }
    let starts: Vec<usize> = (0..n).filter(|&i| leader[i]).collect();
    let block_of = |pc: usize| starts.partition_point(|&s| s <= pc) - 1;
    let mut entry: Vec<Option<RegSet>> = vec![None; starts.len()];
    entry[0] = Some(RegSet::new(nregs));
    let mut work = vec![0usize];
    let mut queued = vec![false; starts.len()];
    queued[0] = true;
    while let Some(b) = work.pop() {
        queued[b] = false;
        let mut dead = entry[b].clone().expect("queued blocks have a state");
        let end = starts.get(b + 1).copied().unwrap_or(n);
        let mut out: Vec<(usize, RegSet)> = Vec::new();
        for (pc, ins) in code.iter().enumerate().take(end).skip(starts[b]) {
            let e = effects(p, nregs, ins);
            for r in e
                .reads
                .iter()
                .flatten()
                .map(|&r| r as usize)
                .chain(e.read_block)
            {
                if dead.has(r) {
                    return Err(format!(
                        "instruction {pc} ({}) reads r{r} after a release of it (or a call over it) on some path, with no write in between",
                        ins.mnemonic()
                    ));
                }
            }
            for r in e.kills {
                dead.set(r, true);
            }
            if let Some(w) = e.write {
                dead.set(w as usize, false);
            }
            let (to, falls) = targets(ins, pc);
            if let Some(t) = to.filter(|&t| t < n) {
                let mut s = dead.clone();
                if let Instr::TryEnter { reg, .. } = *ins {
                    s.set(reg as usize, false);
                }
                out.push((block_of(t), s));
            }
            if pc + 1 == end && falls && end < n {
                out.push((b + 1, dead.clone()));
            }
        }
        for (t, s) in out {
            let grew = match &mut entry[t] {
                Some(cur) => cur.union(&s),
                slot @ None => {
                    *slot = Some(s);
                    true
                }
            };
            if grew && !queued[t] {
                queued[t] = true;
                work.push(t);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Function;

    fn program(code: Vec<Instr>, nregs: u16) -> Program {
        let lines = vec![1; code.len()];
        Program {
            files: vec!["t.f".into()],
            functions: vec![Function {
                name: "f".into(),
                file: 0,
                nparams: 0,
                nregs,
                returns_value: false,
                code,
                lines,
            }],
            ..Program::default()
        }
    }

    #[test]
    fn the_issue_sequence_is_flagged() {
        // `GetGlobal r1 lt; Release r1; JumpNeInt r0,r1` (issue 10).
        let p = program(
            vec![
                Instr::LoadInt { dst: 0, imm: 60 },
                Instr::LoadInt { dst: 1, imm: 60 },
                Instr::Release { reg: 1 },
                Instr::JumpNeInt { a: 0, b: 1, off: 0 },
                Instr::ReturnVoid {},
            ],
            2,
        );
        let err = check(&p).unwrap_err();
        assert!(err.contains("instruction 3 (JumpNeInt) reads r1"), "{err}");
    }

    #[test]
    fn a_write_after_the_release_makes_the_register_live() {
        let p = program(
            vec![
                Instr::LoadInt { dst: 1, imm: 1 },
                Instr::Release { reg: 1 },
                Instr::LoadInt { dst: 1, imm: 2 },
                Instr::JumpIfTrue { cond: 1, off: 0 },
                Instr::ReturnVoid {},
            ],
            2,
        );
        assert_eq!(check(&p), Ok(()));
    }

    #[test]
    fn a_release_on_one_path_reaches_the_join() {
        // 0: if r0 jump 3; 1: Release r1; 2: Jump 3 (falls); 3: read r1.
        let p = program(
            vec![
                Instr::LoadBool { dst: 0, value: 1 },
                Instr::LoadInt { dst: 1, imm: 2 },
                Instr::JumpIfTrue { cond: 0, off: 1 },
                Instr::Release { reg: 1 },
                Instr::Move { dst: 0, src: 1 },
                Instr::ReturnVoid {},
            ],
            2,
        );
        let err = check(&p).unwrap_err();
        assert!(err.contains("instruction 4 (Move) reads r1"), "{err}");
    }

    #[test]
    fn a_loop_carries_a_release_to_its_head() {
        // The body releases r1, the head reads it: flagged on the second
        // iteration's path.
        let p = program(
            vec![
                Instr::LoadInt { dst: 1, imm: 2 },
                Instr::AddIntImm {
                    dst: 0,
                    a: 1,
                    imm: 1,
                },
                Instr::Release { reg: 1 },
                Instr::JumpLtIntImm {
                    a: 0,
                    imm: 9,
                    off: -3,
                },
                Instr::ReturnVoid {},
            ],
            2,
        );
        let err = check(&p).unwrap_err();
        assert!(err.contains("instruction 1 (AddIntImm) reads r1"), "{err}");
    }

    #[test]
    fn a_call_kills_the_callee_window() {
        let mut p = program(
            vec![
                Instr::LoadInt { dst: 1, imm: 2 },
                Instr::LoadInt { dst: 2, imm: 3 },
                Instr::Call {
                    dst: 0,
                    base: 1,
                    func: 1,
                },
                Instr::Move { dst: 0, src: 2 },
                Instr::ReturnVoid {},
            ],
            3,
        );
        p.functions.push(Function {
            name: "g".into(),
            file: 0,
            nparams: 1,
            nregs: 2,
            returns_value: true,
            code: vec![Instr::Return { src: 0 }],
            lines: vec![1],
        });
        let err = check(&p).unwrap_err();
        assert!(err.contains("instruction 3 (Move) reads r2"), "{err}");
    }
}
