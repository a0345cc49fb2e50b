//! Calls and returns: the one frame-push path and its depth check, the
//! entry and release of register windows, and nested dispatch loops for
//! natives that call back into Festina (see the module documentation of
//! `interp`, "Frames and calls").

use super::store::replace_managed;
use super::{Interpreter, MAX_NATIVE_DEPTH};
use crate::native::Trap;
use crate::value::Value;

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
        if self.native_depth >= MAX_NATIVE_DEPTH {
            return Err(Trap::Fail(format!(
                "stack overflow in function '{}' at {}",
                self.program.functions[f as usize].name,
                self.location()
            )));
        }
        let start = self.native_top;
        self.ensure_regs(start + nregs.max(nparams));
        for (i, a) in args.iter().enumerate() {
            self.regs[start + i] = a.clone();
        }
        let frames = std::mem::take(&mut self.frames);
        let handlers = std::mem::take(&mut self.handlers);
        let (saved_loc, saved_top) = (self.cur_loc, self.native_top);
        self.native_depth += 1;
        let result = self.dispatch(f, start);
        self.native_depth -= 1;
        if result.is_err() {
            // The frames the trap left behind still hold values: release
            // everything above the caller's window (where no managed value
            // lived before the call).
            for r in &mut self.regs[start..] {
                *r = Value::Null;
            }
        }
        self.frames = frames;
        self.handlers = handlers;
        self.cur_loc = saved_loc;
        self.native_top = saved_top;
        result
    }

    /// Prepare a callee window at `new_base`: grow the register stack so
    /// that it holds `nregs` registers there. Nothing is nulled: registers
    /// above the caller's live ones hold no value anyone will read before
    /// writing it (the code generator writes every register before reading
    /// it), and each write releases what it overwrites.
    #[inline(always)]
    pub(super) fn enter(&mut self, new_base: usize, nregs: usize) {
        let top = new_base + nregs;
        if self.regs.len() < top {
            self.grow_regs(top);
        }
    }

    /// Release the managed values of the current frame's window `[base,
    /// base + nregs)` (§13.1) and drop any handlers the frame left open.
    /// Scalars are left in place: they own nothing, and the next frame
    /// that uses these registers writes them before reading them.
    #[inline(always)]
    pub(super) fn leave(&mut self, base: usize, nregs: usize) {
        debug_assert!(base + nregs <= self.regs.len());
        // SAFETY: the window of the frame being left lies inside the
        // register stack (`enter`/`ensure_regs` grew it when the frame
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

    #[cold]
    #[inline(never)]
    pub(super) fn grow_regs(&mut self, top: usize) {
        let want = top.max(self.regs.len() * 2).max(256);
        self.regs.resize(want, Value::Null);
    }

    pub(super) fn ensure_regs(&mut self, n: usize) {
        if self.regs.len() < n {
            self.grow_regs(n);
        }
    }
}
