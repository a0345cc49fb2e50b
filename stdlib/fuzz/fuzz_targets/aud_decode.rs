//! cargo-fuzz target: decoding an `aud` from any bytes (§8.13) must never
//! panic, and a clip it accepts must be consistent: a whole number of
//! frames, a channel count and a rate within the limits, every sample
//! readable (`cargo fuzz run aud_decode` from `stdlib/`). Seed it with
//! `tests/audio/tone.mp3` and the WAVs of `tests/programs/audio/`.
#![no_main]

use festina_stdlib::audio::decode::{decode, MAX_CHANNELS, MAX_RATE};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(pcm) = decode(data.into()) {
        assert!((1..=MAX_CHANNELS).contains(&pcm.channels));
        assert!((1..=MAX_RATE).contains(&pcm.rate));
        assert!(pcm.start <= pcm.end && pcm.end <= pcm.bytes.len());
        assert_eq!((pcm.end - pcm.start) % (2 * pcm.channels as usize), 0);
        let n = pcm.samples();
        if n > 0 {
            let _ = (pcm.sample(0), pcm.sample(n - 1));
        }
    }
});
