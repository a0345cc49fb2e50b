//! The `net` facility: HTTP/1.1 and WebSocket servers and clients, and TLS
//! (§19). Compiled only with the cargo feature `net`, so that only the
//! runtimes that register it link httparse, tungstenite and rustls.
//!
//! It has no natives yet. Its battery implements them here (or in
//! submodules), lists their signatures in `festina-signatures`
//! (`stdlib/signatures/src/tables/http.rs` and `websocket.rs`), and returns
//! them from [`natives`], which the registry (`crate::NET`) already calls.

use festina_vm::native::NativeEntry;

/// The natives of the facility, for the registry: none yet.
pub fn natives() -> Vec<NativeEntry> {
    Vec::new()
}
