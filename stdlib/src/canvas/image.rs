//! The `img` value (§8.13, §17.6): a decoded raster image that is also a
//! drawing target of its own.
//!
//! An [`ImgObj`] is a handle (`festina_vm::value::Handle`): assignment
//! shares it, so `resize` and every drawing call change the one image
//! every alias sees; its state lives behind a `RefCell` and stays on the
//! thread of the interpreter that owns it (cairo objects are not `Send`).
//! It holds:
//! - its [`Surface`] (premultiplied ARGB32 pixels and a cairo context);
//! - the encoded bytes it was loaded from, if any, and as long as the
//!   pixels still match them: drawing, clearing and resizing drop them.
//!   `save`, a database column and an HTTP body write these bytes when
//!   present (a JPEG stays a JPEG, byte-identical, §15.3), otherwise a
//!   PNG of the pixels, encoded when first asked for;
//! - the path it was loaded from (`save()` writes there, §16.6);
//! - its own transform and a stack of saved transforms (at most
//!   [`MAX_STATES`], §17.6); the style is the global one.
//!
//! A thread message carries a deep copy (§20.4): [`SentImg`] holds the
//! pixels, bytes and path as plain `Send` data and builds a new image on
//! the receiving thread.

use super::codec::{self, Channels, Decoded};
use super::surface::{Surface, SurfaceError};
use cairo::Matrix;
use festina_vm::value::{Handle, SentHandle, Value};
use std::cell::{RefCell, RefMut};
use std::rc::Rc;

/// How deep `saveState()` may nest, on the canvas and on each image.
pub const MAX_STATES: usize = 64;

/// The state of one image (see the module documentation).
pub struct ImgState {
    /// The pixels.
    pub surface: Surface,
    /// The encoded file the pixels came from, while they still match it.
    pub source: Option<Rc<[u8]>>,
    /// The path it was loaded from or last saved to with `save(path)`.
    pub path: Option<String>,
    /// Its transform.
    pub matrix: Matrix,
    /// Saved transforms.
    pub saved: Vec<Matrix>,
}

/// An `img` value.
pub struct ImgObj {
    state: RefCell<ImgState>,
}

impl ImgObj {
    /// An image of `surface`, with no bytes or path.
    pub fn new(surface: Surface) -> ImgObj {
        ImgObj {
            state: RefCell::new(ImgState {
                surface,
                source: None,
                path: None,
                matrix: Matrix::identity(),
                saved: Vec::new(),
            }),
        }
    }

    /// A fully transparent `width` x `height` image (`blankImage`).
    pub fn blank(width: i64, height: i64) -> Result<ImgObj, SurfaceError> {
        Ok(ImgObj::new(Surface::new(width, height)?))
    }

    /// The image of decoded pixels, remembering the bytes they came from.
    pub fn decoded(d: Decoded, source: Option<Rc<[u8]>>) -> Result<ImgObj, SurfaceError> {
        let surface = Surface::from_pixels(d.width as i64, d.height as i64, &d.pixels)?;
        let img = ImgObj::new(surface);
        img.state.borrow_mut().source = source;
        Ok(img)
    }

    /// Decode `bytes` (PNG or JPEG); the image keeps them as its own
    /// bytes. Errors: why they did not decode.
    pub fn from_bytes(bytes: &[u8]) -> Result<ImgObj, String> {
        let d = codec::decode(bytes).map_err(|e| e.to_string())?;
        ImgObj::decoded(d, Some(Rc::from(bytes))).map_err(|e| e.to_string())
    }

    /// The state, borrowed for reading or changing it.
    ///
    /// Callers never hold it across a call that could reach the same
    /// image again (drawing an image onto itself copies it first).
    pub fn state(&self) -> RefMut<'_, ImgState> {
        self.state.borrow_mut()
    }

    /// Whether `self` and `other` are the same image.
    pub fn same(&self, other: &ImgObj) -> bool {
        std::ptr::eq(self, other)
    }

    /// `(width, height)`.
    pub fn size(&self) -> (i32, i32) {
        let s = self.state.borrow();
        (s.surface.width(), s.surface.height())
    }

    /// Replace the pixels with those of a finished background load
    /// (§12.5), with the bytes they came from.
    pub fn fill(&self, d: Decoded, source: Rc<[u8]>) -> Result<(), SurfaceError> {
        let surface = Surface::from_pixels(d.width as i64, d.height as i64, &d.pixels)?;
        let mut s = self.state.borrow_mut();
        s.surface = surface;
        s.source = Some(source);
        Ok(())
    }

    /// The encoded bytes: the source file's while the pixels match it,
    /// otherwise a PNG of the pixels.
    pub fn bytes(&self) -> Rc<[u8]> {
        let mut s = self.state.borrow_mut();
        if let Some(b) = &s.source {
            return Rc::clone(b);
        }
        let (w, h, stride) = (
            s.surface.width() as u32,
            s.surface.height() as u32,
            s.surface.stride(),
        );
        let png = codec::encode_png(w, h, stride, s.surface.pixels(), Channels::RgbWhenOpaque);
        Rc::from(png)
    }
}

impl ImgState {
    /// The pixels are about to change: the source bytes no longer match.
    pub fn touch(&mut self) {
        self.source = None;
    }
}

impl Handle for ImgObj {
    /// `img`. An image has no text form (§8.21, a compile error); inside
    /// JSON it renders `"<img>"`.
    fn type_name(&self) -> &'static str {
        "img"
    }

    /// `clear` of the last reference (§10.11): every pixel transparent and
    /// the source bytes dropped.
    fn wipe(&self) {
        let mut s = self.state.borrow_mut();
        s.surface.clear();
        s.source = None;
    }

    /// An image is sendable (§20.4): pixels, bytes, path and transform,
    /// copied.
    fn send_copy(&self) -> Option<Box<dyn SentHandle>> {
        let mut s = self.state.borrow_mut();
        Some(Box::new(SentImg {
            width: s.surface.width() as u32,
            height: s.surface.height() as u32,
            pixels: s.surface.packed(),
            source: s.source.as_ref().map(|b| b.to_vec()),
            path: s.path.clone(),
            matrix: matrix_parts(&s.matrix),
            saved: s.saved.iter().map(matrix_parts).collect(),
        }))
    }

    /// Its own bytes (a file's, or a PNG), for a `BLOB` column or an HTTP
    /// body (§15.3, §19.2).
    fn encoded_bytes(&self) -> Option<Vec<u8>> {
        Some(self.bytes().to_vec())
    }
}

/// A matrix as six numbers (cairo's matrix is not `Send`).
fn matrix_parts(m: &Matrix) -> [f64; 6] {
    [m.xx(), m.yx(), m.xy(), m.yy(), m.x0(), m.y0()]
}

/// The matrix of [`matrix_parts`].
fn matrix_of(p: [f64; 6]) -> Matrix {
    Matrix::new(p[0], p[1], p[2], p[3], p[4], p[5])
}

/// An image's deep copy on its way to another thread (§20.4).
pub struct SentImg {
    width: u32,
    height: u32,
    pixels: Vec<u32>,
    source: Option<Vec<u8>>,
    path: Option<String>,
    matrix: [f64; 6],
    saved: Vec<[f64; 6]>,
}

impl SentHandle for SentImg {
    /// The image on the receiving thread; `null` if its surface cannot be
    /// made there (no memory).
    fn into_value(self: Box<Self>) -> Value {
        let d = Decoded {
            width: self.width,
            height: self.height,
            pixels: self.pixels,
        };
        let Ok(img) = ImgObj::decoded(d, self.source.map(Rc::from)) else {
            return Value::Null;
        };
        {
            let mut s = img.state();
            s.path = self.path;
            s.matrix = matrix_of(self.matrix);
            s.saved = self.saved.into_iter().map(matrix_of).collect();
        }
        Value::handle(img)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_is_a_sendable_handle() {
        let img = ImgObj::blank(3, 2).unwrap();
        img.state().surface.pixels_mut()[0] = 0xff00_ff00;
        img.state().path = Some("a.png".into());
        img.state().matrix = Matrix::new(1.0, 0.0, 0.0, 1.0, 5.0, 6.0);
        let v = Value::handle(img);
        let Value::Handle(h) = &v else { panic!() };
        assert_eq!(h.type_name(), "img");
        let sent = h.as_dyn().send_copy().expect("sendable");
        let copy = std::thread::spawn(move || {
            // the copy crosses threads as plain data
            let boxed: Box<dyn SentHandle> = sent;
            boxed
        })
        .join()
        .unwrap()
        .into_value();
        let c = copy.as_handle::<ImgObj>().unwrap();
        assert_eq!(c.size(), (3, 2));
        assert_eq!(c.state().surface.pixel(0, 0), Some(0xff00_ff00));
        assert_eq!(c.state().path.as_deref(), Some("a.png"));
        assert_eq!(c.state().matrix.x0(), 5.0);
        // wiping the original leaves the copy
        h.as_dyn().wipe();
        let orig = v.as_handle::<ImgObj>().unwrap();
        assert_eq!(orig.state().surface.pixel(0, 0), Some(0));
        assert_eq!(c.state().surface.pixel(0, 0), Some(0xff00_ff00));
    }

    #[test]
    fn bytes_are_the_source_until_the_pixels_change() {
        let png = codec::encode_png(1, 1, 1, &[0xff12_3456], Channels::Rgba);
        let img = ImgObj::from_bytes(&png).unwrap();
        assert_eq!(&*img.bytes(), &png[..]);
        img.state().touch();
        let again = img.bytes();
        assert!(again.starts_with(b"\x89PNG"));
        let d = codec::decode(&again).unwrap();
        assert_eq!(d.pixels, vec![0xff12_3456]);
        assert!(ImgObj::from_bytes(b"nope").is_err());
    }
}
