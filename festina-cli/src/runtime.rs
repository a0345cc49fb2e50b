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

use festina_cli::bundle;
use std::process::ExitCode;

fn main() -> ExitCode {
    if let Some(status) = festina_cli::run_if_bundle() {
        return festina_cli::exit_code(status);
    }
    let args: Vec<String> = festina_cli::arguments().skip(1).collect();
    if args.len() == 1 && args[0] == bundle::IDENTITY_FLAG {
        println!("{}", bundle::runtime_identity());
        return festina_cli::exit_code(0);
    }
    eprintln!(
        "festina-runtime: no program is embedded in this file: it is the runtime that \
         `festina compile app.f` copies into bundles, not a command of its own"
    );
    festina_cli::exit_code(i32::from(festina_cli::USAGE_ERROR))
}
