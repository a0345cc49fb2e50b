//! Globals kept in registers.
//!
//! Every top-level variable is a global (§6.3), but most are used only by
//! the top-level code of their own file: a script's counters, accumulators
//! and buffers. Such a global lives in a register of that file's top-level
//! function instead of the globals table, so reading and writing it are
//! plain register operands (no `GetGlobal`/`SetGlobal`, no extra `Move`).
//!
//! A global is promoted when exactly one function mentions it (reads it,
//! assigns, appends, increments, frees, clears or deletes through it) and
//! that function is the one whose `InitGlobal` declares it: a top-level
//! function, which runs once. Nothing else can observe it, so keeping it
//! in a register is unobservable, except that its value is released when
//! the top-level code finishes instead of at exit (§13.1 makes no promise
//! about when a value nobody can reach is reclaimed). A global any other
//! function, handler or arrow function mentions stays a global.

use crate::hir::{Expr, ExprKind, FuncId, GlobalId, Place, Stmt, StmtKind};

/// Which functions mention and declare each global, recorded function by
/// function (the code generator may see functions one at a time, see
/// [`super::Generator`]); [`Mentions::promoted`] then answers for a
/// function once every function has been recorded.
#[derive(Clone, Debug, Default)]
pub(super) struct Mentions {
    /// The one function mentioning each global ([`NONE`] / [`MANY`]).
    user: Vec<u32>,
    /// The function declaring each global ([`NONE`] / [`MANY`]).
    init: Vec<u32>,
}

const NONE: u32 = u32::MAX;
const MANY: u32 = u32::MAX - 1;

impl Mentions {
    /// Record what function `f` (with body `func`) mentions and declares,
    /// for a module of `globals` globals.
    pub(super) fn record(&mut self, globals: usize, f: FuncId, func: &crate::hir::Function) {
        if self.user.len() < globals {
            self.user.resize(globals, NONE);
            self.init.resize(globals, NONE);
        }
        let user = &mut self.user;
        let init = &mut self.init;
        let mut seen = |g: GlobalId| {
            if let Some(u) = user.get_mut(g as usize) {
                *u = match *u {
                    NONE => f,
                    x if x == f => f,
                    _ => MANY,
                };
            }
        };
        let mut inits = |g: GlobalId| {
            if let Some(i) = init.get_mut(g as usize) {
                *i = if *i == NONE { f } else { MANY };
            }
        };
        for s in &func.body {
            walk_stmt(s, &mut seen, &mut inits);
        }
    }

    /// The globals function `f` keeps in registers (ascending), once every
    /// function is recorded.
    pub(super) fn promoted(&self, f: FuncId) -> Vec<GlobalId> {
        (0..self.init.len())
            .filter(|&g| self.init[g] == f && (self.user[g] == f || self.user[g] == NONE))
            .map(|g| g as GlobalId)
            .collect()
    }
}

fn walk_stmt(s: &Stmt, seen: &mut dyn FnMut(GlobalId), inits: &mut dyn FnMut(GlobalId)) {
    match &s.kind {
        StmtKind::Let { init, .. } => init.iter().for_each(|e| walk_expr(e, seen)),
        StmtKind::InitGlobal { global, init } => {
            inits(*global);
            seen(*global);
            init.iter().for_each(|e| walk_expr(e, seen));
        }
        StmtKind::Expr(e) | StmtKind::Throw(e) | StmtKind::Fail(e) => walk_expr(e, seen),
        StmtKind::Assign { place, value } => {
            walk_place(place, seen);
            walk_expr(value, seen);
        }
        StmtKind::Append { place, parts } => {
            walk_place(place, seen);
            parts.iter().for_each(|e| walk_expr(e, seen));
        }
        StmtKind::Increment { place, .. }
        | StmtKind::Free(place)
        | StmtKind::Clear(place)
        | StmtKind::Delete(place) => walk_place(place, seen),
        StmtKind::If {
            cond,
            then_body,
            else_body,
        } => {
            walk_expr(cond, seen);
            for b in then_body.iter().chain(else_body) {
                walk_stmt(b, seen, inits);
            }
        }
        StmtKind::Loop { cond, body, update } => {
            walk_expr(cond, seen);
            for b in body.iter().chain(update) {
                walk_stmt(b, seen, inits);
            }
        }
        StmtKind::Break | StmtKind::Continue => {}
        StmtKind::Return(e) => e.iter().for_each(|e| walk_expr(e, seen)),
        StmtKind::Block(body) => body.iter().for_each(|b| walk_stmt(b, seen, inits)),
        StmtKind::Try { body, handler, .. } => {
            for b in body.iter().chain(handler) {
                walk_stmt(b, seen, inits);
            }
        }
    }
}

fn walk_place(p: &Place, seen: &mut dyn FnMut(GlobalId)) {
    if let Place::Global(g) = p {
        seen(*g);
    }
    p.for_each_expr(&mut |e| walk_expr(e, seen));
}

fn walk_expr(e: &Expr, seen: &mut dyn FnMut(GlobalId)) {
    if let ExprKind::Global { global, .. } = e.kind {
        seen(global);
    }
    // The stepped variable is a place (its sub-expressions are children).
    if let ExprKind::PostIncrement { place, .. } = &e.kind {
        if let Place::Global(g) = **place {
            seen(g);
        }
    }
    e.for_each_child(&mut |c| walk_expr(c, seen));
}
