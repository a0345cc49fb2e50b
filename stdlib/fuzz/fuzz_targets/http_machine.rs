//! cargo-fuzz target: the HTTP/1.1 request machine (`net/proto.rs`) and
//! response encoding (`net/encode.rs`) over any bytes (§19.1, issue 13
//! item 7): `cargo fuzz run http_machine` from `stdlib/`. The first byte
//! picks the size of the pieces the input arrives in (1 to 64 bytes, as
//! a socket might deliver them); each request is answered into an output
//! buffer as the connection would. Nothing may panic; every refusal is
//! one of the documented statuses; bodies respect the cap; the machine
//! stops after a refusal.
#![no_main]

use festina_stdlib::net::proto::Limits;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&k, input)) = data.split_first() else {
        return;
    };
    let step = (k as usize % 64) + 1;
    let limits = Limits {
        head: 2048,
        body: 16 * 1024,
    };
    festina_stdlib::net::fuzz_drive(input, step, limits);
});
