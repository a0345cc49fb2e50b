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
//! Values are released deterministically by overwriting registers with
//! `Release` (the VM runs it as `LoadNull`; the distinct opcode lets the
//! verifier check the discipline below):
//! - at the end of every block, on each managed local
//!   ([`Type::is_managed`](festina_vm::types::Type::is_managed)) the block
//!   declared, so a loop body's locals die at the end of every iteration;
//! - `break` and `continue` release the managed locals of every block they
//!   leave;
//! - temporaries that received a managed value (a discarded call result,
//!   a native's argument, an intermediate struct in `a.b.c`) *owe* a
//!   release, paid at the end of their statement or before the next split
//!   in control flow (see the invariant); the arguments of a
//!   `Call`/`CallValue` owe nothing, as they are the callee's parameters
//!   and its return releases them;
//! - nothing is emitted for scalars, nor in unreachable code.
//!
//! **The release invariant.** A release only ever targets a register that
//! still holds the value it is owed for, and never one that a pending
//! instruction reads. As in Lua's `lcode.c`, freeing a register
//! (`reset_temps`) emits nothing: ownership travels with the expression,
//! and the generator keeps the set of owed releases (`FuncGen::dirty`)
//! under four rules:
//! 1. An operand register stays allocated until the instruction reading it
//!    has been emitted, and releases are only paid on free registers
//!    (`flush_temps`), so a release never lands on an operand of a pending
//!    instruction. (A compare-and-branch, or the `JumpIfFalse` of a
//!    condition, frees its operands only after the jump is emitted.)
//! 2. Allocating a register cancels the release owed on it
//!    (`alloc_temp`): the instruction that writes the new value releases
//!    the old one, and a release emitted later would destroy the new
//!    value instead.
//! 3. At every split in control flow inside a statement (`branch`, `?:`,
//!    `&&`/`||` as values) the owed releases are paid first, and the first
//!    arm of `?:` pays its own before jumping over the second, so that a
//!    cancellation on one path never drops a release owed on another.
//! 4. A call's callee takes over its argument registers; releases owed
//!    above the arguments stay owed.
//!
//! [`festina_vm::liveness`] checks the result on the bytecode (no register
//! is read after a `Release` of it, nor after a call took it over); the
//! verifier runs it in debug builds and the test suite over the whole
//! golden corpus and the fuzz corpus.
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
//! `TryExit` and a jump over the handler. The handler starts by releasing (`Release`)
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
//! # Switches
//!
//! [`Options::fusion`] (off with `FESTINA_NO_FUSION=1` or
//! `FESTINA_NO_OPT=1`, read by the driver) turns off every fused or
//! shortened form: compare-and-branch, immediates, pinned literals,
//! globals in registers, `NewArrFrom`, the in-place append (statements and
//! templates). The golden
//! corpus runs both ways and must give identical results.
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
/// index are copied from the module. The module must be well formed (the
/// checker's output): a local read before its declaration or `break`
/// outside a loop is a bug upstream and panics. Errors: a function that
/// needs more registers than a window has ([`crate::limits`]).
pub fn generate(module: &hir::Module) -> Result<Program, LimitError> {
    generate_with(module, Options::default())
}

/// A program too large for the bytecode format: the one limit checked by
/// the code generator ([`crate::limits::MAX_REGISTERS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitError {
    /// Index of the file (into `Module::files`).
    pub file: u32,
    /// Line of the statement where the limit was passed.
    pub line: u32,
    /// The message, naming the limit.
    pub message: String,
}

/// Code generation choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Emit the fused and shortened forms: compare-and-branch
    /// instructions, immediate operands (`AddIntImm`, `Jump<cmp>IntImm`,
    /// `x++` as one `AddIntImm`), literals pinned in registers, globals
    /// kept in registers, `NewArrFrom` for array literals and in-place
    /// `AppendText` for `s = s + ...` and templates. Off, every operation
    /// is its plain instruction (`LoadInt` + `AddInt`, a compare then
    /// `JumpIfTrue`/`JumpIfFalse`, `GetGlobal`, `NewArr` + `ArrPush`,
    /// `Concat`): the reference the optimised code must agree with.
    pub fusion: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { fusion: true }
    }
}

impl Options {
    /// The options the environment asks for: `FESTINA_NO_FUSION=1` (or the
    /// umbrella `FESTINA_NO_OPT=1`) turns `fusion` off (see
    /// [`festina_vm::switches`]).
    pub fn from_env() -> Options {
        Options {
            fusion: !festina_vm::switches::disabled(festina_vm::switches::NO_FUSION),
        }
    }
}

/// [`generate`] with explicit [`Options`].
pub fn generate_with(module: &hir::Module, options: Options) -> Result<Program, LimitError> {
    Generator::new(options).finish(module)
}

/// The code generator fed one function at a time, so that a function's
/// HIR can be dropped as soon as its bytecode exists: the driver hands
/// over each function the checker finishes ([`Generator::add`]; see
/// `crate::driver`, "Memory"), and [`Generator::finish`] compiles what was
/// not handed over (the top-level functions and the entry, whose bodies
/// stay in the module) and assembles the program.
///
/// The result is the program [`generate_with`] makes from the whole
/// module: functions are compiled the same way whatever the order, the
/// constant pool and the `EnumField` table are indexed by first use (so
/// only their order may differ), and globals are kept in registers only by
/// the top-level function that declares them (never a function added
/// early), decided in `finish` once every function's mentions are
/// recorded (`globals::Mentions`). Of several functions over a limit,
/// the error of the lowest function index is reported, as before.
pub struct Generator {
    options: Options,
    pool: Pool,
    /// Compiled functions by index.
    code: Vec<Option<festina_vm::program::Function>>,
    mentions: globals::Mentions,
    /// The limit error of the lowest function index so far.
    error: Option<(hir::FuncId, LimitError)>,
}

impl Generator {
    /// A generator with nothing compiled yet.
    pub fn new(options: Options) -> Generator {
        Generator {
            options,
            pool: Pool::default(),
            code: Vec::new(),
            mentions: globals::Mentions::default(),
            error: None,
        }
    }

    /// Compile function `id` of `module`, whose body is `f` (no longer in
    /// the module): any function but top-level code, which alone may keep
    /// globals in registers and is compiled by [`Generator::finish`]. The
    /// module must hold every declaration (structs, enums, globals,
    /// function signatures) `f` refers to.
    pub fn add(&mut self, module: &hir::Module, id: hir::FuncId, f: &hir::Function) {
        self.mentions.record(module.globals.len(), id, f);
        let code = compile_function(module, f, &mut self.pool, self.options, &[]);
        self.store(id, code);
    }

    fn store(&mut self, id: hir::FuncId, code: Result<festina_vm::program::Function, LimitError>) {
        let i = id as usize;
        if self.code.len() <= i {
            self.code.resize_with(i + 1, || None);
        }
        match code {
            Ok(c) => self.code[i] = Some(c),
            Err(e) => {
                if self.error.as_ref().is_none_or(|(f, _)| id < *f) {
                    self.error = Some((id, e));
                }
            }
        }
    }

    /// Compile every function of `module` not added yet (their bodies are
    /// in the module), then assemble the program. Errors: the limit error
    /// of the lowest function index.
    pub fn finish(mut self, module: &hir::Module) -> Result<Program, LimitError> {
        let pending: Vec<hir::FuncId> = (0..module.functions.len() as hir::FuncId)
            .filter(|&id| self.code.get(id as usize).is_none_or(Option::is_none))
            .collect();
        for &id in &pending {
            self.mentions
                .record(module.globals.len(), id, &module.functions[id as usize]);
        }
        for id in pending {
            let promoted = if self.options.fusion {
                self.mentions.promoted(id)
            } else {
                Vec::new()
            };
            let f = &module.functions[id as usize];
            let code = compile_function(module, f, &mut self.pool, self.options, &promoted);
            self.store(id, code);
        }
        if let Some((_, e)) = self.error {
            return Err(e);
        }
        let functions = self
            .code
            .into_iter()
            .map(|c| c.expect("every function is compiled"))
            .collect();
        Ok(Program {
            files: module.files.clone(),
            consts: self.pool.consts,
            functions,
            entry: module.entry,
            globals: module.globals.clone(),
            structs: module.structs.clone(),
            tables: module.tables.clone(),
            enums: module.enums.clone(),
            enum_fields: self.pool.enum_fields,
            natives: module.natives.clone(),
            handlers: module.handlers.clone(),
            types: module.types.clone(),
        })
    }
}

/// Compile one function, falling back as needed: without fused branches
/// when one reaches too far, and without globals kept in registers (at
/// most [`crate::limits::MAX_PROMOTED_GLOBALS`] are) when the function
/// runs out of registers.
fn compile_function(
    module: &hir::Module,
    f: &hir::Function,
    pool: &mut Pool,
    options: Options,
    promoted: &[hir::GlobalId],
) -> Result<festina_vm::program::Function, LimitError> {
    let mut globals = &promoted[..promoted.len().min(crate::limits::MAX_PROMOTED_GLOBALS)];
    let mut fuse = true;
    loop {
        let gen = func::FuncGen::new(module, f, pool, options).with_globals(globals);
        match gen.compile(fuse) {
            Ok(code) => return Ok(code),
            Err(func::Failure::FarBranch) if fuse => fuse = false,
            Err(func::Failure::Registers(_)) if !globals.is_empty() => globals = &[],
            Err(func::Failure::FarBranch) => {
                unreachable!("only fused branches have 16-bit offsets")
            }
            Err(func::Failure::Registers(line)) => {
                let who = match f.name.as_str() {
                    n if n.starts_with("<top:") => "the top-level code of this file".to_string(),
                    "<main>" => "the program's entry code".to_string(),
                    "<arrow>" => "this arrow function".to_string(),
                    n => format!("function '{n}'"),
                };
                return Err(LimitError {
                    file: f.file,
                    line,
                    message: format!(
                        "{who} needs more than {} registers (the most one function may use: \
                         its variables, temporaries and the arguments of nested calls live at \
                         once); split it into smaller functions",
                        crate::limits::MAX_REGISTERS
                    ),
                });
            }
        }
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
    /// Index of each entry already in `enum_fields`.
    enum_field_index: HashMap<EnumFieldRef, u32>,
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
    fn enum_field(&mut self, r: EnumFieldRef) -> u32 {
        if let Some(&i) = self.enum_field_index.get(&r) {
            return i;
        }
        let i = u32::try_from(self.enum_fields.len()).expect("enum field table overflow");
        self.enum_fields.push(r.clone());
        self.enum_field_index.insert(r, i);
        i
    }
}
