//! Where the mixed channels go: the sound card, or the null sink (§2.3,
//! §18).
//!
//! Both are fed by one rodio [`Mixer`]: every playback is a source added
//! to it, and rodio converts each clip's rate and channel count to the
//! output's. An [`Output`] is opened once, by the first `play()`, and
//! kept for the rest of the process.
//!
//! - **The device** is the default output of the system's audio host
//!   (ALSA on Linux), opened through rodio (cpal) at its default format
//!   with about 50 ms of buffer; cpal's audio thread pulls the mixer.
//! - **The null sink** is a thread of ours that pulls the mixer in real
//!   time, [`NULL_PERIOD`] frames of 44,100 Hz stereo at a time (the way a
//!   device pulls a buffer), and throws the samples away. So without a
//!   sound card a clip still takes its own duration to finish, channels
//!   stay busy for as long as they would on a speaker, and `isPlaying()`
//!   answers the same as with a device: the channel rules can be tested
//!   anywhere. It keeps real time against the clock, not against its own
//!   sleeps: a period that starts late is followed at once by the next, so
//!   a loaded machine delays sound but does not stretch it.
//!
//! Which one, from the environment variable `FESTINA_AUDIO_SINK` read at
//! the first `play()`:
//!
//! | value | output |
//! |---|---|
//! | `null` | the null sink, whatever the machine has |
//! | `device` | the default device; the null sink if it cannot be opened |
//! | unset or anything else | the same as `device`, except that on Linux a machine that shows no ALSA sound card (`/proc/asound/cards` absent or empty) and no sound server (PulseAudio or PipeWire socket) gets the null sink without a try |
//!
//! A machine with no output device is not an error (§2.3): every audio
//! call behaves as documented on the null sink. The test suite runs with
//! `FESTINA_AUDIO_SINK=null` so that it is silent and timed the same
//! everywhere.

use rodio::mixer::{Mixer, MixerSource};
use rodio::Source;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Frames the null sink consumes per period (about 11.6 ms at 44,100 Hz,
/// like SDL's disk driver's buffers).
pub const NULL_PERIOD: u64 = 512;

/// The null sink's format.
pub const NULL_RATE: u32 = 44_100;

/// The null sink's channel count.
pub const NULL_CHANNELS: u16 = 2;

/// The opened output: the mixer every playback is added to, and what
/// keeps the sound going.
pub struct Output {
    mixer: Mixer,
    kind: Kind,
    /// Frames the output has consumed so far (the null sink counts them;
    /// a device does not say).
    position: Option<Arc<AtomicU64>>,
}

enum Kind {
    /// The device stream; dropping it stops the sound.
    Device(#[allow(dead_code)] rodio::MixerDeviceSink),
    /// The null sink's thread runs while the flag is set.
    Null(Arc<AtomicBool>),
}

impl Output {
    /// Open the output `FESTINA_AUDIO_SINK` asks for (module docs).
    pub fn open() -> Output {
        let choice = std::env::var("FESTINA_AUDIO_SINK").unwrap_or_default();
        if choice != "null" && (choice == "device" || device_may_exist()) {
            if let Some(out) = Output::device() {
                return out;
            }
        }
        Output::null()
    }

    /// The default device, if it opens.
    fn device() -> Option<Output> {
        let mut sink = rodio::DeviceSinkBuilder::from_default_device()
            .ok()?
            .with_error_callback(|_| ())
            .open_sink_or_fallback()
            .ok()?;
        sink.log_on_drop(false);
        Some(Output {
            mixer: sink.mixer().clone(),
            kind: Kind::Device(sink),
            position: None,
        })
    }

    /// The null sink: a thread consuming the mixer in real time.
    pub fn null() -> Output {
        let (mixer, source) = rodio::mixer::mixer(
            NULL_CHANNELS.try_into().expect("non-zero"),
            NULL_RATE.try_into().expect("non-zero"),
        );
        let running = Arc::new(AtomicBool::new(true));
        let position = Arc::new(AtomicU64::new(0));
        let (r, p) = (Arc::clone(&running), Arc::clone(&position));
        let spawned = std::thread::Builder::new()
            .name("festina-null-sink".into())
            .spawn(move || run_null_sink(source, &r, &p));
        if spawned.is_err() {
            // No thread, no time: nothing will ever be consumed, so every
            // playback stays busy until stopped. Still not an error.
            running.store(false, Ordering::Relaxed);
        }
        Output {
            mixer,
            kind: Kind::Null(running),
            position: Some(position),
        }
    }

    /// The mixer to add playbacks to.
    pub fn mixer(&self) -> &Mixer {
        &self.mixer
    }

    /// True for the null sink.
    pub fn is_null(&self) -> bool {
        matches!(self.kind, Kind::Null(_))
    }

    /// The null sink's frame counter (frames consumed so far).
    pub fn position(&self) -> Option<&Arc<AtomicU64>> {
        self.position.as_ref()
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Kind::Null(running) = &self.kind {
            running.store(false, Ordering::Relaxed);
        }
    }
}

/// The null sink's loop: consume [`NULL_PERIOD`] frames, then wait until
/// the clock reaches the end of what has been consumed; stop when
/// `running` is cleared.
fn run_null_sink(mut source: MixerSource, running: &AtomicBool, position: &AtomicU64) {
    let channels = source.channels().get() as u64;
    let rate = source.sample_rate().get() as u64;
    let start = Instant::now();
    let mut frames: u64 = 0;
    while running.load(Ordering::Relaxed) {
        for _ in 0..NULL_PERIOD {
            for _ in 0..channels {
                // `None` means nothing is playing: silence.
                let _ = source.next();
            }
            frames += 1;
            position.store(frames, Ordering::Relaxed);
        }
        let due = start + Duration::from_nanos(frames * 1_000_000_000 / rate);
        let now = Instant::now();
        if due > now {
            std::thread::sleep(due - now);
        }
    }
}

/// Whether trying the device is worth it (module docs): not on a Linux
/// machine with neither a sound card nor a sound server, where ALSA would
/// only print errors.
fn device_may_exist() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let cards = std::fs::read_to_string("/proc/asound/cards").unwrap_or_default();
    let has_card = !cards.trim().is_empty() && !cards.contains("no soundcards");
    has_card || sound_server()
}

/// A PulseAudio or PipeWire socket is reachable (the ALSA default device
/// may then route to it without a card of its own).
fn sound_server() -> bool {
    if std::env::var_os("PULSE_SERVER").is_some() {
        return true;
    }
    let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR") else {
        return false;
    };
    let dir = std::path::Path::new(&dir);
    dir.join("pulse/native").exists() || dir.join("pipewire-0").exists()
}
