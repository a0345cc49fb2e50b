//! Every size limit of a Festina program, in one place.
//!
//! A program that goes past a limit gets a compile error that names the
//! limit (§14.1); nothing is truncated and nothing panics. Each limit is
//! checked once, where the counted thing is created:
//!
//! | limit | value | checked by | why |
//! |---|---|---|---|
//! | variables per function (or per file's top-level code) | [`MAX_LOCALS`] | the checker, as each is declared | keeps the checker's scopes small; registers are the real bound |
//! | registers per function | [`MAX_REGISTERS`] | the code generator, as each is allocated ([`crate::codegen`]) | register operands are 16-bit; locals, temporaries and the argument blocks of nested calls live at once |
//! | arguments per call | [`MAX_ARGS`] | the checker, at each call | they occupy consecutive registers; a native's count is an 8-bit operand |
//! | fields per struct or table | [`MAX_FIELDS`] | the checker, at the declaration | field operands are 16-bit |
//! | members per enum | [`MAX_ENUM_MEMBERS`] | the checker, at the declaration | member indexes are 16-bit in enum values |
//! | expression nesting | [`MAX_EXPR_DEPTH`] | the checker | the front end recurses over expressions |
//!
//! Widened rather than limited, because a generated program can reach
//! them: functions (32-bit ids; a call of a function beyond the 65,536th
//! loads it with `LoadFunc` and calls it with `CallValue`), globals (32-bit
//! ids; only the first [`MAX_PROMOTED_GLOBALS`] of a file's globals are
//! kept in registers, and a function that runs out of registers with
//! promoted globals is compiled again without them), enums and distinct
//! enum field reads (32-bit ids: `EnumTagWide`, `EnumTypeofWide` and
//! `EnumFieldWide` take theirs from an `ExtraArg`). The constant pool
//! (32-bit indexes), jump offsets (32-bit) and line numbers (32-bit) cannot
//! be exceeded by a program that fits in memory.

/// Most variables one function, or one file's top-level code, may declare.
pub const MAX_LOCALS: usize = 30_000;

/// Most registers one function may use at once: register operands are
/// 16-bit, and a window of `nregs` registers is numbered `0..nregs`.
pub const MAX_REGISTERS: usize = u16::MAX as usize;

/// Most arguments one call may pass (they occupy consecutive registers; a
/// native call's argument count is an 8-bit operand, which also leaves
/// room for the few operands the checker adds, such as a type operand).
pub const MAX_ARGS: usize = 250;

/// Most fields of one struct or table (field operands are 16-bit).
pub const MAX_FIELDS: usize = 30_000;

/// Most members of one enum: member indexes are 16-bit in enum values
/// (`EnumWrap`, `EnumTag`).
pub const MAX_ENUM_MEMBERS: usize = u16::MAX as usize + 1;

/// How deeply expressions may nest (a left-leaning chain such as
/// `1 + 1 + ... + 1` counts one level per operator) before the checker
/// reports an error instead of recursing further.
pub const MAX_EXPR_DEPTH: u32 = 3000;

/// Most globals of one file kept in registers of its top-level code (the
/// rest are `GetGlobal`/`SetGlobal`), so that promotion never uses up a
/// register window on its own.
pub const MAX_PROMOTED_GLOBALS: usize = 16_384;

// A native call's argument count is a `u8`.
const _: () = assert!(MAX_ARGS + 5 <= u8::MAX as usize);
// The verifier refuses an enum with more members than a `u16` indexes.
const _: () = assert!(MAX_ENUM_MEMBERS == festina_vm::verify::MAX_ENUM_MEMBERS);
