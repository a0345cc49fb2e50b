//! cargo-fuzz target: the HTTP/1.1 request machine (`net/proto.rs`) and
//! response encoding (`net/encode.rs`) over any bytes (§19.1, issue 13
//! item 7): `cargo fuzz run http_machine` from `stdlib/`. The first byte
//! picks the size of the pieces the input arrives in (1 to 64 bytes, as
//! a socket might deliver them); each request is answered into an output
//! buffer as the connection would. Nothing may panic; every refusal is
//! one of the documented statuses; bodies respect the cap; the machine
//! stops after a refusal.
#![no_main]

use festina_stdlib::net::proto::{Event, Limits, Machine};
use festina_stdlib::net::{encode, fuzz_answer};
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
    let mut m = Machine::new(limits);
    let mut out = Vec::new();
    let mut done = false;
    let pieces = input.chunks(step).map(Some).chain(std::iter::once(None));
    for piece in pieces {
        match piece {
            Some(p) => m.feed(p),
            None => m.end_of_input(),
        }
        loop {
            match m.poll() {
                Event::NeedMore => break,
                Event::End => {
                    done = true;
                    break;
                }
                Event::Reject(status) => {
                    assert!(matches!(status, 400 | 413 | 417 | 431 | 501 | 505));
                    encode::plain(&mut out, status, true, b"D");
                    assert!(matches!(m.poll(), Event::NeedMore));
                    done = true;
                    break;
                }
                Event::Continue => {}
                Event::Request(r) => {
                    assert!(r.body.len() <= limits.body);
                    fuzz_answer(&mut out, &r);
                }
            }
        }
        if done {
            break;
        }
    }
});
