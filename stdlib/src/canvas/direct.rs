//! The direct pixel paths (§17.5 note): opaque flat-colour rectangles,
//! pixels and circles written straight into a surface's ARGB32 pixels,
//! with exactly the bytes cairo would write for the same call.
//!
//! # When they apply
//! [`Direct::pixel_for`] decides: the paths are on (they are unless
//! `FESTINA_NO_DIRECT_FILL` or the umbrella `FESTINA_NO_OPT` is set when
//! the canvas state is created), the fill is one flat opaque colour
//! (`fillAlpha` 1, no gradient, not `none`), no border is drawn, and the
//! transform moves by whole pixels only (no scale, no rotation). A circle
//! further needs a radius from 1 to [`MAX_MASK_RADIUS`] and its whole
//! mask inside the surface: where cairo clips a curve against the
//! surface's edge its coverage of nearby pixels can differ by a few
//! levels from the unclipped shape, so those circles take the general
//! path. Everything else is drawn by cairo.
//!
//! # Why the bytes are cairo's
//! - A rectangle with whole-pixel corners covers whole pixels; cairo
//!   fills such boxes with the source pixel itself (an opaque colour's
//!   channels `c / 255.0` come back as `c`). So does a 1x1 pixel.
//! - A circle with a whole-pixel centre covers each pixel around it the
//!   same way wherever it is drawn: cairo's scan converter works on a grid
//!   that whole-pixel moves keep. So its coverage is rasterized once per
//!   radius ([`Mask`], drawn by cairo itself into an A8 surface) and
//!   stamped: a fully covered pixel gets the colour, a partly covered one
//!   cairo's own blend of an opaque colour over the destination,
//!   [`lerp8x4`] (the per-channel `src * a + dst * (255 - a)` with
//!   cairo's rounding, two channels per multiply).
//!
//! `tests` (here and the golden scenes in `festina-cli/tests/canvas.rs`)
//! draw random scenes both ways and compare every byte.

use super::surface::Surface;
use cairo::{Context, Format, ImageSurface};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// The largest radius a circle is stamped for; larger ones are drawn by
/// cairo.
pub const MAX_MASK_RADIUS: i64 = 128;

/// How many circle masks are kept (at most about 4 MB at the largest
/// radius); the oldest is dropped first.
const MASK_CACHE: usize = 64;

/// Whether the direct paths are on for a canvas state created now: off
/// when `FESTINA_NO_DIRECT_FILL` or the umbrella `FESTINA_NO_OPT` is set
/// (`festina_vm::switches`).
pub fn enabled_by_environment() -> bool {
    use festina_vm::switches::{disabled, NO_DIRECT_FILL};
    !disabled(NO_DIRECT_FILL)
}

/// The direct paths of one interpreter: the switch and the circle masks.
pub struct Direct {
    /// Whether the direct paths are used at all.
    pub enabled: bool,
    masks: HashMap<i64, Rc<Mask>>,
    order: VecDeque<i64>,
}

impl Direct {
    /// The paths, on or off.
    pub fn new(enabled: bool) -> Direct {
        Direct {
            enabled,
            masks: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    /// The premultiplied pixel of an opaque flat `rgb` fill and the whole
    /// pixel offset of `matrix`, when a direct path may draw with them
    /// (see the module documentation; `rgb` is `None` for anything but a
    /// flat opaque fill with no border).
    pub fn pixel_for(&self, rgb: Option<u32>, matrix: &cairo::Matrix) -> Option<(u32, i64, i64)> {
        if !self.enabled {
            return None;
        }
        let rgb = rgb?;
        if matrix.xx() != 1.0 || matrix.yy() != 1.0 || matrix.xy() != 0.0 || matrix.yx() != 0.0 {
            return None;
        }
        let (tx, ty) = (matrix.x0(), matrix.y0());
        if tx.fract() != 0.0 || ty.fract() != 0.0 || tx.abs() > 1e15 || ty.abs() > 1e15 {
            return None;
        }
        Some((0xff00_0000 | (rgb & 0xff_ffff), tx as i64, ty as i64))
    }

    /// Fill the rectangle `x, y, w, h` (a negative size extends the other
    /// way) with `pixel`, clipped to the surface.
    pub fn fill_rect(&self, s: &mut Surface, x: i64, y: i64, w: i64, h: i64, pixel: u32) {
        let (x0, x1) = span(x, w, s.width() as i64);
        let (y0, y1) = span(y, h, s.height() as i64);
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        let stride = s.stride();
        let px = s.pixels_mut();
        for row in y0..y1 {
            let at = row as usize * stride;
            px[at + x0 as usize..at + x1 as usize].fill(pixel);
        }
    }

    /// Stamp a filled circle of radius `r` centred on (`cx`, `cy`) with
    /// `pixel`; `false` (nothing drawn) when the circle is not one the
    /// mask may draw (radius out of range, mask not inside the surface),
    /// so the caller draws it with cairo.
    pub fn stamp_circle(&mut self, s: &mut Surface, cx: i64, cy: i64, r: i64, pixel: u32) -> bool {
        if !(1..=MAX_MASK_RADIUS).contains(&r) {
            return false;
        }
        let (ox, oy, size) = (cx - r - 1, cy - r - 1, 2 * r + 2);
        if ox < 0 || oy < 0 || ox + size > s.width() as i64 || oy + size > s.height() as i64 {
            return false;
        }
        let Some(mask) = self.mask(r) else {
            return false;
        };
        let stride = s.stride();
        let px = s.pixels_mut();
        for (j, row) in mask.rows.iter().enumerate() {
            let at = (oy as usize + j) * stride + ox as usize;
            let cov = &mask.coverage[j * mask.size..(j + 1) * mask.size];
            for i in row.start..row.full_start {
                px[at + i] = lerp8x4(pixel, cov[i] as u32, px[at + i]);
            }
            px[at + row.full_start..at + row.full_end].fill(pixel);
            for i in row.full_end..row.end {
                px[at + i] = lerp8x4(pixel, cov[i] as u32, px[at + i]);
            }
        }
        true
    }

    /// The mask of radius `r`, rasterized on first use.
    fn mask(&mut self, r: i64) -> Option<Rc<Mask>> {
        if let Some(m) = self.masks.get(&r) {
            return Some(Rc::clone(m));
        }
        let m = Rc::new(Mask::new(r)?);
        if self.order.len() >= MASK_CACHE {
            if let Some(old) = self.order.pop_front() {
                self.masks.remove(&old);
            }
        }
        self.order.push_back(r);
        self.masks.insert(r, Rc::clone(&m));
        Some(m)
    }
}

/// `[start, end)` of a run from `at` over `len` (either sign), clipped to
/// `[0, limit)`.
fn span(at: i64, len: i64, limit: i64) -> (i64, i64) {
    let end = at.saturating_add(len);
    let (a, b) = if len < 0 { (end, at) } else { (at, end) };
    (a.clamp(0, limit), b.clamp(0, limit))
}

/// The coverage of a filled circle of one radius, as cairo rasterizes it
/// centred on the middle of a `(2r + 2)`-pixel square.
pub struct Mask {
    size: usize,
    /// Coverage 0–255, `size` rows of `size`.
    coverage: Vec<u8>,
    rows: Vec<MaskRow>,
}

/// Where one row of a mask is partly and fully covered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct MaskRow {
    /// First covered pixel.
    start: usize,
    /// First fully covered pixel (`== full_end` when none is).
    full_start: usize,
    /// After the last fully covered pixel.
    full_end: usize,
    /// After the last covered pixel.
    end: usize,
}

impl Mask {
    /// Rasterize the circle of radius `r` with cairo (`arc` and `fill`,
    /// exactly as the general path draws it); `None` if cairo cannot make
    /// the surface.
    fn new(r: i64) -> Option<Mask> {
        let size = (2 * r + 2) as usize;
        let mut a8 = ImageSurface::create(Format::A8, size as i32, size as i32).ok()?;
        {
            let ctx = Context::new(&a8).ok()?;
            ctx.set_source_rgba(0.0, 0.0, 0.0, 1.0);
            let c = (r + 1) as f64;
            ctx.arc(c, c, r as f64, 0.0, std::f64::consts::TAU);
            ctx.fill().ok()?;
        }
        a8.flush();
        let stride = a8.stride() as usize;
        let data = a8.data().ok()?;
        let mut coverage = vec![0u8; size * size];
        for y in 0..size {
            coverage[y * size..(y + 1) * size]
                .copy_from_slice(&data[y * stride..y * stride + size]);
        }
        let rows = coverage.chunks(size).map(MaskRow::of).collect();
        Some(Mask {
            size,
            coverage,
            rows,
        })
    }
}

impl MaskRow {
    fn of(cov: &[u8]) -> MaskRow {
        let Some(start) = cov.iter().position(|&c| c != 0) else {
            return MaskRow::default();
        };
        let end = cov.iter().rposition(|&c| c != 0).map_or(start, |e| e + 1);
        // The fully covered run: the longest run of 255 (a circle's row
        // has one).
        let (mut full_start, mut full_end) = (start, start);
        let mut i = start;
        while i < end {
            if cov[i] == 255 {
                let j = cov[i..end]
                    .iter()
                    .position(|&c| c != 255)
                    .map_or(end, |k| i + k);
                if j - i > full_end - full_start {
                    (full_start, full_end) = (i, j);
                }
                i = j;
            } else {
                i += 1;
            }
        }
        if full_start == full_end {
            full_start = end;
            full_end = end;
        }
        // Pixels fully covered outside the run (none for a circle) are
        // blended, which with coverage 255 gives the colour exactly.
        MaskRow {
            start,
            full_start,
            full_end,
            end,
        }
    }
}

/// Cairo's blend of an opaque colour `src` over `dst` at coverage `a`
/// (0–255), per channel `(src * a + dst * (255 - a)) / 255` rounded as
/// cairo's image compositor rounds it, on premultiplied ARGB32.
#[inline]
pub fn lerp8x4(src: u32, a: u32, dst: u32) -> u32 {
    let na = 255 - a;
    add8x2_8x2(mul8x2_8(src, a), mul8x2_8(dst, na))
        | (add8x2_8x2(mul8x2_8(src >> 8, a), mul8x2_8(dst >> 8, na)) << 8)
}

/// Two 8-bit channels (bits 0–7 and 16–23) times `b`, divided by 255 with
/// rounding.
#[inline]
fn mul8x2_8(a: u32, b: u32) -> u32 {
    let t = (a & 0x00ff_00ff) * b + 0x007f_007f;
    ((t + ((t >> 8) & 0x00ff_00ff)) >> 8) & 0x00ff_00ff
}

/// Two pairs of 8-bit channels added, each saturating at 255.
#[inline]
fn add8x2_8x2(a: u32, b: u32) -> u32 {
    let mut t = a + b;
    t |= 0x0100_0100u32.wrapping_sub((t >> 8) & 0x00ff_00ff);
    t & 0x00ff_00ff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lerp_endpoints() {
        let (src, dst) = (0xff10_2030, 0x8040_0000);
        assert_eq!(lerp8x4(src, 255, dst), src);
        assert_eq!(lerp8x4(src, 0, dst), dst);
        assert_eq!(lerp8x4(0xffff_ffff, 128, 0), 0x8080_8080);
    }

    #[test]
    fn spans_clip_both_ways() {
        assert_eq!(span(5, 10, 100), (5, 15));
        assert_eq!(span(5, -10, 100), (0, 5));
        assert_eq!(span(95, 10, 100), (95, 100));
        assert_eq!(span(i64::MAX - 1, i64::MAX, 100), (100, 100));
        assert_eq!(span(i64::MIN + 1, i64::MIN, 100), (0, 0));
    }

    #[test]
    fn masks_cover_the_circle_and_are_cached() {
        let mut d = Direct::new(true);
        for r in [1, 2, 7, 40, MAX_MASK_RADIUS] {
            let m = d.mask(r).unwrap();
            assert_eq!(m.size as i64, 2 * r + 2);
            let n = m.size;
            // the centre pixels are covered, the corners are not (cairo's
            // scan converter samples x and y differently, so a mask is
            // not exactly symmetric)
            if r >= 2 {
                assert_eq!(m.coverage[(n / 2) * n + n / 2], 255, "r {r}");
            }
            assert_eq!(m.coverage[0], 0);
            assert_eq!(m.coverage[n * n - 1], 0);
            assert!(Rc::ptr_eq(&m, &d.mask(r).unwrap()));
        }
        for r in 1..=(MASK_CACHE as i64 + 5) {
            d.mask(r).unwrap();
        }
        assert!(d.masks.len() <= MASK_CACHE);
    }

    #[test]
    fn mask_rows() {
        assert_eq!(MaskRow::of(&[0, 0, 0]), MaskRow::default());
        assert_eq!(
            MaskRow::of(&[0, 10, 255, 255, 20, 0]),
            MaskRow {
                start: 1,
                full_start: 2,
                full_end: 4,
                end: 5
            }
        );
        assert_eq!(
            MaskRow::of(&[3, 4]),
            MaskRow {
                start: 0,
                full_start: 2,
                full_end: 2,
                end: 2
            }
        );
    }
}
