//! Constants kept in registers.
//!
//! An int or float literal used as an operand (`i < 100000`, `x * 1000003`,
//! `t % 1000000007`, `a[0]`) costs a `LoadInt`/`LoadConst` every time it is
//! evaluated. For the literals that appear inside a loop, the function
//! instead loads each distinct value once, in its prologue, into a register
//! of its own that nothing else writes; operands then name that register
//! (`expr_any` returns it) and the loop body runs no load at all. Literals
//! that fit an instruction's immediate (`x + 1` as `AddIntImm`) or that
//! initialise a variable are not operands and are not pinned. At most
//! [`MAX_PINNED`] values are pinned per function, so the prologue stays
//! short; functions without loops pin nothing (their literals run once per
//! call either way).

use crate::hir::{BinOp, Expr, ExprKind, Stmt, StmtKind};

/// Most constants pinned in one function.
pub(super) const MAX_PINNED: usize = 16;

/// A pinned literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Pinned {
    /// An int literal.
    Int(i64),
    /// A float literal (compared by bit pattern).
    Float(u64),
}

/// The operand literals of the loops of `body`, in first-use order,
/// without duplicates, at most [`MAX_PINNED`].
pub(super) fn loop_literals(body: &[Stmt]) -> Vec<Pinned> {
    let mut out = Vec::new();
    for s in body {
        stmt(s, false, &mut out);
    }
    out
}

fn stmt(s: &Stmt, in_loop: bool, out: &mut Vec<Pinned>) {
    let mut e = |x: &Expr| {
        if in_loop {
            operands(x, out)
        }
    };
    match &s.kind {
        StmtKind::Let { init, .. } | StmtKind::InitGlobal { init, .. } => init.iter().for_each(e),
        StmtKind::Expr(x) | StmtKind::Throw(x) | StmtKind::Fail(x) => e(x),
        StmtKind::Assign { value, .. } => e(value),
        StmtKind::Append { parts, .. } => parts.iter().for_each(e),
        StmtKind::Return(x) => x.iter().for_each(e),
        StmtKind::If {
            cond,
            then_body,
            else_body,
        } => {
            e(cond);
            for b in then_body.iter().chain(else_body) {
                stmt(b, in_loop, out);
            }
        }
        StmtKind::Loop { cond, body, update } => {
            operands(cond, out);
            for b in body.iter().chain(update) {
                stmt(b, true, out);
            }
        }
        StmtKind::Block(body) => body.iter().for_each(|b| stmt(b, in_loop, out)),
        StmtKind::Try { body, handler, .. } => {
            for b in body.iter().chain(handler) {
                stmt(b, in_loop, out);
            }
        }
        StmtKind::Increment { .. }
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Free(_)
        | StmtKind::Clear(_)
        | StmtKind::Delete(_) => {}
    }
}

/// Collect the literals `e` uses as operands of binary operators and
/// indexing (an `AddIntImm` immediate excepted).
fn operands(e: &Expr, out: &mut Vec<Pinned>) {
    let mut add = |x: &Expr| {
        let p = match x.kind {
            ExprKind::Int(v) => Pinned::Int(v),
            ExprKind::Float(v) => Pinned::Float(v.to_bits()),
            _ => return,
        };
        if out.len() < MAX_PINNED && !out.contains(&p) {
            out.push(p);
        }
    };
    match &e.kind {
        ExprKind::Binary(op, ab) => {
            let [a, b] = &**ab;
            let imm = |x: &Expr, neg: bool| match x.kind {
                ExprKind::Int(v) => i16::try_from(if neg { v.wrapping_neg() } else { v }).is_ok(),
                _ => false,
            };
            let skip_b = matches!(op, BinOp::AddInt) && imm(b, false)
                || matches!(op, BinOp::SubInt) && imm(b, true);
            let skip_a = matches!(op, BinOp::AddInt) && imm(a, false) && !skip_b;
            if !skip_a {
                add(a);
            }
            if !skip_b {
                add(b);
            }
        }
        ExprKind::Index { index: x, .. }
        | ExprKind::TextIndex(_, x)
        | ExprKind::AsciiIndex(_, x)
        | ExprKind::AsciiCodeAt(_, x) => add(x),
        _ => {}
    }
    e.for_each_child(&mut |c| operands(c, out));
}
