//! `festina-runtime`: the VM and the standard library without the
//! compiler, the runtime that `festina compile` copies into bundles when it
//! finds one of the same build beside `festina` (see
//! `festina_cli::bundle`). Being smaller than `festina`, it makes smaller
//! bundles that start faster.
//!
//! With a program embedded, it runs it exactly as `festina` would. Without
//! one, it only answers the identity probe of `festina compile`
//! (`--festina-runtime-identity`, printing
//! [`festina_cli::bundle::runtime_identity`]); anything else is a usage
//! error (status 2).

use std::process::ExitCode;

fn main() -> ExitCode {
    festina_cli::runtime_main(festina_stdlib::natives)
}
