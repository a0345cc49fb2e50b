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
/// `shutdown` then `exit`, 1 otherwise, with the reason on stderr: a
/// transport error such as a malformed header or a message over
/// [`MAX_MESSAGE`] bytes ends the server cleanly, never by a panic).
pub fn run_stdio() -> i32 {
    let (connection, client) = lsp_server::Connection::memory();
    let reader = std::thread::Builder::new()
        .name("festina-lsp-reader".into())
        .spawn(move || read_messages(&mut std::io::stdin().lock(), &client.sender));
    let writer = std::thread::Builder::new()
        .name("festina-lsp-writer".into())
        .spawn(move || {
            let mut out = std::io::stdout().lock();
            client
                .receiver
                .into_iter()
                .try_for_each(|m| m.write(&mut out))
        });
    let (Ok(reader), Ok(writer)) = (reader, writer) else {
        eprintln!("festina lsp: cannot start the input and output threads");
        return 1;
    };
    let mut status = match serve(&connection) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("festina lsp: {e}");
            1
        }
    };
    drop(connection);
    for (what, thread) in [("input", reader), ("output", writer)] {
        match thread.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                eprintln!("festina lsp: {what}: {e}");
                status = 1;
            }
            Err(_) => status = 1,
        }
    }
    status
}

/// The largest message body `festina lsp` reads (`Content-Length`), in
/// bytes: 256 MiB, far above any source file an editor sends.
pub const MAX_MESSAGE: usize = 256 << 20;

/// Reads LSP messages (`Content-Length` framed JSON-RPC) from `input`
/// and sends each to `to`, until `exit`, the end of input, or a framing
/// error (returned: no `Content-Length`, one that is not a number or is
/// over [`MAX_MESSAGE`], a body cut short, or a body that is not a
/// JSON-RPC message).
pub fn read_messages(
    input: &mut impl std::io::BufRead,
    to: &crossbeam_channel::Sender<lsp_server::Message>,
) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    loop {
        let mut length = None;
        let mut line = String::new();
        loop {
            line.clear();
            if input.read_line(&mut line)? == 0 {
                return Ok(());
            }
            let header = line.trim_end_matches(['\r', '\n']);
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.trim().eq_ignore_ascii_case("content-length") {
                    let n: usize = value.trim().parse().map_err(|_| {
                        Error::new(
                            ErrorKind::InvalidData,
                            format!("bad Content-Length: {}", value.trim()),
                        )
                    })?;
                    if n > MAX_MESSAGE {
                        return Err(Error::new(
                            ErrorKind::InvalidData,
                            format!("a message of {n} bytes is over the {MAX_MESSAGE}-byte limit"),
                        ));
                    }
                    length = Some(n);
                }
            }
        }
        let Some(n) = length else {
            return Err(Error::new(
                ErrorKind::InvalidData,
                "a message without Content-Length",
            ));
        };
        let mut body = vec![0; n];
        input.read_exact(&mut body)?;
        let message: lsp_server::Message = serde_json::from_slice(&body).map_err(|e| {
            Error::new(
                ErrorKind::InvalidData,
                format!("malformed LSP payload: {e}"),
            )
        })?;
        let exit = matches!(&message, lsp_server::Message::Notification(n) if n.method == "exit");
        if to.send(message).is_err() || exit {
            return Ok(());
        }
    }
}
