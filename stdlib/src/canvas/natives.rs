//! The global canvas builtins (§17.2 sizes, §17.3 drawing, §17.5 style,
//! paths, transforms and text metrics); their signatures and outcomes are
//! in `festina_signatures::tables::canvas`.
//!
//! | native | Festina form |
//! |---|---|
//! | `canvas_draw_rect` | `drawRect(x, y, w, h[, fill[, border]])` |
//! | `canvas_draw_circle` | `drawCircle(x, y, r[, fill[, border]])` |
//! | `canvas_draw_pixel` | `drawPixel(x, y[, fill])` |
//! | `canvas_draw_text` | `drawText(t, x, y)` |
//! | `canvas_draw_image` | `drawImage(img, x, y)`, `(img, x, y, w, h)`, `(img, sx, sy, sw, sh, dx, dy, dw, dh)` |
//! | `canvas_clear`, `canvas_clear_rect`, `canvas_clear_circle`, `canvas_clear_pixel` | `clearCanvas()`, `clearRect`, `clearCircle`, `clearPixel` |
//! | `canvas_save`, `canvas_snapshot` | `saveCanvas(path)`, `saveCanvas()` |
//! | `canvas_pixel_color` | `getPixelColor(x, y)` |
//! | `canvas_fill_style`, `canvas_fill_rgb`, `canvas_border_color`, `canvas_border_rgb`, `canvas_line_width`, `canvas_fill_alpha` | the style setters |
//! | `canvas_change_font`, `canvas_change_font_parts` | `changeFont(f)`, `changeFont(px, style, family)` |
//! | `canvas_linear_gradient`, `canvas_radial_gradient` | `fillLinearGradient`, `fillRadialGradient` |
//! | `canvas_text_width`, `canvas_text_height` | `measureTextWidth`, `measureTextHeight` |
//! | `canvas_begin_path` ... `canvas_stroke_path` | the path builtins |
//! | `canvas_translate`, `canvas_rotate`, `canvas_scale`, `canvas_reset_transform`, `canvas_save_state`, `canvas_restore_state` | transforms and states |
//! | `canvas_set_width`, `canvas_set_height`, `canvas_width`, `canvas_height` | `setClientWidth`, `setClientHeight`, `clientWidth`, `clientHeight` |

use super::draw::{coord, Place, Shape};
use super::image::ImgObj;
use super::state::NoPath;
use super::style::{Fill, FontObj, Gradient};
use super::{canvas, color, fail, img, int, overrides, pixel_color, rgb, text, Canvas};
use crate::blob::file::save_bytes;
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::Value;
use std::rc::Rc;

type R = Result<Value, Trap>;

/// The natives of this module.
pub fn entries() -> Vec<NativeEntry> {
    entries![
        "canvas_draw_rect" => draw_rect,
        "canvas_draw_circle" => draw_circle,
        "canvas_draw_pixel" => draw_pixel,
        "canvas_draw_text" => draw_text,
        "canvas_draw_image" => draw_image,
        "canvas_clear" => clear,
        "canvas_clear_rect" => clear_rect,
        "canvas_clear_circle" => clear_circle,
        "canvas_clear_pixel" => clear_pixel,
        "canvas_save" => save,
        "canvas_snapshot" => snapshot,
        "canvas_pixel_color" => pixel_color_at,
        "canvas_fill_style" => fill_style,
        "canvas_fill_rgb" => fill_rgb,
        "canvas_border_color" => border_color,
        "canvas_border_rgb" => border_rgb,
        "canvas_line_width" => line_width,
        "canvas_change_font" => change_font,
        "canvas_change_font_parts" => change_font_parts,
        "canvas_fill_alpha" => fill_alpha,
        "canvas_linear_gradient" => linear_gradient,
        "canvas_radial_gradient" => radial_gradient,
        "canvas_text_width" => text_width,
        "canvas_text_height" => text_height,
        "canvas_begin_path" => begin_path,
        "canvas_move_to" => move_to,
        "canvas_line_to" => line_to,
        "canvas_curve_to" => curve_to,
        "canvas_close_path" => close_path,
        "canvas_fill_path" => fill_path,
        "canvas_stroke_path" => stroke_path,
        "canvas_translate" => translate,
        "canvas_rotate" => rotate,
        "canvas_scale" => scale,
        "canvas_reset_transform" => reset_transform,
        "canvas_save_state" => save_state,
        "canvas_restore_state" => restore_state,
        "canvas_set_width" => set_width,
        "canvas_set_height" => set_height,
        "canvas_width" => width,
        "canvas_height" => height,
    ]
}

/// The canvas as a target with the style and direct paths; failing only
/// when there is no memory for the canvas surface (a failure with no
/// call site: looking the site up costs every call).
macro_rules! parts {
    ($it:ident) => {{
        canvas($it)
            .parts()
            .map_err(|e| Trap::Fail(format!("the canvas: {e}")))?
    }};
}

fn draw_rect(it: &mut Interpreter, args: &[Value]) -> R {
    let (fill, border) = overrides(args, 4);
    let (mut t, style, direct) = parts!(it);
    let ink = style.ink(fill, border);
    t.rect(
        direct,
        &ink,
        int(args, 0),
        int(args, 1),
        int(args, 2),
        int(args, 3),
    );
    Ok(Value::Null)
}

fn draw_circle(it: &mut Interpreter, args: &[Value]) -> R {
    let (fill, border) = overrides(args, 3);
    let (mut t, style, direct) = parts!(it);
    let ink = style.ink(fill, border);
    t.circle(direct, &ink, int(args, 0), int(args, 1), int(args, 2));
    Ok(Value::Null)
}

fn draw_pixel(it: &mut Interpreter, args: &[Value]) -> R {
    let (fill, _) = overrides(args, 2);
    let (mut t, style, direct) = parts!(it);
    let ink = style.ink(fill, None);
    t.pixel(direct, &ink, int(args, 0), int(args, 1));
    Ok(Value::Null)
}

fn draw_text(it: &mut Interpreter, args: &[Value]) -> R {
    let t_arg = text(args, 0).unwrap_or("");
    let c = canvas(it);
    let options = c.font_options.clone();
    let (mut t, style, _) = c
        .parts()
        .map_err(|e| Trap::Fail(format!("the canvas: {e}")))?;
    if let Some(options) = options {
        let ink = style.ink(None, None);
        t.text(
            &ink,
            &style.font,
            &options,
            t_arg,
            int(args, 1),
            int(args, 2),
        );
    }
    Ok(Value::Null)
}

/// Where the drawImage arguments from index 1 put the image.
pub(super) fn place(args: &[Value]) -> Place {
    let a = |i| int(args, i);
    match args.len() {
        0..=4 => Place::At(a(1), a(2)),
        5..=8 => Place::Scaled(a(1), a(2), a(3), a(4)),
        _ => Place::Part((a(1), a(2), a(3), a(4)), (a(5), a(6), a(7), a(8))),
    }
}

fn draw_image(it: &mut Interpreter, args: &[Value]) -> R {
    let Some(src) = img(args, 0) else {
        return Ok(Value::Null);
    };
    let (source, w, h) = {
        let mut s = src.state();
        let (w, h) = (s.surface.width(), s.surface.height());
        (s.surface.as_source().clone(), w, h)
    };
    let (mut t, style, _) = parts!(it);
    t.image(&source, w, h, style.alpha, place(args));
    Ok(Value::Null)
}

fn clear(it: &mut Interpreter, _args: &[Value]) -> R {
    let (t, _, _) = parts!(it);
    t.surface.clear();
    Ok(Value::Null)
}

fn clear_shape(it: &mut Interpreter, shape: Shape) -> R {
    let (mut t, _, _) = parts!(it);
    t.clear(shape);
    Ok(Value::Null)
}

fn clear_rect(it: &mut Interpreter, args: &[Value]) -> R {
    let shape = Shape::Rect(int(args, 0), int(args, 1), int(args, 2), int(args, 3));
    clear_shape(it, shape)
}

fn clear_circle(it: &mut Interpreter, args: &[Value]) -> R {
    clear_shape(it, Shape::Circle(int(args, 0), int(args, 1), int(args, 2)))
}

fn clear_pixel(it: &mut Interpreter, args: &[Value]) -> R {
    clear_shape(it, Shape::Rect(int(args, 0), int(args, 1), 1, 1))
}

/// `saveCanvas(path)`: the canvas as a PNG with alpha.
fn save(it: &mut Interpreter, args: &[Value]) -> R {
    let Some(path) = text(args, 0).map(str::to_string) else {
        return Ok(Value::Bool(false));
    };
    let (t, _, _) = parts!(it);
    let (w, h, stride) = (t.surface.width(), t.surface.height(), t.surface.stride());
    let png = super::codec::encode_png(
        w as u32,
        h as u32,
        stride,
        t.surface.pixels(),
        super::codec::Channels::Rgba,
    );
    Ok(Value::Bool(!png.is_empty() && save_bytes(&path, &png)))
}

/// `saveCanvas()`: a copy of the canvas as a new image.
fn snapshot(it: &mut Interpreter, _args: &[Value]) -> R {
    let (t, _, _) = parts!(it);
    match t.surface.copy() {
        Ok(s) => Ok(Value::handle(ImgObj::new(s))),
        Err(e) => Err(fail(it, format!("saveCanvas(): {e}"))),
    }
}

fn pixel_color_at(it: &mut Interpreter, args: &[Value]) -> R {
    let (t, _, _) = parts!(it);
    Ok(pixel_color(t.surface.pixel(int(args, 0), int(args, 1))))
}

fn with_canvas(it: &mut Interpreter, f: impl FnOnce(&mut Canvas)) -> R {
    f(canvas(it));
    Ok(Value::Null)
}

fn set_fill(it: &mut Interpreter, c: Option<u32>) -> R {
    with_canvas(it, |cv| cv.style.fill = c.map_or(Fill::None, Fill::Flat))
}

fn fill_style(it: &mut Interpreter, args: &[Value]) -> R {
    set_fill(it, color(args, 0))
}

fn fill_rgb(it: &mut Interpreter, args: &[Value]) -> R {
    set_fill(it, rgb(int(args, 0), int(args, 1), int(args, 2)))
}

fn border_color(it: &mut Interpreter, args: &[Value]) -> R {
    let c = color(args, 0);
    with_canvas(it, |cv| cv.style.border = c)
}

fn border_rgb(it: &mut Interpreter, args: &[Value]) -> R {
    let c = rgb(int(args, 0), int(args, 1), int(args, 2));
    with_canvas(it, |cv| cv.style.border = c)
}

fn line_width(it: &mut Interpreter, args: &[Value]) -> R {
    let w = coord(int(args, 0).max(0));
    with_canvas(it, |cv| cv.style.line_width = w)
}

fn change_font(it: &mut Interpreter, args: &[Value]) -> R {
    let Some(f) = args.first().and_then(Value::as_handle::<FontObj>) else {
        return Ok(Value::Null);
    };
    let spec = f.spec.clone();
    with_canvas(it, |cv| cv.style.font.apply(&spec))
}

fn change_font_parts(it: &mut Interpreter, args: &[Value]) -> R {
    let px = int(args, 0);
    let (style, family) = (text(args, 1), text(args, 2));
    let c = canvas(it);
    c.style.font.apply_parts(px, style, family);
    Ok(Value::Null)
}

fn fill_alpha(it: &mut Interpreter, args: &[Value]) -> R {
    let a = args.first().map_or(f64::NAN, Value::as_float);
    if a.is_nan() {
        return Ok(Value::Null);
    }
    with_canvas(it, |cv| cv.style.alpha = a.clamp(0.0, 1.0))
}

fn linear_gradient(it: &mut Interpreter, args: &[Value]) -> R {
    let g = Gradient::Linear {
        from: (coord(int(args, 0)), coord(int(args, 1)), color(args, 2)),
        to: (coord(int(args, 3)), coord(int(args, 4)), color(args, 5)),
    };
    with_canvas(it, |cv| cv.style.fill = Fill::Gradient(Rc::new(g)))
}

fn radial_gradient(it: &mut Interpreter, args: &[Value]) -> R {
    let g = Gradient::Radial {
        centre: (coord(int(args, 0)), coord(int(args, 1))),
        radius: coord(int(args, 2).max(0)),
        inner: color(args, 3),
        outer: color(args, 4),
    };
    with_canvas(it, |cv| cv.style.fill = Fill::Gradient(Rc::new(g)))
}

fn text_width(it: &mut Interpreter, args: &[Value]) -> R {
    let t = text(args, 0).unwrap_or("");
    Ok(Value::Int(canvas(it).measure(t).0))
}

fn text_height(it: &mut Interpreter, args: &[Value]) -> R {
    let t = text(args, 0).unwrap_or("");
    Ok(Value::Int(canvas(it).measure(t).1))
}

/// The runtime failure of path call `name` with no path open (§17.5).
fn no_path(it: &Interpreter, name: &str) -> Trap {
    fail(
        it,
        format!("{name}(): no path is open; call beginPath() first"),
    )
}

fn path_call(
    it: &mut Interpreter,
    name: &str,
    f: impl FnOnce(&mut Canvas) -> Result<(), NoPath>,
) -> R {
    match f(canvas(it)) {
        Ok(()) => Ok(Value::Null),
        Err(NoPath) => Err(no_path(it, name)),
    }
}

fn begin_path(it: &mut Interpreter, _args: &[Value]) -> R {
    with_canvas(it, Canvas::begin_path)
}

fn move_to(it: &mut Interpreter, args: &[Value]) -> R {
    let (x, y) = (int(args, 0), int(args, 1));
    path_call(it, "moveTo", |c| c.move_to(x, y))
}

fn line_to(it: &mut Interpreter, args: &[Value]) -> R {
    let (x, y) = (int(args, 0), int(args, 1));
    path_call(it, "lineTo", |c| c.line_to(x, y))
}

fn curve_to(it: &mut Interpreter, args: &[Value]) -> R {
    let p = [0, 1, 2, 3, 4, 5].map(|i| int(args, i));
    path_call(it, "curveTo", |c| c.curve_to(p))
}

fn close_path(it: &mut Interpreter, _args: &[Value]) -> R {
    path_call(it, "closePath", Canvas::close_path)
}

fn fill_path(it: &mut Interpreter, _args: &[Value]) -> R {
    path_call(it, "fillPath", |c| c.paint_path(false))
}

fn stroke_path(it: &mut Interpreter, _args: &[Value]) -> R {
    path_call(it, "strokePath", |c| c.paint_path(true))
}

fn translate(it: &mut Interpreter, args: &[Value]) -> R {
    let (x, y) = (coord(int(args, 0)), coord(int(args, 1)));
    with_canvas(it, |c| c.matrix.translate(x, y))
}

/// The angle of `rotate(degrees)` in radians, if finite.
pub(super) fn radians(args: &[Value], i: usize) -> Option<f64> {
    let d = args.get(i).map_or(f64::NAN, Value::as_float);
    d.is_finite().then(|| (d % 360.0).to_radians())
}

/// The factors of `scale(sx, sy)`, if both are finite and not zero.
pub(super) fn factors(args: &[Value]) -> Option<(f64, f64)> {
    let f = |i| args.get(i).map_or(f64::NAN, Value::as_float);
    let (sx, sy) = (f(0), f(1));
    let ok = |v: f64| v.is_finite() && v != 0.0 && v.abs() <= COORD_FACTOR;
    (ok(sx) && ok(sy)).then_some((sx, sy))
}

/// The largest scale factor taken (larger ones would leave cairo's range).
const COORD_FACTOR: f64 = 1e6;

fn rotate(it: &mut Interpreter, args: &[Value]) -> R {
    match radians(args, 0) {
        Some(a) => with_canvas(it, |c| c.matrix.rotate(a)),
        None => Ok(Value::Null),
    }
}

fn scale(it: &mut Interpreter, args: &[Value]) -> R {
    match factors(args) {
        Some((sx, sy)) => with_canvas(it, |c| c.matrix.scale(sx, sy)),
        None => Ok(Value::Null),
    }
}

fn reset_transform(it: &mut Interpreter, _args: &[Value]) -> R {
    with_canvas(it, |c| c.matrix = cairo::Matrix::identity())
}

fn save_state(it: &mut Interpreter, _args: &[Value]) -> R {
    if canvas(it).save_state() {
        return Ok(Value::Null);
    }
    Err(fail(
        it,
        "saveState(): more than 64 states saved (is a restoreState() missing?)",
    ))
}

fn restore_state(it: &mut Interpreter, _args: &[Value]) -> R {
    if canvas(it).restore_state() {
        return Ok(Value::Null);
    }
    Err(fail(
        it,
        "restoreState(): nothing was saved (every restoreState() needs a saveState() first)",
    ))
}

fn set_width(it: &mut Interpreter, args: &[Value]) -> R {
    let h = canvas(it).size().1;
    set_size(it, int(args, 0), h)
}

fn set_height(it: &mut Interpreter, args: &[Value]) -> R {
    let w = canvas(it).size().0;
    set_size(it, w, int(args, 0))
}

/// The canvas gets the new size (ignored when a side is out of range);
/// when it changed and a window is open, the window follows at once
/// (its [`super::ResizeHook`], which also fires `on resize`, §17.2).
fn set_size(it: &mut Interpreter, w: i64, h: i64) -> R {
    if canvas(it).resize(w, h) {
        if let Some(hook) = it.ext::<super::ResizeHook>().copied() {
            (hook.0)(it)?;
        }
    }
    Ok(Value::Null)
}

fn width(it: &mut Interpreter, _args: &[Value]) -> R {
    Ok(Value::Int(canvas(it).size().0))
}

fn height(it: &mut Interpreter, _args: &[Value]) -> R {
    Ok(Value::Int(canvas(it).size().1))
}
