//! [`Canvas`]: the canvas state of one interpreter (§17.1, §17.5), kept
//! with `Interpreter::set_ext` (one per interpreter, so one per OS thread;
//! no global state).
//!
//! It owns the canvas [`Surface`] (made on first use at the current
//! client size), the canvas transform and its saved states, the global
//! [`Style`] (which images use too), the open path, the [`Direct`] paths
//! with their circle masks, the font options and a scratch surface for
//! text metrics.

use super::direct::{self, Direct};
use super::draw::{self, coord, Target};
use super::image::MAX_STATES;
use super::style::{Ink, InkFill, Style};
use super::surface::{Surface, SurfaceError, MAX_SIDE};
use cairo::{FontOptions, Matrix};

/// The canvas size before any `setClientWidth`/`setClientHeight` (§17.1).
pub const DEFAULT_SIZE: (i64, i64) = (800, 600);

/// One step of a path, with the transform it was added under (§17.5: the
/// transform applies to each point as it is added).
#[derive(Clone, Copy, Debug)]
enum PathOp {
    Move(f64, f64),
    Line(f64, f64),
    Curve([f64; 6]),
    Close,
}

/// The canvas state of one interpreter (see the module documentation).
pub struct Canvas {
    width: i64,
    height: i64,
    surface: Option<Surface>,
    /// The canvas transform.
    pub matrix: Matrix,
    saved: Vec<(Matrix, Style)>,
    /// The global drawing style.
    pub style: Style,
    path: Option<Vec<(Matrix, PathOp)>>,
    /// The direct pixel paths.
    pub direct: Direct,
    /// The font options of every text call.
    pub font_options: Option<FontOptions>,
    scratch: Option<Surface>,
}

/// The runtime failure of a path call with no path open (§17.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoPath;

impl Default for Canvas {
    fn default() -> Canvas {
        Canvas::new(direct::enabled_by_environment())
    }
}

impl Canvas {
    /// A fresh canvas state, with the direct paths on or off.
    pub fn new(direct_paths: bool) -> Canvas {
        Canvas {
            width: DEFAULT_SIZE.0,
            height: DEFAULT_SIZE.1,
            surface: None,
            matrix: Matrix::identity(),
            saved: Vec::new(),
            style: Style::default(),
            path: None,
            direct: Direct::new(direct_paths),
            font_options: draw::font_options(),
            scratch: None,
        }
    }

    /// `(clientWidth, clientHeight)`.
    pub fn size(&self) -> (i64, i64) {
        (self.width, self.height)
    }

    /// `setClientWidth`/`setClientHeight`: the canvas gets the size at
    /// once, fully transparent; a side outside `1..=32767` is ignored.
    /// `true` if the size changed.
    pub fn resize(&mut self, width: i64, height: i64) -> bool {
        let ok = |v: i64| (1..=MAX_SIDE).contains(&v);
        if !ok(width) || !ok(height) || (width, height) == (self.width, self.height) {
            return false;
        }
        self.width = width;
        self.height = height;
        self.surface = None;
        true
    }

    /// The canvas surface, made on first use. Errors: no memory.
    pub fn surface(&mut self) -> Result<&mut Surface, SurfaceError> {
        Ok(self.parts()?.0.surface)
    }

    /// The canvas as a drawing target, with the style and direct paths
    /// beside it (the parts borrowed apart).
    /// Errors: no memory for the surface.
    pub fn parts(&mut self) -> Result<(Target<'_>, &Style, &mut Direct), SurfaceError> {
        let (width, height) = (self.width, self.height);
        let Canvas {
            surface,
            matrix,
            style,
            direct,
            ..
        } = self;
        let surface = match surface {
            Some(s) => s,
            None => surface.insert(Surface::new(width, height)?),
        };
        Ok((Target { surface, matrix }, style, direct))
    }

    /// `saveState()`: push the transform and the style. `false` (a
    /// runtime failure for the caller) past [`MAX_STATES`].
    pub fn save_state(&mut self) -> bool {
        if self.saved.len() >= MAX_STATES {
            return false;
        }
        self.saved.push((self.matrix, self.style.clone()));
        true
    }

    /// `restoreState()`: pop them. `false` (a runtime failure for the
    /// caller) with nothing saved.
    pub fn restore_state(&mut self) -> bool {
        match self.saved.pop() {
            Some((m, s)) => {
                self.matrix = m;
                self.style = s;
                true
            }
            None => false,
        }
    }

    /// `beginPath()`: a new, empty path (an unfinished one is dropped).
    pub fn begin_path(&mut self) {
        self.path = Some(Vec::new());
    }

    fn add(&mut self, op: PathOp) -> Result<(), NoPath> {
        let m = self.matrix;
        self.path.as_mut().ok_or(NoPath)?.push((m, op));
        Ok(())
    }

    /// `moveTo(x, y)`.
    pub fn move_to(&mut self, x: i64, y: i64) -> Result<(), NoPath> {
        self.add(PathOp::Move(coord(x), coord(y)))
    }

    /// `lineTo(x, y)`.
    pub fn line_to(&mut self, x: i64, y: i64) -> Result<(), NoPath> {
        self.add(PathOp::Line(coord(x), coord(y)))
    }

    /// `curveTo(cx1, cy1, cx2, cy2, x, y)`.
    pub fn curve_to(&mut self, p: [i64; 6]) -> Result<(), NoPath> {
        self.add(PathOp::Curve(p.map(coord)))
    }

    /// `closePath()`.
    pub fn close_path(&mut self) -> Result<(), NoPath> {
        self.add(PathOp::Close)
    }

    /// `fillPath()` (`stroke` false) or `strokePath()`: paint the path with
    /// the fill, or the border colour and line width, and end it.
    pub fn paint_path(&mut self, stroke: bool) -> Result<(), NoPath> {
        let path = self.path.take().ok_or(NoPath)?;
        let Ok((target, style, _)) = self.parts() else {
            return Ok(());
        };
        let ink = style.ink(None, None);
        let m = *target.matrix;
        let ctx = target.surface.ctx();
        ctx.set_operator(cairo::Operator::Over);
        ctx.new_path();
        for (pm, op) in &path {
            ctx.set_matrix(*pm);
            match *op {
                PathOp::Move(x, y) => ctx.move_to(x, y),
                PathOp::Line(x, y) => ctx.line_to(x, y),
                PathOp::Curve([a, b, c, d, e, f]) => ctx.curve_to(a, b, c, d, e, f),
                PathOp::Close => ctx.close_path(),
            }
        }
        ctx.set_matrix(m);
        if stroke {
            let ink = Ink {
                fill: InkFill::None,
                ..ink
            };
            let _ = ink.fill_and_stroke(ctx);
        } else {
            let ink = Ink {
                border: None,
                ..ink
            };
            let _ = ink.fill_and_stroke(ctx);
        }
        Ok(())
    }

    /// `(advance width, inked height)` of `t` in the current font
    /// (`measureTextWidth`, `measureTextHeight`); no display needed.
    pub fn measure(&mut self, t: &str) -> (i64, i64) {
        if self.scratch.is_none() {
            self.scratch = Surface::new(1, 1).ok();
        }
        let (Some(scratch), Some(options)) = (self.scratch.as_mut(), self.font_options.as_ref())
        else {
            return (0, 0);
        };
        draw::measure(scratch.ctx(), &self.style.font, options, t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_stack_limits() {
        let mut c = Canvas::new(true);
        assert!(!c.restore_state());
        for _ in 0..MAX_STATES {
            assert!(c.save_state());
        }
        assert!(!c.save_state());
        c.style.line_width = 7.0;
        c.matrix.translate(3.0, 4.0);
        assert!(c.restore_state());
        assert_eq!(c.style.line_width, 1.0);
        assert_eq!(c.matrix.x0(), 0.0);
    }

    #[test]
    fn paths_need_begin_path() {
        let mut c = Canvas::new(true);
        assert_eq!(c.move_to(1, 2), Err(NoPath));
        assert_eq!(c.paint_path(false), Err(NoPath));
        c.begin_path();
        c.move_to(0, 0).unwrap();
        c.line_to(10, 0).unwrap();
        c.line_to(0, 10).unwrap();
        c.close_path().unwrap();
        c.paint_path(false).unwrap();
        assert_eq!(c.close_path(), Err(NoPath), "fillPath ends the path");
        let s = c.surface().unwrap();
        assert_eq!(s.pixel(2, 2), Some(0xff00_0000));
        assert_eq!(s.pixel(9, 9), Some(0));
    }

    #[test]
    fn resize_rules() {
        let mut c = Canvas::new(true);
        assert_eq!(c.size(), DEFAULT_SIZE);
        assert!(!c.resize(0, 10));
        assert!(!c.resize(10, MAX_SIDE + 1));
        assert!(c.resize(20, 10));
        assert_eq!(c.surface().unwrap().width(), 20);
        assert!(!c.resize(20, 10));
    }
}
