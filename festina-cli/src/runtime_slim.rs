//! `festina-runtime-slim`: `festina-runtime` without the built-in
//! database. It registers every native but the database's, so SQLite is
//! not linked into it, and `festina compile` copies it into the bundles of
//! programs that never open the database (see `festina_cli::bundle`).

use std::process::ExitCode;

fn main() -> ExitCode {
    festina_cli::runtime_main(festina_stdlib::natives_without_database)
}
