//! Festina's native intrinsics: the functions the VM binds the names in
//! `Program::natives` to (see `Interpreter::new`).
//!
//! Their signatures (what the checker resolves calls against, and the
//! facility each native belongs to) are in the dependency-free crate
//! `festina-signatures`, so that the compiler never links this crate.
pub mod blob;
pub mod collections;
pub mod core;
pub mod db;
pub mod json;
pub mod math;
pub mod process;
pub mod regexp;
pub mod text;
pub mod timers;

pub use crate::core::{natives, natives_without_database, uses_database};
