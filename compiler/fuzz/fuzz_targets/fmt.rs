//! `festina fmt` on arbitrary bytes: it never panics, never produces a
//! text that parses to another tree (it checks that itself and refuses
//! with `FormatError::Internal`, which this target treats as a crash),
//! and formatting its output again changes nothing.
//!
//! `cargo fuzz run fmt` (from `compiler/`).
#![no_main]

use festina_compiler::format::{format, FormatError};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match format(text) {
        Ok(once) => assert_eq!(format(&once).as_deref(), Ok(once.as_str())),
        Err(FormatError::Syntax(_)) => {}
        Err(e @ FormatError::Internal(_)) => panic!("{e}"),
    }
});
