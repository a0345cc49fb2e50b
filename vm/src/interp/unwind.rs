//! Unwinding: a trap raised by an instruction or a native is routed to
//! the newest `try` handler of the running dispatch loop, releasing the
//! windows of the frames above it (§13.7), or propagates out of the loop.

use super::{Handler, Interpreter};
use crate::native::Trap;
use crate::render;
use crate::value::Value;

impl Interpreter {
    /// Route a trap raised by instruction `pc` of the current frame: a
    /// throw with a live handler unwinds to it and returns where to
    /// continue; everything else propagates, after the Festina call stack
    /// was recorded for the failure report (`fault.rs`) unless an inner
    /// loop already recorded it for this trap.
    #[cold]
    #[inline(never)]
    pub(super) fn handle_trap(&mut self, t: Trap, pc: usize) -> Result<Handler, Trap> {
        let (fidx, base) = (self.cur.func, self.cur.base);
        let msg = match t {
            Trap::Throw(m) => m,
            Trap::Fail(m) => {
                self.record_trace(&m, pc);
                return Err(Trap::Fail(m));
            }
            other => return Err(other),
        };
        let Some(h) = self.handlers.pop() else {
            self.record_trace(&msg, pc);
            return Err(Trap::Throw(msg));
        };
        // Caught: a stack recorded by an inner loop for this throw is moot.
        self.trace = None;
        let mut cur_func = fidx;
        let mut cur_base = base;
        while self.frames.len() > h.depth {
            let n = self.program.functions[cur_func as usize].nregs as usize;
            for i in cur_base..cur_base + n {
                self.regs[i] = Value::Null;
            }
            let f = self.frames.pop().expect("frame depth checked");
            cur_func = f.func;
            cur_base = f.base;
        }
        self.regs[h.base + h.reg as usize] = Value::text(msg);
        Ok(h)
    }

    /// The text of a register for `throw`/`fail` (already text; anything
    /// else is rendered).
    pub(super) fn text_of(&self, i: usize) -> String {
        match self.r(i) {
            Value::Text(t) => t.as_str().to_string(),
            other => render::to_string(&self.program, other),
        }
    }
}
