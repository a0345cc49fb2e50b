//! Image files (§8.13): PNG and JPEG decoded from bytes, PNG encoded.
//!
//! # Decoders
//! The format is sniffed from the bytes, never from a file name: the PNG
//! signature (`89 50 4E 47 0D 0A 1A 0A`) or the JPEG start of image
//! followed by a marker (`FF D8 FF`). PNG is decoded by the `png` crate
//! (every colour type and bit depth, palettes with transparency,
//! interlacing; 16-bit channels are cut to 8, gamma and colour profiles
//! are ignored, an animated PNG gives its first frame; a palette whose
//! chunks would make that crate panic is refused first), JPEG by
//! `zune-jpeg` in strict mode (baseline and progressive, greyscale,
//! YCbCr, CMYK and YCCK, converted to RGB; EXIF orientation is ignored;
//! a file whose last scan is not followed by the end-of-image marker is
//! truncated, so corrupt). Both are pure
//! Rust, fuzzed by their authors and by our own target
//! (`stdlib/fuzz/fuzz_targets/img_decode.rs`); we chose them over
//! cairo's PNG reader and libjpeg so that a decode needs no cairo
//! surface (it runs on a background thread for `path.callback(fn)`),
//! reads from memory, and cannot `longjmp` or abort.
//!
//! Bad bytes never fail the program from here: anything that is not a
//! complete PNG or JPEG within the limits gives a [`DecodeError`] (the
//! caller turns it into `null`, a 1x1 image or the runtime failure its
//! clause names). Limits: each side at most 32767 pixels (cairo's) and at
//! most [`MAX_PIXELS`] pixels in all, checked from the header before the
//! pixels are allocated. A decoder that panicked (a bug in it) is caught
//! and reported as a corrupt image.
//!
//! # Pixels
//! Decoding yields premultiplied ARGB32 pixels, the surfaces' format,
//! premultiplied the way cairo's own PNG reader does it; encoding takes
//! them back to straight-alpha RGBA the way cairo's PNG writer does
//! (`(c * 255 + a / 2) / a`), then writes an 8-bit PNG with the `png`
//! crate ([`encode_png`]): RGBA for the canvas, RGB for an image whose
//! pixels are all opaque.

use super::surface::MAX_SIDE;
use std::io::Cursor;

/// The most pixels a decoded image may have (256 MB of ARGB32).
pub const MAX_PIXELS: u64 = 1 << 26;

/// A decoded image: `width * height` premultiplied ARGB32 pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels, row after row.
    pub pixels: Vec<u32>,
}

/// Why bytes did not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Neither a PNG nor a JPEG.
    Unrecognized,
    /// A PNG or JPEG that is truncated, corrupt or unsupported.
    Corrupt,
    /// Larger than the limits.
    TooLarge,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DecodeError::Unrecognized => "not a PNG or JPEG image",
            DecodeError::Corrupt => "the image data is truncated or corrupt",
            DecodeError::TooLarge => {
                "the image is larger than 32767 pixels a side or 67108864 pixels in all"
            }
        })
    }
}

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Decode PNG or JPEG `bytes` (sniffed).
pub fn decode(bytes: &[u8]) -> Result<Decoded, DecodeError> {
    let kind = if bytes.starts_with(PNG_SIGNATURE) {
        decode_png
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        decode_jpeg
    } else {
        return Err(DecodeError::Unrecognized);
    };
    std::panic::catch_unwind(|| kind(bytes)).unwrap_or(Err(DecodeError::Corrupt))
}

/// Check a header's size against the limits.
fn check_size(width: u64, height: u64) -> Result<(), DecodeError> {
    if width == 0 || height == 0 {
        return Err(DecodeError::Corrupt);
    }
    if width > MAX_SIDE as u64 || height > MAX_SIDE as u64 || width * height > MAX_PIXELS {
        return Err(DecodeError::TooLarge);
    }
    Ok(())
}

/// Whether a PNG's palette chunks are ones the `png` crate (0.18.1)
/// handles without panicking: a `PLTE` whose length is a whole number of
/// entries, and a `tRNS` no longer than the palette (both are errors by
/// the PNG specification anyway). The chunks before the first `IDAT` are
/// walked; anything else malformed is left to the decoder to report.
fn png_palette_sane(bytes: &[u8]) -> bool {
    let mut at = PNG_SIGNATURE.len();
    let mut entries = None;
    while let Some(head) = bytes.get(at..at + 8) {
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        match &head[4..8] {
            b"PLTE" if !len.is_multiple_of(3) => return false,
            b"PLTE" => entries = Some(len / 3),
            b"tRNS" if entries.is_some_and(|n| len > n) => return false,
            b"IDAT" => break,
            _ => {}
        }
        at = at.saturating_add(12).saturating_add(len);
    }
    true
}

fn decode_png(bytes: &[u8]) -> Result<Decoded, DecodeError> {
    if !png_palette_sane(bytes) {
        return Err(DecodeError::Corrupt);
    }
    let limits = png::Limits {
        bytes: (MAX_PIXELS * 8) as usize,
    };
    let mut decoder = png::Decoder::new_with_limits(Cursor::new(bytes), limits);
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(png_error)?;
    let (width, height) = reader.info().size();
    check_size(width as u64, height as u64)?;
    let size = reader.output_buffer_size().ok_or(DecodeError::TooLarge)?;
    let mut buf = vec![0u8; size];
    let out = reader.next_frame(&mut buf).map_err(png_error)?;
    let data = &buf[..out.buffer_size()];
    let (w, h) = (out.width as usize, out.height as usize);
    let line = out.line_size;
    let mut pixels = Vec::with_capacity(w * h);
    for row in data.chunks(line).take(h) {
        match out.color_type {
            png::ColorType::Grayscale => {
                pixels.extend(row[..w].iter().map(|&v| argb(255, v, v, v)))
            }
            png::ColorType::GrayscaleAlpha => pixels.extend(
                row[..2 * w]
                    .chunks_exact(2)
                    .map(|p| argb(p[1], p[0], p[0], p[0])),
            ),
            png::ColorType::Rgb => pixels.extend(
                row[..3 * w]
                    .chunks_exact(3)
                    .map(|p| argb(255, p[0], p[1], p[2])),
            ),
            png::ColorType::Rgba => pixels.extend(
                row[..4 * w]
                    .chunks_exact(4)
                    .map(|p| argb(p[3], p[0], p[1], p[2])),
            ),
            // normalize_to_color8 expands palettes; nothing else remains
            png::ColorType::Indexed => return Err(DecodeError::Corrupt),
        }
    }
    if pixels.len() != w * h {
        return Err(DecodeError::Corrupt);
    }
    Ok(Decoded {
        width: w as u32,
        height: h as u32,
        pixels,
    })
}

fn png_error(e: png::DecodingError) -> DecodeError {
    match e {
        png::DecodingError::LimitsExceeded => DecodeError::TooLarge,
        _ => DecodeError::Corrupt,
    }
}

/// Whether a JPEG's last scan is followed by the end-of-image marker
/// (`FF D9`): a file cut short anywhere in its image data lacks it, and
/// the entropy-coded data itself never contains it.
fn jpeg_complete(bytes: &[u8]) -> bool {
    let last_scan = bytes.windows(2).rposition(|m| m == [0xff, 0xda]);
    match last_scan {
        Some(at) => bytes[at..].windows(2).any(|m| m == [0xff, 0xd9]),
        None => false,
    }
}

fn decode_jpeg(bytes: &[u8]) -> Result<Decoded, DecodeError> {
    use zune_jpeg::zune_core::colorspace::ColorSpace;
    if !jpeg_complete(bytes) {
        return Err(DecodeError::Corrupt);
    }
    use zune_jpeg::zune_core::options::DecoderOptions;
    let options = DecoderOptions::default()
        .set_max_width(MAX_SIDE as usize)
        .set_max_height(MAX_SIDE as usize)
        .set_strict_mode(true)
        .jpeg_set_out_colorspace(ColorSpace::RGB);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(Cursor::new(bytes), options);
    decoder.decode_headers().map_err(|_| DecodeError::Corrupt)?;
    let info = decoder.info().ok_or(DecodeError::Corrupt)?;
    check_size(info.width as u64, info.height as u64)?;
    let data = decoder.decode().map_err(|_| DecodeError::Corrupt)?;
    let (w, h) = (info.width as usize, info.height as usize);
    let channels = match decoder.output_colorspace() {
        Some(ColorSpace::RGB) => 3,
        Some(ColorSpace::Luma) => 1,
        _ => return Err(DecodeError::Corrupt),
    };
    if data.len() < w * h * channels {
        return Err(DecodeError::Corrupt);
    }
    let pixels = if channels == 3 {
        data.chunks_exact(3)
            .take(w * h)
            .map(|p| argb(255, p[0], p[1], p[2]))
            .collect()
    } else {
        data[..w * h].iter().map(|&v| argb(255, v, v, v)).collect()
    };
    Ok(Decoded {
        width: w as u32,
        height: h as u32,
        pixels,
    })
}

/// A straight-alpha colour as a premultiplied ARGB32 pixel (cairo's PNG
/// reader's rounding).
#[inline]
pub fn argb(a: u8, r: u8, g: u8, b: u8) -> u32 {
    let pm = |c: u8| -> u32 {
        if a == 255 {
            return c as u32;
        }
        let t = a as u32 * c as u32 + 0x80;
        (t + (t >> 8)) >> 8
    };
    (a as u32) << 24 | pm(r) << 16 | pm(g) << 8 | pm(b)
}

/// A premultiplied ARGB32 pixel as straight-alpha `[r, g, b, a]` (cairo's
/// PNG writer's rounding).
#[inline]
pub fn rgba(pixel: u32) -> [u8; 4] {
    let a = pixel >> 24;
    let un = |c: u32| -> u8 {
        match a {
            0 => 0,
            255 => c as u8,
            _ => ((c * 255 + a / 2) / a).min(255) as u8,
        }
    };
    [
        un((pixel >> 16) & 0xff),
        un((pixel >> 8) & 0xff),
        un(pixel & 0xff),
        a as u8,
    ]
}

/// Which channels a PNG of pixels keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channels {
    /// Always red, green, blue and alpha (`saveCanvas`: "with alpha",
    /// §17.3).
    Rgba,
    /// Red, green and blue when every pixel is opaque (nothing is lost),
    /// otherwise with alpha: a quarter less to filter and compress.
    RgbWhenOpaque,
}

/// Encode `width * height` premultiplied ARGB32 `pixels` (rows `stride`
/// pixels apart) as an 8-bit PNG with `channels`; the empty vector in the
/// one case the encoder refuses (sizes a surface never has). Rows are
/// filtered with "up" and compressed by `fdeflate`'s fastest mode (the
/// `png` crate's `Compression::Fastest`): measured on a 160x60 CAPTCHA,
/// 7 µs against 28 µs for its adaptive filtering, for a file a third
/// larger.
pub fn encode_png(
    width: u32,
    height: u32,
    stride: usize,
    pixels: &[u32],
    channels: Channels,
) -> Vec<u8> {
    let (w, h) = (width as usize, height as usize);
    let rows = || pixels.chunks(stride).take(h).map(|row| &row[..w]);
    let opaque = channels == Channels::RgbWhenOpaque
        && rows().all(|row| row.iter().all(|&p| p >> 24 == 255));
    let mut bytes = Vec::with_capacity(w * h * if opaque { 3 } else { 4 });
    for row in rows() {
        for &p in row {
            if opaque {
                bytes.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8]);
            } else if p >> 24 == 255 {
                bytes.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8, 255]);
            } else {
                bytes.extend_from_slice(&rgba(p));
            }
        }
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(if opaque {
        png::ColorType::Rgb
    } else {
        png::ColorType::Rgba
    });
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fastest);
    let written = encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&bytes));
    if written.is_err() {
        out.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn premultiplication_round_trips_opaque_and_transparent() {
        for c in [0u8, 1, 127, 128, 254, 255] {
            assert_eq!(rgba(argb(255, c, 0, 255 - c)), [c, 0, 255 - c, 255]);
        }
        assert_eq!(rgba(argb(0, 200, 100, 50)), [0, 0, 0, 0]);
        assert_eq!(argb(128, 255, 0, 0), 0x8080_0000);
        assert_eq!(rgba(0x8080_0000), [255, 0, 0, 128]);
    }

    #[test]
    fn png_round_trip() {
        let pixels = vec![
            0xff10_2030,
            0x0000_0000,
            0x8040_2010,
            0xffff_ffff,
            0xff00_0000,
            0x4020_1008,
        ];
        let png = encode_png(3, 2, 3, &pixels, Channels::RgbWhenOpaque);
        assert!(png.starts_with(PNG_SIGNATURE));
        let d = decode(&png).unwrap();
        assert_eq!((d.width, d.height), (3, 2));
        assert_eq!(d.pixels[0], 0xff10_2030);
        assert_eq!(d.pixels[1], 0);
        assert_eq!(d.pixels[3], 0xffff_ffff);
        // translucent pixels survive up to rounding
        for (a, b) in d.pixels.iter().zip(&pixels) {
            for shift in [0, 8, 16, 24] {
                let (x, y) = ((a >> shift) & 0xff, (b >> shift) & 0xff);
                assert!(x.abs_diff(y) <= 1, "{a:08x} {b:08x}");
            }
        }
    }

    #[test]
    fn opaque_images_lose_their_alpha_channel_only_when_asked() {
        let opaque = [0xff10_2030u32, 0xff00_0000, 0xffff_ffff, 0xff01_0203];
        let rgb = encode_png(2, 2, 2, &opaque, Channels::RgbWhenOpaque);
        let rgba = encode_png(2, 2, 2, &opaque, Channels::Rgba);
        assert_eq!(rgb[25], 2, "colour type RGB");
        assert_eq!(rgba[25], 6, "colour type RGBA");
        assert_eq!(decode(&rgb).unwrap().pixels, opaque);
        assert_eq!(decode(&rgba).unwrap().pixels, opaque);
        let translucent = [0xff10_2030u32, 0x8040_2010, 0, 0xff01_0203];
        let png = encode_png(2, 2, 2, &translucent, Channels::RgbWhenOpaque);
        assert_eq!(png[25], 6, "colour type RGBA");
        // rows are read `stride` apart
        let padded = [0xff11_1111u32, 0xdead_beef, 0xff22_2222, 0xdead_beef];
        let png = encode_png(1, 2, 2, &padded, Channels::RgbWhenOpaque);
        assert_eq!(decode(&png).unwrap().pixels, vec![0xff11_1111, 0xff22_2222]);
    }

    #[test]
    fn bad_bytes() {
        assert_eq!(decode(b""), Err(DecodeError::Unrecognized));
        assert_eq!(decode(b"GIF89a"), Err(DecodeError::Unrecognized));
        assert_eq!(decode(PNG_SIGNATURE), Err(DecodeError::Corrupt));
        assert_eq!(decode(&[0xff, 0xd8, 0xff]), Err(DecodeError::Corrupt));
        let png = encode_png(2, 2, 2, &[0xff00_0000; 4], Channels::Rgba);
        for cut in [9, 20, 33, png.len() / 2, png.len() - 13] {
            assert!(decode(&png[..cut]).is_err(), "cut at {cut}");
        }
    }
}
