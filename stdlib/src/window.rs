//! The `window` facility: the window and its input events (§17). Compiled
//! only with the cargo feature `window`, so that only the runtimes that
//! register it link X11 (through minifb).
//!
//! It has no natives yet. Its battery implements them here (or in
//! submodules), lists their signatures in `festina-signatures`
//! (`stdlib/signatures/src/tables/window.rs`), and returns them from
//! [`natives`], which the registry (`crate::WINDOW`) already calls.

use festina_vm::native::NativeEntry;

/// The natives of the facility, for the registry: none yet.
pub fn natives() -> Vec<NativeEntry> {
    Vec::new()
}
