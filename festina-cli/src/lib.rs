//! What the executables of this package share: `festina`, the command
//! line tool, and the compiler-less runtimes (`festina-runtime-core`,
//! `-db`, `-http`, `-net`, `-canvas` and `festina-runtime`, sources in
//! `src/runtime/`) that `festina compile` copies into bundles (see
//! [`bundle`]).
//!
//! All start the same way: [`run_if_bundle`] looks for a program embedded
//! in the running file before anything else, and runs it (or refuses it)
//! with every argument passed through; [`run_program`] is also how
//! `festina app.f` runs a program it has just compiled, so a bundle and a
//! direct run share one code path from the loaded program on.

pub mod bundle;

use festina_stdlib::FacilityNatives;
use festina_vm::interp::Interpreter;
use festina_vm::program::Program;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

/// Exit status for compile errors, unreadable files, usage errors, and
/// programs or bundles that are refused.
pub const USAGE_ERROR: u8 = 2;

/// The process arguments, argv[0] included; bytes that are not UTF-8
/// become U+FFFD rather than a panic.
pub fn arguments() -> impl Iterator<Item = String> {
    std::env::args_os().map(|a| a.to_string_lossy().into_owned())
}

/// The start-up check of every executable. `None`: no program is embedded,
/// go on as usual. `Some(status)`: the running file is a bundle, and its
/// program has run with `argv[0]` = the bundle's path as invoked and the
/// other arguments untouched (a bundle has no options of its own), or it
/// was refused (`festina: this bundle is damaged: ...` or a version
/// mismatch, status 2) without running.
pub fn run_if_bundle() -> Option<i32> {
    run_if_bundle_with(&festina_stdlib::compiled())
}

/// [`run_if_bundle`] for a runtime that registers the natives of
/// `facilities` (a runtime names only its own, so that the others are not
/// linked into it).
pub fn run_if_bundle_with(facilities: &[FacilityNatives]) -> Option<i32> {
    match bundle::embedded_program() {
        bundle::Embedded::None => None,
        bundle::Embedded::Program(program) => {
            let mut argv = arguments();
            let argv0 = argv.next().unwrap_or_else(|| {
                std::env::current_exe()
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_default()
            });
            Some(
                run_program_with(*program, argv0, argv.collect(), facilities)
                    .unwrap_or_else(i32::from),
            )
        }
        bundle::Embedded::Refused(refusal) => {
            eprintln!("festina: {refusal}");
            Some(i32::from(USAGE_ERROR))
        }
    }
}

/// Run `program` with `argv` = `argv0`, then `args`, with every facility
/// of this build; returns the program's exit status. A load error (the
/// VM's verifier, or a native this build lacks) is reported as `festina:
/// <reason>` and gives `Err(2)`.
pub fn run_program(program: Program, argv0: String, args: Vec<String>) -> Result<i32, u8> {
    run_program_with(program, argv0, args, &festina_stdlib::compiled())
}

/// [`run_program`] with the natives of `facilities`. A program that needs
/// a facility outside them is refused before it runs, naming it: `festina:
/// this program needs the database facility, which this executable does
/// not have (it has core)`.
pub fn run_program_with(
    program: Program,
    argv0: String,
    args: Vec<String>,
    facilities: &[FacilityNatives],
) -> Result<i32, u8> {
    let natives = festina_stdlib::registry(facilities);
    let program = Arc::new(program);
    let mut interp = Interpreter::new(Arc::clone(&program), &natives).map_err(|e| {
        let has = festina_stdlib::facility_set(facilities);
        let needs = festina_stdlib::facilities_of(&program.natives);
        let missing: Vec<&str> = needs
            .iter()
            .filter(|f| !has.contains(*f))
            .map(|f| f.name())
            .collect();
        if missing.is_empty() {
            eprintln!("festina: {e}");
        } else {
            eprintln!(
                "festina: this program needs the {} {}, which this executable does not have \
                 (it has {has})",
                missing.join(" and "),
                if missing.len() == 1 {
                    "facility"
                } else {
                    "facilities"
                }
            );
        }
        USAGE_ERROR
    })?;
    drop(program);
    let argv = std::iter::once(argv0).chain(args).collect();
    festina_vm::oom::arm_reserve();
    Ok(interp.run(argv))
}

/// The process exit code for `status`, after flushing stdout. Like the OS,
/// keeps the low 8 bits of a `close(code)` status.
pub fn exit_code(status: i32) -> ExitCode {
    let _ = std::io::stdout().flush();
    ExitCode::from(status as u8)
}

/// The `main` of the runtimes (`src/runtime/`): `name` is the
/// executable's name, `facilities` what it registers. Run the embedded
/// program, or answer `festina compile`'s identity probe
/// (`--festina-runtime-identity`: [`bundle::runtime_identity`], then
/// ` facilities ` and the facility set, e.g. `core,database`); anything
/// else is a usage error (status 2).
pub fn runtime_main(name: &str, facilities: &[FacilityNatives]) -> ExitCode {
    restore_default_sigpipe();
    if let Some(status) = run_if_bundle_with(facilities) {
        return exit_code(status);
    }
    let args: Vec<String> = arguments().skip(1).collect();
    if args.len() == 1 && args[0] == bundle::IDENTITY_FLAG {
        println!(
            "{}",
            bundle::probe_answer(festina_stdlib::facility_set(facilities))
        );
        return exit_code(0);
    }
    eprintln!(
        "{name}: no program is embedded in this file: it is a runtime that \
         `festina compile app.f` copies into bundles, not a command of its own"
    );
    exit_code(i32::from(USAGE_ERROR))
}

/// Give `SIGPIPE` its default action again (the Rust runtime ignores it),
/// so that `festina app.f | head -1` ends the program when `head` exits,
/// as `yes | head -1` does, instead of a panic on a broken pipe or a
/// program that logs forever into a closed pipe. Call first in `main`.
/// (A future HTTP server must send with `MSG_NOSIGNAL` on its sockets.)
pub fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: `signal` with `SIG_DFL` only resets the disposition of one
    // signal; it runs first in `main`, before any other thread exists, and
    // touches no memory of ours. Exercised by tests/pipes.rs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Every executable of this package allocates through
/// [`festina_vm::oom::Allocator`]: running out of memory ends a program
/// with `fail: out of memory ...` and status 1, its output flushed, never
/// with an abort (issue 10 item 3).
#[global_allocator]
static ALLOCATOR: festina_vm::oom::Allocator = festina_vm::oom::Allocator;
