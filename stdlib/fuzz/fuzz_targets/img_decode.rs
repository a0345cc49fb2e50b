//! cargo-fuzz target: the image decoders (PNG and JPEG, sniffed) must
//! never panic, and an image they accept is whole and turns into an
//! `img` (`cargo +nightly fuzz run img_decode` from `stdlib/`; seed the
//! corpus with `tests/fixtures/images/`).
#![no_main]

use festina_stdlib::canvas::codec::decode;
use festina_stdlib::canvas::ImgObj;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(d) = decode(data) {
        assert_eq!(d.pixels.len(), d.width as usize * d.height as usize);
        let img = ImgObj::from_bytes(data).expect("decoded bytes make an image");
        assert_eq!(img.size(), (d.width as i32, d.height as i32));
    }
});
