//! The dispatch loop alone: the full step (`dispatch_loop`) and the fast
//! tier (`run_fast`) side by side, with the list of instructions the fast
//! tier handles (`has_fast_path`). See the module documentation of
//! `interp`, "Dispatch".

use super::call::CallStop;
use super::ops::*;
use super::store::*;
use super::{Cur, Handler, Interpreter};
use crate::native::Trap;
use crate::opcode::Instr;
use crate::value::{EnumBox, Value};
use std::rc::Rc;

impl Interpreter {
    /// Run function `entry` with its register window at `start` (its
    /// arguments already in place) until it returns: the one dispatch
    /// loop, used for the entry function and, nested, by
    /// [`Interpreter::call_function`]. A throw that no handler of this
    /// loop catches comes back as `Err(Trap::Throw)`.
    pub(super) fn dispatch(&mut self, entry: u32, start: usize) -> Result<Value, Trap> {
        // A nested loop (a native calling back into Festina) runs its own
        // frames; the outer loop's current frame comes back afterwards.
        let outer = self.cur;
        self.cur = Cur {
            func: entry,
            nregs: self.fns[entry as usize].nregs as usize,
            base: start,
        };
        self.loops += 1;
        let r = self.dispatch_loop_at(self.fns[entry as usize].code);
        self.loops -= 1;
        self.cur = outer;
        r
    }

    /// The loop of [`Interpreter::dispatch`], starting at `self.cur`: the
    /// full step, handing runs of instructions that have a fast path to
    /// [`Interpreter::run_fast`] while the fast tier is on (see the module
    /// documentation of `interp`, "Dispatch").
    ///
    /// Only `ip`, `fp` and `self` live in machine registers across the
    /// loop: the current frame (`self.cur`), the program and everything
    /// else stay in memory and are read by calls, returns and cold paths
    /// only. Keeping the loop-carried set this small is what lets LLVM keep
    /// `ip` and `fp` out of stack slots (benches/RESULTS.md, step 8).
    ///
    /// `ip` is the first instruction to run, in the code of the function
    /// `self.cur` names: its first one, or where a parked call resumes
    /// (`park.rs`).
    pub(super) fn dispatch_loop_at(&mut self, ip: *const Instr) -> Result<Value, Trap> {
        // Keeps the code (which `ip`, `FnInfo::code` and `Frame::ret` point
        // into) alive for the whole loop.
        let _code = Rc::clone(&self.code);
        // The next instruction.
        let mut ip: *const Instr = ip;
        // The callers (`execute`, `call_function`) made room for the window.
        debug_assert!(self.cur.base + self.cur.nregs <= self.regs.len());
        // The current frame's registers: `fp` points at `R[0]`. Set at the
        // top of every step, and refreshed (`sync_fp!`) within a step that
        // changes the frame or may reallocate the register stack (returns,
        // natives) before it uses a register again. A step that ends after
        // changing the frame (calls, traps) leaves it to the next one.
        let mut fp: *mut Value;
        macro_rules! sync_fp {
            () => {
                debug_assert!(self.cur.base + self.cur.nregs <= self.regs.len());
                // SAFETY: every path that changes `self.cur.base` or grows the
                // register stack keeps `regs.len() >= self.cur.base + self.cur.nregs`.
                fp = unsafe { self.regs.as_mut_ptr().add(self.cur.base) }
            };
        }
        // `R[x]` of the current frame, shared or mutable. Each use is a
        // short-lived reference: an arm computes what it reads before it
        // writes its destination.
        macro_rules! reg {
            ($x:expr) => {{
                debug_assert!(self.cur.base + ($x as usize) < self.regs.len());
                // SAFETY: the verifier guarantees every register operand is
                // below the function's `self.cur.nregs`, and `fp` points at `R[0]`
                // of a window of `self.cur.nregs` live registers (see `sync_fp!`).
                unsafe { &*fp.add($x as usize) }
            }};
        }
        macro_rules! regm {
            ($x:expr) => {{
                debug_assert!(self.cur.base + ($x as usize) < self.regs.len());
                // SAFETY: as in `reg!`.
                unsafe { &mut *fp.add($x as usize) }
            }};
        }

        // The index of the next instruction in the current function (for
        // line numbers, handler targets and native call sites).
        macro_rules! pc_now {
            () => {
                // SAFETY: `ip` always points into the current function's
                // code, which starts at `FnInfo::code`.
                unsafe { ip.offset_from(self.fns[self.cur.func as usize].code) as usize }
            };
        }
        // `ip` moved by a jump offset (relative to the next instruction).
        macro_rules! jump {
            ($off:expr) => {
                // SAFETY: the verifier keeps every jump target inside the
                // function's code.
                ip = unsafe { ip.offset($off as isize) }
            };
        }
        // A conditional branch: `jump!` when `$c` holds.
        macro_rules! branch_if {
            ($c:expr, $off:expr) => {
                if $c {
                    jump!($off)
                }
            };
        }

        // Resume at a handler (after a throw) or propagate the trap.
        macro_rules! trap {
            ($t:expr) => {{
                let t: Trap = $t;
                let h = self.handle_trap(t, pc_now!() - 1)?;
                self.cur.func = h.func;
                self.cur.nregs = self.fns[self.cur.func as usize].nregs as usize;
                self.cur.base = h.base;
                // SAFETY: the verifier keeps handler targets inside the code.
                ip = unsafe { self.fns[self.cur.func as usize].code.add(h.target) };
                continue;
            }};
        }
        macro_rules! fail {
            ($($arg:tt)*) => {{
                let m = format!($($arg)*);
                trap!(Trap::Fail(format!("{} at {}", m, self.loc(self.cur.func, pc_now!() - 1))))
            }};
        }
        // Before a new struct, array or map: collect cycles when due, and
        // fail if an earlier allocation spent the emergency reserve
        // (`crate::oom`, layer 2).
        macro_rules! alloc_site {
            () => {{
                self.maybe_collect();
                if crate::oom::low() {
                    fail!("out of memory")
                }
            }};
        }
        // Enter function `$callee` with its window at `R[$b]`, the result
        // to go to `R[$dst]`: the one push path, growing the stacks when
        // it asks to.
        macro_rules! call {
            ($callee:expr, $b:expr, $dst:expr) => {{
                let (callee, b) = ($callee, $b);
                let mut cur = self.cur;
                let mut pushed = self.push_frame(&mut cur, ip, $dst, callee, b);
                if matches!(pushed, Err(CallStop::Grow)) {
                    pushed = self
                        .make_room(callee, b)
                        .and_then(|()| self.push_frame(&mut cur, ip, $dst, callee, b));
                }
                match pushed {
                    Ok(code) => {
                        self.cur = cur;
                        ip = code;
                    }
                    Err(stop) => {
                        let at = self.loc(self.cur.func, pc_now!() - 1);
                        trap!(Trap::Fail(self.call_stop_message(stop, callee, &at)))
                    }
                }
            }};
        }

        // The operand of the `ExtraArg` after a wide instruction (the
        // verifier guarantees one follows), which is then skipped.
        macro_rules! extra_arg {
            () => {{
                // SAFETY: `ip` points at the instruction after the wide one,
                // an `ExtraArg` inside the code (verified).
                let Instr::ExtraArg { arg } = (unsafe { *ip }) else {
                    unreachable!("verified: an ExtraArg follows a wide instruction")
                };
                jump!(1);
                arg
            }};
        }
        macro_rules! enum_tag {
            ($dst:expr, $src:expr, $id:expr) => {{
                let id: u32 = $id;
                match self.enum_tag(reg!($src), id) {
                    Some(t) => assign(regm!($dst), Value::Int(t as i64)),
                    None => fail!(
                        "typeof applied to a null {} value",
                        self.program.enums[id as usize].name
                    ),
                }
            }};
        }
        macro_rules! enum_typeof {
            ($dst:expr, $src:expr, $id:expr) => {{
                let id: u32 = $id;
                match self.enum_tag(reg!($src), id) {
                    Some(t) => {
                        let v = self.tables.enum_names[id as usize]
                            .get(t as usize)
                            .cloned()
                            .unwrap_or(Value::Null);
                        assign(regm!($dst), v);
                    }
                    None => fail!(
                        "typeof applied to a null {} value",
                        self.program.enums[id as usize].name
                    ),
                }
            }};
        }
        macro_rules! enum_field {
            ($dst:expr, $obj:expr, $idx:expr) => {{
                let idx: u32 = $idx;
                let r = &self.program.enum_fields[idx as usize];
                let v = match reg!($obj) {
                    Value::Struct(s) if s.sid() == r.sid && !s.is_row() => s.get(r.field as usize),
                    Value::Enum(b) => match &b.value {
                        Value::Struct(s) if s.sid() == r.sid => s.get(r.field as usize),
                        _ => None,
                    },
                    _ => None,
                };
                match v {
                    Some(v) => assign(regm!($dst), v),
                    None => trap!(self.enum_field_fault(
                        self.cur.func,
                        pc_now!() - 1,
                        $obj,
                        idx,
                        self.cur.base
                    )),
                }
            }};
        }

        loop {
            // The common cases run in `run_fast`, a small function of its
            // own, where `ip` and `fp` stay in machine registers; it
            // returns at the first instruction it leaves to the full step.
            // A run of instructions it never handles (text, structs, maps,
            // natives) stays here, without a call per instruction. The
            // switch is tested only here, on the way into the fast tier
            // (a transition that costs about 40 instructions anyway), and
            // only for an instruction that has a fast path.
            // SAFETY: `ip` points at an instruction (see the full step).
            if has_fast_path(unsafe { &*ip }) && self.fast_tier {
                ip = self.run_fast(ip);
            }
            sync_fp!();

            // ---- the full step ----------------------------------------------
            // SAFETY: every code copy ends with an appended `ReturnVoid`
            // and the verifier keeps every jump and handler target inside
            // the original code, so `ip` only ever points at instructions
            // (straight-line flow stops at the final `ReturnVoid`; a
            // return address is always the instruction after a call,
            // which is never the last).
            let ins: &Instr = unsafe { &*ip };
            ip = unsafe { ip.add(1) };
            match *ins {
                Instr::Move { dst, src } => match *reg!(src) {
                    Value::Int(i) => store_int(regm!(dst), i),
                    Value::Float(f) => store_float(regm!(dst), f),
                    Value::Bool(b) => store_bool(regm!(dst), b),
                    ref other => {
                        let v = other.clone();
                        assign(regm!(dst), v);
                    }
                },
                Instr::LoadInt { dst, imm } => store_int(regm!(dst), imm as i64),
                Instr::LoadConst { dst, k } => {
                    // SAFETY-free: verified index.
                    let v = self.tables.consts[k as usize].clone();
                    assign(regm!(dst), v);
                }
                Instr::LoadNull { dst } | Instr::Release { reg: dst } => {
                    assign(regm!(dst), Value::Null)
                }
                Instr::LoadBool { dst, value } => assign(regm!(dst), Value::Bool(value != 0)),
                Instr::LoadFunc { dst, func } => assign(regm!(dst), Value::Func(func)),
                Instr::GetGlobal { dst, g } => {
                    // SAFETY-free indexing: `g` is verified, the check is
                    // kept (globals are not the hot path's bottleneck).
                    copy_to(regm!(dst), &self.globals[g as usize]);
                }
                Instr::GetGlobalViv { dst, g } => {
                    if self.globals[g as usize].is_null() {
                        self.vivify_global(g);
                    }
                    let v = self.globals[g as usize].clone();
                    assign(regm!(dst), v);
                }
                Instr::SetGlobal { g, src } => {
                    copy_to(&mut self.globals[g as usize], reg!(src));
                }

                // ---- int arithmetic ----
                Instr::AddInt { dst, a, b } => {
                    let v = reg!(a).as_int().wrapping_add(reg!(b).as_int());
                    store_int(regm!(dst), v);
                }
                Instr::AddIntImm { dst, a, imm } => {
                    let v = reg!(a).as_int().wrapping_add(imm as i64);
                    store_int(regm!(dst), v);
                }
                Instr::SubInt { dst, a, b } => {
                    let v = reg!(a).as_int().wrapping_sub(reg!(b).as_int());
                    store_int(regm!(dst), v);
                }
                // `MulAddInt` alone is a `MulInt`; its `AddInt` runs next.
                Instr::MulInt { dst, a, b } | Instr::MulAddInt { dst, a, b } => {
                    let v = reg!(a).as_int().wrapping_mul(reg!(b).as_int());
                    store_int(regm!(dst), v);
                }
                Instr::ModInt { dst, a, b } => {
                    let d = reg!(b).as_int();
                    let v = if d == 0 {
                        Value::Null
                    } else {
                        Value::Int(reg!(a).as_int().wrapping_rem(d))
                    };
                    assign(regm!(dst), v);
                }
                Instr::NegInt { dst, a } => {
                    let v = reg!(a).as_int().wrapping_neg();
                    store_int(regm!(dst), v);
                }
                // ---- bitwise (int) ----
                Instr::AndInt { dst, a, b } => {
                    let v = reg!(a).as_int() & reg!(b).as_int();
                    store_int(regm!(dst), v);
                }
                Instr::OrInt { dst, a, b } => {
                    let v = reg!(a).as_int() | reg!(b).as_int();
                    store_int(regm!(dst), v);
                }
                Instr::XorInt { dst, a, b } => {
                    let v = reg!(a).as_int() ^ reg!(b).as_int();
                    store_int(regm!(dst), v);
                }
                Instr::ShlInt { dst, a, b } => {
                    let v = shift(reg!(a).as_int(), reg!(b).as_int(), true);
                    assign(regm!(dst), v);
                }
                Instr::ShrInt { dst, a, b } => {
                    let v = shift(reg!(a).as_int(), reg!(b).as_int(), false);
                    assign(regm!(dst), v);
                }
                Instr::NotInt { dst, a } => {
                    let v = !reg!(a).as_int();
                    store_int(regm!(dst), v);
                }
                Instr::IntToFloat { dst, a } => {
                    let v = match reg!(a) {
                        Value::Int(i) => *i as f64,
                        _ => f64::NAN,
                    };
                    store_float(regm!(dst), v);
                }

                // ---- float arithmetic ----
                Instr::AddFloat { dst, a, b } => {
                    let v = reg!(a).as_float() + reg!(b).as_float();
                    store_float(regm!(dst), v);
                }
                Instr::SubFloat { dst, a, b } => {
                    let v = reg!(a).as_float() - reg!(b).as_float();
                    store_float(regm!(dst), v);
                }
                Instr::MulFloat { dst, a, b } => {
                    let v = reg!(a).as_float() * reg!(b).as_float();
                    store_float(regm!(dst), v);
                }
                Instr::DivFloat { dst, a, b } => {
                    let d = reg!(b).as_float();
                    let v = if d == 0.0 {
                        f64::NAN
                    } else {
                        reg!(a).as_float() / d
                    };
                    store_float(regm!(dst), v);
                }
                Instr::ModFloat { dst, a, b } => {
                    let d = reg!(b).as_float();
                    let v = if d == 0.0 {
                        f64::NAN
                    } else {
                        reg!(a).as_float() % d
                    };
                    store_float(regm!(dst), v);
                }
                Instr::NegFloat { dst, a } => {
                    let v = -reg!(a).as_float();
                    store_float(regm!(dst), v);
                }

                // ---- comparisons ----
                Instr::EqInt { dst, a, b } => {
                    let v = eq_int(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::NeInt { dst, a, b } => {
                    let v = !eq_int(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::LtInt { dst, a, b } => {
                    let v = reg!(a).as_int() < reg!(b).as_int();
                    store_bool(regm!(dst), v);
                }
                Instr::LeInt { dst, a, b } => {
                    let v = reg!(a).as_int() <= reg!(b).as_int();
                    store_bool(regm!(dst), v);
                }
                Instr::EqFloat { dst, a, b } => {
                    let v = reg!(a).as_float() == reg!(b).as_float();
                    store_bool(regm!(dst), v);
                }
                Instr::NeFloat { dst, a, b } => {
                    let (x, y) = (reg!(a).as_float(), reg!(b).as_float());
                    // §8.2: a NaN (null float) is neither == nor != anything.
                    let v = !x.is_nan() && !y.is_nan() && x != y;
                    store_bool(regm!(dst), v);
                }
                Instr::LtFloat { dst, a, b } => {
                    let v = reg!(a).as_float() < reg!(b).as_float();
                    store_bool(regm!(dst), v);
                }
                Instr::LeFloat { dst, a, b } => {
                    let v = reg!(a).as_float() <= reg!(b).as_float();
                    store_bool(regm!(dst), v);
                }
                Instr::EqBool { dst, a, b } => {
                    let v = eq_scalar(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::NeBool { dst, a, b } => {
                    let v = !eq_scalar(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::EqText { dst, a, b } => {
                    let v = eq_text(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::NeText { dst, a, b } => {
                    let v = !eq_text(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::EqRef { dst, a, b } => {
                    let v = same_ref(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::NeRef { dst, a, b } => {
                    let v = !same_ref(reg!(a), reg!(b));
                    store_bool(regm!(dst), v);
                }
                Instr::IsNull { dst, src } => {
                    let v = reg!(src).is_null();
                    store_bool(regm!(dst), v);
                }
                Instr::NotNull { dst, src } => {
                    let v = !reg!(src).is_null();
                    store_bool(regm!(dst), v);
                }
                Instr::Not { dst, src } => {
                    let v = !reg!(src).as_bool();
                    store_bool(regm!(dst), v);
                }

                // ---- control flow ----
                Instr::JumpLtInt { a, b, off } => {
                    branch_if!(reg!(a).as_int() < reg!(b).as_int(), off)
                }
                Instr::JumpLeInt { a, b, off } => {
                    branch_if!(reg!(a).as_int() <= reg!(b).as_int(), off)
                }
                Instr::JumpEqInt { a, b, off } => branch_if!(eq_int(reg!(a), reg!(b)), off),
                Instr::JumpNeInt { a, b, off } => branch_if!(!eq_int(reg!(a), reg!(b)), off),
                Instr::JumpLtIntImm { a, imm, off } => {
                    branch_if!(reg!(a).as_int() < imm as i64, off)
                }
                Instr::JumpLeIntImm { a, imm, off } => {
                    branch_if!(reg!(a).as_int() <= imm as i64, off)
                }
                Instr::JumpGtIntImm { a, imm, off } => {
                    branch_if!(reg!(a).as_int() > imm as i64, off)
                }
                Instr::JumpGeIntImm { a, imm, off } => {
                    branch_if!(reg!(a).as_int() >= imm as i64, off)
                }
                Instr::JumpEqIntImm { a, imm, off } => {
                    branch_if!(matches!(*reg!(a), Value::Int(x) if x == imm as i64), off)
                }
                Instr::JumpNeIntImm { a, imm, off } => {
                    branch_if!(!matches!(*reg!(a), Value::Int(x) if x == imm as i64), off)
                }
                Instr::JumpLtFloat { a, b, off } => {
                    branch_if!(reg!(a).as_float() < reg!(b).as_float(), off)
                }
                Instr::JumpLeFloat { a, b, off } => {
                    branch_if!(reg!(a).as_float() <= reg!(b).as_float(), off)
                }
                Instr::JumpNotLtFloat { a, b, off } => {
                    // NaN: not ordered, so the branch is taken.
                    let ordered = reg!(a).as_float().partial_cmp(&reg!(b).as_float());
                    if !matches!(ordered, Some(std::cmp::Ordering::Less)) {
                        jump!(off);
                    }
                }
                Instr::JumpNotLeFloat { a, b, off } => {
                    let ordered = reg!(a).as_float().partial_cmp(&reg!(b).as_float());
                    if !matches!(
                        ordered,
                        Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
                    ) {
                        jump!(off);
                    }
                }
                Instr::AddIntImmCmpJump { dst, a, imm } => {
                    let v = reg!(a).as_int().wrapping_add(imm as i64);
                    store_int(regm!(dst), v);
                    // The branch at `ip` (guaranteed by the verifier and
                    // `fuse_pairs`) runs here, then `ip` moves
                    // past it or to its target.
                    // SAFETY: `ip` points at that branch, inside the code.
                    let (taken, off) = match unsafe { *ip } {
                        Instr::JumpLtInt { a, b, off } => {
                            (reg!(a).as_int() < reg!(b).as_int(), off)
                        }
                        Instr::JumpLeInt { a, b, off } => {
                            (reg!(a).as_int() <= reg!(b).as_int(), off)
                        }
                        // Unreachable for verified code; run it normally.
                        _ => continue,
                    };
                    // SAFETY: the branch and its target are inside the code.
                    ip = unsafe { ip.add(1) };
                    if taken {
                        jump!(off);
                    }
                }
                Instr::Jump { off } => jump!(off),
                Instr::JumpIfTrue { cond, off } => branch_if!(reg!(cond).as_bool(), off),
                Instr::JumpIfFalse { cond, off } => branch_if!(!reg!(cond).as_bool(), off),
                Instr::Call {
                    dst,
                    base: b,
                    func: callee,
                } => call!(callee as u32, b, dst),
                Instr::CallValue {
                    dst,
                    callee,
                    base: b,
                } => {
                    let target = match reg!(callee) {
                        Value::Func(f) if (*f as usize) < self.program.functions.len() => *f,
                        _ => fail!("call of a null function value"),
                    };
                    call!(target, b, dst)
                }
                Instr::CallNative {
                    dst,
                    base: b,
                    id,
                    argc,
                } => {
                    let mut args = std::mem::take(&mut self.arg_buf);
                    let start = self.cur.base + b as usize;
                    args.extend_from_slice(&self.regs[start..start + argc as usize]);
                    self.cur_loc = (self.cur.func, pc_now!() - 1);
                    self.native_top = self.cur.base + self.cur.nregs;
                    let f = self.natives[id as usize];
                    let res = f(self, &args);
                    args.clear();
                    self.arg_buf = args;
                    // The native may have called back into Festina, which
                    // can grow (reallocate) the register stack.
                    sync_fp!();
                    match res {
                        Ok(v) => {
                            assign(regm!(dst), v);
                            if crate::oom::low() {
                                fail!("out of memory")
                            }
                        }
                        Err(Trap::Park) => {
                            // Set aside (`park.rs`): resumed at `ip` with
                            // the native's result in `R[dst]`.
                            self.park_point = Some(super::park::ParkPoint {
                                ip,
                                dst,
                                cur: self.cur,
                            });
                            return Err(Trap::Park);
                        }
                        Err(t) => trap!(t),
                    }
                }
                Instr::Return { src } => {
                    // A scalar is rebuilt from its payload rather than moved
                    // as 16 bytes: its tag and payload were usually just
                    // written by separate stores, which a 16-byte load
                    // cannot be forwarded from.
                    let v = match *reg!(src) {
                        Value::Int(i) => Value::Int(i),
                        Value::Float(f) => Value::Float(f),
                        Value::Bool(b) => Value::Bool(b),
                        _ => std::mem::take(regm!(src)),
                    };
                    match self.pop_frame() {
                        None => return Ok(v),
                        Some((ret, dst)) => {
                            ip = ret;
                            sync_fp!();
                            assign(regm!(dst), v);
                        }
                    }
                }
                Instr::ReturnVoid {} => match self.pop_frame() {
                    None => return Ok(Value::Null),
                    Some((ret, _)) => ip = ret,
                },

                // ---- exceptions ----
                Instr::TryEnter { reg, off } => self.handlers.push(Handler {
                    depth: self.frames.len(),
                    func: self.cur.func,
                    base: self.cur.base,
                    reg,
                    target: (pc_now!() as isize + off as isize) as usize,
                }),
                Instr::TryExit {} => {
                    self.handlers.pop();
                }
                Instr::Throw { src } => {
                    let m = self.text_of(self.cur.base + src as usize);
                    trap!(Trap::Throw(m))
                }
                Instr::Fail { src } => {
                    let m = self.text_of(self.cur.base + src as usize);
                    trap!(Trap::Fail(m))
                }

                // ---- text ----
                Instr::Concat { dst, a, b } | Instr::ConcatAscii { dst, a, b } => {
                    match concat(reg!(a), reg!(b)) {
                        Ok(v) => assign(regm!(dst), v),
                        Err(_) => {
                            let n = text_bytes(reg!(a)) + text_bytes(reg!(b));
                            fail!("out of memory growing a text to {n} bytes")
                        }
                    }
                }
                Instr::AppendText { dst, src } => {
                    let more = reg!(src).clone();
                    if regm!(dst).append_text(&more).is_err() {
                        let n = text_bytes(reg!(dst)) + text_bytes(&more);
                        fail!("out of memory growing a text to {n} bytes")
                    }
                }
                Instr::ToText { dst, src, mode } => {
                    let v = match reg!(src) {
                        Value::Text(t) => Value::Text(t.clone()),
                        other => to_text_slow(&self.program, other, mode != 0),
                    };
                    assign(regm!(dst), v);
                    if crate::oom::low() {
                        fail!("out of memory")
                    }
                }
                Instr::TextIndex { dst, s, i } => {
                    let v = text_index(reg!(s), reg!(i).as_int());
                    assign(regm!(dst), v);
                }
                Instr::TextLen { dst, s } => {
                    let n = match reg!(s) {
                        Value::Text(t) => t.char_len() as i64,
                        Value::Ascii(a) => a.len() as i64,
                        _ => 0,
                    };
                    store_int(regm!(dst), n);
                }
                Instr::AsciiIndex { dst, s, i } => {
                    let idx = reg!(i).as_int();
                    let v = match reg!(s) {
                        Value::Ascii(a) if idx >= 0 && (idx as usize) < a.len() => {
                            Value::ascii(vec![a[idx as usize]])
                        }
                        _ => Value::Null,
                    };
                    assign(regm!(dst), v);
                }
                Instr::AsciiCodeAt { dst, s, i } => {
                    let idx = reg!(i).as_int();
                    let c = match reg!(s) {
                        Value::Ascii(a) if idx >= 0 && (idx as usize) < a.len() => {
                            Some(a[idx as usize] as i64)
                        }
                        _ => None,
                    };
                    match c {
                        Some(c) => store_int(regm!(dst), c),
                        None => assign(regm!(dst), Value::Null),
                    }
                }
                Instr::AsciiLen { dst, s } => {
                    let n = match reg!(s) {
                        Value::Ascii(a) => a.len() as i64,
                        Value::Text(t) => t.as_str().len() as i64,
                        _ => 0,
                    };
                    store_int(regm!(dst), n);
                }

                // ---- structs ----
                Instr::NewStruct { dst, sid } => {
                    alloc_site!();
                    let fields = self
                        .heap
                        .fields_like(&self.tables.struct_zero[sid as usize]);
                    let tracked = self.tables.struct_tracked[sid as usize];
                    let s = self.heap.new_struct(sid, false, fields, tracked);
                    assign(regm!(dst), Value::Struct(s));
                }
                Instr::GetField { dst, obj, field } | Instr::GetFieldWeak { dst, obj, field } => {
                    let v = match reg!(obj) {
                        Value::Struct(s) => s.get(field as usize),
                        _ => None,
                    };
                    match v {
                        // Only a weak field holds a link: its target while
                        // alive, else null.
                        Some(Value::Weak(cell)) => {
                            let v = cell.upgrade().map_or(Value::Null, Value::Struct);
                            assign(regm!(dst), v)
                        }
                        Some(v) => assign(regm!(dst), v),
                        None => trap!(self.field_fault(
                            self.cur.func,
                            pc_now!() - 1,
                            obj,
                            field,
                            "read"
                        )),
                    }
                }
                Instr::GetFieldViv { dst, obj, field } => {
                    let v = match reg!(obj) {
                        Value::Struct(s) => match s.get(field as usize) {
                            Some(Value::Null) => Some(self.vivify_field(&s.clone(), field)),
                            other => other,
                        },
                        _ => None,
                    };
                    match v {
                        Some(v) => assign(regm!(dst), v),
                        None => trap!(self.field_fault(
                            self.cur.func,
                            pc_now!() - 1,
                            obj,
                            field,
                            "read"
                        )),
                    }
                }
                Instr::SetField { obj, field, src } | Instr::SetFieldWeak { obj, field, src } => {
                    let v = match (ins, reg!(src)) {
                        // A weak field keeps a link, not a count.
                        (Instr::SetFieldWeak { .. }, Value::Struct(r)) => {
                            Value::Weak(self.heap.weak_cell(r))
                        }
                        (Instr::SetFieldWeak { .. }, _) => Value::Null,
                        (_, v) => v.clone(),
                    };
                    let ok = match reg!(obj) {
                        Value::Struct(s) => s.set(field as usize, v),
                        _ => false,
                    };
                    if !ok {
                        trap!(self.field_fault(self.cur.func, pc_now!() - 1, obj, field, "written"))
                    }
                }

                // ---- enums ----
                Instr::EnumWrap { dst, src, member } => {
                    let v = match reg!(src) {
                        Value::Null => Value::Null,
                        // Already an enum value (e.g. re-wrapped): keep it.
                        Value::Enum(b) => Value::Enum(b.clone()),
                        other => Value::Enum(Rc::new(EnumBox {
                            member,
                            value: other.clone(),
                        })),
                    };
                    assign(regm!(dst), v);
                }
                Instr::EnumUnwrap { dst, src } => {
                    let v = match reg!(src) {
                        Value::Enum(b) => b.value.clone(),
                        other => other.clone(),
                    };
                    assign(regm!(dst), v);
                }
                Instr::EnumTag { dst, src, enum_id } => enum_tag!(dst, src, enum_id as u32),
                Instr::EnumTagWide { dst, src } => enum_tag!(dst, src, extra_arg!()),
                Instr::EnumTypeof { dst, src, enum_id } => {
                    enum_typeof!(dst, src, enum_id as u32)
                }
                Instr::EnumTypeofWide { dst, src } => enum_typeof!(dst, src, extra_arg!()),
                Instr::EnumField { dst, obj, idx } => enum_field!(dst, obj, idx as u32),
                Instr::EnumFieldWide { dst, obj } => enum_field!(dst, obj, extra_arg!()),
                Instr::ExtraArg { .. } => {}

                // ---- arrays ----
                Instr::NewArr { dst, cap } => {
                    alloc_site!();
                    let a = self.heap.new_arr(Vec::with_capacity(cap as usize));
                    assign(regm!(dst), Value::Arr(a));
                }
                Instr::NewArrFrom { dst, base: b, n } => {
                    alloc_site!();
                    let mut items = Vec::with_capacity(n as usize);
                    for k in 0..n {
                        items.push(copy_value(reg!(b + k)));
                    }
                    let a = self.heap.new_arr(items);
                    assign(regm!(dst), Value::Arr(a));
                }
                Instr::ArrPush { arr, src } => {
                    let v = copy_value(reg!(src));
                    match reg!(arr) {
                        Value::Arr(a) => {
                            if a.try_push(v).is_err() {
                                let n = a.len() + 1;
                                fail!("out of memory growing an array to {n} elements")
                            }
                        }
                        _ => fail!("push onto a null array"),
                    }
                }
                Instr::ArrPop { dst, arr } => {
                    let v = match reg!(arr) {
                        Value::Arr(a) => a.pop().unwrap_or(Value::Null),
                        _ => Value::Null,
                    };
                    assign(regm!(dst), v);
                }
                Instr::ArrGet { dst, arr, idx } => {
                    let i = reg!(idx).as_int();
                    // An int element is copied without a retain or a call.
                    let v = match reg!(arr) {
                        Value::Arr(a) if i >= 0 => a.with(i as usize, |v| match *v {
                            Value::Int(x) => Ok(x),
                            ref other => Err(other.clone()),
                        }),
                        _ => None,
                    };
                    match v {
                        Some(Ok(x)) => store_int(regm!(dst), x),
                        Some(Err(v)) => assign(regm!(dst), v),
                        None => {
                            let len = arr_len(reg!(arr));
                            fail!("index {i} out of range for array of length {len}")
                        }
                    }
                }
                Instr::ArrSet { arr, idx, src } => {
                    let i = reg!(idx).as_int();
                    let v = reg!(src).clone();
                    let ok = match reg!(arr) {
                        Value::Arr(a) if i >= 0 => a.set(i as usize, v),
                        _ => false,
                    };
                    if !ok {
                        let len = arr_len(reg!(arr));
                        fail!("index {i} out of range for array of length {len}")
                    }
                }
                Instr::ArrLen { dst, arr } => {
                    let n = arr_len(reg!(arr));
                    store_int(regm!(dst), n as i64);
                }

                // ---- maps ----
                Instr::NewMap { dst } => {
                    alloc_site!();
                    let m = self.heap.new_map();
                    assign(regm!(dst), Value::Map(m));
                }
                Instr::MapGet { dst, map, key } => {
                    let v = match (reg!(map), reg!(key)) {
                        (Value::Map(m), k) => m.get(key_str(k)).unwrap_or(Value::Null),
                        _ => Value::Null,
                    };
                    assign(regm!(dst), v);
                }
                Instr::MapSet { map, key, src } => {
                    let v = reg!(src).clone();
                    match (reg!(map), reg!(key)) {
                        (Value::Map(m), k) => {
                            if m.try_set(key_str(k), v).is_err() || crate::oom::low() {
                                let n = m.len() + 1;
                                fail!("out of memory growing a map to {n} entries")
                            }
                        }
                        _ => fail!("map entry written through null"),
                    }
                }
                Instr::MapDelete { map, key } => {
                    if let (Value::Map(m), k) = (reg!(map), reg!(key)) {
                        m.delete(key_str(k));
                    }
                }

                // ---- memory ----
                Instr::Clear { reg } => {
                    let v = std::mem::take(regm!(reg));
                    crate::heap::wipe(v);
                }
            }
        }
    }

    /// The fast path of the dispatch loop: runs from `ip` the common
    /// cases of the hot instructions (int and float arithmetic, compares
    /// and branches, scalar moves, calls and returns whose windows hold
    /// only scalars) and returns the address of the first instruction it
    /// does not handle -- another instruction, a null operand, a
    /// destination holding a managed value, a full frame stack -- for the
    /// full step of [`Interpreter::dispatch_loop`] to run with every rule of
    /// its semantics. Nothing here calls a function, so LLVM keeps `ip`,
    /// `fp` and `self` in machine registers, which the big loop, with its
    /// hundred arms and their calls, cannot (benches/RESULTS.md, step 10).
    /// The current frame (`self.cur`) is kept up to date on calls and
    /// returns.
    #[inline(never)]
    pub(super) fn run_fast(&mut self, mut ip: *const Instr) -> *const Instr {
        // The current frame, in machine registers while this runs; written
        // back on the way out.
        let mut cur = self.cur;
        debug_assert!(cur.base + cur.nregs <= self.regs.len());
        // SAFETY: the current window lies inside the register stack.
        let mut fp: *mut Value = unsafe { self.regs.as_mut_ptr().add(cur.base) };
        macro_rules! reg {
            ($x:expr) => {{
                // SAFETY: as in `dispatch_loop`: verified register operands,
                // `fp` at `R[0]` of the current window.
                unsafe { &*fp.add($x as usize) }
            }};
        }
        macro_rules! regm {
            ($x:expr) => {{
                // SAFETY: as in `reg!`.
                unsafe { &mut *fp.add($x as usize) }
            }};
        }
        macro_rules! jump {
            ($off:expr) => {
                // SAFETY: verified jump targets lie inside the code.
                ip = unsafe { ip.offset($off as isize) }
            };
        }
        macro_rules! branch_if {
            ($c:expr, $off:expr) => {
                if $c {
                    jump!($off)
                }
            };
        }
        loop {
            // SAFETY: as for the full step below.
            let ins: &Instr = unsafe { &*ip };
            ip = unsafe { ip.add(1) };
            macro_rules! slow {
                () => {{
                    // SAFETY: undoes the increment just above.
                    ip = unsafe { ip.sub(1) };
                    self.cur = cur;
                    return ip;
                }};
            }
            macro_rules! int {
                ($r:expr) => {
                    match *reg!($r) {
                        Value::Int(x) => x,
                        _ => slow!(),
                    }
                };
            }
            macro_rules! float {
                ($r:expr) => {
                    match *reg!($r) {
                        Value::Float(x) => x,
                        _ => slow!(),
                    }
                };
            }
            // `R[dst] := v` over a scalar; a managed old value needs a
            // release, which the full step does.
            // The value is built inside the write, from its payload, so
            // that the tag and payload are stored directly (a value built
            // first and copied as 16 bytes defeats store forwarding).
            macro_rules! put {
                ($dst:expr, Value::$variant:ident($v:expr)) => {{
                    let x = $v;
                    let slot = regm!($dst);
                    if !slot.is_scalar() {
                        slow!();
                    }
                    // SAFETY: the old scalar owns nothing.
                    unsafe { std::ptr::write(slot, Value::$variant(x)) }
                }};
            }
            match *ins {
                Instr::Move { dst, src } => match *reg!(src) {
                    Value::Int(i) => put!(dst, Value::Int(i)),
                    Value::Float(f) => put!(dst, Value::Float(f)),
                    Value::Bool(b) => put!(dst, Value::Bool(b)),
                    _ => slow!(),
                },
                Instr::LoadInt { dst, imm } => put!(dst, Value::Int(imm as i64)),
                Instr::AddInt { dst, a, b } => {
                    put!(dst, Value::Int(int!(a).wrapping_add(int!(b))))
                }
                Instr::AddIntImm { dst, a, imm } => {
                    put!(dst, Value::Int(int!(a).wrapping_add(imm as i64)))
                }
                Instr::SubInt { dst, a, b } => {
                    put!(dst, Value::Int(int!(a).wrapping_sub(int!(b))))
                }
                Instr::MulInt { dst, a, b } => {
                    put!(dst, Value::Int(int!(a).wrapping_mul(int!(b))))
                }
                Instr::MulAddInt { dst, a, b } => {
                    let m = int!(a).wrapping_mul(int!(b));
                    // SAFETY: the loader formed this only before an
                    // instruction (there is always one: the appended
                    // `ReturnVoid`).
                    match unsafe { *ip } {
                        Instr::AddInt { dst: d, a: x, b: y } => {
                            // The `AddInt`'s operands as they read after
                            // the product is stored; all read before
                            // anything is written.
                            let l = if x == dst { m } else { int!(x) };
                            let r = if y == dst { m } else { int!(y) };
                            put!(dst, Value::Int(m));
                            // SAFETY: skips the `AddInt` just run.
                            ip = unsafe { ip.add(1) };
                            // Should `d` hold a managed value, `put!`
                            // leaves with `ip` at the `AddInt`, which the
                            // full step then runs: the product is stored.
                            put!(d, Value::Int(l.wrapping_add(r)));
                        }
                        _ => put!(dst, Value::Int(m)),
                    }
                }
                Instr::ModInt { dst, a, b } => {
                    let (x, d) = (int!(a), int!(b));
                    // 0 (null result) and -1 (overflow for i64::MIN) are
                    // the full step's; for any other divisor `%` is exact.
                    if (d as u64).wrapping_add(1) <= 1 {
                        slow!();
                    }
                    put!(dst, Value::Int(x % d))
                }
                Instr::AndInt { dst, a, b } => put!(dst, Value::Int(int!(a) & int!(b))),
                Instr::OrInt { dst, a, b } => put!(dst, Value::Int(int!(a) | int!(b))),
                Instr::XorInt { dst, a, b } => put!(dst, Value::Int(int!(a) ^ int!(b))),
                Instr::ShlInt { dst, a, b } => {
                    let (x, c) = (int!(a), int!(b));
                    // A count outside 0..64 (null result) is the full step's.
                    if !(0..64).contains(&c) {
                        slow!();
                    }
                    put!(dst, Value::Int(x.wrapping_shl(c as u32)))
                }
                Instr::ShrInt { dst, a, b } => {
                    let (x, c) = (int!(a), int!(b));
                    if !(0..64).contains(&c) {
                        slow!();
                    }
                    put!(dst, Value::Int(x >> c))
                }
                Instr::AddFloat { dst, a, b } => put!(dst, Value::Float(float!(a) + float!(b))),
                Instr::SubFloat { dst, a, b } => put!(dst, Value::Float(float!(a) - float!(b))),
                Instr::MulFloat { dst, a, b } => put!(dst, Value::Float(float!(a) * float!(b))),
                Instr::LtInt { dst, a, b } => put!(dst, Value::Bool(int!(a) < int!(b))),
                Instr::LeInt { dst, a, b } => put!(dst, Value::Bool(int!(a) <= int!(b))),
                Instr::EqInt { dst, a, b } => put!(dst, Value::Bool(int!(a) == int!(b))),
                Instr::NeInt { dst, a, b } => put!(dst, Value::Bool(int!(a) != int!(b))),
                Instr::LoadBool { dst, value } => put!(dst, Value::Bool(value != 0)),
                Instr::Not { dst, src } => match *reg!(src) {
                    Value::Bool(b) => put!(dst, Value::Bool(!b)),
                    _ => slow!(),
                },
                Instr::ArrLen { dst, arr } => match reg!(arr) {
                    Value::Arr(a) => put!(dst, Value::Int(a.len() as i64)),
                    _ => slow!(),
                },
                Instr::ArrGet { dst, arr, idx } => {
                    let i = int!(idx);
                    let x = match reg!(arr) {
                        Value::Arr(a) if i >= 0 => a.with(i as usize, |v| match *v {
                            Value::Int(x) => Some(x),
                            _ => None,
                        }),
                        _ => None,
                    };
                    match x {
                        Some(Some(x)) => put!(dst, Value::Int(x)),
                        _ => slow!(),
                    }
                }
                Instr::GetField { dst, obj, field } => {
                    // A scalar field; anything else needs a retain.
                    let v = match reg!(obj) {
                        Value::Struct(s) => s.with(field as usize, |v| match *v {
                            Value::Int(x) => Some((0u8, x as u64)),
                            Value::Float(f) => Some((1, f.to_bits())),
                            Value::Bool(b) => Some((2, b as u64)),
                            _ => None,
                        }),
                        _ => None,
                    };
                    match v {
                        Some(Some((0, x))) => put!(dst, Value::Int(x as i64)),
                        Some(Some((1, x))) => put!(dst, Value::Float(f64::from_bits(x))),
                        Some(Some((_, x))) => put!(dst, Value::Bool(x != 0)),
                        _ => slow!(),
                    }
                }
                Instr::AsciiCodeAt { dst, s, i } => {
                    let i = int!(i);
                    let c = match reg!(s) {
                        Value::Ascii(a) if i >= 0 => a.get(i as usize).copied(),
                        _ => None,
                    };
                    match c {
                        Some(c) => put!(dst, Value::Int(c as i64)),
                        None => slow!(),
                    }
                }
                Instr::AsciiLen { dst, s } => match reg!(s) {
                    Value::Ascii(a) => put!(dst, Value::Int(a.len() as i64)),
                    _ => slow!(),
                },
                Instr::Jump { off } => jump!(off),
                Instr::JumpIfTrue { cond, off } => branch_if!(reg!(cond).as_bool(), off),
                Instr::JumpIfFalse { cond, off } => branch_if!(!reg!(cond).as_bool(), off),
                Instr::JumpLtInt { a, b, off } => branch_if!(int!(a) < int!(b), off),
                Instr::JumpLeInt { a, b, off } => branch_if!(int!(a) <= int!(b), off),
                Instr::JumpEqInt { a, b, off } => branch_if!(int!(a) == int!(b), off),
                Instr::JumpNeInt { a, b, off } => branch_if!(int!(a) != int!(b), off),
                Instr::JumpLtIntImm { a, imm, off } => branch_if!(int!(a) < imm as i64, off),
                Instr::JumpLeIntImm { a, imm, off } => branch_if!(int!(a) <= imm as i64, off),
                Instr::JumpGtIntImm { a, imm, off } => branch_if!(int!(a) > imm as i64, off),
                Instr::JumpGeIntImm { a, imm, off } => branch_if!(int!(a) >= imm as i64, off),
                Instr::JumpEqIntImm { a, imm, off } => branch_if!(int!(a) == imm as i64, off),
                Instr::JumpNeIntImm { a, imm, off } => branch_if!(int!(a) != imm as i64, off),
                Instr::JumpLtFloat { a, b, off } => branch_if!(float!(a) < float!(b), off),
                Instr::JumpLeFloat { a, b, off } => branch_if!(float!(a) <= float!(b), off),
                Instr::AddIntImmCmpJump { dst, a, imm } => {
                    // The sum, then the branch's operands as they read
                    // after the sum is stored (either may be `dst`),
                    // all before anything is written.
                    macro_rules! incr_operands {
                        ($x:expr, $y:expr) => {{
                            let v = int!(a).wrapping_add(imm as i64);
                            let l = if $x == dst { v } else { int!($x) };
                            let r = if $y == dst { v } else { int!($y) };
                            (v, l, r)
                        }};
                    }
                    // SAFETY: the verifier puts an int branch after it.
                    let (taken, off) = match unsafe { *ip } {
                        Instr::JumpLtInt { a: x, b: y, off } => {
                            let (v, l, r) = incr_operands!(x, y);
                            put!(dst, Value::Int(v));
                            (l < r, off)
                        }
                        Instr::JumpLeInt { a: x, b: y, off } => {
                            let (v, l, r) = incr_operands!(x, y);
                            put!(dst, Value::Int(v));
                            (l <= r, off)
                        }
                        _ => slow!(),
                    };
                    // SAFETY: the branch and its target are in the code.
                    ip = unsafe { ip.add(1) };
                    if taken {
                        jump!(off);
                    }
                }
                Instr::Call {
                    dst,
                    base: b,
                    func: callee,
                } => {
                    match self.push_frame(&mut cur, ip, dst, callee as u32, b) {
                        Ok(code) => {
                            ip = code;
                            // SAFETY: the callee's window starts at the
                            // caller's `R[b]` and fits the register stack
                            // (checked by `push_frame`).
                            fp = unsafe { fp.add(b as usize) };
                        }
                        // A stack overflow or a stack to grow: the full
                        // step's.
                        Err(_) => slow!(),
                    }
                }
                Instr::Return { src } => {
                    // Every check before anything is written.
                    let Some(&f) = self.frames.last() else {
                        slow!()
                    };
                    if !self.handlers.is_empty() {
                        slow!();
                    }
                    // SAFETY: the window `[base, base + nregs)` is live.
                    let window =
                        unsafe { std::slice::from_raw_parts(fp as *const Value, cur.nregs) };
                    // SAFETY: `cur.func` is a verified function index.
                    let scalar_only = unsafe { self.fns.get_unchecked(cur.func as usize).scalar };
                    if !scalar_only && !window.iter().all(Value::is_scalar) {
                        slow!();
                    }
                    // SAFETY: the caller's window lies below ours in the
                    // register stack, and its `dst` is one of its registers
                    // (verified).
                    let caller = unsafe { self.regs.as_mut_ptr().add(f.base) };
                    let slot = unsafe { &mut *caller.add(f.dst as usize) };
                    if !slot.is_scalar() {
                        slow!();
                    }
                    // The result is rebuilt from its payload inside each
                    // write (see `put!`). SAFETY: the old scalar owns nothing.
                    match *reg!(src) {
                        Value::Int(i) => unsafe { std::ptr::write(slot, Value::Int(i)) },
                        Value::Float(x) => unsafe { std::ptr::write(slot, Value::Float(x)) },
                        Value::Bool(b) => unsafe { std::ptr::write(slot, Value::Bool(b)) },
                        _ => slow!(),
                    }
                    // SAFETY: `last()` was `Some`, so the length is > 0.
                    unsafe { self.frames.set_len(self.frames.len() - 1) };
                    cur = Cur {
                        func: f.func,
                        base: f.base,
                        nregs: f.nregs as usize,
                    };
                    ip = f.ret;
                    fp = caller;
                }
                // Every other instruction is the full step's. Naming each one
                // (no `_` arm) lets the jump table span every opcode, so the
                // dispatch needs no range check.
                Instr::LoadConst { .. }
                | Instr::LoadNull { .. }
                | Instr::Release { .. }
                | Instr::LoadFunc { .. }
                | Instr::GetGlobal { .. }
                | Instr::SetGlobal { .. }
                | Instr::GetGlobalViv { .. }
                | Instr::NegInt { .. }
                | Instr::NotInt { .. }
                | Instr::EqRef { .. }
                | Instr::NeRef { .. }
                | Instr::GetFieldWeak { .. }
                | Instr::SetFieldWeak { .. }
                | Instr::IntToFloat { .. }
                | Instr::DivFloat { .. }
                | Instr::ModFloat { .. }
                | Instr::NegFloat { .. }
                | Instr::EqFloat { .. }
                | Instr::NeFloat { .. }
                | Instr::LtFloat { .. }
                | Instr::LeFloat { .. }
                | Instr::EqBool { .. }
                | Instr::NeBool { .. }
                | Instr::EqText { .. }
                | Instr::NeText { .. }
                | Instr::IsNull { .. }
                | Instr::NotNull { .. }
                | Instr::JumpNotLtFloat { .. }
                | Instr::JumpNotLeFloat { .. }
                | Instr::CallValue { .. }
                | Instr::CallNative { .. }
                | Instr::ReturnVoid { .. }
                | Instr::TryEnter { .. }
                | Instr::TryExit { .. }
                | Instr::Throw { .. }
                | Instr::Fail { .. }
                | Instr::Concat { .. }
                | Instr::AppendText { .. }
                | Instr::ConcatAscii { .. }
                | Instr::ToText { .. }
                | Instr::TextIndex { .. }
                | Instr::TextLen { .. }
                | Instr::AsciiIndex { .. }
                | Instr::NewStruct { .. }
                | Instr::GetFieldViv { .. }
                | Instr::SetField { .. }
                | Instr::EnumWrap { .. }
                | Instr::EnumUnwrap { .. }
                | Instr::EnumTag { .. }
                | Instr::EnumTypeof { .. }
                | Instr::EnumField { .. }
                | Instr::EnumTagWide { .. }
                | Instr::EnumTypeofWide { .. }
                | Instr::EnumFieldWide { .. }
                | Instr::ExtraArg { .. }
                | Instr::NewArr { .. }
                | Instr::ArrPush { .. }
                | Instr::NewArrFrom { .. }
                | Instr::ArrPop { .. }
                | Instr::ArrSet { .. }
                | Instr::NewMap { .. }
                | Instr::MapGet { .. }
                | Instr::MapSet { .. }
                | Instr::MapDelete { .. }
                | Instr::Clear { .. } => slow!(),
            }
        }
    }
}

/// True for the instructions [`Interpreter::run_fast`] has a fast path
/// for (it may still leave at one of them, for a null operand or a managed
/// destination, say): the ones it names outside its final catch-all arm.
/// Only speed depends on the two lists agreeing: `run_fast` returns at
/// once from an instruction it does not handle, and the full step runs
/// every instruction.
#[inline(always)]
pub(super) fn has_fast_path(ins: &Instr) -> bool {
    matches!(
        ins,
        Instr::Move { .. }
            | Instr::LoadInt { .. }
            | Instr::AddInt { .. }
            | Instr::AddIntImm { .. }
            | Instr::SubInt { .. }
            | Instr::MulInt { .. }
            | Instr::MulAddInt { .. }
            | Instr::ModInt { .. }
            | Instr::AndInt { .. }
            | Instr::OrInt { .. }
            | Instr::XorInt { .. }
            | Instr::ShlInt { .. }
            | Instr::ShrInt { .. }
            | Instr::AddFloat { .. }
            | Instr::SubFloat { .. }
            | Instr::MulFloat { .. }
            | Instr::LtInt { .. }
            | Instr::LeInt { .. }
            | Instr::EqInt { .. }
            | Instr::NeInt { .. }
            | Instr::LoadBool { .. }
            | Instr::Not { .. }
            | Instr::ArrLen { .. }
            | Instr::ArrGet { .. }
            | Instr::GetField { .. }
            | Instr::AsciiCodeAt { .. }
            | Instr::AsciiLen { .. }
            | Instr::Jump { .. }
            | Instr::JumpIfTrue { .. }
            | Instr::JumpIfFalse { .. }
            | Instr::JumpLtInt { .. }
            | Instr::JumpLeInt { .. }
            | Instr::JumpEqInt { .. }
            | Instr::JumpNeInt { .. }
            | Instr::JumpLtIntImm { .. }
            | Instr::JumpLeIntImm { .. }
            | Instr::JumpGtIntImm { .. }
            | Instr::JumpGeIntImm { .. }
            | Instr::JumpEqIntImm { .. }
            | Instr::JumpNeIntImm { .. }
            | Instr::JumpLtFloat { .. }
            | Instr::JumpLeFloat { .. }
            | Instr::AddIntImmCmpJump { .. }
            | Instr::Call { .. }
            | Instr::Return { .. }
    )
}
