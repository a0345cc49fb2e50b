//! [`Surface`]: one ARGB32 drawing surface (the canvas, or one image) with
//! the cairo context that draws on it and direct access to its pixels.
//!
//! # Pixels
//! Cairo allocates the pixels (premultiplied ARGB32 in native byte order,
//! one `u32` per pixel, rows `stride` pixels apart) and frees them when
//! the surface is destroyed. A `Surface` keeps the surface and a context
//! on it, so the buffer outlives the `Surface`; it reads and writes the
//! buffer only through [`Surface::pixels`] and [`Surface::pixels_mut`],
//! whose borrows of `self` keep cairo from drawing on it at the same
//! time. The two sides are kept coherent as cairo asks: `flush()` before
//! the program reads or writes pixels after cairo drew, `mark_dirty()`
//! before cairo uses pixels written directly (both tracked by flags, so
//! a run of direct writes costs one call).
//!
//! # Fresh surfaces (issue 16, item 5)
//! A surface of [`PREFAULT_BYTES`] or more has its pages faulted in when it
//! is created (`prefault`: one `madvise(MADV_POPULATE_WRITE)` where the
//! kernel has it, a write per page otherwise), rather than one page fault
//! at a time while the first shapes are drawn. Page faults of one process
//! serialize on its memory map, so threads drawing their own fresh images
//! run in parallel only once those faults are out of their way.
//! `FESTINA_NO_PREFAULT=1` (or `FESTINA_NO_OPT=1`) leaves the pages to be
//! faulted in as they are first written; the example `fresh_surfaces`
//! measures both.
//!
//! # Errors
//! Cairo records an error in a context and refuses every later call on
//! it; [`Surface::ctx`] hands out a context in a good state (a new one
//! if the last was spoiled), and callers keep arguments in cairo's range
//! (finite, within [`COORD_LIMIT`]).

use cairo::{Context, Format, ImageSurface};
use festina_vm::switches::{disabled, NO_PREFAULT};

/// The largest width or height of a surface (cairo's own limit).
pub const MAX_SIDE: i64 = 32_767;

/// The bound kept on coordinates and sizes handed to cairo, in pixels
/// (cairo's fixed-point numbers hold about ±8 million).
pub const COORD_LIMIT: f64 = 4_194_304.0;

/// Surfaces at least this large (in bytes) are faulted in when created.
pub const PREFAULT_BYTES: usize = 64 * 1024;

/// Why a surface could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SurfaceError {
    /// A width or height outside `1..=MAX_SIDE`.
    Size(i64, i64),
    /// Cairo could not allocate it (out of memory).
    Alloc(i64, i64),
}

impl std::fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SurfaceError::Size(w, h) => write!(
                f,
                "width and height must both be from 1 to {MAX_SIDE}, got {w}x{h}"
            ),
            SurfaceError::Alloc(w, h) => write!(f, "out of memory creating a {w}x{h} image"),
        }
    }
}

/// One ARGB32 surface with its context (see the module documentation).
pub struct Surface {
    surface: ImageSurface,
    ctx: Context,
    width: i32,
    height: i32,
    /// Row pitch in pixels.
    stride: usize,
    /// The first pixel: cairo's buffer, `stride * height` pixels.
    data: *mut u32,
    /// Cairo drew since the pixels were last accessed directly.
    drawn: bool,
    /// Pixels were written directly since cairo last used the surface.
    dirty: bool,
}

impl Surface {
    /// A new fully transparent `width` x `height` surface. Errors: a side
    /// outside `1..=MAX_SIDE`, or no memory.
    pub fn new(width: i64, height: i64) -> Result<Surface, SurfaceError> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(SurfaceError::Size(width, height));
        }
        let alloc = || SurfaceError::Alloc(width, height);
        let (w, h) = (width as i32, height as i32);
        let surface = ImageSurface::create(Format::ARgb32, w, h).map_err(|_| alloc())?;
        let ctx = Context::new(&surface).map_err(|_| alloc())?;
        // SAFETY: `surface` is a live image surface; the pointer cairo
        // returns is its pixel buffer (stride * height bytes, 4-byte
        // aligned for ARGB32), valid until the surface is destroyed, which
        // cannot happen before `self` is dropped (see the module docs).
        let data = unsafe { cairo::ffi::cairo_image_surface_get_data(surface.to_raw_none()) };
        if data.is_null() {
            return Err(alloc());
        }
        let stride = surface.stride() as usize / 4;
        let bytes = stride * h as usize * 4;
        if bytes >= PREFAULT_BYTES && !disabled(NO_PREFAULT) {
            // SAFETY: `data` is the start of this surface's `bytes`-byte
            // buffer, which nothing else uses yet.
            unsafe { prefault(data, bytes) };
        }
        Ok(Surface {
            surface,
            ctx,
            width: w,
            height: h,
            stride,
            data: data as *mut u32,
            drawn: false,
            dirty: false,
        })
    }

    /// A surface holding `pixels` (premultiplied ARGB32, `width` per row).
    /// Errors: as [`Surface::new`]; `pixels` too short is a size error.
    pub fn from_pixels(width: i64, height: i64, pixels: &[u32]) -> Result<Surface, SurfaceError> {
        let mut s = Surface::new(width, height)?;
        let w = s.width as usize;
        if pixels.len() < w * s.height as usize {
            return Err(SurfaceError::Size(width, height));
        }
        let stride = s.stride;
        let px = s.pixels_mut();
        for (y, row) in pixels.chunks_exact(w).enumerate() {
            px[y * stride..y * stride + w].copy_from_slice(row);
        }
        Ok(s)
    }

    /// Width in pixels.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Row pitch in pixels.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// The pixels, rows `stride()` apart, for reading.
    pub fn pixels(&mut self) -> &[u32] {
        self.sync_for_access();
        // SAFETY: `data` points at `stride * height` pixels owned by the
        // surface (see `new`); the shared borrow of `self` keeps cairo
        // from drawing on them while the slice lives.
        unsafe { std::slice::from_raw_parts(self.data, self.stride * self.height as usize) }
    }

    /// The pixels, rows `stride()` apart, for writing directly.
    pub fn pixels_mut(&mut self) -> &mut [u32] {
        self.sync_for_access();
        self.dirty = true;
        // SAFETY: as in `pixels`; the exclusive borrow of `self` makes this
        // the only access to the buffer while the slice lives.
        unsafe { std::slice::from_raw_parts_mut(self.data, self.stride * self.height as usize) }
    }

    fn sync_for_access(&mut self) {
        if self.drawn {
            self.surface.flush();
            self.drawn = false;
        }
    }

    fn sync_for_cairo(&mut self) {
        if self.dirty {
            self.surface.mark_dirty();
            self.dirty = false;
        }
        self.drawn = true;
    }

    /// The context, ready to draw (with the identity matrix only if the
    /// caller sets none; callers set their own matrix, source and
    /// operator). A context cairo put in an error state is replaced.
    pub fn ctx(&mut self) -> &Context {
        self.sync_for_cairo();
        if self.ctx.status().is_err() {
            if let Ok(fresh) = Context::new(&self.surface) {
                self.ctx = fresh;
            }
        }
        &self.ctx
    }

    /// The cairo surface, up to date, for use as a drawing source.
    pub fn as_source(&mut self) -> &ImageSurface {
        self.sync_for_cairo();
        &self.surface
    }

    /// The pixel at (`x`, `y`) (premultiplied ARGB32), `None` outside.
    pub fn pixel(&mut self, x: i64, y: i64) -> Option<u32> {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return None;
        }
        let i = y as usize * self.stride + x as usize;
        Some(self.pixels()[i])
    }

    /// The pixels packed row after row with no padding (`width * height`).
    pub fn packed(&mut self) -> Vec<u32> {
        let (w, stride) = (self.width as usize, self.stride);
        let px = self.pixels();
        px.chunks(stride)
            .flat_map(|row| &row[..w])
            .copied()
            .collect()
    }

    /// Every pixel back to transparent.
    pub fn clear(&mut self) {
        self.pixels_mut().fill(0);
    }

    /// A copy of this surface (for snapshots and drawing an image onto
    /// itself).
    pub fn copy(&mut self) -> Result<Surface, SurfaceError> {
        let (w, h) = (self.width as i64, self.height as i64);
        let packed = self.packed();
        Surface::from_pixels(w, h, &packed)
    }
}

/// Fault in the `len` bytes at `ptr` (see the module documentation), unless
/// most of its pages are in memory already (memory the allocator reused).
///
/// # Safety
/// `ptr..ptr + len` must be writable memory that nothing else is using;
/// its bytes must be zero (they are written with zeros).
unsafe fn prefault(ptr: *mut u8, len: usize) {
    const PAGE: usize = 4096;
    let start = ptr as usize;
    let end = start + len;
    let first = (start + PAGE - 1) & !(PAGE - 1);
    let last = end & !(PAGE - 1);
    #[cfg(target_os = "linux")]
    if last > first {
        let pages = (last - first) / PAGE;
        let mut resident = vec![0u8; pages];
        // SAFETY: the range is page aligned and inside the caller's
        // buffer; mincore writes one byte per page into `resident`.
        let rc = unsafe {
            libc::mincore(
                first as *mut libc::c_void,
                last - first,
                resident.as_mut_ptr(),
            )
        };
        if rc == 0 && resident.iter().filter(|&&r| r & 1 != 0).count() * 2 >= pages {
            return;
        }
        // SAFETY: as above; populating pages only maps them (their zeros
        // stay).
        let rc = unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_POPULATE_WRITE,
            )
        };
        if rc == 0 {
            // The partial pages at both ends.
            for addr in [start, end - 1] {
                // SAFETY: inside the caller's buffer.
                unsafe { (addr as *mut u8).write_volatile(0) };
            }
            return;
        }
    }
    let _ = (first, last);
    let mut addr = start;
    while addr < end {
        // SAFETY: inside the caller's buffer, whose bytes are zero.
        unsafe { (addr as *mut u8).write_volatile(0) };
        addr = (addr + PAGE) & !(PAGE - 1);
    }
    // SAFETY: the last byte of the caller's buffer.
    unsafe { ((end - 1) as *mut u8).write_volatile(0) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert_eq!(Surface::new(0, 5).err(), Some(SurfaceError::Size(0, 5)));
        assert_eq!(
            Surface::new(5, MAX_SIDE + 1).err(),
            Some(SurfaceError::Size(5, MAX_SIDE + 1))
        );
        let s = Surface::new(3, 2).unwrap();
        assert_eq!((s.width(), s.height()), (3, 2));
    }

    /// A large surface is prefaulted (the unsafe path) and reads as
    /// transparent; direct writes and cairo drawing see each other.
    #[test]
    fn fresh_surfaces_are_transparent_and_coherent() {
        let mut s = Surface::new(800, 600).unwrap();
        assert!(s.stride() * 600 * 4 >= PREFAULT_BYTES);
        assert!(s.pixels().iter().all(|&p| p == 0));
        s.pixels_mut()[0] = 0xff11_2233;
        // cairo draws beside the directly written pixel
        {
            let ctx = s.ctx();
            ctx.set_operator(cairo::Operator::Source);
            ctx.rectangle(1.0, 0.0, 1.0, 1.0);
            ctx.set_source_rgb(1.0, 0.0, 0.0);
            ctx.fill().unwrap();
        }
        assert_eq!(s.pixel(0, 0), Some(0xff11_2233));
        assert_eq!(s.pixel(1, 0), Some(0xffff_0000));
        assert_eq!(s.pixel(800, 0), None);
        assert_eq!(s.pixel(-1, 0), None);
        let mut c = s.copy().unwrap();
        assert_eq!(c.pixel(1, 0), Some(0xffff_0000));
        s.clear();
        assert_eq!(s.pixel(1, 0), Some(0));
        assert_eq!(c.pixel(0, 0), Some(0xff11_2233));
    }

    #[test]
    fn prefault_small_and_unaligned_buffers() {
        let mut buf = vec![0u8; 3 * 4096 + 17];
        // SAFETY: the buffer is ours and zeroed.
        unsafe { prefault(buf.as_mut_ptr().add(5), buf.len() - 5) };
        assert!(buf.iter().all(|&b| b == 0));
        let mut tiny = vec![0u8; 10];
        // SAFETY: as above.
        unsafe { prefault(tiny.as_mut_ptr(), tiny.len()) };
        assert!(tiny.iter().all(|&b| b == 0));
    }

    #[test]
    fn a_spoiled_context_is_replaced() {
        let mut s = Surface::new(4, 4).unwrap();
        {
            let ctx = s.ctx();
            // a singular matrix puts the context in an error state
            ctx.transform(cairo::Matrix::new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0));
            assert!(ctx.status().is_err());
        }
        let ctx = s.ctx();
        assert!(ctx.status().is_ok());
        ctx.set_source_rgb(0.0, 0.0, 1.0);
        ctx.paint().unwrap();
        assert_eq!(s.pixel(3, 3), Some(0xff00_00ff));
    }
}
