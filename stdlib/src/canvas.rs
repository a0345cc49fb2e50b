//! The `canvas` facility: the 2D canvas, images and fonts (§17). Compiled
//! only with the cargo feature `canvas`, so that only the runtimes that
//! register it link cairo.
//!
//! It has no natives yet. Its battery implements them here (or in
//! submodules), lists their signatures in `festina-signatures`
//! (`stdlib/signatures/src/tables/canvas.rs`), and returns them from
//! [`natives`], which the registry (`crate::CANVAS`) already calls.

use festina_vm::native::NativeEntry;

/// The natives of the facility, for the registry: none yet.
pub fn natives() -> Vec<NativeEntry> {
    Vec::new()
}
