//! `festina lsp`: the Language Server Protocol over standard input and
//! output, for editors (`editors/` has the VS Code extension and the
//! Neovim set-up).
//!
//! # What it answers
//!
//! - **Diagnostics** as you type: every error the compiler reports for
//!   the program whose entry is the open file, with the compiler's text
//!   (`festina_compiler::driver::check_file_with_unsaved`, reading unsaved
//!   buffers instead of the disk). An error in an imported file is also
//!   shown on the `import` that leads to it.
//! - **Hover**: the declaration and type of a name (the narrowed type in
//!   a `match` arm); for a builtin, its signatures, specification clause
//!   and one line of documentation (`festina_signatures::docs`).
//! - **Go to definition** and **find references** of functions, globals,
//!   locals, parameters, structs, tables, enums, fields, test groups and
//!   imports, across the files of a program and the `.f` files of the
//!   workspace folders.
//! - **Completion**: after a `.`, the fields of a struct or table (and of
//!   an enum's members), the methods and properties of the receiver's
//!   type, `Math`'s functions and constants; elsewhere the names in scope,
//!   the program's functions, globals and types, the builtins and the
//!   keywords.
//! - **Formatting** of a whole document by `festina fmt`
//!   (`festina_compiler::format`).
//!
//! # Design
//!
//! One thread serves everything, synchronously (`lsp-server`: a reader
//! and a writer thread move messages; no async runtime). The server
//! keeps the open documents' texts, applies incremental edits to them,
//! and parses a document again only when a request needs it after an
//! edit ([`analysis::FileData`], cached per document and per file read
//! from disk, by modification time). Diagnostics are computed when the
//! queue of incoming messages is empty, for the documents changed since
//! (and the open documents that import them), so a burst of keystrokes
//! costs one check. Semantic answers come from [`analysis`], which
//! resolves names on the lossless syntax tree and works on files that do
//! not compile.

#![warn(missing_docs)]

pub mod analysis;
mod server;
pub mod text;

pub use server::serve;

/// Serves the protocol on standard input and output until the client
/// sends `exit`; returns the process exit status (0 after an orderly
/// `shutdown` then `exit`, 1 otherwise).
pub fn run_stdio() -> i32 {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    let status = match serve(&connection) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("festina lsp: {e}");
            1
        }
    };
    drop(connection);
    match io_threads.join() {
        Ok(()) => status,
        Err(e) => {
            eprintln!("festina lsp: {e}");
            1
        }
    }
}
