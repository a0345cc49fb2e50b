//! The instruction set: one table, one line of meaning per opcode.
//!
//! Festina bytecode is register based (in the manner of Lua 5.4). Every
//! function has a window of `nregs` registers; `R[x]` is register `x` of the
//! current call frame, `K[k]` is entry `k` of the program's constant pool,
//! `G[g]` is global `g`, `F[f]` is function `f`. Jump offsets are relative to
//! the instruction *after* the jump. The checker knows every type
//! statically, so arithmetic, comparison and field access are typed: no
//! instruction inspects a value's type to decide what to do, except the
//! few that exist for dynamic facts (`EnumTag`, `IsNull`).
//!
//! Every instruction is at most 8 bytes in memory (checked by a test).
//! The macro below declares each instruction exactly once and derives the
//! enum, the mnemonic, the operand list used by the disassembler and the
//! serialized encoding (opcode byte, then each operand little-endian in its
//! declared width).

/// A register index within the current call frame.
pub type Reg = u16;

/// Operand types usable in an instruction: fixed-width integers.
pub trait Operand: Copy {
    /// Serialized width in bytes.
    const WIDTH: usize;
    /// Little-endian encode onto `out`.
    fn put(self, out: &mut Vec<u8>);
    /// Decode from the front of `bytes`; `None` if too short.
    fn take(bytes: &[u8]) -> Option<Self>;
    /// Widen for display.
    fn widen(self) -> i64;
}

macro_rules! impl_operand {
    ($($t:ty),*) => {$(
        impl Operand for $t {
            const WIDTH: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn take(bytes: &[u8]) -> Option<Self> {
                let arr = bytes.get(..Self::WIDTH)?.try_into().ok()?;
                Some(<$t>::from_le_bytes(arr))
            }
            fn widen(self) -> i64 {
                self as i64
            }
        }
    )*};
}
impl_operand!(u8, u16, u32, i16, i32);

macro_rules! instructions {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident { $($field:ident : $fty:ty),* $(,)? }
    ),* $(,)?) => {
        /// One bytecode instruction. See the module documentation for the
        /// notation used in each variant's description.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Instr {
            $( $(#[doc = $doc])* $name { $(#[allow(missing_docs)] $field: $fty),* } ),*
        }

        /// Every mnemonic, in opcode order (the opcode byte is the index).
        pub const MNEMONICS: &[&str] = &[$(stringify!($name)),*];

        impl Instr {
            /// The mnemonic, e.g. `AddInt`.
            pub fn mnemonic(&self) -> &'static str {
                match self { $( Instr::$name { .. } => stringify!($name) ),* }
            }

            /// Operand names and values, in declaration order.
            pub fn operands(&self) -> Vec<(&'static str, i64)> {
                #[allow(unused_variables)]
                match *self {
                    $( Instr::$name { $($field),* } => vec![$((stringify!($field), Operand::widen($field))),*] ),*
                }
            }

            /// Append the serialized form: opcode byte, then operands.
            pub fn encode(&self, out: &mut Vec<u8>) {
                let mut op: u8 = 0;
                $(
                    #[allow(unused_variables)]
                    if let Instr::$name { $($field),* } = *self {
                        out.push(op);
                        $( Operand::put($field, out); )*
                        return;
                    }
                    op += 1;
                )*
                let _ = op;
            }

            /// Decode one instruction from the front of `bytes`, returning it
            /// and the number of bytes consumed; `None` on a bad opcode or a
            /// truncated operand.
            pub fn decode(bytes: &[u8]) -> Option<(Instr, usize)> {
                let (&opcode, mut rest) = bytes.split_first()?;
                let mut used = 1usize;
                let mut op: u8 = 0;
                $(
                    if opcode == op {
                        $(
                            let $field = <$fty as Operand>::take(rest)?;
                            rest = &rest[<$fty as Operand>::WIDTH..];
                            used += <$fty as Operand>::WIDTH;
                        )*
                        let _ = rest;
                        return Some((Instr::$name { $($field),* }, used));
                    }
                    op += 1;
                )*
                let _ = (op, rest, used);
                None
            }
        }
    };
}

instructions! {
    // ---- loads and moves ----
    /// R[dst] := R[src]
    Move { dst: Reg, src: Reg },
    /// R[dst] := imm (an int)
    LoadInt { dst: Reg, imm: i32 },
    /// R[dst] := K[k] (int, float, text or ascii constant)
    LoadConst { dst: Reg, k: u32 },
    /// R[dst] := null
    LoadNull { dst: Reg },
    /// R[dst] := value != 0 (a bool)
    LoadBool { dst: Reg, value: u8 },
    /// R[dst] := F[func] as a function value (§8.12)
    LoadFunc { dst: Reg, func: u32 },
    /// R[dst] := G[g]
    GetGlobal { dst: Reg, g: u32 },
    /// G[g] := R[src]
    SetGlobal { g: u32, src: Reg },
    /// R[dst] := G[g], where a null struct/array/map global is first set
    /// to a fresh empty value of its declared type `Program::globals[g].ty`
    /// (auto-vivification, §8.9.2; the global counterpart of `GetFieldViv`)
    GetGlobalViv { dst: Reg, g: u32 },

    // ---- int arithmetic (§8.3; wrapping) ----
    /// R[dst] := R[a] + R[b]
    AddInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] + imm
    AddIntImm { dst: Reg, a: Reg, imm: i16 },
    /// R[dst] := R[a] - R[b]
    SubInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] * R[b]
    MulInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] * R[b], like `MulInt`; the VM's loader rewrites a
    /// `MulInt` whose result the next instruction, an `AddInt`, reads (`x *
    /// k + c`) into this in its own copy of the code, and the interpreter
    /// may then run that `AddInt` in the same dispatch. The `AddInt` stays
    /// in place, so a jump to it still works; run on its own, this is a
    /// plain `MulInt`. The code generator need not emit it.
    MulAddInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] % R[b] (sign of the dividend, like C); null if R[b] == 0
    ModInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := -R[a]
    NegInt { dst: Reg, a: Reg },
    /// R[dst] := R[a] & R[b] (bitwise, the reference's addition to §8.3
    /// after edition 0.44; a null operand reads 0)
    AndInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] | R[b] (bitwise)
    OrInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] ^ R[b] (bitwise exclusive or)
    XorInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] << R[b]; null when the count is negative or 64 or
    /// more (bits shifted out are lost; the sign bit may be set)
    ShlInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] >> R[b], arithmetic (the sign is kept); null when
    /// the count is negative or 64 or more
    ShrInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := ~R[a] (bitwise not, `-x - 1`)
    NotInt { dst: Reg, a: Reg },
    /// R[dst] := float(R[a]) (promotion, §8.3; null stays null)
    IntToFloat { dst: Reg, a: Reg },

    // ---- float arithmetic (§8.3) ----
    /// R[dst] := R[a] + R[b]
    AddFloat { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] - R[b]
    SubFloat { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] * R[b]
    MulFloat { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] / R[b]; null (NaN) if R[b] == 0
    DivFloat { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := fmod(R[a], R[b]); null (NaN) if R[b] == 0
    ModFloat { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := -R[a]
    NegFloat { dst: Reg, a: Reg },

    // ---- comparisons, yielding bool (§9.8) ----
    /// R[dst] := R[a] == R[b] (ints; null == null is true)
    EqInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] != R[b] (ints)
    NeInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] < R[b] (ints)
    LtInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] <= R[b] (ints)
    LeInt { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] == R[b] (floats, IEEE: NaN equals nothing)
    EqFloat { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] != R[b] (floats; false if either is NaN, §8.2)
    NeFloat { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] < R[b] (floats)
    LtFloat { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] <= R[b] (floats)
    LeFloat { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] == R[b] (bools, colors; null == null is true)
    EqBool { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] != R[b] (bools, colors)
    NeBool { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := content of R[a] == content of R[b] (text or ascii; null == null)
    EqText { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := content of R[a] != content of R[b] (text or ascii)
    NeText { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] and R[b] are the same struct, array or map (reference
    /// identity; null == null), the reference's rule after edition 0.44
    EqRef { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[a] and R[b] are not the same struct, array or map
    NeRef { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[src] is null (any type; a float NaN counts as NOT null-equal, so the checker never emits this for float)
    IsNull { dst: Reg, src: Reg },
    /// R[dst] := R[src] is not null (any type but float)
    NotNull { dst: Reg, src: Reg },
    /// R[dst] := !R[src] (bool)
    Not { dst: Reg, src: Reg },

    // ---- control flow ----
    /// pc += off
    Jump { off: i32 },
    /// if R[cond] then pc += off
    JumpIfTrue { cond: Reg, off: i32 },
    /// if !R[cond] then pc += off
    JumpIfFalse { cond: Reg, off: i32 },
    /// Compare-and-branch (ints): if R[a] < R[b] then pc += off. The code
    /// generator emits the `Jump<cmp>` family for a comparison whose only
    /// use is a condition (`if`, `while`, `for`, `?:`, `&&`/`||` tests), so
    /// no bool is stored and the comparison and the branch are one
    /// dispatch. Offsets are 16-bit; a function with a farther branch is
    /// compiled with plain compares and `JumpIfTrue`/`JumpIfFalse`.
    JumpLtInt { a: Reg, b: Reg, off: i16 },
    /// if R[a] <= R[b] (ints) then pc += off
    JumpLeInt { a: Reg, b: Reg, off: i16 },
    /// if R[a] == R[b] (ints; null == null, null != 0) then pc += off
    JumpEqInt { a: Reg, b: Reg, off: i16 },
    /// if R[a] != R[b] (ints) then pc += off
    JumpNeInt { a: Reg, b: Reg, off: i16 },
    /// if R[a] < imm (int) then pc += off
    JumpLtIntImm { a: Reg, imm: i16, off: i16 },
    /// if R[a] <= imm (int) then pc += off
    JumpLeIntImm { a: Reg, imm: i16, off: i16 },
    /// if R[a] > imm (int) then pc += off
    JumpGtIntImm { a: Reg, imm: i16, off: i16 },
    /// if R[a] >= imm (int) then pc += off
    JumpGeIntImm { a: Reg, imm: i16, off: i16 },
    /// if R[a] == imm (int; a null int equals no number) then pc += off
    JumpEqIntImm { a: Reg, imm: i16, off: i16 },
    /// if R[a] != imm (int; a null int differs from every number) then pc += off
    JumpNeIntImm { a: Reg, imm: i16, off: i16 },
    /// if R[a] < R[b] (floats) then pc += off
    JumpLtFloat { a: Reg, b: Reg, off: i16 },
    /// if R[a] <= R[b] (floats) then pc += off
    JumpLeFloat { a: Reg, b: Reg, off: i16 },
    /// if !(R[a] < R[b]) (floats: true when either is NaN) then pc += off
    JumpNotLtFloat { a: Reg, b: Reg, off: i16 },
    /// if !(R[a] <= R[b]) (floats: true when either is NaN) then pc += off
    JumpNotLeFloat { a: Reg, b: Reg, off: i16 },
    /// Increment-and-loop: R[dst] := R[a] + imm, then the `JumpLtInt` or
    /// `JumpLeInt` that must follow is performed without a dispatch of its
    /// own. The VM's loader rewrites a loop's `AddIntImm` + int
    /// compare-and-branch (a `for` update and test) into this in its own
    /// copy of the code; the code generator need not emit it, and the
    /// branch after it stays in place, so a jump to it (the loop's entry)
    /// still works. The verifier rejects it unless followed by such a
    /// branch.
    AddIntImmCmpJump { dst: Reg, a: Reg, imm: i16 },
    /// Call F[func] with its arguments in R[base..base+nparams]; the
    /// callee's register window starts at R[base]. R[dst] := result (left
    /// untouched for a void function).
    Call { dst: Reg, base: Reg, func: u16 },
    /// Like `Call`, on the function value in R[callee]; a null function
    /// value is a runtime failure.
    CallValue { dst: Reg, callee: Reg, base: Reg },
    /// R[dst] := native intrinsic `id` (index into `Program::natives`)
    /// applied to R[base..base+argc].
    CallNative { dst: Reg, base: Reg, id: u16, argc: u8 },
    /// Return R[src] to the caller.
    Return { src: Reg },
    /// Return from a void function (or the entry function).
    ReturnVoid {},

    // ---- exceptions (§10.10) ----
    /// Push a handler: a `throw` before the matching `TryExit` unwinds to
    /// this frame, stores the thrown text in R[reg] and continues at
    /// pc + off.
    TryEnter { reg: Reg, off: i32 },
    /// Pop the innermost handler of this frame.
    TryExit {},
    /// Throw R[src] (already text) to the nearest handler; with none, a
    /// runtime failure with that message (§14.2).
    Throw { src: Reg },
    /// Runtime failure: print `fail: R[src]` and exit 1 (§14.2).
    Fail { src: Reg },

    // ---- text and ascii (§8.4, §8.5) ----
    /// R[dst] := R[a] + R[b] (text, fresh)
    Concat { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := R[dst] + R[src] in place when R[dst] is the only owner
    /// (amortized O(1) append, §9.11 note); a null R[dst] counts as empty.
    AppendText { dst: Reg, src: Reg },
    /// R[dst] := R[a] + R[b] (ascii, fresh)
    ConcatAscii { dst: Reg, a: Reg, b: Reg },
    /// R[dst] := text form of R[src] (§8.21). mode 0: null renders `null`;
    /// mode 1: null renders the empty text (a null `text`/`ascii`).
    ToText { dst: Reg, src: Reg, mode: u8 },
    /// R[dst] := code point R[i] of text R[s] as text, or null (§8.4)
    TextIndex { dst: Reg, s: Reg, i: Reg },
    /// R[dst] := code-point length of text R[s] (null reads 0)
    TextLen { dst: Reg, s: Reg },
    /// R[dst] := byte R[i] of ascii R[s] as a one-char ascii, or null
    AsciiIndex { dst: Reg, s: Reg, i: Reg },
    /// R[dst] := byte R[i] of ascii R[s] as an int, or null out of range
    /// (`.charCodeAt`, §16.3)
    AsciiCodeAt { dst: Reg, s: Reg, i: Reg },
    /// R[dst] := length of ascii R[s] (null reads 0)
    AsciiLen { dst: Reg, s: Reg },

    // ---- structs (§8.9) ----
    /// R[dst] := a fresh struct `sid` with every field at its zero value
    /// (scalars 0/0.0/false, everything else null until reached)
    NewStruct { dst: Reg, sid: u32 },
    /// R[dst] := R[obj].field; runtime failure if R[obj] is null
    GetField { dst: Reg, obj: Reg, field: u16 },
    /// Like `GetField`, but a null struct/array/map field is first set to a
    /// fresh empty value of its declared type (auto-vivification, §8.9.2)
    GetFieldViv { dst: Reg, obj: Reg, field: u16 },
    /// R[obj].field := R[src]; runtime failure if R[obj] is null
    SetField { obj: Reg, field: u16, src: Reg },
    /// R[dst] := the target of weak field R[obj].field (a `weak` struct
    /// field, the reference's addition after edition 0.44), or null when
    /// the field is unset or its target is gone; never vivifies; runtime
    /// failure if R[obj] is null
    GetFieldWeak { dst: Reg, obj: Reg, field: u16 },
    /// R[obj].field := a weak reference to struct R[src] (null stays
    /// null); runtime failure if R[obj] is null
    SetFieldWeak { obj: Reg, field: u16, src: Reg },

    // ---- enums (§8.11) ----
    /// R[dst] := R[src] boxed as member `member` of a mixed enum
    EnumWrap { dst: Reg, src: Reg, member: u16 },
    /// R[dst] := the value inside boxed enum R[src] (identity for a
    /// pure-struct enum)
    EnumUnwrap { dst: Reg, src: Reg },
    /// R[dst] := member index (int) of the value held by enum R[src] of
    /// enum `enum_id`; runtime failure if null
    EnumTag { dst: Reg, src: Reg, enum_id: u16 },
    /// R[dst] := `typeof` of enum R[src] of enum `enum_id`: the member's
    /// name `Program::enums[enum_id].member_names[tag]` as text (§9.6);
    /// runtime failure if null
    EnumTypeof { dst: Reg, src: Reg, enum_id: u16 },
    /// R[dst] := field read through a pure-struct enum value R[obj], as
    /// described by `Program::enum_fields[idx]`; runtime failure if the
    /// variant lacks the field or R[obj] is null
    EnumField { dst: Reg, obj: Reg, idx: u16 },
    /// `EnumTag` of enum `X` (the `ExtraArg` that must follow), for enum
    /// ids beyond 16 bits
    EnumTagWide { dst: Reg, src: Reg },
    /// `EnumTypeof` of enum `X` (the `ExtraArg` that must follow), for enum
    /// ids beyond 16 bits
    EnumTypeofWide { dst: Reg, src: Reg },
    /// `EnumField` with `idx` = `X` (the `ExtraArg` that must follow), for
    /// programs with more than 65,536 distinct enum field reads
    EnumFieldWide { dst: Reg, obj: Reg },
    /// X := arg: the 32-bit operand of the `...Wide` instruction just
    /// before it (as Lua's `EXTRAARG`), which reads it and skips it. The
    /// verifier requires such a predecessor and rejects jumps to it; run
    /// on its own it would do nothing.
    ExtraArg { arg: u32 },

    // ---- arrays (§8.7) ----
    /// R[dst] := a fresh empty array (capacity hint cap)
    NewArr { dst: Reg, cap: u16 },
    /// push R[src] onto array R[arr]
    ArrPush { arr: Reg, src: Reg },
    /// R[dst] := a fresh array of the `n` values R[base..base+n], in order
    /// (an array literal whose elements were evaluated into consecutive
    /// registers; one instruction instead of `NewArr` and `n` `ArrPush`)
    NewArrFrom { dst: Reg, base: Reg, n: u16 },
    /// R[dst] := pop from array R[arr], or null when empty
    ArrPop { dst: Reg, arr: Reg },
    /// R[dst] := R[arr][R[idx]]; out of range is a runtime failure naming
    /// index, length and line (LANGUAGE.md)
    ArrGet { dst: Reg, arr: Reg, idx: Reg },
    /// R[arr][R[idx]] := R[src]; out of range is a runtime failure
    ArrSet { arr: Reg, idx: Reg, src: Reg },
    /// R[dst] := length of array R[arr] (null reads 0)
    ArrLen { dst: Reg, arr: Reg },

    // ---- maps (§8.8) ----
    /// R[dst] := a fresh empty map
    NewMap { dst: Reg },
    /// R[dst] := R[map][R[key]] or null when missing
    MapGet { dst: Reg, map: Reg, key: Reg },
    /// R[map][R[key]] := R[src]
    MapSet { map: Reg, key: Reg, src: Reg },
    /// remove key R[key] from R[map] (missing: no-op)
    MapDelete { map: Reg, key: Reg },

    // ---- memory (§10.11) ----
    /// `clear`: if R[reg] holds the last reference, overwrite its storage
    /// (and everything released with it) with zeros; then R[reg] := null
    Clear { reg: Reg },
    /// R[reg] := null, releasing the value it held (§13.1): the release
    /// owed by a temporary whose value is dead or by a local whose block
    /// ends. Runs exactly like `LoadNull`; it is a separate opcode so that
    /// the verifier's register-liveness check ([`crate::liveness`]) can
    /// flag a read of R[reg] before the register is written again.
    Release { reg: Reg },
}

/// What an instruction writes into the registers of the current frame:
/// declared once, here, for the load-time analyses that need it
/// ([`crate::register_windows`]) and the failure diagnostics that follow a
/// register back to its writer (`interp/fault.rs`).
///
/// Only the frame's own registers count: `Return` writes the caller's
/// register, and a call's callee window at and above its `base` belongs
/// to the callee (the call clobbers it, see the module documentation of
/// [`crate::interp`]) and is not listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// No register.
    Nothing,
    /// `R[dst]` receives a scalar: an int, float, bool, function value or
    /// null, which owns nothing.
    Scalar(Reg),
    /// `R[dst]` receives a copy of `R[src]` (`Move`).
    Copy {
        /// The register written.
        dst: Reg,
        /// The register copied.
        src: Reg,
    },
    /// `R[dst]` receives constant `K[k]`: a scalar for an int or float
    /// constant, a managed value for a text or ascii one.
    Const {
        /// The register written.
        dst: Reg,
        /// The constant's index.
        k: u32,
    },
    /// `R[dst]` receives the result of a direct call of function
    /// `F[func]` (`Call`).
    CallResult {
        /// The register written.
        dst: Reg,
        /// The callee.
        func: u16,
    },
    /// `R[dst]` receives a value of any kind, possibly managed (a text,
    /// struct, array, map, enum box or handle).
    Value(Reg),
}

impl Write {
    /// The register written, if any.
    pub fn reg(self) -> Option<Reg> {
        match self {
            Write::Nothing => None,
            Write::Scalar(r) | Write::Value(r) => Some(r),
            Write::Copy { dst, .. } | Write::Const { dst, .. } | Write::CallResult { dst, .. } => {
                Some(dst)
            }
        }
    }
}

impl Instr {
    /// What this instruction writes into the current frame's registers
    /// (see [`Write`]). Every opcode is named: a new instruction must
    /// declare what it writes.
    pub fn writes(&self) -> Write {
        use Instr::*;
        match *self {
            Move { dst, src } => Write::Copy { dst, src },
            LoadConst { dst, k } => Write::Const { dst, k },
            Call { dst, func, .. } => Write::CallResult { dst, func },
            LoadInt { dst, .. }
            | LoadNull { dst }
            | LoadBool { dst, .. }
            | LoadFunc { dst, .. }
            | AddInt { dst, .. }
            | AddIntImm { dst, .. }
            | SubInt { dst, .. }
            | MulInt { dst, .. }
            | MulAddInt { dst, .. }
            | ModInt { dst, .. }
            | NegInt { dst, .. }
            | AndInt { dst, .. }
            | OrInt { dst, .. }
            | XorInt { dst, .. }
            | ShlInt { dst, .. }
            | ShrInt { dst, .. }
            | NotInt { dst, .. }
            | EqRef { dst, .. }
            | NeRef { dst, .. }
            | IntToFloat { dst, .. }
            | AddFloat { dst, .. }
            | SubFloat { dst, .. }
            | MulFloat { dst, .. }
            | DivFloat { dst, .. }
            | ModFloat { dst, .. }
            | NegFloat { dst, .. }
            | EqInt { dst, .. }
            | NeInt { dst, .. }
            | LtInt { dst, .. }
            | LeInt { dst, .. }
            | EqFloat { dst, .. }
            | NeFloat { dst, .. }
            | LtFloat { dst, .. }
            | LeFloat { dst, .. }
            | EqBool { dst, .. }
            | NeBool { dst, .. }
            | EqText { dst, .. }
            | NeText { dst, .. }
            | IsNull { dst, .. }
            | NotNull { dst, .. }
            | Not { dst, .. }
            | AddIntImmCmpJump { dst, .. }
            | TextLen { dst, .. }
            | AsciiCodeAt { dst, .. }
            | AsciiLen { dst, .. }
            | EnumTag { dst, .. }
            | EnumTagWide { dst, .. }
            | ArrLen { dst, .. } => Write::Scalar(dst),
            // `clear` and `Release` leave null behind.
            Clear { reg } | Release { reg } => Write::Scalar(reg),
            GetGlobal { dst, .. }
            | GetGlobalViv { dst, .. }
            | CallValue { dst, .. }
            | CallNative { dst, .. }
            | Concat { dst, .. }
            | AppendText { dst, .. }
            | ConcatAscii { dst, .. }
            | ToText { dst, .. }
            | TextIndex { dst, .. }
            | AsciiIndex { dst, .. }
            | NewStruct { dst, .. }
            | GetField { dst, .. }
            | GetFieldViv { dst, .. }
            | GetFieldWeak { dst, .. }
            | EnumWrap { dst, .. }
            | EnumUnwrap { dst, .. }
            | EnumTypeof { dst, .. }
            | EnumTypeofWide { dst, .. }
            | EnumField { dst, .. }
            | EnumFieldWide { dst, .. }
            | NewArr { dst, .. }
            | NewArrFrom { dst, .. }
            | ArrPop { dst, .. }
            | ArrGet { dst, .. }
            | NewMap { dst }
            | MapGet { dst, .. } => Write::Value(dst),
            // The thrown text, when a throw lands in this handler.
            TryEnter { reg, .. } => Write::Value(reg),
            SetGlobal { .. }
            | Jump { .. }
            | JumpIfTrue { .. }
            | JumpIfFalse { .. }
            | JumpLtInt { .. }
            | JumpLeInt { .. }
            | JumpEqInt { .. }
            | JumpNeInt { .. }
            | JumpLtIntImm { .. }
            | JumpLeIntImm { .. }
            | JumpGtIntImm { .. }
            | JumpGeIntImm { .. }
            | JumpEqIntImm { .. }
            | JumpNeIntImm { .. }
            | JumpLtFloat { .. }
            | JumpLeFloat { .. }
            | JumpNotLtFloat { .. }
            | JumpNotLeFloat { .. }
            | Return { .. }
            | ReturnVoid {}
            | TryExit {}
            | Throw { .. }
            | Fail { .. }
            | SetField { .. }
            | SetFieldWeak { .. }
            | ArrPush { .. }
            | ArrSet { .. }
            | MapSet { .. }
            | MapDelete { .. }
            | ExtraArg { .. } => Write::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_fit_in_eight_bytes() {
        assert!(std::mem::size_of::<Instr>() <= 8);
    }

    /// Every instruction with a `dst` operand declares that it writes it;
    /// the others write nothing, except `Clear`, `Release` and `TryEnter`,
    /// which write the register they name.
    #[test]
    fn writes_agrees_with_the_operands() {
        for op in 0..MNEMONICS.len() {
            // An instruction of each opcode with distinct operand values.
            let mut bytes = vec![op as u8];
            bytes.extend((1..=16u8).map(|b| b * 3));
            let (ins, _) = Instr::decode(&bytes).expect("decodes");
            let ops = ins.operands();
            let named = |n: &str| ops.iter().find(|(x, _)| *x == n).map(|(_, v)| *v as Reg);
            let want = match ins.mnemonic() {
                "Clear" | "Release" | "TryEnter" => named("reg"),
                _ => named("dst"),
            };
            assert_eq!(ins.writes().reg(), want, "{ins:?}");
        }
    }

    #[test]
    fn encode_decode_round_trips() {
        let samples = [
            Instr::Move { dst: 1, src: 2 },
            Instr::LoadInt {
                dst: 3,
                imm: -70000,
            },
            Instr::CallNative {
                dst: 1,
                base: 2,
                id: 300,
                argc: 2,
            },
            Instr::ReturnVoid {},
            Instr::Jump { off: -5 },
        ];
        for i in samples {
            let mut out = Vec::new();
            i.encode(&mut out);
            let (back, used) = Instr::decode(&out).unwrap();
            assert_eq!(back, i);
            assert_eq!(used, out.len());
        }
    }
}
