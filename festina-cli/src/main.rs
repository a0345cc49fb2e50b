//! The `festina` command (§21.1): compile a program to bytecode in memory
//! and run it, check it, print its bytecode listing, write it out as a
//! self-contained executable (`festina compile`, see [`bundle`]), or run
//! it with its test assertions (`festina test`, see [`test_cmd`]); lay
//! source files out in the canonical style (`festina fmt`, see
//! [`fmt_cmd`]); or serve the Language Server Protocol to an editor
//! (`festina lsp`, crate `festina-lsp`).
//!
//! Like the runtimes, it can be the runtime of a bundle (when no runtime of
//! the same build with the program's facilities is installed beside it,
//! see [`bundle`]): before it looks at its arguments, `main` checks
//! whether a program is embedded in the running file, and if so runs it
//! with every argument passed through.
//!
//! Exit statuses: the program's own status when it runs (0, the code given
//! to `close`, 1 after `fail: ...`); 2 for compile errors, an unreadable
//! file, a program the VM refuses to load, a damaged or incompatible
//! bundle, a bundle that cannot be written, or a usage error.

mod args;
mod fmt_cmd;
mod test_cmd;

use args::Command;
use festina_cli::{arguments, bundle, exit_code, run_program, USAGE_ERROR};
use festina_compiler::driver;
use festina_vm::program::Program;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    festina_cli::restore_default_sigpipe();
    if let Some(status) = festina_cli::run_if_bundle() {
        return exit_code(status);
    }
    let status = match args::parse(arguments().skip(1).collect()) {
        Ok(cmd) => dispatch(cmd),
        Err(msg) => {
            eprint!("festina: {msg}\n\n{}", args::USAGE);
            i32::from(USAGE_ERROR)
        }
    };
    exit_code(status)
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
        Command::Compile { path, output } => status_of(compile_bundle(&path, output)),
        Command::Test { path, filter, args } => test_cmd::run(&path, filter, args),
        Command::Fmt { check, paths } => fmt_cmd::run(check, &paths),
        Command::Lsp => festina_lsp::run_stdio(),
        Command::Run {
            path,
            args,
            emit_bytecode,
        } => status_of(compile(&path).and_then(|program| {
            if emit_bytecode {
                print!("{}", festina_vm::disasm::listing(&program));
                Ok(0)
            } else {
                run_program(program, path, args)
            }
        })),
    }
}

/// The status of a command's result, errors being already reported.
fn status_of(r: Result<i32, u8>) -> i32 {
    r.unwrap_or_else(i32::from)
}

/// Compile the program at `path`, reading the file exactly once (so that
/// `/dev/stdin`, `<(...)` and named pipes work). Errors (already printed
/// to stderr): an unreadable file (`festina: cannot read 'x.f': <os
/// error>`) or the rendered diagnostics; both give status 2.
fn compile(path: &str) -> Result<Program, u8> {
    let bytes = read_source(path)?;
    driver::compile_read_file(Path::new(path), bytes).map_err(|diags| {
        eprint!("{}", driver::render_diagnostics(&diags));
        USAGE_ERROR
    })
}

/// The bytes of the entry file, or the error printed and status 2.
fn read_source(path: &str) -> Result<Vec<u8>, u8> {
    std::fs::read(path).map_err(|e| {
        eprintln!("festina: cannot read '{path}': {e}");
        USAGE_ERROR
    })
}

/// `festina compile`: compile `path` (errors exactly as `festina <path>`
/// reports them), then write the bundle to `output` (default: the file
/// name of `path` without `.f`, in the current directory) and report its
/// size on stderr, keeping stdout clean. Errors give status 2.
fn compile_bundle(path: &str, output: Option<String>) -> Result<i32, u8> {
    let program = compile(path)?;
    let output = match output {
        Some(output) => output,
        None => default_output(path).ok_or_else(|| {
            eprintln!(
                "festina: cannot name the executable for '{path}' (the name does not end in .f); give one with -o"
            );
            USAGE_ERROR
        })?,
    };
    let out = Path::new(&output);
    if is_same_file(out, Path::new(path)) {
        eprintln!(
            "festina: the output '{output}' is the program's own source; give another with -o"
        );
        return Err(USAGE_ERROR);
    }
    let payload = festina_vm::serialize::to_bytes(&program);
    // A program the runtime would refuse must not be written at all.
    if let Err(refusal) = bundle::decode_payload(&payload) {
        eprintln!("festina: internal error: the compiled program does not load back: {refusal}");
        return Err(USAGE_ERROR);
    }
    let needs = festina_stdlib::facilities_of(&program.natives);
    match bundle::write_bundle(out, &payload, needs) {
        Ok(size) => {
            eprintln!("wrote {output} ({})", bundle::human_size(size));
            Ok(0)
        }
        Err(e) => {
            eprintln!("festina: cannot write '{output}': {e}");
            Err(USAGE_ERROR)
        }
    }
}

/// `dir/app.f` -> `app`; `None` when the file name does not end in `.f`
/// or nothing is left without it.
fn default_output(path: &str) -> Option<String> {
    let name = Path::new(path).file_name()?.to_str()?;
    let stem = name.strip_suffix(".f")?;
    (!stem.is_empty()).then(|| stem.to_string())
}

/// True when both paths name one existing file.
fn is_same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
