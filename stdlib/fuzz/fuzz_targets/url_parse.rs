//! cargo-fuzz target: `parseURL` over any text (§19.6): `cargo fuzz run
//! url_parse` from `stdlib/`. It either throws or gives fields that are
//! pieces of the text in order, a port in 0..=65535, and decodable
//! search parameters; nothing panics.
#![no_main]

use festina_stdlib::net::url::UrlObj;
use festina_vm::value::Value;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(t) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(u) = UrlObj::parse(Value::text(t)) else {
        return;
    };
    assert!(t.contains("://"));
    assert!(u.protocol().ends_with(':'));
    assert!(u.port().is_none_or(|p| (0..=65535).contains(&p)));
    assert!(t.contains(u.username()) && t.contains(u.password()));
    assert!(u.pathname() == "/" || t.contains(u.pathname()));
    assert!(t.contains(u.query()) && t.contains(u.hash()));
    let _ = (u.hostname(), u.params());
});
