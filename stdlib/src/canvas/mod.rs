//! The `canvas` facility: the 2D canvas, images and fonts (§17, §8.13,
//! §8.14), on cairo. Compiled only with the cargo feature `canvas`, so
//! that only the runtimes that register it (`festina-runtime` and
//! `festina` itself) link cairo. The signatures and the outcomes each
//! native guarantees are in `festina_signatures::tables::canvas`.
//!
//! # Design
//! Everything runs on the thread of the interpreter that calls it; cairo
//! objects never leave it.
//!
//! - **The canvas** ([`state::Canvas`]) is per interpreter, kept with
//!   `Interpreter::set_ext`: its surface (800x600 by default, made fully
//!   transparent on first use), the canvas transform and saved states,
//!   the global style, the open path, the direct pixel paths and their
//!   circle masks. So each thread's interpreter has its own canvas and
//!   threads can draw at once (§20).
//! - **A surface** ([`surface::Surface`]) is a cairo ARGB32 image surface
//!   (premultiplied) with its own long-lived context and direct access to
//!   its pixels; large ones are faulted in when made.
//! - **Drawing** ([`draw::Target`]) is written once for the canvas and for
//!   images: a surface and the transform to draw through (the canvas's,
//!   or the image's own, §17.6), the global [`style::Style`] turned into
//!   the call's [`style::Ink`] (with its trailing colour arguments).
//! - **Direct pixel paths** ([`direct`]): an opaque flat-colour
//!   rectangle, pixel or circle drawn through a whole-pixel translation
//!   is written straight into the pixels, byte-identical to cairo;
//!   `FESTINA_NO_DIRECT_FILL=1` (or `FESTINA_NO_OPT=1`) turns them off.
//! - **Images** ([`image::ImgObj`]) are handles with their own surface,
//!   transform stack, source bytes and path; **fonts**
//!   ([`style::FontObj`]) are handles of a literal the checker resolved.
//!   `color` values are plain packed ints (`null` for `none`).
//! - **Files** ([`codec`]): PNG and JPEG decoded by pure-Rust decoders
//!   (sniffed from the bytes), PNG encoded by the `png` crate.
//!
//! # The window
//! `render()` and the window builtins are not part of this facility but
//! of `window` (`festina_stdlib::window`), which presents the canvas
//! through [`canvas_pixels`] and follows the size
//! `setClientWidth`/`setClientHeight` give the canvas
//! ([`state::Canvas::size`]) through the [`ResizeHook`] it installs.
//!
//! # Natives
//! The global builtins are in [`mod@natives`], the `img` methods, loading and
//! the `img`/`font` literals in [`img_natives`]; [`natives()`] lists them
//! for the registry.

/// The registry entries of natives, `"name" => function` (for the
/// modules below).
macro_rules! entries {
    ($($name:literal => $f:ident),* $(,)?) => {
        vec![$(festina_vm::native::NativeEntry { name: $name, func: $f }),*]
    };
}

pub mod codec;
pub mod direct;
pub mod draw;
pub mod image;
pub mod img_natives;
pub mod natives;
pub mod state;
pub mod style;
pub mod surface;

use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::Value;
pub use image::ImgObj;
pub use state::Canvas;

/// How the database decodes `img` columns (§15.3): installed in the
/// interpreter by the native `img_columns`, which the checker calls at the
/// start of a program with such columns, so that the database natives
/// never link the image code themselves (`festina_stdlib::db`).
#[derive(Clone, Copy, Debug)]
pub struct ImgColumns(pub fn(&[u8]) -> Value);

/// What the window does after the program changed the canvas size with
/// `setClientWidth`/`setClientHeight` (§17.2): resize the window and fire
/// `on resize` once, synchronously. Installed in the interpreter by the
/// window when it opens (`festina_stdlib::window`), so that the canvas
/// never links the window; absent, a new size changes only the canvas.
#[derive(Clone, Copy, Debug)]
pub struct ResizeHook(pub fn(&mut Interpreter) -> Result<(), Trap>);

/// The natives of the facility, for the registry.
pub fn natives() -> Vec<NativeEntry> {
    let mut all = natives::entries();
    all.extend(img_natives::entries());
    all
}

/// The canvas state of `it`, made on first use.
pub fn canvas(it: &mut Interpreter) -> &mut Canvas {
    it.ext_or_insert_with(Canvas::default)
}

/// Call `f` with the canvas's pixels: width, height, row pitch in pixels
/// and the premultiplied ARGB32 pixels (for the window, which presents
/// them). Errors: no memory for the canvas.
pub fn canvas_pixels<R>(
    it: &mut Interpreter,
    f: impl FnOnce(i32, i32, usize, &[u32]) -> R,
) -> Result<R, Trap> {
    let s = canvas(it)
        .surface()
        .map_err(|e| Trap::Fail(format!("the canvas: {e}")))?;
    let (w, h, stride) = (s.width(), s.height(), s.stride());
    Ok(f(w, h, stride, s.pixels()))
}

/// The encoded bytes of an `img` value (for an HTTP body, §19.2): its own
/// file's bytes (PNG or JPEG) while its pixels still match them, otherwise
/// a PNG of its pixels; `None` for anything else.
pub fn img_bytes(v: &Value) -> Option<Vec<u8>> {
    v.as_handle::<ImgObj>().map(|i| i.bytes().to_vec())
}

/// An `img` decoded from `bytes` (PNG or JPEG), or `null` when they do
/// not decode (`http.toImg()`, `blob.toImg()`, §19.2).
pub fn img_from_bytes(bytes: &[u8]) -> Value {
    match ImgObj::from_bytes(bytes) {
        Ok(img) => Value::handle(img),
        Err(_) => Value::Null,
    }
}

// ---------------------------------------------------------------------------
// Argument helpers shared by the natives

/// Argument `i` as an int (`null` reads 0).
fn int(args: &[Value], i: usize) -> i64 {
    args.get(i).map_or(0, Value::as_int)
}

/// Argument `i` as a color: `Some(0xRRGGBB)`, or `None` for `none`/`null`.
fn color(args: &[Value], i: usize) -> Option<u32> {
    match args.get(i) {
        Some(Value::Int(c)) if *c >= 0 => Some((*c & 0xff_ffff) as u32),
        _ => None,
    }
}

/// The trailing colour arguments of a drawing call from index `from`: the
/// fill override, then the border override, each present only when
/// passed (`Some(None)` is `none`).
fn overrides(args: &[Value], from: usize) -> (Option<Option<u32>>, Option<Option<u32>>) {
    let at = |i: usize| (args.len() > i).then(|| color(args, i));
    (at(from), at(from + 1))
}

/// `(r, g, b)` components to a color: any negative one means `none`,
/// above 255 counts as 255.
fn rgb(r: i64, g: i64, b: i64) -> Option<u32> {
    if r < 0 || g < 0 || b < 0 {
        return None;
    }
    let c = |v: i64| v.min(255) as u32;
    Some(c(r) << 16 | c(g) << 8 | c(b))
}

/// Argument `i` as a text, if not null.
fn text(args: &[Value], i: usize) -> Option<&str> {
    args.get(i).and_then(Value::as_str)
}

/// Argument `i` as an image, if not null.
fn img(args: &[Value], i: usize) -> Option<&ImgObj> {
    args.get(i).and_then(Value::as_handle::<ImgObj>)
}

/// A pixel as a `color` value: `null` when fully transparent or absent,
/// otherwise its colour with the alpha taken out.
fn pixel_color(p: Option<u32>) -> Value {
    match p {
        Some(p) if p >> 24 != 0 => {
            let [r, g, b, _] = codec::rgba(p);
            Value::Int((r as i64) << 16 | (g as i64) << 8 | b as i64)
        }
        _ => Value::Null,
    }
}

/// The runtime failure `message at file:line`.
fn fail(it: &Interpreter, message: impl std::fmt::Display) -> Trap {
    Trap::Fail(format!("{message} at {}", it.location()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_helpers() {
        let args = [
            Value::Int(0x123456),
            Value::Null,
            Value::Int(-1),
            Value::Int(0x1_00ff00),
        ];
        assert_eq!(color(&args, 0), Some(0x123456));
        assert_eq!(color(&args, 1), None);
        assert_eq!(color(&args, 2), None);
        assert_eq!(color(&args, 3), Some(0xff00));
        assert_eq!(color(&args, 9), None);
        assert_eq!(overrides(&args, 3), (Some(Some(0xff00)), None));
        assert_eq!(overrides(&args, 1), (Some(None), Some(None)));
        assert_eq!(overrides(&args, 4), (None, None));
        assert_eq!(rgb(1, 2, 3), Some(0x010203));
        assert_eq!(rgb(300, 0, 0), Some(0xff0000));
        assert_eq!(rgb(0, -1, 0), None);
        assert_eq!(pixel_color(Some(0)), Value::Null);
        assert_eq!(pixel_color(None), Value::Null);
        assert_eq!(pixel_color(Some(0xff10_2030)), Value::Int(0x102030));
        assert_eq!(pixel_color(Some(0x8080_0000)), Value::Int(0xff0000));
    }
}
