//! Statements (§10): declarations, assignment to places, control flow,
//! `try`, and the memory statements of §10.11.

use super::expr::{is_builder, reads_global, reads_local};
use super::func::{FuncGen, LoopCtx};
use crate::hir::{Expr, LocalId, Place, Stmt, StmtKind};
use festina_vm::opcode::{Instr, Reg};
use festina_vm::types::Type;

/// A place whose operands have been evaluated into registers.
#[derive(Clone, Copy)]
enum Slot {
    /// A local's register.
    Local(Reg),
    /// A global.
    Global(u32),
    /// `R[obj].field`.
    Field(Reg, u16),
    /// `R[obj].field` of a `weak` field.
    WeakField(Reg, u16),
    /// `R[arr][R[idx]]`.
    Index(Reg, Reg),
    /// `R[map][R[key]]`.
    Map(Reg, Reg),
}

impl FuncGen<'_> {
    /// Compile one statement; temporaries holding managed values are
    /// released at its end.
    pub fn stmt(&mut self, s: &Stmt) {
        if self.out_of_registers() {
            return;
        }
        let saved_line = self.enter_line(s.line);
        self.stmt_kind(&s.kind);
        self.free_all_temps();
        self.flush_temps();
        self.line = saved_line;
    }

    fn stmt_kind(&mut self, kind: &StmtKind) {
        match kind {
            StmtKind::Let { local, init } => self.let_stmt(*local, init.as_ref()),
            StmtKind::InitGlobal { global, init } if self.global_reg(*global).is_some() => {
                let r = self.global_reg(*global).expect("checked");
                match init {
                    Some(e) => self.assign_reg(r, e, Place::Global(*global)),
                    None => {
                        let module = self.module;
                        self.zero_to(&module.globals[*global as usize].ty, r);
                    }
                }
            }
            StmtKind::InitGlobal { global, init } => {
                let t = self.alloc_temp();
                match init {
                    Some(e) => self.expr_to(e, t),
                    None => {
                        let module = self.module;
                        self.zero_to(&module.globals[*global as usize].ty, t);
                        self.note_value(t, &module.globals[*global as usize].ty);
                    }
                }
                self.emit(Instr::SetGlobal { g: *global, src: t });
            }
            StmtKind::Expr(e) => self.effect(e),
            StmtKind::Assign { place, value } => self.assign(place, value),
            StmtKind::Append { place, parts } => self.append(place, parts),
            StmtKind::Increment { place, delta } => self.increment(place, *delta),
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => self.if_stmt(cond, then_body, else_body),
            StmtKind::Loop { cond, body, update } => self.loop_stmt(cond, body, update),
            StmtKind::Break => self.break_continue(true),
            StmtKind::Continue => self.break_continue(false),
            StmtKind::Return(value) => self.return_stmt(value.as_ref()),
            StmtKind::Block(body) => self.block(body),
            StmtKind::Try {
                body,
                catch_local,
                handler,
            } => self.try_stmt(body, *catch_local, handler),
            StmtKind::Throw(e) => {
                let src = self.expr_any(e);
                self.emit(Instr::Throw { src });
            }
            StmtKind::Fail(e) => {
                let src = self.expr_any(e);
                self.emit(Instr::Fail { src });
            }
            StmtKind::Free(place) => self.store_null(place),
            StmtKind::Clear(place) => self.clear(place),
            StmtKind::Delete(place) => self.delete(place),
        }
    }

    fn let_stmt(&mut self, local: LocalId, init: Option<&Expr>) {
        let r = self.bind_local(local);
        match init {
            Some(e) => self.expr_to(e, r),
            None => self.zero_to(self.local_ty(local), r),
        }
    }

    /// An expression statement: the result goes to a temporary that the
    /// statement's end releases (§10.3, §13.1 item 3).
    fn effect(&mut self, e: &Expr) {
        if let crate::hir::ExprKind::ArrPush(arr, v) = &e.kind {
            let saved = self.enter_line(e.line);
            self.arr_push(arr, v);
            self.line = saved;
            return;
        }
        let t = self.alloc_temp();
        self.expr_to(e, t);
    }

    fn assign(&mut self, place: &Place, value: &Expr) {
        if let Some(r) = self.var_reg(place) {
            self.assign_reg(r, value, place.clone());
            return;
        }
        let slot = self.slot(place);
        let src = self.expr_any(value);
        self.store(slot, src);
    }

    /// The register of a variable place: a local, or a global this
    /// function keeps in a register.
    fn var_reg(&self, place: &Place) -> Option<Reg> {
        match place {
            Place::Local(l) => Some(self.reg_of(*l)),
            Place::Global(g) => self.global_reg(*g),
            _ => None,
        }
    }

    /// True if `e` reads the variable `place` (a local or global).
    fn reads_var(e: &Expr, place: &Place) -> bool {
        match place {
            Place::Local(l) => reads_local(e, *l),
            Place::Global(g) => reads_global(e, *g),
            _ => false,
        }
    }

    /// `R[r] := value` for the variable `place` held in `r`: straight into
    /// `r`, unless `value` is a builder reading the variable itself.
    fn assign_reg(&mut self, r: Reg, value: &Expr, place: Place) {
        if is_builder(value) && Self::reads_var(value, &place) {
            let t = self.alloc_temp();
            self.expr_to(value, t);
            self.move_to(r, t);
        } else {
            self.expr_to(value, r);
        }
    }

    /// Evaluate the operands of `place` (left to right).
    fn slot(&mut self, place: &Place) -> Slot {
        match place {
            Place::Local(l) => Slot::Local(self.reg_of(*l)),
            Place::Global(g) => match self.global_reg(*g) {
                Some(r) => Slot::Local(r),
                None => Slot::Global(*g),
            },
            Place::Field { obj, field } => Slot::Field(self.expr_any(obj), *field),
            Place::WeakField { obj, field } => Slot::WeakField(self.expr_any(obj), *field),
            Place::Index { arr, index } => {
                let a = self.expr_any(arr);
                Slot::Index(a, self.expr_any(index))
            }
            Place::MapEntry { map, key } => {
                let m = self.expr_any(map);
                Slot::Map(m, self.expr_any(key))
            }
        }
    }

    /// `R[dst] := slot`.
    fn load(&mut self, slot: Slot, dst: Reg) {
        match slot {
            Slot::Local(r) => self.move_to(dst, r),
            Slot::Global(g) => {
                self.emit(Instr::GetGlobal { dst, g });
            }
            Slot::Field(obj, field) => {
                self.emit(Instr::GetField { dst, obj, field });
            }
            Slot::WeakField(obj, field) => {
                self.emit(Instr::GetFieldWeak { dst, obj, field });
            }
            Slot::Index(arr, idx) => {
                self.emit(Instr::ArrGet { dst, arr, idx });
            }
            Slot::Map(map, key) => {
                self.emit(Instr::MapGet { dst, map, key });
            }
        }
    }

    /// `slot := R[src]`.
    fn store(&mut self, slot: Slot, src: Reg) {
        match slot {
            Slot::Local(r) => self.move_to(r, src),
            Slot::Global(g) => {
                self.emit(Instr::SetGlobal { g, src });
            }
            Slot::Field(obj, field) => {
                self.emit(Instr::SetField { obj, field, src });
            }
            Slot::WeakField(obj, field) => {
                self.emit(Instr::SetFieldWeak { obj, field, src });
            }
            Slot::Index(arr, idx) => {
                self.emit(Instr::ArrSet { arr, idx, src });
            }
            Slot::Map(map, key) => {
                self.emit(Instr::MapSet { map, key, src });
            }
        }
    }

    /// The static type of a place (for typed nulls).
    fn place_ty(&self, place: &Place) -> Type {
        let module = self.module;
        let field_ty = |obj: &Expr, f: u16| {
            let rec = match obj.ty.strip_manual() {
                Type::Struct(id) => module.structs.get(*id as usize),
                Type::Table(id) => module.tables.get(*id as usize),
                _ => None,
            };
            rec.and_then(|r| r.fields.get(f as usize))
                .map_or(Type::Null, |fd| match &fd.ty {
                    Type::Weak(t) => (**t).clone(),
                    t => t.clone(),
                })
        };
        match place {
            Place::Local(l) => self.local_ty(*l).clone(),
            Place::Global(g) => module.globals[*g as usize].ty.clone(),
            Place::Field { obj, field } | Place::WeakField { obj, field } => field_ty(obj, *field),
            Place::Index { arr: c, .. } | Place::MapEntry { map: c, .. } => {
                c.ty.elem().cloned().unwrap_or(Type::Null)
            }
        }
    }

    /// `s = s + a + b` in place (§9.11 note). Parts are evaluated first; a
    /// part reading the variable itself gets its own reference (so the
    /// append copies instead of growing a buffer it reads). A non-local
    /// text is detached from its place while it grows, so that the only
    /// reference is the register being appended to.
    fn append(&mut self, place: &Place, parts: &[Expr]) {
        if !self.fusion {
            return self.append_by_concat(place, parts);
        }
        let slot = self.slot(place);
        let srcs: Vec<Reg> = parts
            .iter()
            .map(|p| match place {
                Place::Local(_) | Place::Global(_)
                    if matches!(slot, Slot::Local(_)) && Self::reads_var(p, place) =>
                {
                    let t = self.alloc_temp();
                    self.expr_to(p, t);
                    t
                }
                _ => self.expr_any(p),
            })
            .collect();
        let dst = match slot {
            Slot::Local(r) => r,
            _ => {
                let t = self.alloc_temp();
                self.load(slot, t);
                let n = self.alloc_temp();
                self.emit(Instr::LoadNull { dst: n });
                self.store(slot, n);
                self.note_value(t, &Type::Text);
                t
            }
        };
        for src in srcs {
            self.emit(Instr::AppendText { dst, src });
        }
        if !matches!(slot, Slot::Local(_)) {
            self.store(slot, dst);
        }
    }

    /// `x++` / `x--` as a value (the reference's addition after edition
    /// 0.44): `R[dst] :=` the variable's value, then the variable steps.
    pub(super) fn post_increment(&mut self, place: &Place, delta: i16, dst: Reg) {
        let slot = self.slot(place);
        match slot {
            Slot::Local(r) if r != dst => {
                self.move_to(dst, r);
                self.emit(Instr::AddIntImm {
                    dst: r,
                    a: r,
                    imm: delta,
                });
            }
            _ => {
                // `x = x++` (dst is the variable) keeps the old value, as
                // in JavaScript: step a copy, then store the old value.
                let old = self.alloc_temp();
                self.load(slot, old);
                let t = self.alloc_temp();
                self.emit(Instr::AddIntImm {
                    dst: t,
                    a: old,
                    imm: delta,
                });
                self.store(slot, t);
                self.move_to(dst, old);
            }
        }
    }

    /// `append` without the in-place fast path: the parts are evaluated
    /// first as there, then the place is read and one `Concat` per part
    /// builds a fresh text, stored back.
    fn append_by_concat(&mut self, place: &Place, parts: &[Expr]) {
        let slot = self.slot(place);
        let srcs: Vec<Reg> = parts.iter().map(|p| self.expr_any(p)).collect();
        let dst = match slot {
            Slot::Local(r) => r,
            _ => {
                let t = self.alloc_temp();
                self.load(slot, t);
                self.note_value(t, &Type::Text);
                t
            }
        };
        for src in srcs {
            self.emit(Instr::Concat {
                dst,
                a: dst,
                b: src,
            });
        }
        if !matches!(slot, Slot::Local(_)) {
            self.store(slot, dst);
        }
    }

    fn increment(&mut self, place: &Place, delta: i16) {
        let slot = self.slot(place);
        let r = match slot {
            Slot::Local(r) => r,
            _ => {
                let t = self.alloc_temp();
                self.load(slot, t);
                t
            }
        };
        if self.fusion {
            self.emit(Instr::AddIntImm {
                dst: r,
                a: r,
                imm: delta,
            });
        } else {
            let k = self.alloc_temp();
            self.emit(Instr::LoadInt {
                dst: k,
                imm: delta.into(),
            });
            self.emit(Instr::AddInt { dst: r, a: r, b: k });
        }
        if !matches!(slot, Slot::Local(_)) {
            self.store(slot, r);
        }
    }

    /// `free x` (§10.11): store the typed null; the old value is released.
    fn store_null(&mut self, place: &Place) {
        let ty = self.place_ty(place);
        match self.slot(place) {
            Slot::Local(r) => self.null_to(&ty, r),
            slot => {
                let n = self.alloc_temp();
                self.null_to(&ty, n);
                self.store(slot, n);
            }
        }
    }

    /// `clear x` (§10.11): detach the value into a register holding the
    /// place's reference, then `Clear` it.
    fn clear(&mut self, place: &Place) {
        let reg = match self.slot(place) {
            Slot::Local(r) => r,
            slot => {
                let t = self.alloc_temp();
                self.load(slot, t);
                let n = self.alloc_temp();
                self.emit(Instr::LoadNull { dst: n });
                self.store(slot, n);
                t
            }
        };
        self.emit(Instr::Clear { reg });
    }

    /// `delete m[key]` removes the entry; `delete s.field` stores null.
    fn delete(&mut self, place: &Place) {
        if let Place::MapEntry { map, key } = place {
            let m = self.expr_any(map);
            let k = self.expr_any(key);
            self.emit(Instr::MapDelete { map: m, key: k });
        } else {
            self.store_null(place);
        }
    }

    fn if_stmt(&mut self, cond: &Expr, then_body: &[Stmt], else_body: &[Stmt]) {
        let to_else = self.branch(cond, false);
        self.block(then_body);
        if else_body.is_empty() {
            self.patch_here(&to_else);
            return;
        }
        let over_else = (!self.is_dead()).then(|| self.emit_jump());
        self.patch_here(&to_else);
        self.block(else_body);
        self.patch_here(over_else.as_slice());
    }

    /// A loop tested at the bottom:
    /// `Jump cond; body: ...; continue: update; cond: JumpIfTrue body`.
    /// The body's managed locals are released at the end of every
    /// iteration by its scope; `while true` needs no entry jump.
    fn loop_stmt(&mut self, cond: &Expr, body: &[Stmt], update: &[Stmt]) {
        let always = matches!(cond.kind, crate::hir::ExprKind::Bool(true));
        let entry = (!always).then(|| self.emit_jump());
        let start = self.label();
        self.loops.push(LoopCtx {
            breaks: Vec::new(),
            continues: Vec::new(),
            scope_depth: self.scope_depth(),
            try_depth: self.try_depth,
        });
        self.block(body);
        let ctx = self.loops.pop().expect("loop context");
        self.patch_here(&ctx.continues);
        if !update.is_empty() {
            self.block(update);
        }
        self.patch_here(entry.as_slice());
        let saved = self.enter_line(cond.line);
        for j in self.branch(cond, true) {
            self.patch_to(j, start);
        }
        self.line = saved;
        self.patch_here(&ctx.breaks);
    }

    /// `break` / `continue` (§10.7): release the locals of every block
    /// being left, exit every `try` being left, jump.
    fn break_continue(&mut self, is_break: bool) {
        let ctx = self.loops.last().expect("break/continue outside a loop");
        let (depth, tries) = (ctx.scope_depth, ctx.try_depth);
        self.release_scopes(depth);
        self.exit_tries(tries);
        let j = self.emit_jump();
        let ctx = self.loops.last_mut().expect("loop context");
        if is_break {
            ctx.breaks.push(j);
        } else {
            ctx.continues.push(j);
        }
    }

    /// `return` (§10.8): evaluate the value, exit every `try` being left,
    /// return. No releases: `Return` releases the whole register window.
    fn return_stmt(&mut self, value: Option<&Expr>) {
        let src = value.map(|e| self.expr_any(e));
        self.exit_tries(0);
        self.emit(match src {
            Some(src) => Instr::Return { src },
            None => Instr::ReturnVoid {},
        });
    }

    /// `try`/`catch` (§10.10):
    /// `TryEnter catch, handler; body; TryExit; Jump end; handler: ...`.
    /// The catch variable's register is reserved before the body; entering
    /// the handler nulls every register the body used above it, releasing
    /// what the interrupted body held.
    fn try_stmt(&mut self, body: &[Stmt], catch_local: LocalId, handler: &[Stmt]) {
        let reg = self.reserve_local_reg();
        let enter = self.emit(Instr::TryEnter { reg, off: 0 });
        let region = self.begin_region();
        self.try_depth += 1;
        self.block(body);
        self.try_depth -= 1;
        let hwm = self.end_region(region);
        let skip = (!self.is_dead()).then(|| {
            self.emit(Instr::TryExit {});
            self.emit_jump()
        });
        self.patch_here(&[enter]);
        for r in reg + 1..hwm {
            self.emit(Instr::Release { reg: r });
        }
        self.open_scope();
        self.bind_local_at(catch_local, reg);
        for s in handler {
            self.stmt(s);
        }
        self.close_scope();
        self.patch_here(skip.as_slice());
        self.unreserve_local_reg(reg);
    }
}
