//! `festina-runtime`: every facility (core, database, network, canvas,
//! window, audio), without the compiler. `festina compile` copies it into
//! the bundles of programs that open a window or play sound, or draw and
//! use the database; see `festina_cli::bundle` ("Runtimes").

use festina_stdlib::{AUDIO, CANVAS, CORE, DATABASE, NET, WINDOW};
use std::process::ExitCode;

fn main() -> ExitCode {
    festina_cli::runtime_main(
        "festina-runtime",
        &[CORE, DATABASE, NET, CANVAS, WINDOW, AUDIO],
    )
}
