//! The Festina compiler: source text to register bytecode.
//!
//! Pipeline (each stage is one module):
//! `lexer` (logos tokens) → `parser` (grammar; emits events only) →
//! `parsing` (the entry point: builds the rowan green tree from the
//! events, or, for the driver, only the flat index the typed views walk)
//! → `syntax`/`ast` (the tree's types and typed views) → `check` (names, types,
//! every §14.1 compile error; produces the typed `hir`) → `codegen`
//! (HIR to `festina_vm::program::Program`). Beside the pipeline, `format`
//! lays a source out in the canonical style (`festina fmt`).

pub mod ast;
pub mod check;
pub mod codegen;
pub mod driver;
pub mod format;
pub mod hir;
pub mod lexer;
pub mod limits;
pub mod parser;
pub mod parsing;
pub mod syntax;
