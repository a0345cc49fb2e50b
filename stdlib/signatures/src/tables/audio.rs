//! Audio playback (§18): facility `audio`, which will link ALSA.
//!
//! To come. The battery adds here the audio builtins and the methods of
//! `aud` values; its natives go in a `festina-stdlib` module compiled
//! under the `audio` feature. Until then the names are only reserved.

use crate::{Facility, Table};

/// The table.
pub const TABLE: Table = Table {
    reserved: &[
        "setMaxAudioPlayers",
        "maxAudioPlayers",
        "stopAudioPlayer",
        "isAudioPlayerPlaying",
    ],
    ..Table::empty("audio", Facility::Audio)
};
