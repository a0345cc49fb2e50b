//! Which functions' register windows only ever hold scalars.
//!
//! A return releases the managed values left in the returning frame's
//! window (§13.1), which means looking at every register of the window.
//! For a function whose registers can only hold scalars (ints, floats,
//! bools, nulls, function values) there is nothing to release, and the
//! interpreter's fast return skips the scan. `fib` is the typical case:
//! an int parameter, int temporaries and calls to itself.
//!
//! The facts come from the typed bytecode, at load time:
//!
//! - every register write is by an instruction whose result is always a
//!   scalar (`AddInt`, `LtInt`, `LoadInt`, `ArrLen`, ...), a `Move` (which,
//!   by induction, copies a scalar), or a `Call` of a function that is
//!   itself scalar-only (so it returns a scalar);
//! - every parameter is read somewhere as the operand of an int, float or
//!   bool instruction, which the code generator emits only for a register
//!   of that type; a parameter's register belongs to it for the whole
//!   function.
//!
//! Calls make this a greatest fixpoint over the call graph: every function
//! starts as a candidate and loses its place when it stores the result of
//! one that is not; each loss is propagated to the callers once.
//!
//! The conclusion only decides whether a return looks for values to
//! release. Were it wrong (hand-written bytecode breaking the code
//! generator's rules), a managed value would stay in a dead register until
//! the register is next written or the interpreter is dropped: released
//! late, never unsafely.

use crate::opcode::{self as op, Instr, Reg};
use crate::program::{Const, Program};

/// What an instruction writes into a register.
enum Write {
    /// Nothing, or only scalars.
    Scalar,
    /// The result of a direct call of this function.
    CallResult(u16),
    /// Possibly a managed value.
    Unknown,
}

/// One flag per function of `p`, in order: true when its register window
/// can only hold scalars (see the module documentation).
pub fn scalar_windows(p: &Program) -> Vec<bool> {
    let n = p.functions.len();
    let mut scalar = vec![true; n];
    // For each function returning a value, the functions that store its
    // result in a register: they lose their place when it does.
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, f) in p.functions.iter().enumerate() {
        let mut typed = vec![false; f.nparams as usize];
        for ins in &f.code {
            for r in typed_operands(ins).into_iter().flatten() {
                if let Some(t) = typed.get_mut(r as usize) {
                    *t = true;
                }
            }
            match write_of(p, ins) {
                Write::Scalar => {}
                Write::CallResult(g) => match p.functions.get(g as usize) {
                    Some(callee) if callee.returns_value => callers[g as usize].push(i),
                    Some(_) => {}
                    None => scalar[i] = false,
                },
                Write::Unknown => scalar[i] = false,
            }
        }
        if typed.contains(&false) {
            scalar[i] = false;
        }
    }
    // The greatest fixpoint, by propagating each loss to the callers once
    // (linear in the size of the call graph).
    let mut lost: Vec<usize> = (0..n).filter(|&i| !scalar[i]).collect();
    while let Some(g) = lost.pop() {
        for &c in &callers[g] {
            if scalar[c] {
                scalar[c] = false;
                lost.push(c);
            }
        }
    }
    scalar
}

/// The kind of value `ins` writes into a register of its frame, from the
/// instruction set's own declaration ([`Instr::writes`]).
fn write_of(p: &Program, ins: &Instr) -> Write {
    match ins.writes() {
        // A `Move` copies a scalar, by induction.
        op::Write::Nothing | op::Write::Scalar(_) | op::Write::Copy { .. } => Write::Scalar,
        op::Write::Const { k, .. } => match p.consts.get(k as usize) {
            Some(Const::Int(_)) | Some(Const::Float(_)) => Write::Scalar,
            _ => Write::Unknown,
        },
        op::Write::CallResult { func, .. } => Write::CallResult(func),
        op::Write::Value(_) => Write::Unknown,
    }
}

/// Registers `ins` reads as int, float or bool operands (only registers of
/// those types are ever given to it by the code generator): at most two.
fn typed_operands(ins: &Instr) -> [Option<Reg>; 2] {
    use Instr::*;
    match *ins {
        AddInt { a, b, .. }
        | SubInt { a, b, .. }
        | MulInt { a, b, .. }
        | MulAddInt { a, b, .. }
        | ModInt { a, b, .. }
        | AndInt { a, b, .. }
        | OrInt { a, b, .. }
        | XorInt { a, b, .. }
        | ShlInt { a, b, .. }
        | ShrInt { a, b, .. }
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
        | JumpLtInt { a, b, .. }
        | JumpLeInt { a, b, .. }
        | JumpEqInt { a, b, .. }
        | JumpNeInt { a, b, .. }
        | JumpLtFloat { a, b, .. }
        | JumpLeFloat { a, b, .. }
        | JumpNotLtFloat { a, b, .. }
        | JumpNotLeFloat { a, b, .. } => [Some(a), Some(b)],
        AddIntImm { a, .. }
        | NegInt { a, .. }
        | NotInt { a, .. }
        | IntToFloat { a, .. }
        | NegFloat { a, .. }
        | AddIntImmCmpJump { a, .. }
        | JumpLtIntImm { a, .. }
        | JumpLeIntImm { a, .. }
        | JumpGtIntImm { a, .. }
        | JumpGeIntImm { a, .. }
        | JumpEqIntImm { a, .. }
        | JumpNeIntImm { a, .. } => [Some(a), None],
        JumpIfTrue { cond, .. } | JumpIfFalse { cond, .. } => [Some(cond), None],
        Not { src, .. } => [Some(src), None],
        _ => [None, None],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Function;
    use Instr::*;

    fn program(functions: Vec<Function>, consts: Vec<Const>) -> Program {
        Program {
            functions,
            consts,
            ..Program::default()
        }
    }

    /// `fib` (int parameter, int temporaries, calls to itself) is
    /// scalar-only; so is its caller; a function reading an array element,
    /// its caller, one with an unused parameter and one loading a text
    /// constant are not.
    #[test]
    fn finds_scalar_only_windows() {
        let fib = Function::hand_written(
            "fib",
            1,
            5,
            vec![
                JumpGeIntImm {
                    a: 0,
                    imm: 2,
                    off: 1,
                },
                Return { src: 0 },
                AddIntImm {
                    dst: 3,
                    a: 0,
                    imm: -1,
                },
                Call {
                    dst: 2,
                    base: 3,
                    func: 0,
                },
                AddInt { dst: 1, a: 2, b: 3 },
                Return { src: 1 },
            ],
        );
        let calls_fib = Function::hand_written(
            "twice",
            0,
            2,
            vec![
                LoadInt { dst: 1, imm: 20 },
                Call {
                    dst: 0,
                    base: 1,
                    func: 0,
                },
                Return { src: 0 },
            ],
        );
        let reads_array = Function::hand_written(
            "first",
            0,
            3,
            vec![
                NewArr { dst: 0, cap: 0 },
                LoadInt { dst: 1, imm: 0 },
                ArrGet {
                    dst: 2,
                    arr: 0,
                    idx: 1,
                },
                Return { src: 2 },
            ],
        );
        let calls_array = Function::hand_written(
            "outer",
            0,
            1,
            vec![
                Call {
                    dst: 0,
                    base: 0,
                    func: 2,
                },
                Return { src: 0 },
            ],
        );
        let unused_param = Function::hand_written("unused", 1, 1, vec![ReturnVoid {}]);
        let text_const = Function::hand_written(
            "text",
            0,
            1,
            vec![LoadConst { dst: 0, k: 1 }, Return { src: 0 }],
        );
        let p = program(
            vec![
                fib,
                calls_fib,
                reads_array,
                calls_array,
                unused_param,
                text_const,
            ],
            vec![Const::Int(1), Const::Text("a".into())],
        );
        assert_eq!(
            scalar_windows(&p),
            vec![true, true, false, false, false, false]
        );
    }
}
