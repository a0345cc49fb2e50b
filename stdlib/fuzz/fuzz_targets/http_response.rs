//! cargo-fuzz target: the HTTP client's response parser (§19.5) over any
//! bytes in any pieces: `cargo fuzz run http_response` from `stdlib/`.
//! The first two bytes choose the piece sizes and whether the request
//! was a `HEAD`; the rest is what the server sent. The parser returns a
//! response or an error; nothing panics, a body never exceeds its cap,
//! and a response to `HEAD` has no body.
#![no_main]

use festina_stdlib::net::response::{parse_in_pieces, MAX_BODY};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (Some(&a), Some(&b)) = (data.first(), data.get(1)) else {
        return;
    };
    let head = a & 0x80 != 0;
    let cuts = [usize::from(a & 0x7f) + 1, usize::from(b) + 1];
    if let Ok(r) = parse_in_pieces(&data[2..], &cuts, head) {
        assert!(r.body.len() <= MAX_BODY);
        assert!((100..=999).contains(&r.code));
        assert!(!head || r.body.is_empty());
    }
});
