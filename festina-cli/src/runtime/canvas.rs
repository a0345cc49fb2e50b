//! `festina-runtime-canvas`: the core facility, the network and the
//! canvas, without the database, the window or audio: the runtime of
//! programs that draw images and serve them (an image or CAPTCHA
//! endpoint) or write them to files, headless. It links cairo but never
//! X11 windows (minifb) or ALSA. `festina compile` copies it into the
//! bundles of programs whose natives are in those facilities; see
//! `festina_cli::bundle` ("Runtimes").

use festina_stdlib::{CANVAS, CORE, NET};
use std::process::ExitCode;

fn main() -> ExitCode {
    festina_cli::runtime_main("festina-runtime-canvas", &[CORE, NET, CANVAS])
}
