//! `festina-runtime-db`: the core facility and the built-in database
//! (SQLite). `festina compile` copies it into the bundles of programs that
//! open the database and use nothing beyond it; see `festina_cli::bundle`
//! ("Runtimes").

use festina_stdlib::{CORE, DATABASE};
use std::process::ExitCode;

fn main() -> ExitCode {
    festina_cli::runtime_main("festina-runtime-db", &[CORE, DATABASE])
}
