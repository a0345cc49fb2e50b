//! `festina-runtime-http`: the core facility and the network (HTTP,
//! WebSocket, TLS) without the database: the runtime of proxies, API
//! clients and servers that keep no table (1.1 MB of SQLite less than
//! `festina-runtime-net`). `festina compile` copies it into the bundles of
//! programs that use the network and neither the database nor canvas,
//! window or audio; see `festina_cli::bundle` ("Runtimes").

use festina_stdlib::{CORE, NET};
use std::process::ExitCode;

fn main() -> ExitCode {
    festina_cli::runtime_main("festina-runtime-http", &[CORE, NET])
}
