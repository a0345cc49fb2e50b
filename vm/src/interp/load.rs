//! Program loading: verification, binding the natives, the per-program
//! tables, the interpreter's own copy of the code with the load-time
//! pairings, and the optimisation switches read once per interpreter.

use super::extensions::Extensions;
use super::run::Output;
use super::{Cur, FnInfo, Interpreter, Tables, Viv};
use crate::heap::Heap;
use crate::native::NativeEntry;
use crate::opcode::Instr;
use crate::program::{Const, Program};
use crate::types::Type;
use crate::value::Value;
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

/// A program could not be loaded: it failed verification or names a
/// native the registry does not provide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// Human-readable reason.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LoadError {}

impl Interpreter {
    /// Load `program`: verify it (see [`crate::verify`]) and bind every
    /// name in `program.natives` to the entry of `natives` with that name.
    /// Errors: a verification failure, or an unknown native name.
    pub fn new(program: Arc<Program>, natives: &[NativeEntry]) -> Result<Interpreter, LoadError> {
        crate::verify::verify(&program).map_err(|e| LoadError {
            message: format!("invalid program: {e}"),
        })?;
        let bound = bind_natives(&program, natives)?;
        Ok(Interpreter::with_bound(program, bound))
    }

    /// What another OS thread needs to load this interpreter's program
    /// again (§20: one interpreter per Festina `thread`): the shared
    /// program and the natives already bound, no value of this heap.
    pub fn sibling(&self) -> Sibling {
        Sibling {
            program: Arc::clone(&self.program),
            natives: self.natives.clone(),
            argv: self.argv.clone(),
        }
    }

    /// A loaded interpreter from an already verified program and its
    /// bound natives (shared by [`Interpreter::new`] and [`Sibling`]).
    fn with_bound(program: Arc<Program>, bound: Vec<crate::native::NativeFn>) -> Interpreter {
        let tables = build_tables(&program);
        let fuse = !crate::switches::disabled(crate::switches::NO_FUSION);
        let code = program
            .functions
            .iter()
            .map(|f| {
                let mut c = f.code.clone();
                if fuse {
                    fuse_pairs(&mut c);
                }
                c.push(Instr::ReturnVoid {});
                c.into_boxed_slice()
            })
            .collect::<Rc<[Box<[Instr]>]>>();
        let scalar = crate::register_windows::scalar_windows(&program);
        let fns = program
            .functions
            .iter()
            .zip(code.iter())
            .zip(scalar)
            .map(|((f, c), scalar)| FnInfo {
                code: c.as_ptr(),
                nregs: f.nregs as u32,
                scalar,
            })
            .collect();
        let globals = program.globals.iter().map(|g| zero_scalar(&g.ty)).collect();
        Interpreter {
            natives: bound,
            tables,
            code,
            fns,
            regs: Vec::new(),
            frames: Vec::new(),
            handlers: Vec::new(),
            globals,
            heap: Heap::new(),
            out: Output::Process,
            err: Box::new(std::io::stderr()),
            argv: Vec::new(),
            argv_value: None,
            arg_buf: Vec::new(),
            cur_loc: (program.entry, 0),
            native_top: 0,
            native_depth: 0,
            park_depth: 0,
            park_point: None,
            parked: None,
            outer: Vec::new(),
            loops: 0,
            trace: None,
            cur: Cur::default(),
            sites: hashbrown::HashMap::new(),
            exts: Extensions::default(),
            event_loop: None,
            signals: true,
            finish: None,
            own_handlers: None,
            fast_tier: !crate::switches::disabled(crate::switches::NO_FAST_TIER),
            program,
        }
    }
}

/// Bind every name of `program.natives` to its entry in `natives`.
/// Errors: a name the registry lacks.
fn bind_natives(
    program: &Program,
    natives: &[NativeEntry],
) -> Result<Vec<crate::native::NativeFn>, LoadError> {
    let mut bound = Vec::with_capacity(program.natives.len());
    for name in &program.natives {
        match natives.iter().find(|e| e.name == name) {
            Some(e) => bound.push(e.func),
            None => {
                return Err(LoadError {
                    message: format!(
                        "the program calls the native function '{name}', which this build of festina does not provide"
                    ),
                })
            }
        }
    }
    Ok(bound)
}

/// The `Send` recipe of an interpreter for another OS thread (§20,
/// LANGUAGE.md "one `Interpreter` per OS thread"): the immutable program
/// (shared through its `Arc`) and the bound native functions. Nothing of
/// the originating interpreter's heap is in it; [`Sibling::load`] builds
/// a fresh interpreter with its own heap, globals and event loop, which
/// never takes over `SIGINT`/`SIGTERM` (the main program's loop does).
#[derive(Clone, Debug)]
pub struct Sibling {
    program: Arc<Program>,
    natives: Vec<crate::native::NativeFn>,
    /// The program's arguments (`argv` reads the same in every thread).
    argv: Vec<String>,
}

impl Sibling {
    /// A new interpreter of the same program, on the calling thread.
    pub fn load(self) -> Interpreter {
        let mut it = Interpreter::with_bound(self.program, self.natives);
        it.set_signal_handling(false);
        it.argv = self.argv;
        it
    }
}

/// Load-time peephole on the interpreter's copy of a function's code,
/// pairing an instruction with the one after it so that both run in one
/// dispatch: an `AddIntImm` followed by an int `JumpLtInt`/`JumpLeInt` (a
/// `for` loop's update and test) becomes `AddIntImmCmpJump`, and a
/// `MulInt` whose result the next `AddInt` reads becomes `MulAddInt`. The
/// second instruction stays in place, so jumps that target it still work,
/// and indexes, hence line numbers, do not move. The rewrite only merges
/// instructions that run one after the other anyway, so the semantics
/// are unchanged.
pub(super) fn fuse_pairs(code: &mut [Instr]) {
    for i in 0..code.len().saturating_sub(1) {
        if let (Instr::MulInt { dst, a, b }, Instr::AddInt { a: x, b: y, .. }) =
            (code[i], code[i + 1])
        {
            if x == dst || y == dst {
                code[i] = Instr::MulAddInt { dst, a, b };
            }
        }
        if let (
            Instr::AddIntImm { dst, a, imm },
            Instr::JumpLtInt { .. } | Instr::JumpLeInt { .. },
        ) = (code[i], code[i + 1])
        {
            code[i] = Instr::AddIntImmCmpJump { dst, a, imm };
        }
    }
}

/// The member index of each struct id in one enum: a table indexed by
/// struct id when the enum's struct ids are dense enough, otherwise sorted
/// pairs (so that many enums over many structs stay small).
pub(super) enum SidTags {
    Dense(Vec<u16>),
    Sparse(Vec<(u32, u16)>),
}

impl SidTags {
    fn new(e: &crate::program::Enum) -> SidTags {
        let mut pairs: Vec<(u32, u16)> = Vec::new();
        for (m, ty) in e.members.iter().enumerate() {
            if let Type::Struct(sid) = ty.strip_manual() {
                pairs.push((*sid, u16::try_from(m).unwrap_or(u16::MAX)));
            }
        }
        // The first member holding a struct wins (a stable sort keeps them
        // in member order).
        pairs.sort_by_key(|(sid, _)| *sid);
        pairs.dedup_by_key(|(sid, _)| *sid);
        let len = pairs
            .iter()
            .map(|(s, _)| *s as usize + 1)
            .max()
            .unwrap_or(0);
        if len <= 8 * pairs.len() + 64 {
            let mut t = vec![u16::MAX; len];
            for (sid, m) in pairs {
                t[sid as usize] = m;
            }
            SidTags::Dense(t)
        } else {
            SidTags::Sparse(pairs)
        }
    }

    /// The member holding struct `sid`, or `u16::MAX`.
    pub(super) fn get(&self, sid: u32) -> u16 {
        match self {
            SidTags::Dense(t) => t.get(sid as usize).copied().unwrap_or(u16::MAX),
            SidTags::Sparse(p) => p
                .binary_search_by_key(&sid, |(s, _)| *s)
                .map_or(u16::MAX, |i| p[i].1),
        }
    }
}

/// Zero value of a global or field slot before first reach (§8.2): scalars
/// are 0/0.0/false, everything else null (struct, array and map slots are
/// vivified on first reach by the code).
pub(super) fn zero_scalar(t: &Type) -> Value {
    match t.strip_manual() {
        Type::Int => Value::Int(0),
        Type::Float => Value::Float(0.0),
        Type::Bool => Value::Bool(false),
        _ => Value::Null,
    }
}

pub(super) fn viv_of(t: &Type) -> Viv {
    match t.strip_manual() {
        Type::Struct(s) => Viv::Struct(*s),
        Type::Arr(_) | Type::Amor(_) => Viv::Arr,
        Type::Map(_) => Viv::Map,
        _ => Viv::None,
    }
}

pub(super) fn build_tables(p: &Program) -> Tables {
    let struct_zero = p
        .structs
        .iter()
        .map(|r| r.fields.iter().map(|f| zero_scalar(&f.ty)).collect())
        .collect();
    let computed = cyclic_structs(p);
    let struct_tracked = p
        .structs
        .iter()
        .enumerate()
        .map(|(i, r)| r.may_cycle || computed[i])
        .collect();
    let field_viv = p
        .structs
        .iter()
        .map(|r| r.fields.iter().map(|f| viv_of(&f.ty)).collect())
        .collect();
    let enum_sid_tag = p.enums.iter().map(SidTags::new).collect();
    let consts = p
        .consts
        .iter()
        .map(|c| match c {
            Const::Int(i) => Value::Int(*i),
            Const::Float(f) => Value::Float(*f),
            Const::Text(s) => Value::text(s.as_str()),
            Const::Ascii(b) => Value::ascii(b.clone()),
        })
        .collect();
    let enum_names = p
        .enums
        .iter()
        .map(|e| {
            e.member_names
                .iter()
                .map(|n| Value::text(n.as_str()))
                .collect()
        })
        .collect();
    Tables {
        struct_zero,
        struct_tracked,
        field_viv,
        enum_sid_tag,
        consts,
        enum_names,
    }
}

/// For each struct: can a value of it reach itself through fields, array
/// elements or map values (not through enums, §13.3)? The VM's own answer,
/// combined with `Record::may_cycle` so a conservative compiler flag and
/// this analysis both count.
pub(super) fn cyclic_structs(p: &Program) -> Vec<bool> {
    fn targets(t: &Type, out: &mut Vec<u32>) {
        match t {
            Type::Struct(s) => out.push(*s),
            Type::Arr(e) | Type::Amor(e) | Type::Map(e) | Type::Manual(e) => targets(e, out),
            _ => {}
        }
    }
    let n = p.structs.len();
    let edges: Vec<Vec<u32>> = p
        .structs
        .iter()
        .map(|r| {
            let mut out = Vec::new();
            for f in &r.fields {
                targets(&f.ty, &mut out);
            }
            out.retain(|&t| (t as usize) < n);
            out
        })
        .collect();
    (0..n)
        .map(|s| {
            let mut seen = vec![false; n];
            let mut stack: Vec<u32> = edges[s].clone();
            while let Some(t) = stack.pop() {
                if t as usize == s {
                    return true;
                }
                if !std::mem::replace(&mut seen[t as usize], true) {
                    stack.extend_from_slice(&edges[t as usize]);
                }
            }
            false
        })
        .collect()
}
