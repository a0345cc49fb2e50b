//! Calls and returns: the one frame-push path and its depth check, the
//! entry and release of register windows, and nested dispatch loops for
//! natives that call back into Festina (see the module documentation of
//! `interp`, "Frames and calls").

use super::store::replace_managed;
use super::{Cur, Frame, Handler, Interpreter, Outer, MAX_FRAMES, MAX_NATIVE_DEPTH, MAX_REGISTERS};
use crate::native::Trap;
use crate::opcode::{Instr, Reg};
use crate::value::Value;

/// Why [`Interpreter::push_frame`] did not enter a callee, or
/// [`Interpreter::make_room`] could not make room for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CallStop {
    /// [`MAX_FRAMES`] frames are live, or the callee's window would end
    /// above [`MAX_REGISTERS`]: a stack overflow.
    Overflow,
    /// The frame stack or the register stack must grow first
    /// ([`Interpreter::make_room`]).
    Grow,
    /// The allocator refused to grow the frame or register stack
    /// ([`crate::oom`]); the register count wanted.
    OutOfMemory(usize),
}

impl Interpreter {
    /// Call the Festina function `func` (a [`Value::Func`]) with `args`
    /// from inside a native, running a nested dispatch loop until it
    /// returns, and yield its result (`Value::Null` for a `void`
    /// function). Used by natives that call back into Festina: `sort`'s
    /// comparator, `forEach`'s callback (§16.3), timers and events.
    ///
    /// The callee's window starts above the window of the frame whose
    /// `CallNative` is in progress, so nothing of the caller is touched. A
    /// `throw` the callee does not catch unwinds its frames (releasing
    /// their values, §13.7) and comes back as `Err(Trap::Throw)`: the
    /// native returns it and the caller's `try` receives it. Other traps
    /// (`fail`, `close`) propagate the same way.
    ///
    /// Errors: a runtime failure for a null or out-of-range function
    /// value, a wrong argument count, or nesting deeper than
    /// [`MAX_NATIVE_DEPTH`] (`stack overflow`).
    pub fn call_function(&mut self, func: &Value, args: &[Value]) -> Result<Value, Trap> {
        let f = match func {
            Value::Func(f) if (*f as usize) < self.program.functions.len() => *f,
            _ => {
                return Err(Trap::Fail(format!(
                    "call of a null function value at {}",
                    self.location()
                )))
            }
        };
        let (nparams, nregs) = {
            let cf = &self.program.functions[f as usize];
            (cf.nparams as usize, cf.nregs as usize)
        };
        if args.len() != nparams {
            return Err(Trap::Fail(format!(
                "function '{}' takes {nparams} arguments, given {} at {}",
                self.program.functions[f as usize].name,
                args.len(),
                self.location()
            )));
        }
        let start = self.native_top;
        let stop = if self.native_depth >= MAX_NATIVE_DEPTH {
            Err(CallStop::Overflow)
        } else {
            self.ensure_regs(start + nregs.max(nparams))
        };
        if let Err(stop) = stop {
            let at = self.location();
            return Err(Trap::Fail(self.call_stop_message(stop, f, &at)));
        }
        for (i, a) in args.iter().enumerate() {
            self.regs[start + i] = a.clone();
        }
        self.enter_nested(Vec::new(), Vec::new());
        let mut result = self.dispatch(f, start);
        self.native_depth -= 1;
        let mut parked = false;
        if matches!(result, Err(Trap::Park)) {
            if self.park_depth == self.native_depth + 1 {
                // Set aside (`park.rs`): the window moves into the parked
                // call, leaving nulls behind, so there is nothing to
                // release (as after a return).
                parked = self.park(start);
            } else {
                self.park_point = None;
                result = Err(Trap::Fail(format!(
                    "internal error: a call parked where none may at {}",
                    self.location()
                )));
            }
        }
        self.leave_nested(start, result.is_err() && !parked);
        result
    }

    /// Start a nested dispatch loop (see [`Interpreter::call_function`]):
    /// set the current loop's frames and handlers aside on the `outer`
    /// stack, run with `frames` and `handlers` instead (empty for a new
    /// call, a parked call's own when it resumes), one level deeper. The
    /// caller runs the loop, then [`Interpreter::leave_nested`].
    pub(super) fn enter_nested(&mut self, frames: Vec<Frame>, handlers: Vec<Handler>) {
        self.outer.push(Outer {
            frames: std::mem::replace(&mut self.frames, frames),
            handlers: std::mem::replace(&mut self.handlers, handlers),
            site: (self.loops > 0).then_some(self.cur_loc),
            cur_loc: self.cur_loc,
            native_top: self.native_top,
        });
        self.native_depth += 1;
    }

    /// End a nested loop whose window started at `start`: after a trap
    /// (`failed`) the frames it left behind still hold values, so
    /// everything above the caller's window is released (no managed value
    /// lived there before the call); then the outer loop's frames and
    /// handlers come back.
    pub(super) fn leave_nested(&mut self, start: usize, failed: bool) {
        if failed {
            for r in &mut self.regs[start..] {
                *r = Value::Null;
            }
        }
        if let Some(o) = self.outer.pop() {
            self.frames = o.frames;
            self.handlers = o.handlers;
            self.cur_loc = o.cur_loc;
            self.native_top = o.native_top;
        }
    }

    /// The one way a Festina call enters its callee (both dispatch
    /// tiers, `Call` and `CallValue`): push the caller's [`Frame`] (its
    /// function, window and return address `ret`, and the register `dst`
    /// receiving the result) and give the callee's frame, whose window
    /// starts at the caller's `R[b]` where the arguments are, with the
    /// address of its first instruction. The one depth check is here.
    ///
    /// Nothing is written unless the call can complete without growing
    /// anything, so the fast tier can leave to the full step on any
    /// [`CallStop`]: [`CallStop::Overflow`] when [`MAX_FRAMES`] frames are
    /// live (the caller reports `stack overflow in function 'f'`), and
    /// [`CallStop::Grow`] when the frame stack is at its capacity or the
    /// register stack is too short for the callee's window (the full step
    /// calls [`Interpreter::make_room`] and pushes again). The callee's
    /// registers are not initialised: the code generator writes every
    /// register before reading it, and each write releases what it
    /// overwrites.
    ///
    /// `callee` must be a function index of the program (verified for
    /// `Call`, checked by `CallValue` before it calls this).
    #[inline(always)]
    pub(super) fn push_frame(
        &mut self,
        cur: &mut Cur,
        ret: *const Instr,
        dst: Reg,
        callee: u32,
        b: Reg,
    ) -> Result<*const Instr, CallStop> {
        let caller = *cur;
        // SAFETY: `callee` indexes `fns` (see above).
        let cf = unsafe { *self.fns.get_unchecked(callee as usize) };
        let new_base = caller.base + b as usize;
        let n = self.frames.len();
        if n >= MAX_FRAMES {
            return Err(CallStop::Overflow);
        }
        if n == self.frames.capacity() || self.regs.len() < new_base + cf.nregs as usize {
            return Err(CallStop::Grow);
        }
        // SAFETY: `n < capacity`, checked above.
        unsafe {
            self.frames.as_mut_ptr().add(n).write(Frame {
                func: caller.func,
                nregs: caller.nregs as u32,
                ret,
                base: caller.base,
                dst,
            });
            self.frames.set_len(n + 1);
        }
        *cur = Cur {
            func: callee,
            base: new_base,
            nregs: cf.nregs as usize,
        };
        Ok(cf.code)
    }

    /// Grow the frame stack by at least one record and the register stack
    /// up to the end of `callee`'s window at `R[b]` of the current frame,
    /// after [`Interpreter::push_frame`] gave [`CallStop::Grow`]. Errors:
    /// [`CallStop::Overflow`] when the window would end above
    /// [`MAX_REGISTERS`] (the bound on recursion for functions with many
    /// registers; small frames meet [`MAX_FRAMES`] first), and
    /// [`CallStop::OutOfMemory`] when the allocator refuses.
    #[cold]
    #[inline(never)]
    pub(super) fn make_room(&mut self, callee: u32, b: Reg) -> Result<(), CallStop> {
        crate::oom::grow(&mut self.frames, 1)
            .map_err(|_| CallStop::OutOfMemory(self.regs.len()))?;
        let nregs = self.fns[callee as usize].nregs as usize;
        self.ensure_regs(self.cur.base + b as usize + nregs)
    }

    /// The failure message for a call of `callee` that `stop` prevented,
    /// `at` the call's `file:line`.
    #[cold]
    pub(super) fn call_stop_message(&self, stop: CallStop, callee: u32, at: &str) -> String {
        let name = &self.program.functions[callee as usize].name;
        match stop {
            CallStop::OutOfMemory(n) => format!(
                "out of memory growing the register stack to {n} registers in a call to function '{name}' at {at}"
            ),
            _ => format!("stack overflow in function '{name}' at {at}"),
        }
    }

    /// The full return: release the current frame's window and the
    /// handlers it left open ([`Interpreter::leave`]), pop the caller's
    /// frame and make it current. Gives the caller's return address and
    /// result register, or `None` when the frame was the first of this
    /// dispatch loop (the loop then returns). The fast tier's return,
    /// for windows holding only scalars and no open handler, is its own.
    #[inline(always)]
    pub(super) fn pop_frame(&mut self) -> Option<(*const Instr, Reg)> {
        self.leave(self.cur.base, self.cur.nregs);
        let f = self.frames.pop()?;
        self.cur = Cur {
            func: f.func,
            base: f.base,
            nregs: f.nregs as usize,
        };
        Some((f.ret, f.dst))
    }

    /// Release the managed values of the current frame's window `[base,
    /// base + nregs)` (§13.1) and drop any handlers the frame left open.
    /// Scalars are left in place: they own nothing, and the next frame
    /// that uses these registers writes them before reading them.
    #[inline(always)]
    pub(super) fn leave(&mut self, base: usize, nregs: usize) {
        debug_assert!(base + nregs <= self.regs.len());
        // SAFETY: the window of the frame being left lies inside the
        // register stack (`push_frame` checked, or `make_room` grew, it when the frame
        // started, and it never shrinks).
        let window = unsafe { self.regs.get_unchecked_mut(base..base + nregs) };
        for slot in window {
            if !slot.is_scalar() {
                replace_managed(slot, Value::Null);
            }
        }
        if !self.handlers.is_empty() {
            let level = self.frames.len();
            while self.handlers.last().is_some_and(|h| h.depth >= level) {
                self.handlers.pop();
            }
        }
    }

    /// Grow the register stack to at least `top` registers (doubling,
    /// within [`MAX_REGISTERS`]); see [`Interpreter::ensure_regs`].
    #[cold]
    #[inline(never)]
    fn grow_regs(&mut self, top: usize) -> Result<(), CallStop> {
        if top > MAX_REGISTERS {
            return Err(CallStop::Overflow);
        }
        let len = self.regs.len();
        // Doubling, else an eighth more (so that growth near the limit
        // stays amortized), else out of memory.
        let want = top.max(len * 2).clamp(256, MAX_REGISTERS);
        let step = top.max(len + len / 8).min(MAX_REGISTERS);
        let got = crate::oom::fallible(|| {
            if self.regs.try_reserve_exact(want - len).is_ok() {
                Some(want)
            } else {
                self.regs.try_reserve_exact(step - len).ok().map(|()| step)
            }
        });
        match got {
            Some(n) => {
                self.regs.resize(n, Value::Null);
                Ok(())
            }
            None => Err(CallStop::OutOfMemory(top)),
        }
    }

    /// Make the register stack at least `n` registers long. Errors:
    /// [`CallStop::Overflow`] above [`MAX_REGISTERS`],
    /// [`CallStop::OutOfMemory`] when the allocator refuses.
    pub(super) fn ensure_regs(&mut self, n: usize) -> Result<(), CallStop> {
        if self.regs.len() < n {
            self.grow_regs(n)?;
        }
        Ok(())
    }
}
