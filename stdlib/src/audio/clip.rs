//! The `aud` value (§8.13, §18): a decoded clip, the bytes it was decoded
//! from, its own path, and the playbacks it has started.
//!
//! An [`AudObj`] is a handle (`festina_vm::value::Handle`) shared by
//! reference counting: assignment aliases (§13.2), so every alias plays,
//! stops and asks `isPlaying()` of the same clip. It lives on the thread
//! of the interpreter that owns it; what it shares with the audio thread
//! is immutable (the samples, behind an `Arc`) or atomic (each playback's
//! [`PlayCtl`]).
//!
//! - The samples ([`Pcm`]) are decoded once, when the value is made;
//!   every playback reads them in place.
//! - The encoded bytes are kept as they came, for `save()`, a database
//!   column and an HTTP body (§15.3, §19.2: "the asset's own encoded
//!   bytes, byte-identical on round trip"). For a WAV they are the same
//!   buffer as the samples.
//! - `plays` lists the controls of the playbacks this clip started that
//!   may still be busy: `stop()` stops them all, `isPlaying()` asks them,
//!   and dropping the last reference to the clip stops them (§18, "freeing
//!   the last reference to a clip stops it"), which also ends any
//!   reservation they held.
//!
//! A clip loaded in the background (§12.5) starts silent (no frames) and
//! is filled in on the owning thread when the load has finished.

use super::decode::{self, DecodeError, Format, Pcm};
use super::pool::PlayCtl;
use super::trace;
use crate::blob::file::save_bytes;
use festina_vm::value::{Handle, SentHandle, Value};
use std::cell::RefCell;
use std::sync::Arc;
use std::time::Instant;

/// The shared state of one `aud` value.
#[derive(Debug)]
pub struct AudObj {
    pcm: RefCell<Arc<Pcm>>,
    encoded: RefCell<Arc<[u8]>>,
    path: RefCell<Option<String>>,
    plays: RefCell<Vec<Arc<PlayCtl>>>,
}

/// A clip decoded from bytes (or why not), made on any thread.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// The samples.
    pub pcm: Arc<Pcm>,
    /// The bytes they came from.
    pub encoded: Arc<[u8]>,
}

/// Decode `bytes` (§8.13; formats in `decode.rs`), noting the time since
/// `started` (when the load began: before the file was read, for a file)
/// in the trace.
pub fn decode_bytes(bytes: Vec<u8>, started: Instant) -> Result<Decoded, DecodeError> {
    let encoded: Arc<[u8]> = bytes.into();
    let pcm = decode::decode(Arc::clone(&encoded))?;
    trace::decode(
        pcm.format.name(),
        started.elapsed(),
        pcm.frames(),
        pcm.rate,
        pcm.channels,
    );
    Ok(Decoded {
        pcm: Arc::new(pcm),
        encoded,
    })
}

/// A clip of no frames (a background load not finished, or failed).
fn silent() -> Arc<Pcm> {
    Arc::new(Pcm {
        bytes: Arc::from(&[][..]),
        start: 0,
        end: 0,
        channels: 1,
        rate: 44_100,
        format: Format::Wav,
    })
}

impl AudObj {
    /// A clip from decoded bytes, with an optional own path.
    pub fn new(d: Decoded, path: Option<String>) -> AudObj {
        AudObj {
            pcm: RefCell::new(d.pcm),
            encoded: RefCell::new(d.encoded),
            path: RefCell::new(path),
            plays: RefCell::new(Vec::new()),
        }
    }

    /// A silent clip (no frames, no bytes) with an optional own path: a
    /// background load's value until [`AudObj::fill`].
    pub fn pending(path: Option<String>) -> AudObj {
        AudObj::new(
            Decoded {
                pcm: silent(),
                encoded: Arc::from(&[][..]),
            },
            path,
        )
    }

    /// Install a clip decoded elsewhere (a finished background load).
    pub fn fill(&self, d: Decoded) {
        *self.pcm.borrow_mut() = d.pcm;
        *self.encoded.borrow_mut() = d.encoded;
    }

    /// The samples.
    pub fn pcm(&self) -> Arc<Pcm> {
        Arc::clone(&self.pcm.borrow())
    }

    /// The encoded bytes it was decoded from (empty for a silent clip).
    pub fn encoded(&self) -> Arc<[u8]> {
        Arc::clone(&self.encoded.borrow())
    }

    /// The own path, if any.
    pub fn path(&self) -> Option<String> {
        self.path.borrow().clone()
    }

    /// Remember a playback this clip started (and forget finished ones).
    pub fn add_play(&self, ctl: Arc<PlayCtl>) {
        let mut plays = self.plays.borrow_mut();
        plays.retain(|c| c.busy());
        plays.push(ctl);
    }

    /// `clip.isPlaying()`: true while any channel plays this clip.
    pub fn is_playing(&self) -> bool {
        self.plays.borrow().iter().any(|c| c.busy())
    }

    /// `clip.stop()`: silence this clip on every channel, releasing the
    /// reservations its loops held.
    pub fn stop(&self) {
        for c in self.plays.borrow_mut().drain(..) {
            c.stop();
        }
    }

    /// `.save()` (§16.6): `None` without a path (the caller's runtime
    /// failure).
    pub fn save(&self) -> Option<bool> {
        let p = self.path()?;
        Some(save_bytes(&p, &self.encoded.borrow()))
    }

    /// `.save(path)`: write, and adopt `path` only if that landed.
    pub fn save_as(&self, path: &str) -> bool {
        let ok = save_bytes(path, &self.encoded.borrow());
        if ok {
            *self.path.borrow_mut() = Some(path.to_string());
        }
        ok
    }

    /// `.saveCopy(path)`: write, keeping the own path.
    pub fn save_copy(&self, path: &str) -> bool {
        save_bytes(path, &self.encoded.borrow())
    }
}

impl Drop for AudObj {
    /// The last reference is gone: nothing can stop this clip any more,
    /// so it stops now (§18).
    fn drop(&mut self) {
        self.stop();
    }
}

impl Handle for AudObj {
    /// `aud`: no text form of its own (a compile error, §8.21); inside
    /// JSON it renders as `"<aud>"`.
    fn type_name(&self) -> &'static str {
        "aud"
    }

    /// `clear` of the last reference (§10.11): the clip is silenced. Its
    /// samples are shared with playbacks already ended, never written.
    fn wipe(&self) {
        self.stop();
    }

    /// An `aud` is sendable (§20.4): the receiving thread gets a clip of
    /// its own, with the same samples and bytes (immutable, so shared
    /// rather than copied) and path, and none of the playbacks.
    fn send_copy(&self) -> Option<Box<dyn SentHandle>> {
        Some(Box::new(SentAud {
            pcm: self.pcm(),
            encoded: self.encoded(),
            path: self.path(),
        }))
    }

    /// Its encoded bytes, for a `BLOB` column or an HTTP body (§15.3,
    /// §19.2).
    fn encoded_bytes(&self) -> Option<Vec<u8>> {
        Some(self.encoded().to_vec())
    }
}

/// An `aud`'s copy on its way to another thread (§20.4).
struct SentAud {
    pcm: Arc<Pcm>,
    encoded: Arc<[u8]>,
    path: Option<String>,
}

impl SentHandle for SentAud {
    fn into_value(self: Box<Self>) -> Value {
        Value::handle(AudObj::new(
            Decoded {
                pcm: self.pcm,
                encoded: self.encoded,
            },
            self.path,
        ))
    }
}

/// The `aud` value of encoded `bytes`, or `null` when they do not decode
/// (§2.3): for a database column (§15.3) and an HTTP body's `.toAud()`
/// (§19.2). It has no path.
pub fn value_from_bytes(bytes: &[u8]) -> Value {
    match decode_bytes(bytes.to_vec(), Instant::now()) {
        Ok(d) => Value::handle(AudObj::new(d, None)),
        Err(_) => Value::Null,
    }
}

/// The encoded bytes of an `aud` value, for a database parameter (§15.3)
/// or an HTTP body (§19.2); `None` if `v` is not an `aud`.
pub fn encoded_bytes(v: &Value) -> Option<Arc<[u8]>> {
    v.as_handle::<AudObj>().map(AudObj::encoded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audio::decode::tests::wav;

    #[test]
    fn bytes_round_trip_and_bad_bytes_are_null() {
        let b = wav(1, 8000, 30);
        let v = value_from_bytes(&b);
        assert_eq!(&*encoded_bytes(&v).unwrap(), &b[..]);
        assert_eq!(v.as_handle::<AudObj>().unwrap().path(), None);
        assert!(matches!(value_from_bytes(b"nope"), Value::Null));
        assert!(matches!(value_from_bytes(&b[..b.len() - 1]), Value::Null));
        assert!(encoded_bytes(&Value::Int(1)).is_none());
    }

    #[test]
    fn a_sent_clip_is_a_new_clip() {
        let v = value_from_bytes(&wav(2, 8000, 30));
        let Value::Handle(h) = &v else { panic!() };
        assert_eq!(h.type_name(), "aud");
        let a = v.as_handle::<AudObj>().unwrap();
        let ctl = Arc::new(PlayCtl::default());
        a.add_play(Arc::clone(&ctl));
        let copy = h.as_dyn().send_copy().expect("sendable").into_value();
        let c = copy.as_handle::<AudObj>().unwrap();
        assert_eq!(c.pcm().frames(), 30);
        assert!(a.is_playing() && !c.is_playing(), "no playbacks cross");
        drop(v);
        assert!(!ctl.busy(), "dropping the last reference stopped it");
    }

    #[test]
    fn pending_clips_are_silent_until_filled() {
        let a = AudObj::pending(Some("x.wav".into()));
        assert_eq!(a.pcm().frames(), 0);
        a.fill(decode_bytes(wav(1, 8000, 5), Instant::now()).unwrap());
        assert_eq!(a.pcm().frames(), 5);
    }
}
