//! `img` and `aud` values as HTTP bodies over real sockets (§19.2, issue
//! 16 item 3 and 9): the CAPTCHA endpoint of the mission documents
//! (`examples/flagship/captcha.f`) fetched by a keep-alive client whose
//! PNGs are decoded here, with `festina` and as a `festina compile`
//! bundle; request bodies read with `.toImg()` and `.toAud()`, and images
//! and clips sent back as response bodies.

use crate::common::*;
use std::io::{BufReader, Cursor, Write};
use std::path::Path;

/// A decoded PNG: width, height and RGB pixels.
struct Picture {
    width: u32,
    height: u32,
    rgb: Vec<[u8; 3]>,
}

/// Decode `bytes` as a PNG (8-bit RGB or RGBA), panicking when they are
/// not one.
fn decode_png(bytes: &[u8]) -> Picture {
    let decoder = png::Decoder::new(Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a sane size")];
    let info = reader.next_frame(&mut buf).expect("PNG pixels");
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let channels = match info.color_type {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    let rgb = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    Picture {
        width: info.width,
        height: info.height,
        rgb,
    }
}

/// A PNG of `width` x `height` opaque pixels of one colour, made here.
fn make_png(width: u32, height: u32, rgb: [u8; 3]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().unwrap();
        let data: Vec<u8> = (0..width * height).flat_map(|_| rgb).collect();
        w.write_image_data(&data).unwrap();
    }
    out
}

fn repo_file(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path))
        .unwrap_or_else(|e| panic!("read {path}: {e}"))
}

/// Three `GET /captcha` on one keep-alive connection and a `GET /`: each
/// CAPTCHA a 160x60 PNG with the background colour, dark glyph pixels and
/// grey speckles, no two alike.
fn captcha_session(port: u16) -> Vec<Picture> {
    let c = connect(port);
    let mut r = BufReader::new(c.try_clone().unwrap());
    let mut pictures = Vec::new();
    for _ in 0..3 {
        (&c).write_all(b"GET /captcha HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        let resp = read_response(&mut r, false).unwrap();
        assert_eq!(resp.status, 200);
        assert_eq!(resp.header("content-type"), Some("image/png"));
        assert!(resp.body.starts_with(b"\x89PNG\r\n\x1a\n"));
        let p = decode_png(&resp.body);
        assert_eq!((p.width, p.height), (160, 60));
        let bg = p.rgb.iter().filter(|px| **px == [0xee, 0xf1, 0xf5]).count();
        let ink = p
            .rgb
            .iter()
            .filter(|px| px.iter().all(|&c| c < 0x70))
            .count();
        assert!(bg > 160 * 60 / 2, "{bg} background pixels");
        assert!(ink > 100, "{ink} glyph pixels");
        pictures.push(p);
    }
    assert!(pictures[0].rgb != pictures[1].rgb && pictures[1].rgb != pictures[2].rgb);
    (&c).write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let other = read_response(&mut r, false).unwrap();
    assert_eq!((other.status, other.body.len()), (200, 0));
    pictures
}

#[test]
fn captcha_endpoint_serves_fresh_pngs() {
    let source = String::from_utf8(repo_file("examples/flagship/captcha.f")).unwrap();
    // The flagship programs take their port from $PORT (benches/flagship).
    let s = Server::start_with(
        &source,
        Options {
            port_in_env: true,
            ..Options::default()
        },
    );
    captcha_session(s.port);
    // As a bundle, run from an empty directory: the canvas runtime (cairo,
    // no window, audio or SQLite), serving the same kind of pictures.
    let dir = TempDir::new("captcha-bundle");
    let exe = compile_bundle(&dir, "captcha", &source);
    let bytes = std::fs::read(&exe).unwrap();
    let runtime = std::fs::read(env!("CARGO_BIN_EXE_festina-runtime-canvas")).unwrap();
    assert!(
        bytes.starts_with(&runtime),
        "the CAPTCHA bundle's runtime is not festina-runtime-canvas"
    );
    if let Ok(ldd) = std::process::Command::new("ldd").arg(&exe).output() {
        let libs = String::from_utf8_lossy(&ldd.stdout);
        assert!(
            !libs.contains("libasound"),
            "the CAPTCHA bundle links ALSA: {libs}"
        );
    }
    let b = Server::start_with(
        &source,
        Options {
            exe: Some(&exe),
            port_in_env: true,
            ..Options::default()
        },
    );
    captcha_session(b.port);
}

/// A server that reads request bodies as images and clips and sends
/// images and clips back.
const MEDIA_APP: &str = r#"
color red = '#ff0000'
aud clip = 'clip.wav'
img photo = 'photo.jpg'
on request(req:http) {
    text path = parseURL(req.url).pathname
    if path == '/size' {
        img i = req.toImg()
        if i == null {
            req.send({'code': 415, 'body': 'not an image'})
        } else {
            req.send({'body': `${i.width}x${i.height}`})
        }
    } else if path == '/mark' {
        // The posted image with a red square, sent back as PNG.
        img i = req.toImg()
        i.drawRect(0, 0, 2, 2, red)
        req.send({'body': i})
    } else if path == '/photo' {
        req.send({'body': photo})
    } else if path == '/clip' {
        req.send({'body': clip})
    } else if path == '/listen' {
        aud a = req.toAud()
        req.send({'body': a != null})
    } else {
        req.send({'code': 404})
    }
}
openPort(argv[1].toInt())
"#;

fn post(port: u16, path: &str, body: &[u8]) -> Response {
    let mut s = connect(port);
    s.write_all(
        format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    )
    .unwrap();
    s.write_all(body).unwrap();
    read_response(&mut BufReader::new(s), false).unwrap()
}

#[test]
fn image_and_audio_bodies_both_ways() {
    let wav = repo_file("tests/programs/audio/short.wav");
    let jpeg = repo_file("tests/programs/canvas/photo.jpg");
    let s = Server::start_with(
        MEDIA_APP,
        Options {
            files: &[("clip.wav", &wav), ("photo.jpg", &jpeg)],
            env: &[("FESTINA_AUDIO_SINK", "null")],
            ..Options::default()
        },
    );
    let png = make_png(7, 5, [10, 200, 30]);
    assert_eq!(post(s.port, "/size", &png).text(), "7x5");
    let jpeg_size = post(s.port, "/size", &jpeg);
    assert_eq!(jpeg_size.status, 200);
    assert!(jpeg_size.text().contains('x'), "{}", jpeg_size.text());
    for bad in [&b""[..], b"not an image", &png[..png.len() / 2]] {
        let r = post(s.port, "/size", bad);
        assert_eq!((r.status, r.text().as_str()), (415, "not an image"));
    }
    // An image changed by the program goes back as a PNG of its pixels.
    let marked = post(s.port, "/mark", &png);
    assert_eq!(marked.header("content-type"), Some("image/png"));
    let p = decode_png(&marked.body);
    assert_eq!((p.width, p.height), (7, 5));
    assert_eq!(p.rgb[0], [255, 0, 0]);
    assert_eq!(p.rgb[6], [10, 200, 30]);
    // An unchanged JPEG goes out as its own bytes.
    let photo = get(s.port, "/photo");
    assert_eq!(photo.header("content-type"), Some("image/jpeg"));
    assert_eq!(photo.body, jpeg);
    // A clip goes out as its WAV bytes; a posted clip decodes.
    let clip = get(s.port, "/clip");
    assert_eq!(clip.header("content-type"), Some("audio/wav"));
    assert_eq!(clip.body, wav);
    assert_eq!(post(s.port, "/listen", &wav).text(), "true");
    assert_eq!(post(s.port, "/listen", &png).text(), "false");
    // Still serving after every bad body.
    assert_eq!(post(s.port, "/size", &png).text(), "7x5");
}
