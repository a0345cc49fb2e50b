//! Parking a handler: a call set aside at a native that waits, resumed
//! later on the same interpreter with the native's result.
//!
//! # Why
//!
//! A request handler that calls the blocking client (`req.send()`,
//! §19.5) holds its whole thread while the upstream answers: a worker
//! of the reverse proxy serves one request at a time, so a pool of four
//! keeps at most four upstream requests in flight and every request costs
//! two thread wake-ups. When the handler cannot observe anything another
//! handler does (see `festina_vm::interleave`, which decides it from the
//! bytecode), running another handler while it waits is unobservable:
//! the program behaves as if the requests had been served one after
//! the other, in some order. Parking is how the loop does that.
//!
//! # How
//!
//! [`Interpreter::call_parkable`] is [`Interpreter::call_function`] that
//! lets the natives its callee calls *directly* (not through a nested
//! callback) park: such a native, seeing [`Interpreter::may_park`], starts
//! its wait on the event loop and returns [`Trap::Park`]. The dispatch
//! loop then records where it stopped (the instruction after the
//! `CallNative` and the register receiving its result) and leaves;
//! `call_parkable` moves the callee's frames, open `try` handlers and
//! registers out of the interpreter into a [`Parked`] (bases made
//! relative to the window's start, so it can come back anywhere), and
//! returns `Err(Trap::Park)`. The caller takes it with
//! [`Interpreter::take_parked`] and keeps it with whatever it waits on.
//! When the wait ends, [`Interpreter::resume_parked`] puts it back above
//! the current window and continues as if the native had just returned
//! its result (or thrown: a `try` around the call catches it). The
//! resumed call may park again.
//!
//! Nothing else changes: the Rust stack stays flat (a parked call holds
//! no Rust frame), and values in a parked call are ordinary references
//! (the cycle collector counts them as external, so they stay alive).
//! Dropping a [`Parked`] releases its values.

use super::{Cur, Frame, Handler, Interpreter, MAX_NATIVE_DEPTH};
use crate::native::Trap;
use crate::opcode::{Instr, Reg};
use crate::value::Value;

/// Where a dispatch loop stopped for [`Trap::Park`]: the next
/// instruction, the register receiving the native's result, and the
/// frame that was running.
#[derive(Clone, Copy, Debug)]
pub(super) struct ParkPoint {
    pub(super) ip: *const Instr,
    pub(super) dst: Reg,
    pub(super) cur: Cur,
}

/// A call set aside by [`Trap::Park`] (see the module documentation):
/// its frames, open `try` handlers and registers, with every base
/// relative to the start of its window. Resumed by
/// [`Interpreter::resume_parked`] on the interpreter that parked it;
/// dropped, it releases its values.
pub struct Parked {
    point: ParkPoint,
    frames: Vec<Frame>,
    handlers: Vec<Handler>,
    regs: Vec<Value>,
    /// The interpreter's code (the `ip` and frames point into it).
    code: std::rc::Rc<[Box<[crate::opcode::Instr]>]>,
}

impl std::fmt::Debug for Parked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parked")
            .field("frames", &self.frames.len())
            .field("registers", &self.regs.len())
            .finish()
    }
}

impl Interpreter {
    /// Whether a native being called now may park (return
    /// [`Trap::Park`]): it was called directly by the function that
    /// [`Interpreter::call_parkable`] entered, or by one that function
    /// called, not from a callback nested inside another native.
    pub fn may_park(&self) -> bool {
        self.park_depth != 0 && self.park_depth == self.native_depth
    }

    /// [`Interpreter::call_function`] letting the callee park (see the
    /// module documentation): `Err(Trap::Park)` means the call is set
    /// aside, to be taken with [`Interpreter::take_parked`] at once.
    ///
    /// Errors: as `call_function`.
    pub fn call_parkable(&mut self, func: &Value, args: &[Value]) -> Result<Value, Trap> {
        let saved = self.park_depth;
        self.park_depth = self.native_depth + 1;
        let r = self.call_function(func, args);
        self.park_depth = saved;
        r
    }

    /// The call the last [`Trap::Park`] set aside.
    pub fn take_parked(&mut self) -> Option<Parked> {
        self.parked.take()
    }

    /// Called by `call_function` when its dispatch loop left with
    /// [`Trap::Park`]: move the callee's frames, handlers and registers
    /// (from `start` up) into [`Interpreter::parked`]. Returns whether it
    /// did (false: no park point was recorded, nothing moved).
    pub(super) fn park(&mut self, start: usize) -> bool {
        let Some(mut point) = self.park_point.take() else {
            return false;
        };
        let mut top = point.cur.base + point.cur.nregs;
        let mut frames = std::mem::take(&mut self.frames);
        for f in &mut frames {
            top = top.max(f.base + f.nregs as usize);
            f.base -= start;
        }
        let mut handlers = std::mem::take(&mut self.handlers);
        for h in &mut handlers {
            h.base -= start;
        }
        point.cur.base -= start;
        let top = top.min(self.regs.len());
        let regs = self.regs[start..top]
            .iter_mut()
            .map(std::mem::take)
            .collect();
        self.parked = Some(Parked {
            point,
            frames,
            handlers,
            regs,
            code: std::rc::Rc::clone(&self.code),
        });
        true
    }

    /// Continue a call set aside by [`Trap::Park`] as if the native it
    /// stopped at had returned `result` (an `Err(Trap::Throw)` is caught
    /// by a `try` around the call, like the native's own throw). Returns
    /// what the call returns; it may park again (`Err(Trap::Park)`, then
    /// [`Interpreter::take_parked`]).
    ///
    /// Errors: the call's own traps; `stack overflow` when the register
    /// stack cannot take its window back.
    pub fn resume_parked(&mut self, p: Parked, result: Result<Value, Trap>) -> Result<Value, Trap> {
        if !std::rc::Rc::ptr_eq(&p.code, &self.code) {
            return Err(Trap::Fail(
                "internal error: a parked call resumed on another interpreter".into(),
            ));
        }
        let start = self.native_top;
        if self.native_depth >= MAX_NATIVE_DEPTH {
            return Err(Trap::Fail("stack overflow".into()));
        }
        if let Err(stop) = self.ensure_regs(start + p.regs.len()) {
            let f = p.point.cur.func;
            let at = self.location();
            return Err(Trap::Fail(self.call_stop_message(stop, f, &at)));
        }
        let Parked {
            mut point,
            mut frames,
            mut handlers,
            regs,
            code: _,
        } = p;
        for (slot, v) in self.regs[start..].iter_mut().zip(regs) {
            *slot = v;
        }
        for f in &mut frames {
            f.base += start;
        }
        for h in &mut handlers {
            h.base += start;
        }
        point.cur.base += start;
        self.enter_nested(frames, handlers);
        let saved_depth = self.park_depth;
        self.park_depth = self.native_depth;
        let outer_cur = self.cur;
        self.cur = point.cur;
        self.loops += 1;
        let fn_code = self.fns[point.cur.func as usize].code;
        // SAFETY: `point.ip` points into this interpreter's code (checked
        // above: the same `code`), just after a `CallNative` of the
        // function `point.cur.func`, so it is at or after `fn_code`.
        let pc = unsafe { point.ip.offset_from(fn_code) } as usize;
        self.cur_loc = (point.cur.func, pc - 1);
        let r = match result {
            Ok(v) => {
                let i = point.cur.base + point.dst as usize;
                self.regs[i] = v;
                self.dispatch_loop_at(point.ip)
            }
            Err(t) => match self.handle_trap(t, pc - 1) {
                Ok(h) => {
                    self.cur.func = h.func;
                    self.cur.nregs = self.fns[h.func as usize].nregs as usize;
                    self.cur.base = h.base;
                    // SAFETY: the verifier keeps handler targets inside
                    // the code.
                    let ip = unsafe { self.fns[h.func as usize].code.add(h.target) };
                    self.dispatch_loop_at(ip)
                }
                Err(t) => Err(t),
            },
        };
        self.loops -= 1;
        self.cur = outer_cur;
        self.park_depth = saved_depth;
        self.native_depth -= 1;
        let parked = matches!(r, Err(Trap::Park)) && self.park(start);
        self.leave_nested(start, r.is_err() && !parked);
        r
    }
}
