//! Festina's native intrinsics: one registration table, shared by the type
//! checker (for signatures) and the VM (for calls).
//!
//! [`BUILTINS`] lists every global builtin function with its signature in
//! terms of [`Shape`]s; the checker resolves calls against it and emits a
//! `CallNative` naming [`Builtin::native`]. The VM binds those names to
//! functions through the registry returned by `natives()`.
//!
//! [`METHODS`] and [`PROPERTIES`] do the same for methods and properties by
//! receiver type (§16.3), and [`signatures::MATH`] for the `Math`
//! namespace (§16.2); see [`signatures`] for how to add one.

pub mod signatures;

pub use signatures::{
    Builtin, Method, Property, Recv, Shape, BUILTINS, METHODS, PROPERTIES, RESERVED_GLOBALS,
};
pub mod blob;
pub mod collections;
pub mod core;
pub mod db;
pub mod json;
pub mod math;
pub mod process;
pub mod regexp;
pub mod testing;
pub mod text;
pub mod text_methods;
pub mod timers;

pub use crate::core::{natives, natives_without_database, uses_database};
