//! The `festina` command (§21.1): compile a program to bytecode in memory
//! and run it, check it, or print its bytecode listing.
//!
//! Exit statuses: the program's own status when it runs (0, the code given
//! to `close`, 1 after `fail: ...`); 2 for compile errors, an unreadable
//! file, a program the VM refuses to load, or a usage error.

mod args;

use args::Command;
use festina_compiler::driver;
use festina_vm::interp::Interpreter;
use festina_vm::program::Program;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// Exit status for compile errors, unreadable files and usage errors.
const USAGE_ERROR: u8 = 2;

fn main() -> ExitCode {
    let status = match args::parse(std::env::args().skip(1).collect()) {
        Ok(cmd) => dispatch(cmd),
        Err(msg) => {
            eprint!("festina: {msg}\n\n{}", args::USAGE);
            i32::from(USAGE_ERROR)
        }
    };
    let _ = std::io::stdout().flush();
    // Like the OS, keep the low 8 bits of a `close(code)` status.
    ExitCode::from(status as u8)
}

/// Carry out one command; returns the exit status.
fn dispatch(cmd: Command) -> i32 {
    match cmd {
        Command::Help => {
            print!("{}", args::USAGE);
            0
        }
        Command::Version => {
            println!("festina {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Command::Check { path } => status_of(compile(&path).map(|_| 0)),
        Command::Run {
            path,
            args,
            emit_bytecode,
        } => status_of(compile(&path).and_then(|program| {
            if emit_bytecode {
                print!("{}", festina_vm::disasm::listing(&program));
                Ok(0)
            } else {
                run(program, path, args)
            }
        })),
    }
}

/// The status of a command's result, errors being already reported.
fn status_of(r: Result<i32, u8>) -> i32 {
    r.unwrap_or_else(i32::from)
}

/// Compile the program at `path`. Errors (already printed to stderr): an
/// unreadable file (`festina: cannot read 'x.f': <os error>`) or the
/// rendered diagnostics; both give status 2.
fn compile(path: &str) -> Result<Program, u8> {
    if let Err(e) = std::fs::read(path) {
        eprintln!("festina: cannot read '{path}': {e}");
        return Err(USAGE_ERROR);
    }
    driver::compile_file(Path::new(path)).map_err(|diags| {
        eprint!("{}", driver::render_diagnostics(&diags));
        USAGE_ERROR
    })
}

/// Run `program` with `argv` = the program path as given, then `args`;
/// returns the program's exit status. A load error (the VM's verifier or
/// a missing native) is reported as `festina: <reason>`, status 2.
fn run(program: Program, path: String, args: Vec<String>) -> Result<i32, u8> {
    let natives = festina_stdlib::natives();
    let mut interp = Interpreter::new(Arc::new(program), &natives).map_err(|e| {
        eprintln!("festina: {e}");
        USAGE_ERROR
    })?;
    let argv = std::iter::once(path).chain(args).collect();
    Ok(interp.run(argv))
}
