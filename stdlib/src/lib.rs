//! Festina's native intrinsics: one registration table, shared by the type
//! checker (for signatures) and the VM (for calls).
//!
//! [`BUILTINS`] lists every global builtin function with its signature in
//! terms of [`Shape`]s; the checker resolves calls against it and emits a
//! `CallNative` naming [`Builtin::native`]. The VM binds those names to
//! functions through the registry returned by `natives()`.

pub mod signatures;

pub use signatures::{Builtin, Shape, BUILTINS, RESERVED_GLOBALS};
pub mod core;

pub use crate::core::natives;
