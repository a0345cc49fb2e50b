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
//! further needs a radius from 1 to [`MAX_MASK_RADIUS`]. Everything else
//! is drawn by cairo.
//!
//! # Why the bytes are cairo's
//! - A rectangle with whole-pixel corners covers whole pixels; cairo
//!   fills such boxes with the source pixel itself (an opaque colour's
//!   channels `c / 255.0` come back as `c`). So does a 1x1 pixel.
//! - A circle with a whole-pixel centre covers each pixel around it the
//!   same way wherever it is drawn: cairo's scan converter works on a grid
//!   that whole-pixel moves keep. So its coverage is rasterized once
//!   ([`Mask`], drawn by cairo itself into an A8 surface) and stamped: a
//!   fully covered pixel gets the colour, a partly covered one cairo's
//!   own blend of an opaque colour over the destination, [`lerp8x4`] (the
//!   per-channel `src * a + dst * (255 - a)` with cairo's rounding, two
//!   channels per multiply).
//! - A blend at coverage 0 gives the destination back and at coverage
//!   255 the colour, exactly (`tests::lerp_is_exact_at_the_ends`, every
//!   channel value). So the partly covered pixels of a mask are stamped
//!   in *pairs* of two neighbouring pixels, two pairs (anywhere in the
//!   mask) per vector operation ([`Window`]): a pixel a pair takes in
//!   that is not its own (outside the circle, fully covered, or already
//!   taken by the pair before it in its row) gets coverage 0 there and
//!   keeps its bytes. The second pair of a window is stored before the
//!   first, so where the two overlap (a pair moved left to fit in its
//!   row, or a lone last pair sharing a window with itself) the first
//!   pair's bytes win, and they are the blended ones. The fully covered
//!   run of each row is a straight fill, written before the windows (a
//!   pair reading a filled pixel at coverage 0 writes it back
//!   unchanged). Masks one column wide (a circle cut down to its edge)
//!   are stamped row by row.
//! - Where a circle crosses the surface's edge, cairo clips the curve
//!   first, which changes the coverage of nearby pixels by a few levels.
//!   The mask is then rasterized on an A8 surface whose edges cut the
//!   circle exactly where the target's do, so it is keyed by the radius
//!   and how much is cut off each side ([`MaskKey`]).
//!
//! Masks are kept in a cache of at most [`MASK_CACHE_BYTES`] (the oldest
//! dropped first).
//!
//! # Speed (benches/RESULTS.md, "Canvas")
//! The circles of the Chromium scene (radius 1 to 20) spend their time
//! on the partly covered pixels: each one's destination is read, blended
//! and written back. Row by row (two pixels per SSE2 operation and a
//! scalar tail for an odd run) that took about 60% of the stamping time;
//! the windows take a fixed four pixels per operation, with no tail and
//! no per-row set-up. A row's run of partly covered pixels on each side
//! of a circle is mostly one or two pixels long, so two-pixel pairs
//! waste fewer lanes than four-pixel runs (a circle of the scene takes
//! about 23 windows of two pairs, against about 40 of four neighbours).
//! Where the CPU has AVX2 (detected once, when the paths are made), a
//! window is one 256-bit operation (four pixels in 16-bit lanes);
//! otherwise two SSE2 ones. Both use `(t * 257) >> 16`
//! (`pmulhuw`) for the rounded division by 255, which equals
//! `(t + (t >> 8)) >> 8` for every `t` the blend makes
//! (`tests::div255_by_mulhi`).
//!
//! `tests` (here and the golden scenes in `festina-cli/tests/canvas.rs`)
//! draw random scenes both ways and compare every byte.

use super::surface::Surface;
use cairo::{Context, Format, ImageSurface};
use hashbrown::HashMap;
use std::collections::VecDeque;
use std::rc::Rc;

/// The largest radius a circle is stamped for; larger ones are drawn by
/// cairo.
pub const MAX_MASK_RADIUS: i64 = 128;

/// How many bytes of circle masks are kept; the oldest are dropped first.
pub const MASK_CACHE_BYTES: usize = 8 << 20;

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
    /// Whether windows are blended with AVX2 (detected in
    /// [`Direct::new`]; tests turn it off to check the SSE2 path).
    pub avx2: bool,
    /// By [`MaskKey::packed`].
    masks: HashMap<u64, Rc<Mask>>,
    order: VecDeque<u64>,
    bytes: usize,
}

/// Which mask: the radius, and the pixels cut off the circle's
/// `(2r + 2)`-pixel square on the left, top, right and bottom by the
/// edges of the surface it is stamped on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaskKey {
    /// Radius.
    pub r: i64,
    /// Columns or rows cut off: left, top, right, bottom.
    pub cut: [i64; 4],
}

impl MaskKey {
    /// The key in one word (the cache's hash key): the radius (at most
    /// [`MAX_MASK_RADIUS`], 8 bits) and the four cuts (each at most the
    /// square's `2r + 2 <= 258` pixels, 9 bits).
    fn packed(&self) -> u64 {
        self.cut
            .iter()
            .fold(self.r as u64, |acc, &c| (acc << 9) | (c as u64 & 0x1ff))
    }
}

impl Direct {
    /// The paths, on or off.
    pub fn new(enabled: bool) -> Direct {
        Direct {
            enabled,
            avx2: has_avx2(),
            masks: HashMap::new(),
            order: VecDeque::new(),
            bytes: 0,
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
            fill_run(&mut px[at + x0 as usize..at + x1 as usize], pixel);
        }
    }

    /// Stamp a filled circle of radius `r` centred on (`cx`, `cy`) with
    /// `pixel`; `false` (nothing drawn) when the radius is out of range
    /// (or cairo could not make the mask), so the caller draws it with
    /// cairo.
    pub fn stamp_circle(&mut self, s: &mut Surface, cx: i64, cy: i64, r: i64, pixel: u32) -> bool {
        if !(1..=MAX_MASK_RADIUS).contains(&r) {
            return false;
        }
        let size = 2 * r + 2;
        let (ox, oy) = (cx.saturating_sub(r + 1), cy.saturating_sub(r + 1));
        let (w, h) = (s.width() as i64, s.height() as i64);
        // The part of the mask's square on the surface.
        let (x0, y0) = (ox.max(0), oy.max(0));
        let (x1, y1) = (
            ox.saturating_add(size).min(w),
            oy.saturating_add(size).min(h),
        );
        if x0 >= x1 || y0 >= y1 {
            return true; // wholly off the surface: cairo draws nothing either
        }
        let cut = [x0 - ox, y0 - oy, ox + size - x1, oy + size - y1];
        let Some(mask) = self.mask(MaskKey { r, cut }) else {
            return false;
        };
        let stride = s.stride();
        let px = s.pixels_mut();
        let base = y0 as usize * stride + x0 as usize;
        if mask.width < PAIR {
            stamp_rows(px, stride, base, &mask, pixel);
        } else {
            for span in &mask.spans {
                let at = base + span.row as usize * stride;
                fill_run(
                    &mut px[at + span.start as usize..at + span.end as usize],
                    pixel,
                );
            }
            blend_windows(px, stride, base, &mask.windows, pixel, self.avx2);
        }
        true
    }

    /// The mask of `key`, rasterized on first use.
    fn mask(&mut self, key: MaskKey) -> Option<Rc<Mask>> {
        let packed = key.packed();
        if let Some(m) = self.masks.get(&packed) {
            return Some(Rc::clone(m));
        }
        let m = Rc::new(Mask::new(key)?);
        self.bytes += m.bytes();
        while self.bytes > MASK_CACHE_BYTES {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(gone) = self.masks.remove(&old) {
                self.bytes -= gone.bytes();
            }
        }
        self.order.push_back(packed);
        self.masks.insert(packed, Rc::clone(&m));
        Some(m)
    }
}

/// Blend `pixel` into `dst` at the coverages `cov` ([`lerp8x4`]).
///
/// On x86-64, two pixels at a time in SSE2's 16-bit lanes: the same
/// arithmetic channel by channel (each `x * a + 0x7f` and its rounding
/// fit in 16 bits, and packing back to bytes saturates the sum at 255 as
/// `add8x2_8x2` does), about four times fewer instructions per pixel.
/// `tests::blend_matches_lerp` checks it against [`lerp8x4`] for every
/// coverage.
#[inline]
fn blend(dst: &mut [u32], cov: &[u8], pixel: u32) {
    let n = dst.len().min(cov.len());
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    // SAFETY: the build targets a CPU with SSE2 (this code is compiled
    // only when the `sse2` target feature is on, as it is on every
    // x86-64), which is all `blend_pairs` requires.
    let done = unsafe { blend_pairs(&mut dst[..n], &cov[..n], pixel) };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let done = 0;
    for j in done..n {
        dst[j] = lerp8x4(pixel, cov[j] as u32, dst[j]);
    }
}

/// The pairs of [`blend`] in SSE2 (part of every x86-64); the number of
/// pixels done (the even part of the run).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
fn blend_pairs(dst: &mut [u32], cov: &[u8], pixel: u32) -> usize {
    use std::arch::x86_64::*;
    let zero = _mm_setzero_si128();
    let src = _mm_unpacklo_epi8(_mm_set1_epi32(pixel as i32), zero);
    let k7f = _mm_set1_epi16(0x7f);
    let k255 = _mm_set1_epi16(255);
    let mul_div255 = |x: __m128i, a: __m128i| {
        let t = _mm_add_epi16(_mm_mullo_epi16(x, a), k7f);
        _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8)
    };
    let mut i = 0;
    while i + 2 <= dst.len() {
        let two = dst[i] as u64 | (dst[i + 1] as u64) << 32;
        let d = _mm_unpacklo_epi8(_mm_cvtsi64_si128(two as i64), zero);
        // [c0, c1] spread to [c0 x4, c1 x4] in 16-bit lanes
        let c = _mm_cvtsi32_si128(cov[i] as i32 | (cov[i + 1] as i32) << 16);
        let c = _mm_unpacklo_epi16(c, c);
        let a = _mm_unpacklo_epi32(c, c);
        let sum = _mm_add_epi16(mul_div255(src, a), mul_div255(d, _mm_sub_epi16(k255, a)));
        let out = _mm_cvtsi128_si64(_mm_packus_epi16(sum, zero)) as u64;
        dst[i] = out as u32;
        dst[i + 1] = (out >> 32) as u32;
        i += 2;
    }
    i
}

/// `run.fill(pixel)` for the short runs of shapes: four pixels per
/// store, the last four stored again where the length is not a multiple
/// of four (rather than a tail pixel by pixel). About 10% faster than
/// `fill` on the runs of the Chromium scene (1 to 40 pixels).
#[inline]
fn fill_run(run: &mut [u32], pixel: u32) {
    let n = run.len();
    if n < 4 {
        run.fill(pixel);
        return;
    }
    let four = [pixel; 4];
    for chunk in run.chunks_exact_mut(4) {
        chunk.copy_from_slice(&four);
    }
    run[n - 4..].copy_from_slice(&four);
}

/// Pixels per pair (half a [`Window`]).
const PAIR: usize = 2;

/// Whether this CPU has AVX2 (always `false` off x86-64).
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Stamp `mask` row by row (the per-row runs of [`MaskRow`]): for masks
/// narrower than a window.
fn stamp_rows(px: &mut [u32], stride: usize, base: usize, mask: &Mask, pixel: u32) {
    for (j, row) in mask.rows.iter().enumerate() {
        let at = base + j * stride;
        let cov = &mask.coverage[j * mask.width..(j + 1) * mask.width];
        blend(
            &mut px[at + row.start..at + row.full_start],
            &cov[row.start..row.full_start],
            pixel,
        );
        px[at + row.full_start..at + row.full_end].fill(pixel);
        blend(
            &mut px[at + row.full_end..at + row.end],
            &cov[row.full_end..row.end],
            pixel,
        );
    }
}

/// Blend `pixel` through each of `windows` into `px`, the mask's top
/// left pixel at `base` and its rows `stride` apart. A window past the
/// end of `px` panics (the caller placed the mask inside the surface).
fn blend_windows(
    px: &mut [u32],
    stride: usize,
    base: usize,
    windows: &[Window],
    pixel: u32,
    avx2: bool,
) {
    #[cfg(target_arch = "x86_64")]
    if avx2 && has_avx2() {
        // SAFETY: the CPU has AVX2 (checked just above; the check is a
        // load of a cached flag), which is all `blend_windows_avx2`
        // requires.
        unsafe { blend_windows_avx2(px, stride, base, windows, pixel) };
        return;
    }
    let _ = avx2;
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: compiled only where the target has SSE2 (every x86-64),
        // which is all `blend_windows_sse2` requires.
        unsafe { blend_windows_sse2(px, stride, base, windows, pixel) };
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    for w in windows {
        let (ia, ib) = window_at(stride, base, w);
        let cov = w.cov.to_le_bytes();
        let old = [px[ia], px[ia + 1], px[ib], px[ib + 1]];
        let new: Vec<u32> = (0..4)
            .map(|k| lerp8x4(pixel, cov[k] as u32, old[k]))
            .collect();
        (px[ib], px[ib + 1]) = (new[2], new[3]);
        (px[ia], px[ia + 1]) = (new[0], new[1]);
    }
}

/// Where the two pairs of `w` start in `px` (as [`blend_windows`]
/// places the mask).
#[inline(always)]
fn window_at(stride: usize, base: usize, w: &Window) -> (usize, usize) {
    (
        base + w.a.0 as usize * stride + w.a.1 as usize,
        base + w.b.0 as usize * stride + w.b.1 as usize,
    )
}

/// The two pixels at `at` as one word (the first in the low half).
#[inline(always)]
fn load_pair(px: &[u32], at: usize) -> u64 {
    px[at] as u64 | (px[at + 1] as u64) << 32
}

/// Store `two` (as [`load_pair`] reads it) at `at`.
#[inline(always)]
fn store_pair(px: &mut [u32], at: usize, two: u64) {
    px[at] = two as u32;
    px[at + 1] = (two >> 32) as u32;
}

/// [`blend_windows`] in SSE2: a window's four pixels in two registers of
/// 16-bit lanes, the arithmetic of [`lerp8x4`] per channel (as
/// [`blend_pairs`], with the division by 255 done by `pmulhuw`).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
fn blend_windows_sse2(px: &mut [u32], stride: usize, base: usize, windows: &[Window], pixel: u32) {
    use std::arch::x86_64::*;
    let zero = _mm_setzero_si128();
    let src = _mm_unpacklo_epi8(_mm_set1_epi32(pixel as i32), zero);
    let (k7f, k255, k257) = (
        _mm_set1_epi16(0x7f),
        _mm_set1_epi16(255),
        _mm_set1_epi16(257),
    );
    let mul_div255 =
        |x: __m128i, a: __m128i| _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(x, a), k7f), k257);
    for w in windows {
        let (ia, ib) = window_at(stride, base, w);
        let d = _mm_set_epi64x(load_pair(px, ib) as i64, load_pair(px, ia) as i64);
        let c = _mm_unpacklo_epi8(_mm_cvtsi32_si128(w.cov as i32), zero);
        let c = _mm_unpacklo_epi16(c, c);
        let (alo, ahi) = (_mm_unpacklo_epi32(c, c), _mm_unpackhi_epi32(c, c));
        let lo = _mm_add_epi16(
            mul_div255(src, alo),
            mul_div255(_mm_unpacklo_epi8(d, zero), _mm_sub_epi16(k255, alo)),
        );
        let hi = _mm_add_epi16(
            mul_div255(src, ahi),
            mul_div255(_mm_unpackhi_epi8(d, zero), _mm_sub_epi16(k255, ahi)),
        );
        let out = _mm_packus_epi16(lo, hi);
        // the second pair first: where they overlap, the first one's
        // bytes are the blended ones
        store_pair(
            px,
            ib,
            _mm_cvtsi128_si64(_mm_unpackhi_epi64(out, out)) as u64,
        );
        store_pair(px, ia, _mm_cvtsi128_si64(out) as u64);
    }
}

/// [`blend_windows`] in AVX2: a window's four pixels in one register of
/// 16-bit lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn blend_windows_avx2(px: &mut [u32], stride: usize, base: usize, windows: &[Window], pixel: u32) {
    use std::arch::x86_64::*;
    let src = _mm256_cvtepu8_epi16(_mm_set1_epi32(pixel as i32));
    let (k7f, k255, k257) = (
        _mm256_set1_epi16(0x7f),
        _mm256_set1_epi16(255),
        _mm256_set1_epi16(257),
    );
    // each coverage byte to its pixel's four channels
    let spread = _mm_setr_epi8(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    let mul_div255 = |x: __m256i, a: __m256i| {
        _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(x, a), k7f), k257)
    };
    for w in windows {
        let (ia, ib) = window_at(stride, base, w);
        let d = _mm256_cvtepu8_epi16(_mm_set_epi64x(
            load_pair(px, ib) as i64,
            load_pair(px, ia) as i64,
        ));
        let a = _mm256_cvtepu8_epi16(_mm_shuffle_epi8(_mm_cvtsi32_si128(w.cov as i32), spread));
        let sum = _mm256_add_epi16(mul_div255(src, a), mul_div255(d, _mm256_sub_epi16(k255, a)));
        let out = _mm_packus_epi16(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        // as in the SSE2 loop: the second pair first
        store_pair(
            px,
            ib,
            _mm_cvtsi128_si64(_mm_unpackhi_epi64(out, out)) as u64,
        );
        store_pair(px, ia, _mm_cvtsi128_si64(out) as u64);
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
/// centred on the middle of a `(2r + 2)`-pixel square, with the square
/// cut as its [`MaskKey`] says.
pub struct Mask {
    /// Width of the (cut) square.
    width: usize,
    /// Coverage 0–255, one row of `width` per pixel row.
    coverage: Vec<u8>,
    rows: Vec<MaskRow>,
    /// The fully covered run of each row that has one.
    spans: Vec<Span>,
    /// The partly covered pixels, two pairs at a time (empty when
    /// `width` is less than [`PAIR`]).
    windows: Vec<Window>,
}

/// A fully covered run of a mask row: `start..end` of row `row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    row: u16,
    start: u16,
    end: u16,
}

/// Two pairs of pixels blended by one vector operation: the pair at
/// `(row, column)` `a` of the mask and the pair at `b` (later in the
/// mask, or `a` itself with coverage 0 for a lone last pair), at the
/// coverages `cov` (a's two pixels in the low bytes, then b's); 0 for a
/// pixel the pair leaves alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Window {
    a: (u16, u16),
    b: (u16, u16),
    cov: u32,
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
    /// Rasterize the circle of `key` with cairo (`arc` and `fill`, exactly
    /// as the general path draws it) on an A8 surface as large as the
    /// square after the cut, so that cairo clips it as the target will;
    /// `None` if cairo cannot make the surface.
    fn new(key: MaskKey) -> Option<Mask> {
        let size = 2 * key.r + 2;
        let [left, top, right, bottom] = key.cut;
        let (width, height) = (
            (size - left - right) as usize,
            (size - top - bottom) as usize,
        );
        let mut a8 = ImageSurface::create(Format::A8, width as i32, height as i32).ok()?;
        {
            let ctx = Context::new(&a8).ok()?;
            ctx.set_source_rgba(0.0, 0.0, 0.0, 1.0);
            let c = (key.r + 1) as f64;
            ctx.arc(
                c - left as f64,
                c - top as f64,
                key.r as f64,
                0.0,
                std::f64::consts::TAU,
            );
            ctx.fill().ok()?;
        }
        a8.flush();
        let stride = a8.stride() as usize;
        let data = a8.data().ok()?;
        let mut coverage = vec![0u8; width * height];
        for y in 0..height {
            coverage[y * width..(y + 1) * width]
                .copy_from_slice(&data[y * stride..y * stride + width]);
        }
        let rows: Vec<MaskRow> = coverage.chunks(width).map(MaskRow::of).collect();
        let mut spans = Vec::new();
        let mut pairs = Vec::new();
        for (j, row) in rows.iter().enumerate() {
            if row.full_start < row.full_end {
                spans.push(Span {
                    row: j as u16,
                    start: row.full_start as u16,
                    end: row.full_end as u16,
                });
            }
            if width >= PAIR {
                row.pairs(j, &coverage[j * width..(j + 1) * width], &mut pairs);
            }
        }
        let windows = pairs
            .chunks(2)
            .map(|two| {
                let (a, ca) = two[0];
                let (b, cb) = two.get(1).copied().unwrap_or((a, 0));
                Window {
                    a,
                    b,
                    cov: ca as u32 | (cb as u32) << 16,
                }
            })
            .collect();
        Some(Mask {
            width,
            coverage,
            rows,
            spans,
            windows,
        })
    }

    /// The bytes the mask holds (for the cache's budget).
    fn bytes(&self) -> usize {
        self.coverage.len()
            + self.rows.len() * std::mem::size_of::<MaskRow>()
            + self.spans.len() * std::mem::size_of::<Span>()
            + self.windows.len() * std::mem::size_of::<Window>()
    }
}

impl MaskRow {
    /// Append the pairs of row `j` (coverage `cov`, at least [`PAIR`]
    /// wide) to `out`, each as its `(row, column)` and its two coverages
    /// (the first in the low byte): from left to right, a pair starts at
    /// the first partly covered pixel no pair took yet (moved left to fit
    /// in the row), and leaves at coverage 0 the pixels of the fully
    /// covered run and the one the pair before it took.
    fn pairs(&self, j: usize, cov: &[u8], out: &mut Vec<((u16, u16), u16)>) {
        let own = |q: usize| cov[q] != 0 && !(self.full_start..self.full_end).contains(&q);
        let mut taken = 0; // pixels before this are blended
        for p in self.start..self.end {
            if p < taken || !own(p) {
                continue;
            }
            let col = p.min(cov.len() - PAIR);
            let mut c = 0u16;
            for k in 0..PAIR {
                let q = col + k;
                if q >= taken && own(q) {
                    c |= (cov[q] as u16) << (8 * k);
                }
            }
            out.push(((j as u16, col as u16), c));
            taken = col + PAIR;
        }
    }

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

    /// The vector blend gives lerp8x4's bytes for every coverage, over
    /// varied destinations, in runs of every length.
    #[test]
    fn blend_matches_lerp() {
        let mut seed = 0x1234_5678u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for len in 0..9 {
            for _ in 0..2000 {
                let pixel = 0xff00_0000 | (next() & 0xff_ffff);
                let dst: Vec<u32> = (0..len).map(|_| next()).collect();
                let cov: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                let mut got = dst.clone();
                blend(&mut got, &cov, pixel);
                for k in 0..len {
                    assert_eq!(got[k], lerp8x4(pixel, cov[k] as u32, dst[k]));
                }
            }
        }
        for a in 0..=255u8 {
            for d in [0u32, 0xffff_ffff, 0x8040_2010, 0x00ff_00ff] {
                let mut got = [d, d];
                blend(&mut got, &[a, a], 0xff12_3456);
                assert_eq!(got[0], lerp8x4(0xff12_3456, a as u32, d));
                assert_eq!(got[1], got[0]);
            }
        }
    }

    /// `pmulhuw` by 257 is the rounded division of [`mul8x2_8`] for every
    /// value `x * a + 0x7f` the blend makes.
    #[test]
    fn div255_by_mulhi() {
        for t in 0..=255u32 * 255 + 0x7f {
            assert_eq!((t + (t >> 8)) >> 8, (t * 257) >> 16, "t {t}");
        }
    }

    /// Coverage 0 keeps the destination and 255 gives the colour, for
    /// every channel value: what lets a window take in pixels that are
    /// not its own.
    #[test]
    fn lerp_is_exact_at_the_ends() {
        for v in 0..=255u32 {
            for w in [0u32, 1, 0x7f, 0x80, 0xfe, 0xff] {
                let a = v * 0x0101_0101;
                let b = (w << 24) | (v << 16) | (w << 8) | v;
                assert_eq!(lerp8x4(a, 0, b), b);
                assert_eq!(lerp8x4(b, 0, a), a);
                assert_eq!(lerp8x4(a, 255, b), a);
                assert_eq!(lerp8x4(b, 255, a), b);
            }
        }
    }

    /// Stamp `m` at `base` into a copy of `px` row by row (the reference)
    /// and with the windows (SSE2, and AVX2 where the CPU has it); all
    /// three give the same bytes.
    fn check_windows(m: &Mask, px: &[u32], stride: usize, base: usize, pixel: u32, what: &str) {
        let mut want = px.to_vec();
        stamp_rows(&mut want, stride, base, m, pixel);
        for avx2 in [false, true] {
            if avx2 && !has_avx2() {
                continue;
            }
            let mut got = px.to_vec();
            for span in &m.spans {
                let at = base + span.row as usize * stride;
                got[at + span.start as usize..at + span.end as usize].fill(pixel);
            }
            blend_windows(&mut got, stride, base, &m.windows, pixel, avx2);
            if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
                panic!(
                    "{what} avx2 {avx2}: pixel {i} is {:08x}, rows give {:08x}",
                    got[i], want[i]
                );
            }
        }
    }

    /// The windows stamp every mask (every radius, uncut and cut on each
    /// side) with the bytes of the row-by-row stamp, over random
    /// destinations.
    #[test]
    fn windows_stamp_as_rows_do() {
        let mut seed = 0x9e37_79b9u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let mut d = Direct::new(true);
        for r in 1..=MAX_MASK_RADIUS {
            let size = 2 * r + 2;
            let mut cuts = vec![[0; 4]];
            for _ in 0..3 {
                let mut cut = [0; 4];
                cut[next() as usize % 4] = (next() as i64 % (size - 1)).max(1);
                cuts.push(cut);
            }
            cuts.push([size - 1, 0, 0, 0]);
            cuts.push([0, 0, size - 3, size - 2]);
            cuts.push([0, 0, size - 2, 0]);
            cuts.push([size - 2, r, 0, 0]);
            for cut in cuts {
                let m = d.mask(MaskKey { r, cut }).unwrap();
                if m.width < PAIR {
                    // stamped row by row (`stamp_rows`)
                    assert!(m.windows.is_empty(), "r {r} {cut:?}");
                    continue;
                }
                if cut == [0; 4] {
                    assert!(!m.windows.is_empty(), "r {r}");
                }
                let height = m.rows.len();
                let stride = m.width + 5;
                let px: Vec<u32> = (0..stride * (height + 2)).map(|_| next()).collect();
                let pixel = 0xff00_0000 | (next() & 0xff_ffff);
                check_windows(
                    &m,
                    &px,
                    stride,
                    stride + 2,
                    pixel,
                    &format!("r {r} {cut:?}"),
                );
            }
        }
    }

    #[test]
    fn fill_run_fills_every_length() {
        for n in 0..40 {
            let mut v = vec![7u32; n + 2];
            fill_run(&mut v[1..n + 1], 9);
            assert_eq!(v[0], 7);
            assert_eq!(v[n + 1], 7);
            assert!(v[1..n + 1].iter().all(|&p| p == 9), "n {n}");
        }
    }

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
            let key = MaskKey { r, cut: [0; 4] };
            let m = d.mask(key).unwrap();
            let n = m.width;
            assert_eq!(n as i64, 2 * r + 2);
            // the centre pixels are covered, the corners are not (cairo's
            // scan converter samples x and y differently, so a mask is
            // not exactly symmetric)
            if r >= 2 {
                assert_eq!(m.coverage[(n / 2) * n + n / 2], 255, "r {r}");
            }
            assert_eq!(m.coverage[0], 0);
            assert_eq!(m.coverage[n * n - 1], 0);
            assert!(Rc::ptr_eq(&m, &d.mask(key).unwrap()));
            let cut = d
                .mask(MaskKey {
                    r,
                    cut: [3, 0, 0, 2],
                })
                .unwrap();
            assert_eq!(cut.width as i64, 2 * r + 2 - 3);
            assert_eq!(cut.rows.len() as i64, 2 * r + 2 - 2);
        }
        for r in 1..=MAX_MASK_RADIUS {
            d.mask(MaskKey { r, cut: [0; 4] }).unwrap();
        }
        assert!(d.bytes <= MASK_CACHE_BYTES);
        assert_eq!(d.bytes, d.masks.values().map(|m| m.bytes()).sum::<usize>());
    }

    #[test]
    fn packed_keys_are_distinct() {
        let mut seen = std::collections::HashSet::new();
        for r in [1, 2, 127, MAX_MASK_RADIUS] {
            let size = 2 * r + 2;
            for cut in [
                [0, 0, 0, 0],
                [size, 0, 0, 0],
                [0, size, 0, 1],
                [0, 0, size, 0],
                [0, 0, 0, size],
                [3, 4, 5, 6],
            ] {
                assert!(seen.insert(MaskKey { r, cut }.packed()), "r {r} {cut:?}");
            }
        }
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
