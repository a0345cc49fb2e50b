//! The `audio` facility: audio playback (§18). Compiled only with the cargo
//! feature `audio`, so that only the runtimes that register it link ALSA
//! (through rodio).
//!
//! It has no natives yet. Its battery implements them here (or in
//! submodules), lists their signatures in `festina-signatures`
//! (`stdlib/signatures/src/tables/audio.rs`), and returns them from
//! [`natives`], which the registry (`crate::AUDIO`) already calls.

use festina_vm::native::NativeEntry;

/// The natives of the facility, for the registry: none yet.
pub fn natives() -> Vec<NativeEntry> {
    Vec::new()
}
