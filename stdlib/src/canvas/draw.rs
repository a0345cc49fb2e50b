//! The drawing operations (§17.3, §17.6), written once for every target:
//! a [`Target`] is a surface and the transform to draw through (the
//! canvas's or an image's own). Each operation takes the [`Ink`] of the
//! call and tries the direct pixel path ([`Direct`]) before cairo.
//!
//! Every cairo call gets coordinates clamped to
//! [`COORD_LIMIT`] and sets everything it
//! relies on (matrix, source, operator, line width, font), since the
//! context is shared by every call on the surface. A cairo error spoils
//! only the call that made it (the next call gets a fresh context).

use super::direct::Direct;
use super::style::{cairo_text, Font, Ink};
use super::surface::{Surface, COORD_LIMIT};
use cairo::{Context, Extend, FontOptions, Matrix, Operator, Rectangle};
use std::f64::consts::TAU;

/// Where a call draws: a surface and the transform to draw through.
pub struct Target<'a> {
    /// The surface.
    pub surface: &'a mut Surface,
    /// The transform (user space to pixels).
    pub matrix: &'a Matrix,
}

/// A coordinate or size for cairo.
pub fn coord(v: i64) -> f64 {
    (v as f64).clamp(-COORD_LIMIT, COORD_LIMIT)
}

impl Target<'_> {
    /// The context with the target's transform and the `Over` operator.
    fn ctx(&mut self) -> &Context {
        let m = *self.matrix;
        let ctx = self.surface.ctx();
        ctx.set_matrix(m);
        ctx.set_operator(Operator::Over);
        ctx.new_path();
        ctx
    }

    /// `drawRect(x, y, w, h)` with `ink`: filled, then outlined.
    pub fn rect(&mut self, direct: &Direct, ink: &Ink, x: i64, y: i64, w: i64, h: i64) {
        if let Some((pixel, tx, ty)) = direct.pixel_for(ink.direct_rgb(), self.matrix) {
            direct.fill_rect(
                self.surface,
                x.saturating_add(tx),
                y.saturating_add(ty),
                w,
                h,
                pixel,
            );
            return;
        }
        let ctx = self.ctx();
        ctx.rectangle(coord(x), coord(y), coord(w), coord(h));
        let _ = ink.fill_and_stroke(ctx);
    }

    /// `drawCircle(x, y, r)` with `ink`; a radius of 0 or less draws
    /// nothing.
    pub fn circle(&mut self, direct: &mut Direct, ink: &Ink, x: i64, y: i64, r: i64) {
        if r <= 0 {
            return;
        }
        if let Some((pixel, tx, ty)) = direct.pixel_for(ink.direct_rgb(), self.matrix) {
            let (cx, cy) = (x.saturating_add(tx), y.saturating_add(ty));
            if direct.stamp_circle(self.surface, cx, cy, r, pixel) {
                return;
            }
        }
        let ctx = self.ctx();
        ctx.arc(coord(x), coord(y), coord(r), 0.0, TAU);
        let _ = ink.fill_and_stroke(ctx);
    }

    /// `drawPixel(x, y)`: the 1x1 square at (`x`, `y`) filled with `ink`'s
    /// fill (never a border).
    pub fn pixel(&mut self, direct: &Direct, ink: &Ink, x: i64, y: i64) {
        let ink = Ink {
            border: None,
            ..*ink
        };
        self.rect(direct, &ink, x, y, 1, 1);
    }

    /// `drawText(t, x, y)`: `t` in `font` and `ink`'s fill, with its
    /// baseline at `y`; never outlined.
    pub fn text(&mut self, ink: &Ink, font: &Font, options: &FontOptions, t: &str, x: i64, y: i64) {
        let t = cairo_text(t);
        if t.is_empty() {
            return;
        }
        let ctx = self.ctx();
        if !ink.set_fill(ctx) {
            return;
        }
        font.select(ctx);
        ctx.set_font_options(options);
        ctx.move_to(coord(x), coord(y));
        let _ = ctx.show_text(t);
        ctx.new_path();
    }

    /// Draw `src` (an up-to-date cairo surface of `src_w` x `src_h`) as
    /// `place` says, at `alpha`. A source region past the image's edge
    /// draws only the overlap; an empty region or a zero destination size
    /// draws nothing; a negative destination size mirrors.
    pub fn image(
        &mut self,
        src: &cairo::Surface,
        src_w: i32,
        src_h: i32,
        alpha: f64,
        place: Place,
    ) {
        let (sx, sy, sw, sh, dx, dy, dw, dh) = match place {
            Place::At(x, y) => (
                0,
                0,
                src_w as i64,
                src_h as i64,
                x,
                y,
                src_w as i64,
                src_h as i64,
            ),
            Place::Scaled(x, y, w, h) => (0, 0, src_w as i64, src_h as i64, x, y, w, h),
            Place::Part(s, d) => (s.0, s.1, s.2, s.3, d.0, d.1, d.2, d.3),
        };
        if sw <= 0 || sh <= 0 || dw == 0 || dh == 0 || alpha <= 0.0 {
            return;
        }
        // The part of the source rectangle inside the image.
        let (ix0, iy0) = (sx.max(0), sy.max(0));
        let (ix1, iy1) = (
            sx.saturating_add(sw).min(src_w as i64),
            sy.saturating_add(sh).min(src_h as i64),
        );
        if ix0 >= ix1 || iy0 >= iy1 {
            return;
        }
        let (kx, ky) = (coord(dw) / sw as f64, coord(dh) / sh as f64);
        let (px, py) = (
            coord(dx) + (ix0 - sx) as f64 * kx,
            coord(dy) + (iy0 - sy) as f64 * ky,
        );
        let (iw, ih) = ((ix1 - ix0) as f64, (iy1 - iy0) as f64);
        let whole = ix0 == 0 && iy0 == 0 && ix1 == src_w as i64 && iy1 == src_h as i64;
        let part;
        let source = if whole {
            src
        } else {
            match src.create_for_rectangle(Rectangle::new(ix0 as f64, iy0 as f64, iw, ih)) {
                Ok(s) => {
                    part = s;
                    &part
                }
                Err(_) => return,
            }
        };
        let ctx = self.ctx();
        ctx.translate(px, py);
        ctx.scale(kx, ky);
        if ctx.set_source_surface(source, 0.0, 0.0).is_err() {
            return;
        }
        ctx.source().set_extend(Extend::Pad);
        ctx.rectangle(0.0, 0.0, iw, ih);
        ctx.clip();
        let _ = if alpha >= 1.0 {
            ctx.paint()
        } else {
            ctx.paint_with_alpha(alpha)
        };
        ctx.reset_clip();
    }

    /// `clearRect`, `clearCircle`, `clearPixel`: the shape back to
    /// transparent, through the transform.
    pub fn clear(&mut self, shape: Shape) {
        let ctx = self.ctx();
        match shape {
            Shape::Rect(x, y, w, h) => ctx.rectangle(coord(x), coord(y), coord(w), coord(h)),
            Shape::Circle(x, y, r) => {
                if r <= 0 {
                    return;
                }
                ctx.arc(coord(x), coord(y), coord(r), 0.0, TAU);
            }
        }
        ctx.set_operator(Operator::Clear);
        let _ = ctx.fill();
        ctx.set_operator(Operator::Over);
    }
}

/// Where `drawImage` puts an image.
#[derive(Clone, Copy, Debug)]
pub enum Place {
    /// At its own size with its corner at (x, y).
    At(i64, i64),
    /// Scaled into the box x, y, w, h.
    Scaled(i64, i64, i64, i64),
    /// The source rectangle (sx, sy, sw, sh) scaled into (dx, dy, dw, dh).
    Part((i64, i64, i64, i64), (i64, i64, i64, i64)),
}

/// A shape to clear.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// x, y, w, h.
    Rect(i64, i64, i64, i64),
    /// x, y, r.
    Circle(i64, i64, i64),
}

/// The font options every text call uses, the same on every machine that
/// has the font: grey antialiasing, no hinting, unrounded metrics.
pub fn font_options() -> Option<FontOptions> {
    let mut o = FontOptions::new().ok()?;
    o.set_antialias(cairo::Antialias::Gray);
    o.set_hint_style(cairo::HintStyle::None);
    o.set_hint_metrics(cairo::HintMetrics::Off);
    Some(o)
}

/// `(advance width, inked height)` of `t` in `font`, measured on `ctx`
/// (any context; only the font matters), rounded to whole pixels.
pub fn measure(ctx: &Context, font: &Font, options: &FontOptions, t: &str) -> (i64, i64) {
    let t = cairo_text(t);
    ctx.set_matrix(Matrix::identity());
    font.select(ctx);
    ctx.set_font_options(options);
    match ctx.text_extents(t) {
        Ok(e) => (
            (e.x_advance() + 0.5).floor() as i64,
            (e.height() + 0.5).floor() as i64,
        ),
        Err(_) => (0, 0),
    }
}
