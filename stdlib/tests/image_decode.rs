//! The image decoders (§8.13) on real files: every PNG colour type and
//! bit depth (palette with transparency, interlaced), baseline,
//! progressive, restart-marker, greyscale and CMYK JPEGs; then the same
//! files truncated at every length and corrupted by a fixed sequence of
//! byte changes, which must give an error or an image, never a panic.
//! The fixtures (`tests/fixtures/images/`) are 37x23 pictures of one
//! formula ([`expected`]), written by the `png` and `jpeg-encoder` crates.

use festina_stdlib::canvas::codec::{argb, decode, DecodeError};
use std::fs;
use std::path::PathBuf;

const W: u32 = 37;
const H: u32 = 23;

fn fixture(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/images")
        .join(name);
    fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The straight RGBA the colour fixtures hold at (x, y).
fn expected(x: u32, y: u32) -> [u8; 4] {
    [
        ((x * 7) % 256) as u8,
        ((y * 11) % 256) as u8,
        (((x + y) * 5) % 256) as u8,
        ((x * y * 3 + 40) % 256) as u8,
    ]
}

fn gray(x: u32, y: u32) -> u8 {
    ((x * 6 + y * 4) % 256) as u8
}

fn check_exact(name: &str, want: impl Fn(u32, u32) -> u32) {
    let d = decode(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!((d.width, d.height), (W, H), "{name}");
    for y in 0..H {
        for x in 0..W {
            let got = d.pixels[(y * W + x) as usize];
            assert_eq!(got, want(x, y), "{name} at {x},{y}");
        }
    }
}

#[test]
fn pngs_of_every_colour_type() {
    let rgba = |x, y| {
        let [r, g, b, a] = expected(x, y);
        argb(a, r, g, b)
    };
    let rgb = |x, y| {
        let [r, g, b, _] = expected(x, y);
        argb(255, r, g, b)
    };
    let grey = |x, y| {
        let v = gray(x, y);
        argb(255, v, v, v)
    };
    check_exact("rgba8.png", rgba);
    check_exact("interlaced.png", rgba);
    check_exact("rgba16.png", rgba);
    check_exact("rgb8.png", rgb);
    check_exact("gray8.png", grey);
    check_exact("gray16.png", grey);
    check_exact("graya8.png", |x, y| {
        let v = gray(x, y);
        argb(expected(x, y)[3], v, v, v)
    });
    check_exact("gray1.png", |x, y| {
        let v = if (x + y) % 2 == 0 { 255 } else { 0 };
        argb(255, v, v, v)
    });
    check_exact("palette4.png", |x, y| {
        let i = (x + y) % 16;
        argb(
            (i * 17) as u8,
            (i * 16) as u8,
            (255 - i * 16) as u8,
            (i * 8) as u8,
        )
    });
}

/// JPEG is lossy: the mean error per channel stays small.
fn check_close(name: &str, want: impl Fn(u32, u32) -> [u8; 3]) {
    let d = decode(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!((d.width, d.height), (W, H), "{name}");
    let mut total = 0u64;
    for y in 0..H {
        for x in 0..W {
            let p = d.pixels[(y * W + x) as usize];
            assert_eq!(p >> 24, 255, "{name}: JPEG pixels are opaque");
            let got = [(p >> 16) as u8, (p >> 8) as u8, p as u8];
            let w = want(x, y);
            total += (0..3).map(|c| got[c].abs_diff(w[c]) as u64).sum::<u64>();
        }
    }
    let mean = total as f64 / (W * H * 3) as f64;
    assert!(mean < 12.0, "{name}: mean error {mean}");
}

#[test]
fn jpegs_baseline_progressive_restart_grey_and_cmyk() {
    let rgb = |x, y| {
        let [r, g, b, _] = expected(x, y);
        [r, g, b]
    };
    check_close("baseline.jpg", rgb);
    check_close("progressive.jpg", rgb);
    check_close("restart.jpg", rgb);
    check_close("cmyk.jpg", rgb);
    check_close("gray.jpg", |x, y| [gray(x, y); 3]);
}

const ALL: &[&str] = &[
    "rgba8.png",
    "interlaced.png",
    "rgba16.png",
    "rgb8.png",
    "gray8.png",
    "gray16.png",
    "graya8.png",
    "gray1.png",
    "palette4.png",
    "baseline.jpg",
    "progressive.jpg",
    "restart.jpg",
    "cmyk.jpg",
    "gray.jpg",
];

/// Every proper prefix of every fixture: never a panic, and an error for
/// every prefix that stops before the image data ends (the last 20
/// bytes of a file may be trailer).
#[test]
fn truncated_files_are_errors() {
    for name in ALL {
        let bytes = fixture(name);
        for len in 0..bytes.len() {
            let r = decode(&bytes[..len]);
            if len + 20 < bytes.len() {
                assert!(
                    r.is_err(),
                    "{name} cut to {len} of {} bytes decoded",
                    bytes.len()
                );
            }
        }
    }
}

/// Fixtures with bytes changed, by a fixed pseudo-random sequence: an
/// error or an image of sane size, never a panic.
#[test]
fn corrupted_files_never_panic() {
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for name in ALL {
        let bytes = fixture(name);
        for _ in 0..300 {
            let mut b = bytes.clone();
            for _ in 0..1 + next() % 4 {
                let i = (next() % b.len() as u64) as usize;
                b[i] = next() as u8;
            }
            if let Ok(d) = decode(&b) {
                assert_eq!(d.pixels.len(), (d.width * d.height) as usize, "{name}");
            }
        }
    }
}

#[test]
fn unrecognized_and_oversized() {
    assert_eq!(decode(b"BM\0\0"), Err(DecodeError::Unrecognized));
    assert_eq!(decode(b"GIF89a........"), Err(DecodeError::Unrecognized));
    // a PNG header claiming 40000 x 1 pixels
    let mut png = fixture("rgba8.png");
    png[16..20].copy_from_slice(&40_000u32.to_be_bytes());
    let crc = crc(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    assert_eq!(decode(&png), Err(DecodeError::TooLarge));
}

/// CRC-32 of a PNG chunk's type and data.
fn crc(bytes: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in bytes {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}
