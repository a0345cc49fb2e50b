//! `festina-runtime-core`: the runtime with the core facility alone
//! (no database, network, canvas, window or audio), the smallest one.
//! `festina compile` copies it into the bundles of programs whose natives
//! are all core ones; see `festina_cli::bundle` ("Runtimes").

use festina_stdlib::CORE;
use std::process::ExitCode;

fn main() -> ExitCode {
    festina_cli::runtime_main("festina-runtime-core", &[CORE])
}
