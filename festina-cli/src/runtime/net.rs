//! `festina-runtime-net`: the core facility, the database and the network
//! (HTTP, WebSocket, TLS): the runtime of servers. `festina compile`
//! copies it into the bundles of programs that use the network and no
//! canvas, window or audio; see `festina_cli::bundle` ("Runtimes").

use festina_stdlib::{CORE, DATABASE, NET};
use std::process::ExitCode;

fn main() -> ExitCode {
    festina_cli::runtime_main("festina-runtime-net", &[CORE, DATABASE, NET])
}
