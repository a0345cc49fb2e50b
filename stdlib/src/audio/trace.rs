//! The audio trace: what the benchmark (`benches/audio/`) reads to time
//! decoding and the latency from `play()` to the first sound at the sink.
//!
//! Off unless the environment variable `FESTINA_AUDIO_TRACE` names a file
//! when the first audio call runs; then each of these events appends one
//! line to it (times in microseconds since the trace started, positions
//! in frames the null sink had consumed, `-` on a device):
//!
//! | event | line |
//! |---|---|
//! | a clip loaded | `decode <wav\|mp3> <µs taken, reading the file included> frames <n> rate <hz> channels <n>` |
//! | a playback started | `play <id> channel <n> at <µs> pos <frames>` |
//! | its first non-zero sample pulled by the output | `sound <id> at <µs> pos <frames>` |
//!
//! Playback ids count from 1. The trace is one process-wide file behind a
//! lock, written only when tracing; with it off every function here is a
//! check of a `OnceLock` and nothing else.

use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

struct Trace {
    file: Mutex<File>,
    origin: Instant,
    next_id: AtomicU64,
}

fn trace() -> Option<&'static Trace> {
    static TRACE: OnceLock<Option<Trace>> = OnceLock::new();
    TRACE
        .get_or_init(|| {
            let path = std::env::var_os("FESTINA_AUDIO_TRACE")?;
            let file = File::create(path).ok()?;
            Some(Trace {
                file: Mutex::new(file),
                origin: Instant::now(),
                next_id: AtomicU64::new(1),
            })
        })
        .as_ref()
}

fn write(t: &Trace, line: String) {
    if let Ok(mut f) = t.file.lock() {
        let _ = f.write_all(line.as_bytes());
    }
}

fn pos(position: Option<&Arc<AtomicU64>>) -> String {
    position.map_or("-".into(), |p| p.load(Ordering::Relaxed).to_string())
}

/// A clip was decoded in `took`.
pub fn decode(format: &str, took: Duration, frames: usize, rate: u32, channels: u16) {
    if let Some(t) = trace() {
        write(
            t,
            format!(
                "decode {format} {} frames {frames} rate {rate} channels {channels}\n",
                took.as_micros()
            ),
        );
    }
}

/// A playback starts on `channel`: its trace id, or 0 when not tracing.
pub fn play(channel: usize, position: Option<&Arc<AtomicU64>>) -> u64 {
    let Some(t) = trace() else { return 0 };
    let id = t.next_id.fetch_add(1, Ordering::Relaxed);
    let at = t.origin.elapsed().as_micros();
    write(
        t,
        format!(
            "play {id} channel {channel} at {at} pos {}\n",
            pos(position)
        ),
    );
    id
}

/// Playback `id`'s first non-zero sample was pulled by the output
/// (called on the audio thread, once per playback).
pub fn sound(id: u64, position: Option<&Arc<AtomicU64>>) {
    if let Some(t) = trace() {
        let at = t.origin.elapsed().as_micros();
        write(t, format!("sound {id} at {at} pos {}\n", pos(position)));
    }
}
