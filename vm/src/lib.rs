//! The Festina virtual machine: bytecode format, values, heap, interpreter.
//!
//! Design (see each module for details):
//! - [`opcode`]: the register instruction set, declared once.
//! - [`program`]: the immutable loaded program, shared between threads.
//! - [`types`]: static types, also used by the VM to render and zero values.
//! - [`value`]: the 16-byte run-time [`value::Value`].
//! - [`heap`]: reference counting with cycle collection for structs,
//!   arrays and maps.
//! - [`interp`]: the [`interp::Interpreter`] and its dispatch loop.
//! - [`native`]: the native-intrinsic registry types.
//! - [`render`]: text form of values (§8.21).
//! - [`verify`]: load-time checks that let the loop trust operands.
//! - [`disasm`]: the readable listing (`--emit-bytecode`).
//! - [`serialize`]: the versioned binary form of a program (bundles).
pub mod disasm;
pub mod heap;
pub mod interp;
pub mod native;
pub mod opcode;
pub mod program;
pub mod render;
pub mod serialize;
pub mod types;
pub mod value;
pub mod verify;
