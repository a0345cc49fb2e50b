//! The Festina compiler: source text to register bytecode.
//!
//! Pipeline (each stage is one module):
//! `lexer` (logos tokens) → `parser` (events into a rowan green tree, or,
//! for the driver, only the flat index the typed views walk) →
//! `syntax`/`ast` (lossless tree and typed views) → `check` (names, types,
//! every §14.1 compile error; produces the typed `hir`) → `codegen`
//! (HIR to `festina_vm::program::Program`).

pub mod ast;
pub mod check;
pub mod codegen;
pub mod driver;
pub mod hir;
pub mod lexer;
pub mod limits;
pub mod parser;
pub mod syntax;
