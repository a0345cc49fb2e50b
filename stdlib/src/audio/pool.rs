//! The channel pool (§18): numbered channels `0..64`, which clip plays on
//! which, reservations, and the playbacks themselves as rodio sources.
//!
//! # Data
//! - [`Pool`] is the table of [`CHANNELS`] slots and the limit
//!   `maxAudioPlayers`. A slot holds the playback last started on that
//!   channel: its [`PlayCtl`], whether it loops and its start order. It
//!   belongs to the thread that plays (the main thread, §18), like the
//!   rules below; the audio thread never touches it.
//! - [`PlayCtl`] is the one piece shared with the audio thread: two flags,
//!   `stop` (set by the program: `stop()`, `stopAudioPlayer`, a takeover,
//!   a steal, the clip's last reference going away) and `done` (set by
//!   the audio thread when the clip has played to its end, or when it
//!   saw `stop`). The slot, the clip value and the source each hold an
//!   `Arc` of it.
//! - [`ClipSource`] is the playback: a rodio [`Source`] reading the clip's
//!   samples in place (an `Arc` of the decoded [`Pcm`], never a copy),
//!   looping or not, added to the output's mixer. The mixer drops it when
//!   it ends.
//!
//! # The logical state
//! A channel is **busy** while its playback is neither stopped nor done;
//! a busy channel whose playback loops is **reserved** (so a reservation
//! ends exactly when its loop is stopped, taken over or released). A
//! channel's state therefore changes in two ways only: at once, by the
//! program's calls, and when the output has consumed a one-shot clip to
//! its end. On the null sink that happens in real time as on a device
//! (`sink.rs`), so `isPlaying()` and `isAudioPlayerPlaying(n)` report the
//! same thing with or without a sound card.
//!
//! # Assigning a channel (`play()` / `playLoop()` without a number)
//! In order: the lowest idle unreserved channel below the limit; else the
//! unreserved busy channel below the limit that started first (stolen:
//! stopped and reused); else the lowest idle channel at or above the limit
//! (a program that reserved the whole pool still hears an effect); else
//! nothing, and the play is dropped (`-1`). A named channel is clamped
//! into `[0, 64)` and always taken over, reserved or not; the limit
//! bounds only what the pool picks on its own.

use super::decode::Pcm;
use super::trace;
use rodio::mixer::Mixer;
use rodio::source::SeekError;
use rodio::{ChannelCount, SampleRate, Source};
use std::num::NonZero;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Channels in the pool: channel numbers are `0..CHANNELS`.
pub const CHANNELS: usize = 64;

/// `maxAudioPlayers()` until `setMaxAudioPlayers` changes it (§14.5:
/// implementation-defined; the reference's default).
pub const DEFAULT_MAX_PLAYERS: usize = 10;

/// The control flags of one playback, shared with the audio thread.
#[derive(Debug, Default)]
pub struct PlayCtl {
    stop: AtomicBool,
    done: AtomicBool,
    /// Trace id (0 when not tracing).
    id: u64,
}

impl PlayCtl {
    /// Ask the playback to stop; it is silent from the next frame the
    /// output pulls, and no longer busy at once.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True while the playback is neither stopped nor finished.
    pub fn busy(&self) -> bool {
        !self.stop.load(Ordering::Relaxed) && !self.done.load(Ordering::Acquire)
    }
}

/// One channel's playback.
#[derive(Debug)]
struct Slot {
    ctl: Arc<PlayCtl>,
    looping: bool,
    /// Start order (for stealing the oldest).
    seq: u64,
}

impl Slot {
    fn busy(&self) -> bool {
        self.ctl.busy()
    }

    fn reserved(&self) -> bool {
        self.looping && self.busy()
    }
}

/// The channel table and its rules (module docs). No output of its own:
/// [`Pool::play`] is handed the mixer to add the playback to.
#[derive(Debug)]
pub struct Pool {
    slots: Vec<Option<Slot>>,
    max: usize,
    seq: u64,
}

impl Default for Pool {
    fn default() -> Pool {
        Pool::new()
    }
}

/// A channel number as the program wrote it, clamped into `[0, 64)`.
pub fn clamp_channel(n: i64) -> usize {
    n.clamp(0, CHANNELS as i64 - 1) as usize
}

impl Pool {
    /// Every channel idle, the limit at [`DEFAULT_MAX_PLAYERS`].
    pub fn new() -> Pool {
        Pool {
            slots: (0..CHANNELS).map(|_| None).collect(),
            max: DEFAULT_MAX_PLAYERS,
            seq: 0,
        }
    }

    /// `setMaxAudioPlayers(n)`: clamped into `[1, 64]`.
    pub fn set_max(&mut self, n: i64) {
        self.max = n.clamp(1, CHANNELS as i64) as usize;
    }

    /// `maxAudioPlayers()`.
    pub fn max(&self) -> usize {
        self.max
    }

    fn busy(&self, ch: usize) -> bool {
        self.slots[ch].as_ref().is_some_and(Slot::busy)
    }

    fn reserved(&self, ch: usize) -> bool {
        self.slots[ch].as_ref().is_some_and(Slot::reserved)
    }

    /// `isAudioPlayerPlaying(n)` (clamped).
    pub fn is_playing(&self, n: i64) -> bool {
        self.busy(clamp_channel(n))
    }

    /// `stopAudioPlayer(n)`: stop channel `n` (clamped) and release it.
    pub fn stop_channel(&mut self, n: i64) {
        if let Some(s) = self.slots[clamp_channel(n)].take() {
            s.ctl.stop();
        }
    }

    /// `stopAudioPlayer()`: stop every channel.
    pub fn stop_all(&mut self) {
        for s in self.slots.iter_mut().filter_map(Option::take) {
            s.ctl.stop();
        }
    }

    /// The channel an unnamed play goes to (module docs), or `None` when
    /// every channel is reserved.
    fn pick(&self) -> Option<usize> {
        let below = 0..self.max;
        if let Some(ch) = below.clone().find(|&c| !self.busy(c)) {
            return Some(ch);
        }
        let oldest = below
            .filter(|&c| !self.reserved(c))
            .min_by_key(|&c| self.slots[c].as_ref().map_or(0, |s| s.seq));
        oldest.or_else(|| (self.max..CHANNELS).find(|&c| !self.busy(c)))
    }

    /// Start `clip` on channel `channel` (clamped; `None` lets the pool
    /// pick), looping or once, through `mixer`. Returns the channel and
    /// the playback's control, or `None` when the play was dropped.
    pub fn play(
        &mut self,
        clip: &Arc<Pcm>,
        channel: Option<i64>,
        looping: bool,
        mixer: &Mixer,
        position: Option<&Arc<AtomicU64>>,
    ) -> Option<(usize, Arc<PlayCtl>)> {
        let ch = match channel {
            Some(n) => clamp_channel(n),
            None => self.pick()?,
        };
        if let Some(old) = self.slots[ch].take() {
            old.ctl.stop();
        }
        self.seq += 1;
        let ctl = Arc::new(PlayCtl {
            id: trace::play(ch, position),
            ..PlayCtl::default()
        });
        if clip.samples() == 0 {
            // A clip of no frames (a failed background load) has finished
            // as soon as it starts.
            ctl.done.store(true, Ordering::Release);
        }
        self.slots[ch] = Some(Slot {
            ctl: Arc::clone(&ctl),
            looping,
            seq: self.seq,
        });
        mixer.add(ClipSource::new(
            Arc::clone(clip),
            Arc::clone(&ctl),
            looping,
            position.cloned(),
        ));
        Some((ch, ctl))
    }
}

/// One playback of a clip: a rodio source over the clip's samples.
pub struct ClipSource {
    pcm: Arc<Pcm>,
    ctl: Arc<PlayCtl>,
    looping: bool,
    /// Next sample index.
    pos: usize,
    channels: ChannelCount,
    rate: SampleRate,
    /// While tracing: its first sound is still to be reported.
    trace_pending: bool,
    /// The null sink's frame counter, for the trace.
    position: Option<Arc<AtomicU64>>,
}

impl ClipSource {
    /// A playback of `pcm` from its start.
    pub fn new(
        pcm: Arc<Pcm>,
        ctl: Arc<PlayCtl>,
        looping: bool,
        position: Option<Arc<AtomicU64>>,
    ) -> ClipSource {
        let channels = NonZero::new(pcm.channels).unwrap_or(NonZero::<u16>::MIN);
        let rate = NonZero::new(pcm.rate).unwrap_or(NonZero::<u32>::MIN);
        ClipSource {
            trace_pending: ctl.id != 0,
            pcm,
            ctl,
            looping,
            pos: 0,
            channels,
            rate,
            position,
        }
    }

    fn finish(&mut self) -> Option<f32> {
        self.ctl.done.store(true, Ordering::Release);
        None
    }
}

impl Iterator for ClipSource {
    type Item = f32;

    #[inline]
    fn next(&mut self) -> Option<f32> {
        let n = self.pcm.samples();
        if self.pos.is_multiple_of(self.channels.get() as usize) {
            // Frame boundary: honour a stop, end or loop.
            if self.ctl.stop.load(Ordering::Relaxed) {
                return self.finish();
            }
            if self.pos >= n {
                if !self.looping || n == 0 {
                    return self.finish();
                }
                self.pos = 0;
            }
        }
        let s = self.pcm.sample(self.pos);
        self.pos += 1;
        if self.pos == n && !self.looping {
            // The last sample is handed to the output now: the channel is
            // free from this moment.
            self.ctl.done.store(true, Ordering::Release);
        }
        if s != 0 && self.trace_pending {
            self.trace_pending = false;
            trace::sound(self.ctl.id, self.position.as_ref());
        }
        Some(s as f32 / 32_768.0)
    }
}

impl Source for ClipSource {
    fn current_span_len(&self) -> Option<usize> {
        None
    }

    fn channels(&self) -> ChannelCount {
        self.channels
    }

    fn sample_rate(&self) -> SampleRate {
        self.rate
    }

    fn total_duration(&self) -> Option<Duration> {
        if self.looping {
            return None;
        }
        let frames = self.pcm.frames() as u64;
        Some(Duration::from_nanos(
            frames * 1_000_000_000 / self.rate.get() as u64,
        ))
    }

    fn try_seek(&mut self, _: Duration) -> Result<(), SeekError> {
        Err(SeekError::NotSupported {
            underlying_source: "festina clip",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audio::decode::{decode, tests::wav};

    /// A mono clip of `frames` frames at 1,000 Hz.
    fn clip(frames: usize) -> Arc<Pcm> {
        Arc::new(decode(wav(1, 1000, frames).into()).unwrap())
    }

    /// A pool with a mixer the test pulls by hand (1,000 Hz mono, so one
    /// sample is one frame of every clip above).
    fn setup() -> (Pool, Mixer, rodio::mixer::MixerSource) {
        let (m, s) = rodio::mixer::mixer(NonZero::new(1).unwrap(), NonZero::new(1000).unwrap());
        (Pool::new(), m, s)
    }

    fn pull(src: &mut rodio::mixer::MixerSource, n: usize) {
        for _ in 0..n {
            let _ = src.next();
        }
    }

    #[test]
    fn unnamed_plays_layer_on_the_lowest_idle_channels() {
        let (mut p, m, mut src) = setup();
        let c = clip(100);
        let a = p.play(&c, None, false, &m, None).unwrap();
        let b = p.play(&c, None, false, &m, None).unwrap();
        assert_eq!((a.0, b.0), (0, 1));
        assert!(a.1.busy() && b.1.busy() && p.is_playing(0) && p.is_playing(1));
        // Both sound at once: the mix is twice one clip.
        assert_eq!(src.next(), Some(2.0 * 8000.0 / 32_768.0));
        pull(&mut src, 98);
        assert!(p.is_playing(0), "one frame is still to be pulled");
        pull(&mut src, 1);
        assert!(
            !p.is_playing(0) && !p.is_playing(1),
            "finished clips free their channels"
        );
        assert_eq!(p.play(&c, None, false, &m, None).unwrap().0, 0);
    }

    #[test]
    fn the_oldest_unreserved_channel_is_stolen() {
        let (mut p, m, _src) = setup();
        let c = clip(100);
        p.set_max(3);
        let first = p.play(&c, None, false, &m, None).unwrap();
        p.play(&c, None, false, &m, None).unwrap();
        p.play(&c, None, false, &m, None).unwrap();
        let (ch, _) = p.play(&c, None, false, &m, None).unwrap();
        assert_eq!(ch, 0, "channel 0 started first");
        assert!(!first.1.busy(), "the stolen playback stopped");
        let (ch, _) = p.play(&c, None, false, &m, None).unwrap();
        assert_eq!(ch, 1, "now channel 1 is the oldest");
    }

    #[test]
    fn reserved_channels_are_never_picked_or_stolen() {
        let (mut p, m, _src) = setup();
        let c = clip(100);
        p.set_max(2);
        assert_eq!(p.play(&c, None, true, &m, None).unwrap().0, 0);
        assert_eq!(p.play(&c, None, false, &m, None).unwrap().0, 1);
        // Channel 0 is reserved, channel 1 busy: 1 is stolen.
        assert_eq!(p.play(&c, None, false, &m, None).unwrap().0, 1);
        assert_eq!(p.play(&c, None, true, &m, None).unwrap().0, 1);
        // Both below the limit reserved: the lowest idle one above it.
        assert_eq!(p.play(&c, None, false, &m, None).unwrap().0, 2);
        for ch in 2..CHANNELS as i64 {
            p.play(&c, Some(ch), true, &m, None).unwrap();
        }
        assert!(p.play(&c, None, false, &m, None).is_none(), "dropped");
        assert!(p.play(&c, None, true, &m, None).is_none(), "dropped");
        assert!((0..64).all(|ch| p.is_playing(ch)));
    }

    #[test]
    fn named_channels_take_over_and_clamp() {
        let (mut p, m, _src) = setup();
        let c = clip(100);
        let looped = p.play(&c, Some(5), true, &m, None).unwrap();
        assert!(p.reserved(5));
        let once = p.play(&c, Some(5), false, &m, None).unwrap();
        assert!(!looped.1.busy(), "taken over");
        assert!(once.1.busy() && !p.reserved(5), "a one-shot releases it");
        assert_eq!(p.play(&c, Some(-3), false, &m, None).unwrap().0, 0);
        assert_eq!(p.play(&c, Some(1000), false, &m, None).unwrap().0, 63);
        p.set_max(1);
        assert_eq!(p.play(&c, Some(40), false, &m, None).unwrap().0, 40);
        assert!(p.is_playing(40) && p.is_playing(-1) && p.is_playing(99));
    }

    #[test]
    fn stopping_releases() {
        let (mut p, m, mut src) = setup();
        let c = clip(100);
        let a = p.play(&c, Some(2), true, &m, None).unwrap();
        p.play(&c, Some(3), false, &m, None).unwrap();
        p.stop_channel(2);
        assert!(!a.1.busy() && !p.is_playing(2) && !p.reserved(2));
        pull(&mut src, 1);
        assert!(!a.1.busy());
        p.stop_all();
        assert!(!p.is_playing(3));
        // The stopped sources end at the next frame: silence.
        assert_eq!(src.next(), None);
    }

    #[test]
    fn loops_wrap_and_limits_clamp() {
        let (mut p, m, mut src) = setup();
        let c = clip(10);
        let a = p.play(&c, None, true, &m, None).unwrap();
        pull(&mut src, 1000);
        assert!(a.1.busy(), "a loop never finishes on its own");
        p.set_max(0);
        assert_eq!(p.max(), 1);
        p.set_max(1000);
        assert_eq!(p.max(), 64);
        // An empty clip ends at once.
        let e = p.play(&clip(0), None, false, &m, None).unwrap();
        assert!(!e.1.busy());
    }
}
