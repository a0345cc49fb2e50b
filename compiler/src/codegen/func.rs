//! Per-function generator state: emission, line table, jumps, registers,
//! scopes and loop contexts. Expressions and statements are compiled by
//! the `impl FuncGen` blocks in `expr.rs` and `stmt.rs`.

use super::Pool;
use crate::hir::{self, GlobalId, LocalId};
use festina_vm::opcode::{Instr, Reg};
use festina_vm::program::{Const, Function};
use festina_vm::types::Type;

/// One lexical block being compiled: the locals it declared (released at
/// its end) and the register stack height to restore.
struct Scope {
    /// Locals declared in this block, in declaration order.
    locals: Vec<LocalId>,
    /// `locals_top` when the block was opened.
    saved_top: Reg,
}

/// An enclosing loop: pending `break`/`continue` jumps and what leaving
/// it from the inside must undo.
pub(super) struct LoopCtx {
    /// `Jump`s to patch to the instruction after the loop.
    pub breaks: Vec<usize>,
    /// `Jump`s to patch to the loop's update/condition.
    pub continues: Vec<usize>,
    /// Number of scopes open outside the loop body.
    pub scope_depth: usize,
    /// `try` nesting depth outside the loop.
    pub try_depth: u32,
}

/// Code generator state for one HIR function.
pub(super) struct FuncGen<'a> {
    /// The module (for globals, enums, functions).
    pub module: &'a hir::Module,
    /// The function being compiled.
    pub func: &'a hir::Function,
    /// Program-wide constant pool and enum-field table.
    pub pool: &'a mut Pool,
    code: Vec<Instr>,
    lines: Vec<u32>,
    /// Line recorded for the next emitted instruction.
    pub line: u32,
    /// Register of each local slot while its block is open.
    local_regs: Vec<Option<Reg>>,
    /// Registers `0..locals_top` belong to locals (live or reserved).
    locals_top: Reg,
    /// Registers `locals_top..top` are live temporaries.
    top: Reg,
    /// High-water mark of the register stack: the window size.
    nregs: Reg,
    /// High-water mark since `begin_region` (for `try`).
    region_hwm: Reg,
    /// Open block scopes; 0 holds the parameters.
    scopes: Vec<Scope>,
    /// Enclosing loops, innermost last.
    pub loops: Vec<LoopCtx>,
    /// Number of `try` bodies the current code is inside.
    pub try_depth: u32,
    /// Temporaries written with a managed value since the last flush.
    dirty: Vec<Reg>,
    /// The last instruction was a terminator and no label followed.
    dead: bool,
    /// Globals kept in registers of this function (see `globals.rs`).
    global_regs: Vec<(GlobalId, Reg)>,
    /// Literals kept in registers of this function (see `consts.rs`).
    pinned: Vec<(super::consts::Pinned, Reg)>,
    /// Emit the fused and shortened forms (see [`super::Options`]).
    pub fusion: bool,
    /// Compile comparisons used as conditions to one compare-and-branch
    /// instruction (16-bit offsets); off without `fusion` and for the
    /// retry of a function whose branches reach too far (see
    /// [`FuncGen::compile`]).
    pub fuse_branches: bool,
    /// A compare-and-branch was patched with an offset beyond 16 bits.
    far_branch: bool,
    /// The line where the function first needed more registers than a
    /// window has ([`crate::limits::MAX_REGISTERS`]).
    out_of_registers: Option<u32>,
}

/// Why a function could not be compiled as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Failure {
    /// A fused compare-and-branch had to jump farther than its 16-bit
    /// offset: compile again without fused branches.
    FarBranch,
    /// The function needs more registers than a window has; the line of
    /// the statement where it ran out.
    Registers(u32),
}

impl<'a> FuncGen<'a> {
    /// A generator for `func`, with its parameters bound to registers
    /// `0..nparams`.
    pub fn new(
        module: &'a hir::Module,
        func: &'a hir::Function,
        pool: &'a mut Pool,
        options: super::Options,
    ) -> Self {
        let mut g = FuncGen {
            module,
            func,
            pool,
            code: Vec::new(),
            lines: Vec::new(),
            line: func.line,
            local_regs: vec![None; func.locals.len()],
            locals_top: 0,
            top: 0,
            nregs: 0,
            region_hwm: 0,
            scopes: Vec::new(),
            loops: Vec::new(),
            try_depth: 0,
            dirty: Vec::new(),
            dead: false,
            global_regs: Vec::new(),
            pinned: Vec::new(),
            fusion: options.fusion,
            fuse_branches: options.fusion,
            far_branch: false,
            out_of_registers: None,
        };
        g.open_scope();
        for p in 0..func.nparams {
            g.bind_local(p);
        }
        g
    }

    /// Keep `globals` (declared by this function, used by no other) in
    /// registers of this function for its whole run, starting at their
    /// zero scalar like a global (§8.2; `InitGlobal` sets them properly).
    pub fn with_globals(mut self, globals: &[GlobalId]) -> Self {
        let module = self.module;
        for &g in globals {
            let r = self.reserve_local_reg();
            self.global_regs.push((g, r));
            self.zero_scalar_to(&module.globals[g as usize].ty, r);
        }
        self
    }

    /// `R[r] :=` the scalar zero of `ty` (`0`, `0.0`, `false`), or null for
    /// any other type.
    fn zero_scalar_to(&mut self, ty: &Type, r: Reg) {
        let ins = match ty.strip_manual() {
            Type::Int => Instr::LoadInt { dst: r, imm: 0 },
            Type::Float => Instr::LoadConst {
                dst: r,
                k: self.constant(Const::Float(0.0)),
            },
            Type::Bool => Instr::LoadBool { dst: r, value: 0 },
            _ => Instr::LoadNull { dst: r },
        };
        self.emit(ins);
    }

    /// Load the literals the function's loops use as operands into
    /// registers of their own, once, in the prologue (see `consts.rs`).
    fn pin_constants(&mut self) {
        use super::consts::{loop_literals, Pinned};
        if !self.fusion {
            return;
        }
        for p in loop_literals(&self.func.body) {
            let r = self.reserve_local_reg();
            let ins = match p {
                Pinned::Int(v) => match i32::try_from(v) {
                    Ok(imm) => Instr::LoadInt { dst: r, imm },
                    Err(_) => Instr::LoadConst {
                        dst: r,
                        k: self.constant(Const::Int(v)),
                    },
                },
                Pinned::Float(bits) => Instr::LoadConst {
                    dst: r,
                    k: self.constant(Const::Float(f64::from_bits(bits))),
                },
            };
            self.emit(ins);
            self.pinned.push((p, r));
        }
    }

    /// The register holding the literal `e`, if this function pinned it.
    pub fn pinned_reg(&self, e: &hir::Expr) -> Option<Reg> {
        use super::consts::Pinned;
        let p = match e.kind {
            hir::ExprKind::Int(v) => Pinned::Int(v),
            hir::ExprKind::Float(v) => Pinned::Float(v.to_bits()),
            _ => return None,
        };
        self.pinned.iter().find(|(x, _)| *x == p).map(|(_, r)| *r)
    }

    /// The register holding global `g`, when this function keeps it in one.
    pub fn global_reg(&self, g: GlobalId) -> Option<Reg> {
        self.global_regs
            .iter()
            .find(|(x, _)| *x == g)
            .map(|(_, r)| *r)
    }

    /// Compile the body and produce the VM function, with comparisons used
    /// as conditions fused into compare-and-branch instructions when
    /// `fuse`. Errors: a fused branch had to jump farther than its 16-bit
    /// offset allows (compile again without `fuse`), or the function needs
    /// more registers than a window has.
    pub fn compile(mut self, fuse: bool) -> Result<Function, Failure> {
        self.fuse_branches = fuse && self.fusion;
        let body = &self.func.body;
        self.pin_constants();
        self.open_scope();
        for s in body {
            self.stmt(s);
        }
        self.line = body.last().map_or(self.func.line, |s| s.line);
        self.emit_fallthrough_return();
        self.discard_scope();
        let name = if self.func.name == "<arrow>" {
            format!("<arrow@{}>", self.func.line)
        } else {
            self.func.name.clone()
        };
        if let Some(line) = self.out_of_registers {
            return Err(Failure::Registers(line));
        }
        if self.far_branch {
            return Err(Failure::FarBranch);
        }
        Ok(Function {
            name,
            file: self.func.file,
            // Parameters have registers of their own: within the window.
            nparams: self.func.nparams as u16,
            nregs: self.nregs,
            returns_value: self.func.ret != Type::Void,
            code: self.code,
            lines: self.lines,
        })
    }

    /// The return at the end of the body, unless the end is unreachable.
    /// A value function whose body can end without `return` (§10.8 and
    /// §11.1 are silent; the reference compiles it) returns the scalar
    /// zero of its type: `0`, `0.0`, `false`; any other type returns
    /// `null`, as in the reference.
    fn emit_fallthrough_return(&mut self) {
        if self.dead {
            return;
        }
        if self.func.ret == Type::Void {
            self.emit(Instr::ReturnVoid {});
        } else {
            let r = self.alloc_temp();
            let func = self.func;
            self.zero_scalar_to(&func.ret, r);
            self.emit(Instr::Return { src: r });
            self.reset_temps(r);
        }
    }

    // ---- emission ----

    /// Append `ins` with the current line; returns its index.
    pub fn emit(&mut self, ins: Instr) -> usize {
        self.dead = matches!(
            ins,
            Instr::Jump { .. }
                | Instr::Return { .. }
                | Instr::ReturnVoid {}
                | Instr::Throw { .. }
                | Instr::Fail { .. }
        );
        self.code.push(ins);
        self.lines.push(self.line);
        self.code.len() - 1
    }

    /// Record `line` (when known, i.e. not 0) for the instructions that
    /// follow; returns the previous line, to restore afterwards.
    pub fn enter_line(&mut self, line: u32) -> u32 {
        if line == 0 {
            self.line
        } else {
            std::mem::replace(&mut self.line, line)
        }
    }

    /// Index of the next instruction to be emitted.
    pub fn here(&self) -> usize {
        self.code.len()
    }

    /// Mark the next instruction as a jump target (reachable) and return
    /// its index.
    pub fn label(&mut self) -> usize {
        self.dead = false;
        self.here()
    }

    /// True if the next instruction cannot be reached by falling through
    /// (the last one was a jump, return or throw and no label followed).
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Point the jump at `at` to instruction index `target`.
    pub fn patch_to(&mut self, at: usize, target: usize) {
        if target == self.here() {
            self.dead = false;
        }
        let off = i32::try_from(target as i64 - at as i64 - 1).expect("jump too far");
        match &mut self.code[at] {
            Instr::Jump { off: o }
            | Instr::JumpIfTrue { off: o, .. }
            | Instr::JumpIfFalse { off: o, .. }
            | Instr::TryEnter { off: o, .. } => *o = off,
            Instr::JumpLtInt { off: o, .. }
            | Instr::JumpLeInt { off: o, .. }
            | Instr::JumpEqInt { off: o, .. }
            | Instr::JumpNeInt { off: o, .. }
            | Instr::JumpLtIntImm { off: o, .. }
            | Instr::JumpLeIntImm { off: o, .. }
            | Instr::JumpGtIntImm { off: o, .. }
            | Instr::JumpGeIntImm { off: o, .. }
            | Instr::JumpEqIntImm { off: o, .. }
            | Instr::JumpNeIntImm { off: o, .. }
            | Instr::JumpLtFloat { off: o, .. }
            | Instr::JumpLeFloat { off: o, .. }
            | Instr::JumpNotLtFloat { off: o, .. }
            | Instr::JumpNotLeFloat { off: o, .. } => match i16::try_from(off) {
                Ok(short) => *o = short,
                Err(_) => self.far_branch = true,
            },
            other => unreachable!("patching a non-jump {other:?}"),
        }
    }

    /// Point every jump in `at` to the next instruction (a label when `at`
    /// is not empty).
    pub fn patch_here(&mut self, at: &[usize]) {
        let target = self.here();
        for &j in at {
            self.patch_to(j, target);
        }
    }

    /// Emit an unconditional jump to be patched later.
    pub fn emit_jump(&mut self) -> usize {
        self.emit(Instr::Jump { off: 0 })
    }

    /// Intern a constant and return its pool index.
    pub fn constant(&mut self, c: Const) -> u32 {
        self.pool.constant(c)
    }

    // ---- registers ----

    /// Reserve the next temporary register. A release still owed on it
    /// is cancelled: the instruction that writes the new value releases
    /// the old one (rule 2 of the release discipline, see the module
    /// documentation).
    pub fn alloc_temp(&mut self) -> Reg {
        let r = self.top;
        if let Some(i) = self.dirty.iter().position(|&x| x == r) {
            self.dirty.swap_remove(i);
        }
        if r as usize >= crate::limits::MAX_REGISTERS {
            // Out of registers: note where, and hand out the last register
            // again (the stack does not grow) so that generation can
            // finish; `compile` then fails and the code is thrown away.
            self.out_of_registers.get_or_insert(self.line);
            return r - 1;
        }
        self.top = r + 1;
        self.nregs = self.nregs.max(self.top);
        self.region_hwm = self.region_hwm.max(self.top);
        r
    }

    /// The current temporary stack height, to restore with `reset_temps`.
    pub fn temp_mark(&self) -> Reg {
        self.top
    }

    /// Free every temporary allocated since `mark`.
    pub fn reset_temps(&mut self, mark: Reg) {
        debug_assert!(mark >= self.locals_top);
        self.top = mark;
    }

    /// Free every temporary (at the end of a statement).
    pub fn free_all_temps(&mut self) {
        self.top = self.locals_top;
    }

    /// True if `r` is a temporary (not a local's register).
    pub fn is_temp(&self, r: Reg) -> bool {
        r >= self.locals_top
    }

    /// Give local `l` the next register, in the innermost scope.
    pub fn bind_local(&mut self, l: LocalId) -> Reg {
        let r = self.reserve_local_reg();
        self.bind_local_at(l, r);
        r
    }

    /// Bind local `l` to register `r` (already reserved) in the innermost
    /// scope, so that the scope's end releases it.
    pub fn bind_local_at(&mut self, l: LocalId, r: Reg) {
        self.local_regs[l as usize] = Some(r);
        self.scopes
            .last_mut()
            .expect("a scope is open")
            .locals
            .push(l);
    }

    /// Reserve the next register for a local (no temporaries may be live).
    pub fn reserve_local_reg(&mut self) -> Reg {
        debug_assert_eq!(self.top, self.locals_top, "local declared mid-expression");
        let r = self.alloc_temp();
        self.locals_top = self.top;
        r
    }

    /// Give back the most recently reserved local register (used after a
    /// `try`, whose catch register outlives its body).
    pub fn unreserve_local_reg(&mut self, r: Reg) {
        debug_assert_eq!(r + 1, self.locals_top);
        self.locals_top = r;
        self.top = r;
    }

    /// The register of local `l`.
    pub fn reg_of(&self, l: LocalId) -> Reg {
        self.local_regs[l as usize].expect("local read before its declaration")
    }

    /// The declared type of local `l`.
    pub fn local_ty(&self, l: LocalId) -> &'a Type {
        &self.func.locals[l as usize].ty
    }

    /// Start a region whose register high-water mark `end_region` returns.
    pub fn begin_region(&mut self) -> Reg {
        std::mem::replace(&mut self.region_hwm, self.top)
    }

    /// End a region begun with `begin_region` (whose result is `saved`);
    /// returns the region's high-water mark.
    pub fn end_region(&mut self, saved: Reg) -> Reg {
        let hwm = self.region_hwm;
        self.region_hwm = saved.max(hwm);
        hwm
    }

    // ---- releases (§13.1) ----

    /// Remember that temporary `r` now holds a value of type `ty`, so that
    /// it is nulled at the next flush if the value is managed.
    pub fn note_value(&mut self, r: Reg, ty: &Type) {
        if self.is_temp(r) && ty.is_managed() && !self.dirty.contains(&r) {
            self.dirty.push(r);
        }
    }

    /// Forget the releases owed on a call's argument registers
    /// `base..base + n`: they are the callee's parameters, released when
    /// it returns (rule 4). Releases owed above them stay owed.
    pub fn released_args(&mut self, base: Reg, n: usize) {
        let end = base as usize + n;
        self.dirty
            .retain(|&r| (r as usize) < base as usize || (r as usize) >= end);
    }

    /// Pay the releases owed on free temporaries (`Release` each one; the
    /// live ones stay owed). Registers that a pending instruction reads are
    /// still allocated, so they are never among them (rule 1). Nothing is
    /// emitted in unreachable code.
    pub fn flush_temps(&mut self) {
        let top = self.top;
        if self.dead {
            self.dirty.retain(|&r| r < top);
            return;
        }
        let (free, live): (Vec<Reg>, Vec<Reg>) = self.dirty.iter().partition(|&&r| r >= top);
        self.dirty = live;
        for reg in free {
            self.emit(Instr::Release { reg });
        }
    }

    /// Open a block scope.
    pub fn open_scope(&mut self) {
        self.scopes.push(Scope {
            locals: Vec::new(),
            saved_top: self.locals_top,
        });
    }

    /// Close the innermost scope: release its managed locals and give
    /// their registers back.
    pub fn close_scope(&mut self) {
        let depth = self.scopes.len() - 1;
        if !self.dead {
            self.release_scopes(depth);
        }
        self.discard_scope();
    }

    /// Close the innermost scope without emitting releases (after a
    /// return, which releases the whole window).
    fn discard_scope(&mut self) {
        let scope = self.scopes.pop().expect("scope underflow");
        for l in scope.locals {
            self.local_regs[l as usize] = None;
        }
        self.locals_top = scope.saved_top;
        self.top = scope.saved_top;
    }

    /// Number of open scopes.
    pub fn scope_depth(&self) -> usize {
        self.scopes.len()
    }

    /// Emit `Release` for the managed locals of scopes `depth..`, innermost
    /// first. The scopes stay open: this is for code that jumps out of
    /// them.
    pub fn release_scopes(&mut self, depth: usize) {
        let mut regs = Vec::new();
        for scope in self.scopes[depth..].iter().rev() {
            for &l in scope.locals.iter().rev() {
                let reg = self.local_regs[l as usize];
                if self.func.locals[l as usize].ty.is_managed() {
                    regs.extend(reg);
                }
            }
        }
        for reg in regs {
            self.emit(Instr::Release { reg });
        }
    }

    /// Emit one `TryExit` per `try` body being left when jumping from the
    /// current depth to `depth`.
    pub fn exit_tries(&mut self, depth: u32) {
        for _ in depth..self.try_depth {
            self.emit(Instr::TryExit {});
        }
    }

    /// True once the function has run out of registers: the rest of its
    /// code need not be generated.
    pub fn out_of_registers(&self) -> bool {
        self.out_of_registers.is_some()
    }

    /// Compile a statement list as one block scope.
    pub fn block(&mut self, body: &[hir::Stmt]) {
        self.open_scope();
        for s in body {
            self.stmt(s);
        }
        self.close_scope();
    }
}
