//! Audio playback (§8.13, §18): facility `audio`, which links ALSA.
//!
//! `aud` clips and the process-global pool of numbered channels; the
//! natives are in `festina-stdlib`'s `audio` module (its table lists what
//! each guarantees). Channel numbers are clamped into `[0, 64)`,
//! `setMaxAudioPlayers` into `[1, 64]`; `play`/`playLoop` answer the
//! channel used or `-1` when every channel is reserved; a null clip plays
//! nothing. The natives the checker emits by itself: `aud_load`
//! (`aud a = path`, §8.20 rule 5), `aud_load_async` (`path.callback(fn)`
//! with `fn: func[aud]:void`, §12.5) and `aud_columns` (start-up of a
//! program with `aud` database columns, §15.3).
//!
//! Every entry here is an audio builtin in the sense of §18 and §20.3:
//! none may be used inside a thread body (a compile error for the checker
//! of thread bodies to give, issue 15), which is why the whole table has
//! one facility.

use crate::{builtin, method, Facility, Impl::Native, Recv, Shape as S, Table};

/// The table.
pub const TABLE: Table = Table {
    builtins: &[
        builtin("stopAudioPlayer", &[], S::Void, "audio_stop_all"),
        builtin("stopAudioPlayer", &[S::Int], S::Void, "audio_stop_channel"),
        builtin(
            "isAudioPlayerPlaying",
            &[S::Int],
            S::Bool,
            "audio_is_channel_playing",
        ),
        builtin("setMaxAudioPlayers", &[S::Int], S::Void, "audio_set_max"),
        builtin("maxAudioPlayers", &[], S::Int, "audio_max"),
    ],
    methods: &[
        method(Recv::Aud, "play", &[], S::Int, Native("aud_play")),
        method(Recv::Aud, "play", &[S::Int], S::Int, Native("aud_play_on")),
        method(Recv::Aud, "playLoop", &[], S::Int, Native("aud_play_loop")),
        method(
            Recv::Aud,
            "playLoop",
            &[S::Int],
            S::Int,
            Native("aud_play_loop_on"),
        ),
        method(Recv::Aud, "stop", &[], S::Void, Native("aud_stop")),
        method(
            Recv::Aud,
            "isPlaying",
            &[],
            S::Bool,
            Native("aud_is_playing"),
        ),
        method(Recv::Aud, "save", &[], S::Bool, Native("aud_save")),
        method(
            Recv::Aud,
            "save",
            &[S::Text],
            S::Bool,
            Native("aud_save_as"),
        ),
        method(
            Recv::Aud,
            "saveCopy",
            &[S::Text],
            S::Bool,
            Native("aud_save_copy"),
        ),
    ],
    natives: &["aud_load", "aud_load_async", "aud_columns"],
    reserved: &[
        "setMaxAudioPlayers",
        "maxAudioPlayers",
        "stopAudioPlayer",
        "isAudioPlayerPlaying",
    ],
    ..Table::empty("audio", Facility::Audio)
};
