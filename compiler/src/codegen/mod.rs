//! Code generation: typed HIR ([`crate::hir`]) to register bytecode
//! ([`festina_vm::program::Program`]).
//!
//! [`generate`] compiles every function of the module in order (so a
//! `FuncId` is also the index of the compiled function) and copies the
//! declaration tables. Everything is decided statically: the HIR already
//! names the typed operation of every operator, so each one becomes one
//! typed instruction (`AddInt`, `LtFloat`, `EqText`, ...).
//!
//! # Registers
//!
//! A function's registers form one stack. Parameters occupy `0..nparams`.
//! A `Let` gives its local the next register, fixed for as long as its
//! block is open; when the block ends the registers of its locals are
//! reused (scope-based allocation). Temporaries are allocated above the
//! locals, stack-like (`alloc_temp`, then `reset_temps` back to a mark);
//! the high-water mark is the window size `nregs`.
//!
//! An expression compiles *into a destination* (`expr_to(e, dst)`), or
//! with `expr_any(e)` into whatever register already holds it: a local
//! read yields the local's own register without a `Move`, so `a + b` on
//! locals is one `AddInt`. Except for the builders (array, map and struct
//! literals, templates, `&&`/`||`), an expression writes its destination
//! only with its last instruction, so `x = x * 2 + y` targets `x`
//! directly; a builder that reads the variable it is assigned to is built
//! in a temporary and moved.
//!
//! Int literals that fit in 32 bits use `LoadInt`; other ints, floats,
//! texts and asciis go to the program's constant pool, deduplicated.
//! `x + k` and `x - k` with a 16-bit `k` use `AddIntImm`; `x++` is an
//! `AddIntImm` on the local's register (or load, add, store for other
//! places). `a > b` and `a >= b` evaluate `a` then `b` and emit `LtInt` /
//! `LeInt` with the operand registers swapped (as values; as conditions,
//! see "Control flow").
//!
//! Two kinds of value get a register for the whole function, reserved
//! before the body (`FuncGen::with_globals`, `FuncGen::pin_constants`):
//! globals that only the top-level code declaring them uses (`globals.rs`),
//! so that a script's variables are register operands rather than
//! `GetGlobal`/`SetGlobal`; and the int and float literals that the
//! function's loops use as operands (`consts.rs`), loaded once in the
//! prologue so that a loop body runs no `LoadInt`. An array literal of up
//! to 64 elements evaluates them into consecutive temporaries and builds
//! the array with one `NewArrFrom`.
//!
//! # Calls
//!
//! Arguments are evaluated into consecutive fresh temporaries at the top
//! of the register stack; the first is the `base` of the `Call` (or
//! `CallValue`, `CallNative`), and the callee's window starts there. As
//! `base` is above every live register, arguments never alias a live
//! value; they stay reserved until the call has been emitted. The result
//! goes to any register (`dst`), written by the VM after the callee
//! returns.
//!
//! # Control flow
//!
//! Jumps are emitted with offset 0 and patched (`patch_here`, `patch_to`).
//! A condition compiles straight into a branch (`branch(e, when)`): `!`,
//! `&&`, `||` and constants become jumps, and an int or float comparison
//! used only as a condition becomes one fused compare-and-branch
//! instruction (`compare_branch`: `JumpLtInt`, `JumpLeInt`, `JumpEqInt`,
//! `JumpNeInt`, with a 16-bit immediate when one side is a small int
//! literal the function does not keep in a register (`JumpLtIntImm` ...
//! `JumpNeIntImm`, `k < x` mirrored to `x > k`), `JumpLtFloat`,
//! `JumpLeFloat`, and for a float comparison that must *not* hold
//! `JumpNotLtFloat`/`JumpNotLeFloat`, as `!(a < b)` is not `a >= b` when
//! a NaN is involved). `a > b` and `a >= b` swap the operand registers.
//! This is the default; any other condition (a bool variable, a text
//! comparison, a call) is computed into a register and tested with one
//! `JumpIfTrue`/`JumpIfFalse`. The fused branches carry 16-bit offsets:
//! when one would have to jump farther, [`generate`] compiles that
//! function again without them (`FuncGen::compile(false)`), where every
//! comparison is computed and tested and every jump has a 32-bit offset.
//! Loops are tested at the bottom (`Jump cond; body; update; cond:
//! <branch> body`), one jump per iteration; `break` and `continue`
//! collect patch lists in a loop context.
//!
//! # Releases (§13.1)
//!
//! Values are released deterministically by overwriting registers:
//! - at the end of every block, `LoadNull` on each managed local
//!   ([`Type::is_managed`](festina_vm::types::Type::is_managed)) the block
//!   declared, so a loop body's locals die at the end of every iteration;
//! - `break` and `continue` null the managed locals of every block they
//!   leave;
//! - temporaries that received a managed value (a discarded call result,
//!   a native's argument, an intermediate struct in `a.b.c`) are nulled at
//!   the end of their statement, or right after a condition is computed;
//!   the arguments of a `Call`/`CallValue` are not, as they are the
//!   callee's parameters and its return releases them;
//! - nothing is emitted for scalars, nor in unreachable code.
//!
//! `Return` and `ReturnVoid` release the function's whole register window
//! (and drop the handlers it left open) in the VM, so nothing is emitted
//! for the locals and temporaries a `return` leaves, nor at the end of the
//! function body: releasing them first would only cost instructions.
//!
//! # `try` (§10.10)
//!
//! `TryEnter { reg, off }` names the catch variable's register, reserved
//! before the body, and the handler's address; the body ends with
//! `TryExit` and a jump over the handler. The handler starts by nulling
//! every register the body used above the catch register, releasing what
//! the interrupted body held. `break`/`continue`/`return` emit one
//! `TryExit` for each `try` body they leave (for `return` this only keeps
//! the handler stack balanced: the VM also drops a returning frame's
//! handlers).
//!
//! # Globals and enums
//!
//! A global read that may auto-vivify (§8.9.2) uses `GetGlobalViv`.
//! `InitGlobal` stores the initializer or the zero value at the
//! declaration's position. Wrapping into or unwrapping from a pure-struct
//! enum emits nothing; `EnumField` operands are collected, deduplicated,
//! into `Program::enum_fields`.
//!
//! # Line table
//!
//! Every instruction records the line of the statement or expression that
//! produced it.

mod consts;
mod expr;
mod func;
mod globals;
mod stmt;
#[cfg(test)]
mod tests;

use crate::hir;
use festina_vm::program::{Const, EnumFieldRef, Program};
use std::collections::HashMap;

/// Compile a checked module to a [`Program`] (§9, §10, §13).
///
/// Functions keep their order and indexes; files, structs, tables, enums,
/// globals, natives, event handlers, native type operands and the entry
/// index are copied from the module. The
/// module must be well formed (the checker's output): a local read before
/// its declaration, `break` outside a loop or a function with more than
/// 65,535 registers or functions is a bug upstream and panics.
pub fn generate(module: &hir::Module) -> Program {
    let mut pool = Pool::default();
    let promoted = globals::promoted(module);
    let functions = module
        .functions
        .iter()
        .zip(&promoted)
        .map(|(f, gs)| {
            let fused = func::FuncGen::new(module, f, &mut pool)
                .with_globals(gs)
                .compile(true);
            fused.unwrap_or_else(|| {
                func::FuncGen::new(module, f, &mut pool)
                    .with_globals(gs)
                    .compile(false)
                    .expect("without fused branches every jump has a 32-bit offset")
            })
        })
        .collect();
    Program {
        files: module.files.clone(),
        consts: pool.consts,
        functions,
        entry: module.entry,
        globals: module.globals.clone(),
        structs: module.structs.clone(),
        tables: module.tables.clone(),
        enums: module.enums.clone(),
        enum_fields: pool.enum_fields,
        natives: module.natives.clone(),
        handlers: module.handlers.clone(),
        types: module.types.clone(),
    }
}

/// Program-wide tables filled while functions are generated.
#[derive(Default)]
struct Pool {
    /// The constant pool being built.
    consts: Vec<Const>,
    /// Index of each constant already in the pool.
    index: HashMap<ConstKey, u32>,
    /// The `EnumField` operand table being built.
    enum_fields: Vec<EnumFieldRef>,
}

/// A hashable identity for a constant (floats by bit pattern).
#[derive(Clone, Hash, PartialEq, Eq)]
enum ConstKey {
    Int(i64),
    Float(u64),
    Text(String),
    Ascii(Vec<u8>),
}

impl Pool {
    /// The index of `c` in the constant pool, adding it if new.
    fn constant(&mut self, c: Const) -> u32 {
        let key = match &c {
            Const::Int(v) => ConstKey::Int(*v),
            Const::Float(v) => ConstKey::Float(v.to_bits()),
            Const::Text(s) => ConstKey::Text(s.clone()),
            Const::Ascii(b) => ConstKey::Ascii(b.clone()),
        };
        if let Some(&k) = self.index.get(&key) {
            return k;
        }
        let k = u32::try_from(self.consts.len()).expect("constant pool overflow");
        self.consts.push(c);
        self.index.insert(key, k);
        k
    }

    /// The index of `r` in the enum-field table, adding it if new.
    fn enum_field(&mut self, r: EnumFieldRef) -> u16 {
        if let Some(i) = self.enum_fields.iter().position(|x| *x == r) {
            return i as u16;
        }
        self.enum_fields.push(r);
        func::to_u16(self.enum_fields.len() - 1, "enum field references")
    }
}
