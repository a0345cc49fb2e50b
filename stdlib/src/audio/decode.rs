//! Decoding an `aud` (§8.13, §18): the format sniffed from the bytes,
//! never from a file name; 16-bit PCM WAV and MP3 accepted, everything
//! else refused.
//!
//! [`decode`] turns encoded bytes into [`Pcm`]: interleaved signed 16-bit
//! little-endian samples with their channel count and sample rate. It is
//! a pure function of the bytes (no I/O, no global state), safe on any
//! thread, and never panics: whatever the bytes, it answers a clip or a
//! [`DecodeError`] (the fuzz target `stdlib/fuzz/fuzz_targets/aud_decode.rs`
//! and the smoke tests below hold it to that).
//!
//! # What is accepted
//! - **WAV**: a `RIFF`/`WAVE` file whose `fmt ` chunk says PCM
//!   (format tag 1, or `WAVE_FORMAT_EXTENSIBLE` with the PCM sub-format),
//!   16 bits per sample, 1 to [`MAX_CHANNELS`] channels, a sample rate of
//!   1 Hz to [`MAX_RATE`] Hz and a block alignment of 2 bytes per channel,
//!   followed by a complete `data` chunk. Chunks before `data` (`LIST`,
//!   `fact`, ...) are skipped. A zero channel count or sample rate, another
//!   bit depth (8, 24, 32), floating point or a compressed codec (ADPCM,
//!   µ-law) is refused, as is a file cut short: a chunk or `data` whose
//!   announced size runs past the end of the bytes, or a `data` chunk that
//!   is not a whole number of frames. The RIFF size field is not checked
//!   (writers often get it wrong). An empty `data` chunk is a valid,
//!   silent clip of no frames.
//! - **MP3**: MPEG-1, MPEG-2 or MPEG-2.5 Layer III frames, optionally
//!   after an ID3v2 tag (and zero padding). The frame headers are walked
//!   first: the first one must follow the tag, and the stream is the run
//!   of consecutive valid frames with the first frame's version, sample
//!   rate and channel mode (mono or not); whatever follows that run (an
//!   ID3v1 or APE tag, junk) is ignored. A frame cut off by the end of the
//!   bytes is a truncated file and refused; so is a free-format stream
//!   (bit-rate index 0), which cannot be walked. The run is then decoded
//!   by rodio's MP3 decoder (symphonia, gapless: the encoder's delay and
//!   padding announced in a LAME/Xing header are trimmed). A frame whose
//!   audio data is damaged decodes as the decoder can (it skips a frame it
//!   cannot decode); a stream that yields no samples at all is refused.
//!
//! Nothing else is: no Ogg, FLAC, AAC or Layer I/II, per §8.13.
//!
//! # Why WAV needs no decoder
//! The `data` chunk of a 16-bit PCM WAV already *is* [`Pcm`]'s sample
//! layout, and the header has to be read here anyway (rodio's WAV decoder
//! would accept every bit depth the specification refuses). So a WAV clip
//! keeps the file's own bytes and plays its `data` range in place: no
//! copy, no conversion, and rodio is built with its MP3 decoder only.

use std::io::Cursor;
use std::sync::Arc;

/// The most channels a clip may have.
pub const MAX_CHANNELS: u16 = 32;

/// The highest sample rate a clip may have, in Hz.
pub const MAX_RATE: u32 = 768_000;

/// The container a clip was decoded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 16-bit PCM WAV.
    Wav,
    /// MPEG Layer III.
    Mp3,
}

impl Format {
    /// `wav` or `mp3`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Wav => "wav",
            Format::Mp3 => "mp3",
        }
    }
}

/// Decoded audio: interleaved signed 16-bit little-endian samples
/// (`channels` samples per frame) in `bytes[start..end]`.
///
/// For a WAV the buffer is the file itself and the range its `data`
/// chunk; for an MP3 it is the decoded samples alone.
#[derive(Clone, Debug)]
pub struct Pcm {
    /// The buffer holding the samples.
    pub bytes: Arc<[u8]>,
    /// Byte offset of the first sample in `bytes`.
    pub start: usize,
    /// Byte offset just past the last sample (`end - start` is a whole
    /// number of frames).
    pub end: usize,
    /// Samples per frame, 1 to [`MAX_CHANNELS`].
    pub channels: u16,
    /// Frames per second, 1 to [`MAX_RATE`].
    pub rate: u32,
    /// Where it came from.
    pub format: Format,
}

impl Pcm {
    /// Number of frames.
    pub fn frames(&self) -> usize {
        (self.end - self.start) / (2 * self.channels as usize)
    }

    /// Number of samples (frames × channels).
    pub fn samples(&self) -> usize {
        (self.end - self.start) / 2
    }

    /// Sample `i` (in `0..samples()`), as a signed 16-bit value.
    #[inline]
    pub fn sample(&self, i: usize) -> i16 {
        let at = self.start + 2 * i;
        i16::from_le_bytes([self.bytes[at], self.bytes[at + 1]])
    }
}

/// Why bytes were refused. The program sees only `null` or a runtime
/// failure naming both formats; the reason is for tests and diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Neither a RIFF/WAVE header nor an MP3 frame (or ID3v2 tag) at the
    /// start.
    Unrecognized,
    /// A WAV that is not 16-bit PCM with a usable channel count and rate.
    UnsupportedWav,
    /// A chunk, tag or frame that runs past the end of the bytes.
    Truncated,
    /// Structure that contradicts itself (a `data` chunk before `fmt `, a
    /// block alignment that does not match, an MP3 header that is not
    /// Layer III or is free-format, no samples).
    Malformed,
}

/// Decode `bytes` (sniffed: WAV or MP3). `bytes` is shared, not copied,
/// when it is a WAV.
pub fn decode(bytes: Arc<[u8]>) -> Result<Pcm, DecodeError> {
    if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WAVE" {
        decode_wav(bytes)
    } else if looks_like_mp3(&bytes) {
        decode_mp3(bytes)
    } else {
        Err(DecodeError::Unrecognized)
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The `(channels, rate)` of a `fmt ` chunk body, if it is 16-bit PCM
/// within the limits.
fn wav_format(f: &[u8]) -> Result<(u16, u32), DecodeError> {
    if f.len() < 16 {
        return Err(DecodeError::Malformed);
    }
    let tag = u16_at(f, 0);
    let channels = u16_at(f, 2);
    let rate = u32_at(f, 4);
    let align = u16_at(f, 12);
    let bits = u16_at(f, 14);
    let pcm = match tag {
        1 => true,
        // WAVE_FORMAT_EXTENSIBLE: the sub-format GUID starts with the
        // format tag (KSDATAFORMAT_SUBTYPE_PCM is 1).
        0xFFFE => f.len() >= 26 && u16_at(f, 24) == 1,
        _ => false,
    };
    if !pcm || bits != 16 {
        return Err(DecodeError::UnsupportedWav);
    }
    if channels == 0 || channels > MAX_CHANNELS || rate == 0 || rate > MAX_RATE {
        return Err(DecodeError::UnsupportedWav);
    }
    if align as u32 != 2 * channels as u32 {
        return Err(DecodeError::Malformed);
    }
    Ok((channels, rate))
}

fn decode_wav(bytes: Arc<[u8]>) -> Result<Pcm, DecodeError> {
    let mut at = 12usize;
    let mut format = None;
    loop {
        if at + 8 > bytes.len() {
            // The chunks ended without a `data` chunk.
            return Err(DecodeError::Truncated);
        }
        let id = &bytes[at..at + 4];
        let size = u32_at(&bytes, at + 4) as usize;
        let body = at + 8;
        let end = body.checked_add(size).ok_or(DecodeError::Truncated)?;
        if end > bytes.len() {
            return Err(DecodeError::Truncated);
        }
        match id {
            b"fmt " => format = Some(wav_format(&bytes[body..end])?),
            b"data" => {
                let (channels, rate) = format.ok_or(DecodeError::Malformed)?;
                if !size.is_multiple_of(2 * channels as usize) {
                    return Err(DecodeError::Truncated);
                }
                return Ok(Pcm {
                    bytes,
                    start: body,
                    end,
                    channels,
                    rate,
                    format: Format::Wav,
                });
            }
            _ => {}
        }
        // Chunks are padded to an even size.
        at = end + (size & 1);
    }
}

/// One MPEG audio frame header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FrameHeader {
    /// Version bits: 0 = MPEG-2.5, 2 = MPEG-2, 3 = MPEG-1.
    version: u8,
    /// Sample rate in Hz.
    rate: u32,
    /// True for single-channel frames.
    mono: bool,
    /// Bytes in the frame, header included.
    len: usize,
}

/// The Layer III frame header at the start of `b`, if it is one.
fn frame_header(b: &[u8]) -> Option<FrameHeader> {
    if b.len() < 4 || b[0] != 0xFF || b[1] & 0xE0 != 0xE0 {
        return None;
    }
    let version = (b[1] >> 3) & 3;
    let layer = (b[1] >> 1) & 3;
    let bitrate_index = (b[2] >> 4) as usize;
    let rate_index = ((b[2] >> 2) & 3) as usize;
    let padding = ((b[2] >> 1) & 1) as usize;
    let mono = (b[3] >> 6) == 3;
    // Version 1 is reserved; only Layer III (bits 01) is MP3; bit-rate
    // index 0 is free format and 15 is invalid; rate index 3 is reserved.
    if version == 1 || layer != 1 || bitrate_index == 0 || bitrate_index == 15 || rate_index == 3 {
        return None;
    }
    const MPEG1_KBPS: [u32; 15] = [
        0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320,
    ];
    const MPEG2_KBPS: [u32; 15] = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
    const RATES: [u32; 3] = [44_100, 48_000, 32_000];
    let (kbps, rate, coef) = match version {
        3 => (MPEG1_KBPS[bitrate_index], RATES[rate_index], 144),
        2 => (MPEG2_KBPS[bitrate_index], RATES[rate_index] / 2, 72),
        _ => (MPEG2_KBPS[bitrate_index], RATES[rate_index] / 4, 72),
    };
    let len = (coef * kbps * 1000 / rate) as usize + padding;
    Some(FrameHeader {
        version,
        rate,
        mono,
        len,
    })
}

/// The offset of the first frame: after an ID3v2 tag (and the zero
/// padding some writers leave after it), if any.
fn first_frame_offset(b: &[u8]) -> Result<usize, DecodeError> {
    let mut at = 0usize;
    if b.len() >= 10 && &b[0..3] == b"ID3" {
        let size = b[6..10]
            .iter()
            .try_fold(0usize, |acc, &x| {
                (x < 0x80).then_some((acc << 7) | x as usize)
            })
            .ok_or(DecodeError::Malformed)?;
        let footer = if b[5] & 0x10 != 0 { 10 } else { 0 };
        at = 10 + size + footer;
        if at > b.len() {
            return Err(DecodeError::Truncated);
        }
        while at < b.len() && b[at] == 0 {
            at += 1;
        }
    }
    Ok(at)
}

/// True when `b` starts like an MP3: an ID3v2 tag or a Layer III frame.
fn looks_like_mp3(b: &[u8]) -> bool {
    (b.len() >= 3 && &b[0..3] == b"ID3") || frame_header(b).is_some()
}

/// The frames of an MP3 stream: where they are and what they hold.
#[derive(Clone, Copy, Debug)]
struct Frames {
    /// Byte offset just past the last frame of the run.
    end: usize,
    /// Number of frames in the run.
    count: usize,
    /// The first frame's header.
    first: FrameHeader,
}

/// Walk the frames: the run of consecutive frames alike the first.
fn mp3_frames(b: &[u8]) -> Result<Frames, DecodeError> {
    let start = first_frame_offset(b)?;
    if start >= b.len() {
        return Err(DecodeError::Truncated);
    }
    let first = frame_header(&b[start..]).ok_or(DecodeError::Malformed)?;
    let mut at = start;
    let mut count = 0;
    while let Some(h) = b.get(at..).and_then(frame_header) {
        if h.version != first.version || h.rate != first.rate || h.mono != first.mono {
            break;
        }
        if at + h.len > b.len() {
            return Err(DecodeError::Truncated);
        }
        at += h.len;
        count += 1;
    }
    Ok(Frames {
        end: at,
        count,
        first,
    })
}

fn decode_mp3(bytes: Arc<[u8]>) -> Result<Pcm, DecodeError> {
    let frames = mp3_frames(&bytes)?;
    let (end, first) = (frames.end, frames.first);
    // The tag stays in front: the decoder reads it (and skips it), and the
    // first frame may be the LAME/Xing header that gapless playback needs.
    // What follows the frames is cut off.
    let channels = if first.mono { 1u16 } else { 2 };
    // Samples per frame and channel: 1,152 for MPEG-1, 576 otherwise.
    let per_frame = if first.version == 3 { 1152 } else { 576 };
    let capacity = frames.count * per_frame * channels as usize * 2;
    let out = if end == bytes.len() {
        decode_frames(Cursor::new(bytes), channels, capacity)?
    } else {
        decode_frames(Cursor::new(bytes[..end].to_vec()), channels, capacity)?
    };
    let end = out.len();
    Ok(Pcm {
        bytes: out.into(),
        start: 0,
        end,
        channels,
        rate: first.rate,
        format: Format::Mp3,
    })
}

/// The samples rodio's MP3 decoder makes of `data`, as 16-bit
/// little-endian bytes, in whole frames of `channels` samples (`capacity`
/// bytes expected). Refused when the decoder disagrees on the channel
/// count or yields nothing.
fn decode_frames<R>(data: R, channels: u16, capacity: usize) -> Result<Vec<u8>, DecodeError>
where
    R: std::io::Read + std::io::Seek + Send + Sync + 'static,
{
    use rodio::Source;
    let decoder = rodio::Decoder::builder()
        .with_data(data)
        .with_hint("mp3")
        .with_gapless(true)
        .build()
        .map_err(|_| DecodeError::Malformed)?;
    if decoder.channels().get() != channels {
        return Err(DecodeError::Malformed);
    }
    // A hint only: a corrupt stream cannot make it allocate more than its
    // own frames could decode to.
    let mut out: Vec<u8> = Vec::with_capacity(capacity);
    for s in decoder {
        // Round half away from zero; `as` saturates past full scale.
        let v = s * 32_767.0;
        let v = (v + 0.5f32.copysign(v)) as i16;
        out.extend_from_slice(&v.to_le_bytes());
    }
    let frame = 2 * channels as usize;
    out.truncate(out.len() / frame * frame);
    if out.is_empty() {
        return Err(DecodeError::Malformed);
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 16-bit PCM WAV of `frames` frames: a square wave whose first
    /// sample is non-zero.
    pub(crate) fn wav(channels: u16, rate: u32, frames: usize) -> Vec<u8> {
        let mut data = Vec::new();
        for i in 0..frames {
            let v: i16 = if (i / 20) % 2 == 0 { 8000 } else { -8000 };
            for _ in 0..channels {
                data.extend_from_slice(&v.to_le_bytes());
            }
        }
        wav_with(1, channels, rate, 16, &data)
    }

    /// A WAV with the given header fields around `data`.
    pub(crate) fn wav_with(tag: u16, channels: u16, rate: u32, bits: u16, data: &[u8]) -> Vec<u8> {
        let align = channels * bits / 8;
        let mut b = Vec::new();
        b.extend_from_slice(b"RIFF");
        b.extend_from_slice(&(36 + data.len() as u32).to_le_bytes());
        b.extend_from_slice(b"WAVE");
        b.extend_from_slice(b"fmt ");
        b.extend_from_slice(&16u32.to_le_bytes());
        b.extend_from_slice(&tag.to_le_bytes());
        b.extend_from_slice(&channels.to_le_bytes());
        b.extend_from_slice(&rate.to_le_bytes());
        b.extend_from_slice(&(rate * align as u32).to_le_bytes());
        b.extend_from_slice(&align.to_le_bytes());
        b.extend_from_slice(&bits.to_le_bytes());
        b.extend_from_slice(b"data");
        b.extend_from_slice(&(data.len() as u32).to_le_bytes());
        b.extend_from_slice(data);
        b
    }

    fn dec(b: Vec<u8>) -> Result<Pcm, DecodeError> {
        decode(b.into())
    }

    /// The committed MP3 fixture (provenance in tests/audio/README.md).
    pub(crate) fn mp3_fixture() -> Vec<u8> {
        std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/audio/tone.mp3"
        ))
        .expect("tests/audio/tone.mp3")
    }

    #[test]
    fn wav_is_read_in_place() {
        let b: Arc<[u8]> = wav(2, 22_050, 100).into();
        let p = decode(Arc::clone(&b)).unwrap();
        assert_eq!((p.channels, p.rate, p.frames()), (2, 22_050, 100));
        assert_eq!(p.format, Format::Wav);
        assert!(Arc::ptr_eq(&p.bytes, &b), "the file's own bytes");
        assert_eq!(
            (p.sample(0), p.sample(1), p.sample(40)),
            (8000, 8000, -8000)
        );
    }

    #[test]
    fn wav_extra_chunks_and_padding() {
        let mut b = wav(1, 8000, 10);
        // Insert an odd-sized LIST chunk (padded to even) before `data`.
        let data_at = b.windows(4).position(|w| w == b"data").unwrap();
        let mut list = b"LIST".to_vec();
        list.extend_from_slice(&3u32.to_le_bytes());
        list.extend_from_slice(b"abc\0");
        b.splice(data_at..data_at, list);
        assert_eq!(dec(b).unwrap().frames(), 10);
    }

    #[test]
    fn empty_wav_is_a_silent_clip() {
        let p = dec(wav(1, 8000, 0)).unwrap();
        assert_eq!(p.frames(), 0);
    }

    #[test]
    fn wav_refusals() {
        assert_eq!(
            dec(wav_with(1, 0, 8000, 16, &[])).unwrap_err(),
            DecodeError::UnsupportedWav
        );
        assert_eq!(
            dec(wav_with(1, 1, 0, 16, &[0, 0])).unwrap_err(),
            DecodeError::UnsupportedWav
        );
        assert_eq!(
            dec(wav_with(1, 1, 8000, 8, &[0, 0])).unwrap_err(),
            DecodeError::UnsupportedWav
        );
        assert_eq!(
            dec(wav_with(1, 1, 8000, 24, &[0, 0, 0])).unwrap_err(),
            DecodeError::UnsupportedWav
        );
        assert_eq!(
            dec(wav_with(3, 1, 8000, 32, &[0; 4])).unwrap_err(),
            DecodeError::UnsupportedWav
        );
        assert_eq!(
            dec(wav_with(2, 1, 8000, 16, &[0; 4])).unwrap_err(),
            DecodeError::UnsupportedWav
        );
        // A data chunk of one and a half stereo frames.
        assert_eq!(
            dec(wav_with(1, 2, 8000, 16, &[0; 6])).unwrap_err(),
            DecodeError::Truncated
        );
    }

    #[test]
    fn truncated_wavs_are_refused_at_every_length() {
        let b = wav(2, 8000, 50);
        for n in 0..b.len() {
            assert!(dec(b[..n].to_vec()).is_err(), "{n} bytes of {}", b.len());
        }
        assert!(dec(b).is_ok());
    }

    #[test]
    fn garbage_is_unrecognized() {
        assert_eq!(dec(Vec::new()).unwrap_err(), DecodeError::Unrecognized);
        assert_eq!(
            dec(b"hello world".to_vec()).unwrap_err(),
            DecodeError::Unrecognized
        );
        assert_eq!(
            dec(b"\x89PNG\r\n\x1a\n".to_vec()).unwrap_err(),
            DecodeError::Unrecognized
        );
    }

    #[test]
    fn mp3_fixture_decodes() {
        let p = dec(mp3_fixture()).unwrap();
        assert_eq!(p.format, Format::Mp3);
        assert_eq!((p.channels, p.rate), (1, 22_050));
        // 0.5 s of tone (11,025 frames), plus the encoder's delay and
        // padding: this file has no LAME/Xing header to trim them by.
        let frames = p.frames();
        assert_eq!(frames % 576, 0, "whole MPEG-2 Layer III granules");
        assert!((11_025..=13_000).contains(&frames), "{frames} frames");
        let peak = (0..p.samples()).map(|i| p.sample(i).unsigned_abs()).max();
        assert!(peak.unwrap() > 5_000, "a tone, not silence");
    }

    #[test]
    fn mp3_after_an_id3_tag() {
        // An ID3v2.4 tag of 20 bytes (syncsafe size), then zero padding.
        let mut b = b"ID3\x04\x00\x00\x00\x00\x00\x14".to_vec();
        b.extend_from_slice(&[0u8; 20 + 7]);
        b.extend_from_slice(&mp3_fixture());
        let p = dec(b.clone()).unwrap();
        assert_eq!(p.frames(), dec(mp3_fixture()).unwrap().frames());
        // The tag alone, or cut inside it: refused.
        assert!(dec(b[..30].to_vec()).is_err());
        assert_eq!(dec(b[..25].to_vec()).unwrap_err(), DecodeError::Truncated);
    }

    #[test]
    fn truncated_mp3s_are_refused() {
        let b = mp3_fixture();
        let start = first_frame_offset(&b).unwrap();
        let end = mp3_frames(&b).unwrap().end;
        assert!(end > start);
        // Cut inside every frame's bytes (not on a boundary) and inside
        // the tag: refused. Cutting exactly on a frame boundary leaves a
        // shorter, valid stream.
        let mut at = start;
        let mut boundaries = vec![start];
        while let Some(h) = b.get(at..).and_then(frame_header) {
            at += h.len;
            boundaries.push(at);
            if at >= end {
                break;
            }
        }
        for w in boundaries.windows(2).take(8) {
            let cut = (w[0] + w[1]) / 2;
            assert_eq!(
                dec(b[..cut].to_vec()).unwrap_err(),
                DecodeError::Truncated,
                "cut at {cut}"
            );
        }
        for n in 1..start.min(40) {
            assert!(dec(b[..n].to_vec()).is_err(), "{n} bytes");
        }
    }

    /// The deterministic smoke test of the fuzz target
    /// (`stdlib/fuzz/fuzz_targets/aud_decode.rs`): bytes of the fixtures
    /// overwritten at random places, cut at random lengths, and random
    /// bytes behind each format's magic; whatever decodes is consistent.
    #[test]
    fn corrupt_bytes_never_panic() {
        let mut x = 0x2545_F491_u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let seeds = [mp3_fixture(), wav(2, 8000, 64), wav(1, 44_100, 300)];
        for round in 0..600 {
            let mut c = seeds[round % seeds.len()].clone();
            match round % 3 {
                0 => {
                    for _ in 0..(1 + round % 7) {
                        let r = next();
                        let i = r as usize % c.len();
                        c[i] = (r >> 8) as u8;
                    }
                }
                1 => {
                    let n = next() as usize % c.len();
                    c.truncate(n);
                }
                _ => {
                    let keep = if c.starts_with(b"RIFF") { 40 } else { 4 };
                    for b in c.iter_mut().skip(keep) {
                        *b = next() as u8;
                    }
                }
            }
            if let Ok(p) = dec(c) {
                assert!((1..=MAX_CHANNELS).contains(&p.channels));
                assert!((1..=MAX_RATE).contains(&p.rate));
                assert!(p.end <= p.bytes.len());
                assert!((p.end - p.start).is_multiple_of(2 * p.channels as usize));
                if p.samples() > 0 {
                    let _ = p.sample(p.samples() - 1);
                }
            }
        }
    }

    #[test]
    fn layer_two_and_free_format_are_refused() {
        // MPEG-1 Layer II header, then Layer III free-format.
        assert_eq!(
            dec(vec![0xFF, 0xFD, 0x90, 0x00, 0, 0, 0, 0]).unwrap_err(),
            DecodeError::Unrecognized
        );
        assert_eq!(
            dec(vec![0xFF, 0xFB, 0x00, 0x00, 0, 0, 0, 0]).unwrap_err(),
            DecodeError::Unrecognized
        );
    }
}

/// The media files of the golden tests (`tests/programs/audio/`), which
/// are committed: this test is what writes them, and checks that the
/// committed files are exactly its output (`FESTINA_BLESS=1` rewrites
/// them).
#[cfg(test)]
mod fixtures {
    use super::tests::{wav, wav_with};
    use super::*;

    fn fixtures() -> Vec<(&'static str, Vec<u8>)> {
        let long = wav(1, 2000, 8000);
        vec![
            // 0.25 s, mono.
            ("short.wav", wav(1, 2000, 500)),
            // 4 s, mono: still playing when the tests look.
            ("long.wav", long.clone()),
            // 0.25 s, stereo.
            ("stereo.wav", wav(2, 4000, 1000)),
            // long.wav cut inside its data chunk.
            ("truncated.wav", long[..600].to_vec()),
            // A header announcing a sample rate of 0.
            ("zero_rate.wav", wav_with(1, 1, 0, 16, &[0; 64])),
            // A header announcing no channels.
            ("zero_channels.wav", wav_with(1, 0, 8000, 16, &[0; 64])),
            // 8-bit PCM.
            ("eight_bit.wav", wav_with(1, 1, 8000, 8, &[0x80; 64])),
            // Not audio at all.
            ("text.wav", b"these are not the bytes of a sound\n".to_vec()),
        ]
    }

    #[test]
    fn golden_fixtures_are_generated() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/programs/audio");
        let bless = std::env::var_os("FESTINA_BLESS").is_some();
        for (name, bytes) in fixtures() {
            let path = format!("{dir}/{name}");
            if bless {
                std::fs::write(&path, &bytes).unwrap();
            }
            let on_disk = std::fs::read(&path).unwrap_or_default();
            assert!(on_disk == bytes, "{path} differs from its generator");
            let good = ["short.wav", "long.wav", "stereo.wav"].contains(&name);
            assert_eq!(decode(bytes.into()).is_ok(), good, "{name}");
        }
    }
}
