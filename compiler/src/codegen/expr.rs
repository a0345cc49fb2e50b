//! Expressions: compiled into a destination register (`expr_to`), into
//! whatever register already holds them (`expr_any`), or straight into a
//! conditional branch (`branch`).

use super::func::FuncGen;
use crate::hir::{BinOp, Expr, ExprKind, UnOp};
use festina_vm::opcode::{Instr, Reg};
use festina_vm::program::{Const, EnumFieldRef};
use festina_vm::types::Type;

impl FuncGen<'_> {
    /// Compile `e` so that its value ends up in `dst`. Temporaries used on
    /// the way are freed again; `dst` is written last except by the
    /// builder forms (see `is_builder`).
    pub fn expr_to(&mut self, e: &Expr, dst: Reg) {
        let saved_line = self.enter_line(e.line);
        let mark = self.temp_mark();
        self.expr_kind(e, dst);
        self.reset_temps(mark);
        self.note_value(dst, &e.ty);
        self.line = saved_line;
    }

    /// Compile `e` and return the register holding its value: a local's
    /// own register for a plain local read (no `Move`), otherwise a fresh
    /// temporary that stays allocated until the caller resets the stack.
    pub fn expr_any(&mut self, e: &Expr) -> Reg {
        if let ExprKind::Local(l) = e.kind {
            return self.reg_of(l);
        }
        if let ExprKind::Global { global, .. } = e.kind {
            if let Some(r) = self.global_reg(global) {
                return r;
            }
        }
        if let Some(r) = self.pinned_reg(e) {
            return r;
        }
        let r = self.alloc_temp();
        self.expr_to(e, r);
        r
    }

    /// Load the null of type `ty` (a NaN for `float`, §8.2).
    pub fn null_to(&mut self, ty: &Type, dst: Reg) {
        if *ty.strip_manual() == Type::Float {
            let k = self.constant(Const::Float(f64::NAN));
            self.emit(Instr::LoadConst { dst, k });
        } else {
            self.emit(Instr::LoadNull { dst });
        }
    }

    /// Load the zero value of `ty` (§8.2): fresh empty struct, array or
    /// map, `0`, `0.0`, `false`, otherwise null.
    pub fn zero_to(&mut self, ty: &Type, dst: Reg) {
        let ins = match ty.strip_manual() {
            Type::Struct(sid) => Instr::NewStruct { dst, sid: *sid },
            Type::Arr(_) | Type::Amor(_) => Instr::NewArr { dst, cap: 0 },
            Type::Map(_) => Instr::NewMap { dst },
            Type::Int => Instr::LoadInt { dst, imm: 0 },
            Type::Float => Instr::LoadConst {
                dst,
                k: self.constant(Const::Float(0.0)),
            },
            Type::Bool => Instr::LoadBool { dst, value: 0 },
            _ => Instr::LoadNull { dst },
        };
        self.emit(ins);
    }

    fn expr_kind(&mut self, e: &Expr, dst: Reg) {
        match &e.kind {
            ExprKind::Int(v) => self.load_int(*v, dst),
            ExprKind::Float(v) => self.load_const(Const::Float(*v), dst),
            ExprKind::Bool(b) => {
                self.emit(Instr::LoadBool {
                    dst,
                    value: *b as u8,
                });
            }
            ExprKind::Null => self.null_to(&e.ty, dst),
            ExprKind::Text(s) => self.load_const(Const::Text(s.clone()), dst),
            ExprKind::Ascii(b) => self.load_const(Const::Ascii(b.clone()), dst),
            ExprKind::Local(l) => self.move_to(dst, self.reg_of(*l)),
            ExprKind::Global { global, .. } if self.global_reg(*global).is_some() => {
                let r = self.global_reg(*global).expect("checked");
                self.move_to(dst, r);
            }
            ExprKind::Global { global, vivify } => {
                let g = *global;
                self.emit(if *vivify {
                    Instr::GetGlobalViv { dst, g }
                } else {
                    Instr::GetGlobal { dst, g }
                });
            }
            ExprKind::FuncRef(f) => {
                self.emit(Instr::LoadFunc { dst, func: *f });
            }
            ExprKind::Binary(op, ab) => self.binary(*op, &ab[0], &ab[1], dst),
            ExprKind::Unary(op, a) => self.unary(*op, a, dst),
            ExprKind::IntToFloat(a) => self.int_to_float(a, dst),
            ExprKind::And(a, b) => self.and_or(a, b, dst, false),
            ExprKind::Or(a, b) => self.and_or(a, b, dst, true),
            ExprKind::Cond(c, a, b) => self.cond(c, a, b, dst),
            ExprKind::IsNull { expr, negate } => {
                let src = self.expr_any(expr);
                self.emit(if *negate {
                    Instr::NotNull { dst, src }
                } else {
                    Instr::IsNull { dst, src }
                });
            }
            ExprKind::Call { func, args } => match u16::try_from(*func) {
                Ok(func) => {
                    let base = self.args(args);
                    self.emit(Instr::Call { dst, base, func });
                    self.released_args(base, args.len());
                }
                // A function beyond the 16-bit operand of `Call`: load it as
                // a value and call that (the same call, one more dispatch).
                Err(_) => {
                    let callee = self.alloc_temp();
                    self.emit(Instr::LoadFunc {
                        dst: callee,
                        func: *func,
                    });
                    let base = self.args(args);
                    self.emit(Instr::CallValue { dst, callee, base });
                    self.released_args(base, args.len());
                }
            },
            ExprKind::CallValue { callee, args } => {
                let callee = self.expr_any(callee);
                let base = self.args(args);
                self.emit(Instr::CallValue { dst, callee, base });
                self.released_args(base, args.len());
            }
            ExprKind::CallNative { id, args } => {
                let base = self.args(args);
                // At most `limits::MAX_ARGS` (+ a few the checker adds).
                let argc = args.len() as u8;
                self.emit(Instr::CallNative {
                    dst,
                    base,
                    id: *id,
                    argc,
                });
            }
            _ => self.access(e, dst),
        }
    }

    /// Field, element, length and container forms.
    fn access(&mut self, e: &Expr, dst: Reg) {
        match &e.kind {
            ExprKind::Field { obj, field, vivify } => {
                let obj = self.expr_any(obj);
                let field = *field;
                self.emit(if *vivify {
                    Instr::GetFieldViv { dst, obj, field }
                } else {
                    Instr::GetField { dst, obj, field }
                });
            }
            ExprKind::WeakField { obj, field } => {
                let obj = self.expr_any(obj);
                let field = *field;
                self.emit(Instr::GetFieldWeak { dst, obj, field });
            }
            ExprKind::PostIncrement { place, delta } => self.post_increment(place, *delta, dst),
            ExprKind::EnumField {
                obj,
                sid,
                field,
                name,
            } => {
                let enum_id = match obj.ty.strip_manual() {
                    Type::Enum(e) => *e,
                    _ => 0,
                };
                let obj = self.expr_any(obj);
                let idx = self.pool.enum_field(EnumFieldRef {
                    sid: *sid,
                    field: *field,
                    name: name.clone(),
                    enum_id,
                });
                match u16::try_from(idx) {
                    Ok(idx) => self.emit(Instr::EnumField { dst, obj, idx }),
                    Err(_) => {
                        self.emit(Instr::EnumFieldWide { dst, obj });
                        self.emit(Instr::ExtraArg { arg: idx })
                    }
                };
            }
            ExprKind::Index { arr, index } => {
                let (arr, idx) = self.pair(arr, index);
                self.emit(Instr::ArrGet { dst, arr, idx });
            }
            ExprKind::MapGet { map, key } => {
                let (map, key) = self.pair(map, key);
                self.emit(Instr::MapGet { dst, map, key });
            }
            ExprKind::TextIndex(s, i) => {
                let (s, i) = self.pair(s, i);
                self.emit(Instr::TextIndex { dst, s, i });
            }
            ExprKind::AsciiIndex(s, i) => {
                let (s, i) = self.pair(s, i);
                self.emit(Instr::AsciiIndex { dst, s, i });
            }
            ExprKind::AsciiCodeAt(s, i) => {
                let (s, i) = self.pair(s, i);
                self.emit(Instr::AsciiCodeAt { dst, s, i });
            }
            ExprKind::TextLen(s) => {
                let s = self.expr_any(s);
                self.emit(Instr::TextLen { dst, s });
            }
            ExprKind::AsciiLen(s) => {
                let s = self.expr_any(s);
                self.emit(Instr::AsciiLen { dst, s });
            }
            ExprKind::ArrLen(a) => {
                let arr = self.expr_any(a);
                self.emit(Instr::ArrLen { dst, arr });
            }
            ExprKind::ArrPush(a, v) => {
                let arr = self.arr_push(a, v);
                self.emit(Instr::ArrLen { dst, arr });
            }
            ExprKind::ArrPop(a) => {
                let arr = self.expr_any(a);
                self.emit(Instr::ArrPop { dst, arr });
            }
            _ => self.construct(e, dst),
        }
    }

    /// Builders, text forms and enum forms.
    fn construct(&mut self, e: &Expr, dst: Reg) {
        match &e.kind {
            ExprKind::NewArr(elems) => self.new_arr(elems, dst),
            ExprKind::NewMap(pairs) => self.new_map(pairs, dst),
            ExprKind::NewStruct { sid, fields } => self.new_struct(*sid, fields, dst),
            ExprKind::ToText { expr, null_empty } => {
                let src = self.expr_any(expr);
                let mode = *null_empty as u8;
                self.emit(Instr::ToText { dst, src, mode });
            }
            ExprKind::Template(parts) => self.template(parts, dst),
            ExprKind::EnumWrap {
                expr,
                enum_id,
                member,
            } => {
                if self.is_pure_struct(*enum_id) {
                    self.expr_to(expr, dst);
                } else {
                    let src = self.expr_any(expr);
                    let member = *member;
                    self.emit(Instr::EnumWrap { dst, src, member });
                }
            }
            ExprKind::EnumUnwrap(x) => match x.ty.strip_manual() {
                Type::Enum(id) if self.is_pure_struct(*id) => self.expr_to(x, dst),
                _ => {
                    let src = self.expr_any(x);
                    self.emit(Instr::EnumUnwrap { dst, src });
                }
            },
            ExprKind::EnumTag { expr, enum_id } => {
                let src = self.expr_any(expr);
                match u16::try_from(*enum_id) {
                    Ok(enum_id) => self.emit(Instr::EnumTag { dst, src, enum_id }),
                    Err(_) => {
                        self.emit(Instr::EnumTagWide { dst, src });
                        self.emit(Instr::ExtraArg { arg: *enum_id })
                    }
                };
            }
            ExprKind::TypeofEnum { expr, enum_id } => {
                let src = self.expr_any(expr);
                match u16::try_from(*enum_id) {
                    Ok(enum_id) => self.emit(Instr::EnumTypeof { dst, src, enum_id }),
                    Err(_) => {
                        self.emit(Instr::EnumTypeofWide { dst, src });
                        self.emit(Instr::ExtraArg { arg: *enum_id })
                    }
                };
            }
            other => unreachable!("expression form handled earlier: {other:?}"),
        }
    }

    fn is_pure_struct(&self, id: u32) -> bool {
        self.module
            .enums
            .get(id as usize)
            .is_some_and(|en| en.pure_struct)
    }

    fn load_int(&mut self, v: i64, dst: Reg) {
        match i32::try_from(v) {
            Ok(imm) => {
                self.emit(Instr::LoadInt { dst, imm });
            }
            Err(_) => self.load_const(Const::Int(v), dst),
        }
    }

    fn load_const(&mut self, c: Const, dst: Reg) {
        let k = self.constant(c);
        self.emit(Instr::LoadConst { dst, k });
    }

    /// `R[dst] := R[src]`, omitted when they are the same register.
    pub fn move_to(&mut self, dst: Reg, src: Reg) {
        if dst != src {
            self.emit(Instr::Move { dst, src });
        }
    }

    /// Evaluate two operands left to right.
    fn pair(&mut self, a: &Expr, b: &Expr) -> (Reg, Reg) {
        let ra = self.expr_any(a);
        let rb = self.expr_any(b);
        (ra, rb)
    }

    /// Evaluate `args` into consecutive fresh temporaries at the top of
    /// the register stack and return the first (the callee's window base).
    /// They stay allocated until the caller resets the stack.
    pub fn args(&mut self, args: &[Expr]) -> Reg {
        let base = self.temp_mark();
        for a in args {
            let r = self.alloc_temp();
            self.expr_to(a, r);
        }
        base
    }

    /// `arr.push(v)`; returns the array's register.
    pub fn arr_push(&mut self, arr: &Expr, v: &Expr) -> Reg {
        let (arr, src) = self.pair(arr, v);
        self.emit(Instr::ArrPush { arr, src });
        arr
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, dst: Reg) {
        if let Some((x, imm)) = imm_operand(op, a, b).filter(|_| self.fusion) {
            let a = self.expr_any(x);
            self.emit(Instr::AddIntImm { dst, a, imm });
            return;
        }
        let (ra, rb) = self.pair(a, b);
        self.emit(binop_instr(op, dst, ra, rb));
    }

    fn unary(&mut self, op: UnOp, a: &Expr, dst: Reg) {
        match (op, &a.kind) {
            (UnOp::NegInt, ExprKind::Int(v)) => self.load_int(v.wrapping_neg(), dst),
            (UnOp::NegFloat, ExprKind::Float(v)) => self.load_const(Const::Float(-v), dst),
            (UnOp::Not, ExprKind::Bool(v)) => {
                self.emit(Instr::LoadBool {
                    dst,
                    value: !v as u8,
                });
            }
            (UnOp::NotInt, ExprKind::Int(v)) => self.load_int(!v, dst),
            _ => {
                let src = self.expr_any(a);
                self.emit(match op {
                    UnOp::NegInt => Instr::NegInt { dst, a: src },
                    UnOp::NegFloat => Instr::NegFloat { dst, a: src },
                    UnOp::Not => Instr::Not { dst, src },
                    UnOp::NotInt => Instr::NotInt { dst, a: src },
                });
            }
        }
    }

    fn int_to_float(&mut self, a: &Expr, dst: Reg) {
        if let ExprKind::Int(v) = a.kind {
            self.load_const(Const::Float(v as f64), dst);
        } else {
            let a = self.expr_any(a);
            self.emit(Instr::IntToFloat { dst, a });
        }
    }

    /// `a && b` (`or` false) or `a || b` (`or` true) as a value.
    fn and_or(&mut self, a: &Expr, b: &Expr, dst: Reg, or: bool) {
        self.expr_to(a, dst);
        // Pay owed releases before the split (rule 3).
        self.flush_temps();
        let j = self.emit(if or {
            Instr::JumpIfTrue { cond: dst, off: 0 }
        } else {
            Instr::JumpIfFalse { cond: dst, off: 0 }
        });
        self.expr_to(b, dst);
        self.patch_here(&[j]);
    }

    fn cond(&mut self, c: &Expr, a: &Expr, b: &Expr, dst: Reg) {
        let f = self.branch(c, false);
        self.expr_to(a, dst);
        // What the first arm owes is paid on its own path (rule 3).
        self.flush_temps();
        let j = self.emit_jump();
        self.patch_here(&f);
        self.expr_to(b, dst);
        self.patch_here(&[j]);
    }

    /// Compile the bool `e` as a branch: returns the jumps taken when `e`
    /// evaluates to `when` (to be patched by the caller); otherwise control
    /// falls through. `!`, `&&`, `||` and constants become pure control
    /// flow; anything else (a comparison, say) is computed into a register
    /// and tested with one `JumpIfTrue`/`JumpIfFalse`.
    pub fn branch(&mut self, e: &Expr, when: bool) -> Vec<usize> {
        // Every jump below is a split in control flow: pay owed releases
        // first (rule 3).
        self.flush_temps();
        match &e.kind {
            ExprKind::Bool(b) if *b == when => vec![self.emit_jump()],
            ExprKind::Bool(_) => Vec::new(),
            ExprKind::Unary(UnOp::Not, x) => self.branch(x, !when),
            ExprKind::And(a, b) if when => self.branch_both(a, false, b, true),
            ExprKind::And(a, b) => self.branch_either(a, b, false),
            ExprKind::Or(a, b) if when => self.branch_either(a, b, true),
            ExprKind::Or(a, b) => self.branch_both(a, true, b, false),
            _ => self.branch_leaf(e, when),
        }
    }

    /// Jumps taken when `a` or `b` is `when`.
    fn branch_either(&mut self, a: &Expr, b: &Expr, when: bool) -> Vec<usize> {
        let mut jumps = self.branch(a, when);
        jumps.extend(self.branch(b, when));
        jumps
    }

    /// `a` short-circuits past `b` when it is `a_when`; the result is the
    /// jumps taken when `b` is `b_when`.
    fn branch_both(&mut self, a: &Expr, a_when: bool, b: &Expr, b_when: bool) -> Vec<usize> {
        let skip = self.branch(a, a_when);
        let jumps = self.branch(b, b_when);
        self.patch_here(&skip);
        jumps
    }

    fn branch_leaf(&mut self, e: &Expr, when: bool) -> Vec<usize> {
        if let ExprKind::Binary(op, ab) = &e.kind {
            let [a, b] = &**ab;
            if self.fuse_branches {
                if let Some(j) = self.compare_branch(*op, a, b, when, e.line) {
                    return vec![j];
                }
            }
        }
        let mark = self.temp_mark();
        let cond = self.expr_any(e);
        // `cond` stays allocated until the jump reading it is emitted, so
        // the flush cannot release it (rule 1).
        self.flush_temps();
        let saved_line = self.enter_line(e.line);
        let j = self.emit(if when {
            Instr::JumpIfTrue { cond, off: 0 }
        } else {
            Instr::JumpIfFalse { cond, off: 0 }
        });
        self.line = saved_line;
        self.reset_temps(mark);
        vec![j]
    }

    /// `a op b` used only as a branch condition, for an int or float
    /// comparison: one `Jump<cmp>` instruction taken when the comparison
    /// is `when` (operands evaluated left to right, as for a value). `None`
    /// for any other operator. A small int literal on either side becomes
    /// an immediate, unless the function keeps it in a register.
    fn compare_branch(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        when: bool,
        line: u32,
    ) -> Option<usize> {
        use BinOp as B;
        // The comparison that must hold for the branch to be taken.
        let op = if when {
            op
        } else {
            match op {
                B::LtInt => B::GeInt,
                B::LeInt => B::GtInt,
                B::GtInt => B::LeInt,
                B::GeInt => B::LtInt,
                B::EqInt => B::NeInt,
                B::NeInt => B::EqInt,
                // `!(a < b)` is not `a >= b` for floats (NaN): the negated
                // float forms are instructions of their own.
                B::LtFloat | B::LeFloat | B::GtFloat | B::GeFloat => op,
                _ => return None,
            }
        };
        let negated_float = !when;
        let is_int = matches!(
            op,
            B::LtInt | B::LeInt | B::GtInt | B::GeInt | B::EqInt | B::NeInt
        );
        let is_float = matches!(op, B::LtFloat | B::LeFloat | B::GtFloat | B::GeFloat);
        if !is_int && !is_float {
            return None;
        }
        let small = |e: &Expr| match e.kind {
            ExprKind::Int(v) => i16::try_from(v).ok(),
            _ => None,
        };
        let mark = self.temp_mark();
        let ins = if is_int && small(b).is_some() && self.pinned_reg(b).is_none() {
            let imm = small(b).expect("checked");
            let a = self.expr_any(a);
            imm_branch(op, a, imm)
        } else if is_int && small(a).is_some() && self.pinned_reg(a).is_none() {
            // `k < x` is `x > k`.
            let imm = small(a).expect("checked");
            let b = self.expr_any(b);
            imm_branch(mirror(op), b, imm)
        } else {
            let ra = self.expr_any(a);
            let rb = self.expr_any(b);
            reg_branch(op, negated_float, ra, rb)
        };
        // The operands stay allocated until the branch reading them is
        // emitted, so the flush cannot release them (rule 1).
        self.flush_temps();
        let saved_line = self.enter_line(line);
        let j = self.emit(ins);
        self.line = saved_line;
        self.reset_temps(mark);
        Some(j)
    }

    fn new_arr(&mut self, elems: &[Expr], dst: Reg) {
        // Up to 64 elements: evaluate them into consecutive temporaries and
        // build the array with one `NewArrFrom` (the temporaries holding
        // managed values are released at the end of the statement).
        if self.fusion && !elems.is_empty() && elems.len() <= 64 {
            let mark = self.temp_mark();
            let base = self.args(elems);
            let n = elems.len() as u16;
            self.emit(Instr::NewArrFrom { dst, base, n });
            self.reset_temps(mark);
            return;
        }
        let cap = u16::try_from(elems.len()).unwrap_or(u16::MAX);
        self.emit(Instr::NewArr { dst, cap });
        for el in elems {
            let mark = self.temp_mark();
            let src = self.expr_any(el);
            self.emit(Instr::ArrPush { arr: dst, src });
            self.reset_temps(mark);
        }
    }

    fn new_map(&mut self, pairs: &[(Expr, Expr)], dst: Reg) {
        self.emit(Instr::NewMap { dst });
        for (k, v) in pairs {
            let mark = self.temp_mark();
            let (key, src) = self.pair(k, v);
            self.emit(Instr::MapSet { map: dst, key, src });
            self.reset_temps(mark);
        }
    }

    fn new_struct(&mut self, sid: u32, fields: &[(u16, Expr)], dst: Reg) {
        self.emit(Instr::NewStruct { dst, sid });
        for (field, v) in fields {
            let mark = self.temp_mark();
            let src = self.expr_any(v);
            let weak = self.module.structs.get(sid as usize).is_some_and(|r| {
                r.fields
                    .get(*field as usize)
                    .is_some_and(|f| matches!(f.ty, Type::Weak(_)))
            });
            let field = *field;
            self.emit(if weak {
                Instr::SetFieldWeak {
                    obj: dst,
                    field,
                    src,
                }
            } else {
                Instr::SetField {
                    obj: dst,
                    field,
                    src,
                }
            });
            self.reset_temps(mark);
        }
    }

    /// A template: the first part into `dst`, then one in-place
    /// `AppendText` per further part (the VM copies first if `dst` shares
    /// its text with another binding; `Concat` without fusions).
    fn template(&mut self, parts: &[Expr], dst: Reg) {
        let Some((first, rest)) = parts.split_first() else {
            self.load_const(Const::Text(String::new()), dst);
            return;
        };
        self.expr_to(first, dst);
        for p in rest {
            let mark = self.temp_mark();
            let src = self.expr_any(p);
            // Without fusions, each part makes a fresh text (`Concat`).
            self.emit(if self.fusion {
                Instr::AppendText { dst, src }
            } else {
                Instr::Concat {
                    dst,
                    a: dst,
                    b: src,
                }
            });
            self.reset_temps(mark);
        }
    }
}

/// For `x + k`, `k + x` and `x - k` with a small int literal `k`: the
/// non-constant operand and the immediate for `AddIntImm`.
fn imm_operand<'e>(op: BinOp, a: &'e Expr, b: &'e Expr) -> Option<(&'e Expr, i16)> {
    let small = |e: &Expr, neg: bool| match e.kind {
        ExprKind::Int(v) => i16::try_from(if neg { v.checked_neg()? } else { v }).ok(),
        _ => None,
    };
    match op {
        BinOp::AddInt => small(b, false)
            .map(|k| (a, k))
            .or_else(|| small(a, false).map(|k| (b, k))),
        BinOp::SubInt => small(b, true).map(|k| (a, k)),
        _ => None,
    }
}

/// `op` with its operands swapped (`a < b` is `b > a`).
fn mirror(op: BinOp) -> BinOp {
    use BinOp as B;
    match op {
        B::LtInt => B::GtInt,
        B::LeInt => B::GeInt,
        B::GtInt => B::LtInt,
        B::GeInt => B::LeInt,
        other => other,
    }
}

/// The branch taken when `R[a] op imm` holds (int comparisons).
fn imm_branch(op: BinOp, a: Reg, imm: i16) -> Instr {
    use BinOp as B;
    match op {
        B::LtInt => Instr::JumpLtIntImm { a, imm, off: 0 },
        B::LeInt => Instr::JumpLeIntImm { a, imm, off: 0 },
        B::GtInt => Instr::JumpGtIntImm { a, imm, off: 0 },
        B::GeInt => Instr::JumpGeIntImm { a, imm, off: 0 },
        B::EqInt => Instr::JumpEqIntImm { a, imm, off: 0 },
        _ => Instr::JumpNeIntImm { a, imm, off: 0 },
    }
}

/// The branch taken when `R[a] op R[b]` holds, or, for a float comparison
/// with `negated`, when it does not; `>` and `>=` swap the operand
/// registers of `<` and `<=`.
fn reg_branch(op: BinOp, negated: bool, a: Reg, b: Reg) -> Instr {
    use BinOp as B;
    let off = 0;
    match (op, negated) {
        (B::LtInt, _) => Instr::JumpLtInt { a, b, off },
        (B::LeInt, _) => Instr::JumpLeInt { a, b, off },
        (B::GtInt, _) => Instr::JumpLtInt { a: b, b: a, off },
        (B::GeInt, _) => Instr::JumpLeInt { a: b, b: a, off },
        (B::EqInt, _) => Instr::JumpEqInt { a, b, off },
        (B::NeInt, _) => Instr::JumpNeInt { a, b, off },
        (B::LtFloat, false) => Instr::JumpLtFloat { a, b, off },
        (B::LeFloat, false) => Instr::JumpLeFloat { a, b, off },
        (B::GtFloat, false) => Instr::JumpLtFloat { a: b, b: a, off },
        (B::GeFloat, false) => Instr::JumpLeFloat { a: b, b: a, off },
        (B::LtFloat, true) => Instr::JumpNotLtFloat { a, b, off },
        (B::LeFloat, true) => Instr::JumpNotLeFloat { a, b, off },
        (B::GtFloat, true) => Instr::JumpNotLtFloat { a: b, b: a, off },
        (_, true) => Instr::JumpNotLeFloat { a: b, b: a, off },
        _ => unreachable!("not a comparison: {op:?}"),
    }
}

/// The instruction for `R[dst] := R[a] op R[b]`; `>` and `>=` swap the
/// (already evaluated) operand registers of `<` and `<=`.
fn binop_instr(op: BinOp, dst: Reg, a: Reg, b: Reg) -> Instr {
    use BinOp as B;
    match op {
        B::AddInt => Instr::AddInt { dst, a, b },
        B::SubInt => Instr::SubInt { dst, a, b },
        B::MulInt => Instr::MulInt { dst, a, b },
        B::ModInt => Instr::ModInt { dst, a, b },
        B::AddFloat => Instr::AddFloat { dst, a, b },
        B::SubFloat => Instr::SubFloat { dst, a, b },
        B::MulFloat => Instr::MulFloat { dst, a, b },
        B::DivFloat => Instr::DivFloat { dst, a, b },
        B::ModFloat => Instr::ModFloat { dst, a, b },
        B::EqInt => Instr::EqInt { dst, a, b },
        B::NeInt => Instr::NeInt { dst, a, b },
        B::LtInt => Instr::LtInt { dst, a, b },
        B::LeInt => Instr::LeInt { dst, a, b },
        B::GtInt => Instr::LtInt { dst, a: b, b: a },
        B::GeInt => Instr::LeInt { dst, a: b, b: a },
        B::EqFloat => Instr::EqFloat { dst, a, b },
        B::NeFloat => Instr::NeFloat { dst, a, b },
        B::LtFloat => Instr::LtFloat { dst, a, b },
        B::LeFloat => Instr::LeFloat { dst, a, b },
        B::GtFloat => Instr::LtFloat { dst, a: b, b: a },
        B::GeFloat => Instr::LeFloat { dst, a: b, b: a },
        B::EqBool => Instr::EqBool { dst, a, b },
        B::NeBool => Instr::NeBool { dst, a, b },
        B::EqText => Instr::EqText { dst, a, b },
        B::NeText => Instr::NeText { dst, a, b },
        B::Concat => Instr::Concat { dst, a, b },
        B::ConcatAscii => Instr::ConcatAscii { dst, a, b },
        B::AndInt => Instr::AndInt { dst, a, b },
        B::OrInt => Instr::OrInt { dst, a, b },
        B::XorInt => Instr::XorInt { dst, a, b },
        B::ShlInt => Instr::ShlInt { dst, a, b },
        B::ShrInt => Instr::ShrInt { dst, a, b },
        B::EqRef => Instr::EqRef { dst, a, b },
        B::NeRef => Instr::NeRef { dst, a, b },
    }
}

/// True for forms that write their destination before reading all of
/// their operands (so `x = [x]` must not build straight into `x`).
pub(super) fn is_builder(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::NewArr(_)
        | ExprKind::NewMap(_)
        | ExprKind::NewStruct { .. }
        | ExprKind::Template(_)
        | ExprKind::And(..)
        | ExprKind::Or(..) => true,
        ExprKind::Cond(_, a, b) => is_builder(a) || is_builder(b),
        ExprKind::EnumWrap { expr, .. } | ExprKind::EnumUnwrap(expr) => is_builder(expr),
        _ => false,
    }
}

/// True if `e` reads local `l` anywhere.
pub(super) fn reads_local(e: &Expr, l: u32) -> bool {
    e.contains(&mut |x| {
        matches!(x.kind, ExprKind::Local(y) if y == l)
            || matches!(&x.kind, ExprKind::PostIncrement { place, .. }
                if matches!(**place, crate::hir::Place::Local(y) if y == l))
    })
}

/// True if `e` reads global `g` anywhere.
pub(super) fn reads_global(e: &Expr, g: u32) -> bool {
    e.contains(&mut |x| {
        matches!(x.kind, ExprKind::Global { global, .. } if global == g)
            || matches!(&x.kind, ExprKind::PostIncrement { place, .. }
                if matches!(**place, crate::hir::Place::Global(y) if y == g))
    })
}
