//! The `img` natives (§8.13, §12.5, §16.3, §17.6) and the `font` literal.
//!
//! | native | Festina form | result |
//! |---|---|---|
//! | `img_load` | `img x = path` (§8.20 rule 5) | the image; an unreadable, unrecognized or corrupt file is a runtime failure (§14.2) |
//! | `img_load_async` | `path.callback(fn)` with `fn: func[img]:void` (§12.5) | a 1x1 transparent image now, filled in before `fn` runs; a failed load leaves it so |
//! | `img_blank` | `blankImage(w, h)` | a transparent image |
//! | `img_width`, `img_height` | `.width`, `.height` | int (0 for a null image) |
//! | `img_clip` | `.clip(x, y, w, h)` | a new image; the part past the edge is transparent |
//! | `img_resize` | `.resize(w, h)` | void; scales in place |
//! | `img_pixel_color` | `.getPixelColor(x, y)` | color or null |
//! | `img_draw_rect`, `img_draw_circle`, `img_draw_pixel`, `img_draw_text`, `img_draw_image` | the drawing methods, through the image's transform | void |
//! | `img_clear`, `img_clear_rect`, `img_clear_circle`, `img_clear_pixel` | the clears (`clear()` ignores the transform) | void |
//! | `img_translate`, `img_rotate`, `img_scale`, `img_reset_transform`, `img_save_state`, `img_restore_state` | the image's own transform | void |
//! | `img_save`, `img_save_as`, `img_save_copy` | `.save()`, `.save(path)`, `.saveCopy(path)` (§16.6) | bool |
//! | `blob_to_img` | `blob.toImg()` | the decoded image, or null |
//! | `font_literal` | a `font` literal (§8.14) | the font |
//! | `img_columns` | program start, with `img` columns (§15.3) | void |
//!
//! A null receiver draws nothing and reads as a 0x0 image; `save()` on it
//! is the "no path" runtime failure.

use super::codec;
use super::draw::{Shape, Target};
use super::image::{ImgObj, ImgState, MAX_STATES};
use super::natives::{factors, place, radians};
use super::style::FontObj;
use super::surface::Surface;
use super::{canvas, fail, img, int, overrides, pixel_color, text, Canvas};
use crate::blob::file::{read_file, save_bytes};
use crate::blob::BlobObj;
use cairo::Matrix;
use festina_signatures::style::FontSpec;
use festina_vm::event_loop::JobResult;
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::{HandleObj, Value};
use std::rc::Rc;

type R = Result<Value, Trap>;

/// The natives of this module.
pub fn entries() -> Vec<NativeEntry> {
    entries![
        "img_load" => load,
        "img_load_async" => load_async,
        "img_blank" => blank,
        "img_width" => width,
        "img_height" => height,
        "img_clip" => clip,
        "img_resize" => resize,
        "img_pixel_color" => pixel_color_at,
        "img_draw_rect" => draw_rect,
        "img_draw_circle" => draw_circle,
        "img_draw_pixel" => draw_pixel,
        "img_draw_text" => draw_text,
        "img_draw_image" => draw_image,
        "img_clear" => clear,
        "img_clear_rect" => clear_rect,
        "img_clear_circle" => clear_circle,
        "img_clear_pixel" => clear_pixel,
        "img_translate" => translate,
        "img_rotate" => rotate,
        "img_scale" => scale,
        "img_reset_transform" => reset_transform,
        "img_save_state" => save_state,
        "img_restore_state" => restore_state,
        "img_save" => save,
        "img_save_as" => save_as,
        "img_save_copy" => save_copy,
        "blob_to_img" => blob_to_img,
        "font_literal" => font_literal,
        "img_columns" => img_columns,
    ]
}

/// `img x = path` (§8.13): decode the file synchronously.
fn load(it: &mut Interpreter, args: &[Value]) -> R {
    let path = text(args, 0).unwrap_or("");
    let Some(bytes) = read_file(path) else {
        return Err(fail(it, format!("could not read image file '{path}'")));
    };
    match ImgObj::from_bytes(&bytes) {
        Ok(img) => {
            img.state().path = Some(path.to_string());
            Ok(Value::handle(img))
        }
        Err(e) => Err(fail(it, format!("could not load image '{path}': {e}"))),
    }
}

/// `path.callback(fn)` (§12.5): a 1x1 transparent image now; the file is
/// read and decoded on a worker thread, then the same image is filled on
/// this thread and `fn(img)` runs from the event loop. A failed load
/// leaves the image 1x1 and transparent and still calls `fn`.
fn load_async(it: &mut Interpreter, args: &[Value]) -> R {
    let callback = args.get(1).cloned().unwrap_or_default();
    let path = text(args, 0).unwrap_or("").to_string();
    let pending = ImgObj::blank(1, 1).map_err(|e| fail(it, e))?;
    if !path.is_empty() {
        pending.state().path = Some(path.clone());
    }
    let target = Rc::new(HandleObj::new(pending));
    let value = Value::Handle(Rc::clone(&target));
    it.event_loop()?.spawn_job(
        Box::new(move || {
            let loaded =
                read_file(&path).and_then(|bytes| codec::decode(&bytes).ok().map(|d| (d, bytes)));
            Box::new(loaded) as JobResult
        }),
        Box::new(move |it, result| {
            if let (Ok(loaded), Some(img)) = (
                result.downcast::<Option<(codec::Decoded, Vec<u8>)>>(),
                target.downcast_ref::<ImgObj>(),
            ) {
                if let Some((decoded, bytes)) = *loaded {
                    let _ = img.fill(decoded, Rc::from(bytes));
                }
            }
            it.call_function(&callback, &[Value::Handle(target)])
                .map(|_| ())
        }),
    );
    Ok(value)
}

/// `blankImage(w, h)`.
fn blank(it: &mut Interpreter, args: &[Value]) -> R {
    match ImgObj::blank(int(args, 0), int(args, 1)) {
        Ok(img) => Ok(Value::handle(img)),
        Err(e) => Err(fail(it, format!("blankImage(): {e}"))),
    }
}

fn width(_it: &mut Interpreter, args: &[Value]) -> R {
    Ok(Value::Int(img(args, 0).map_or(0, |i| i.size().0 as i64)))
}

fn height(_it: &mut Interpreter, args: &[Value]) -> R {
    Ok(Value::Int(img(args, 0).map_or(0, |i| i.size().1 as i64)))
}

/// `.clip(x, y, w, h)`: a new `w` x `h` image of that part of the
/// receiver; the part past its edge is transparent.
fn clip(it: &mut Interpreter, args: &[Value]) -> R {
    let Some(src) = img(args, 0) else {
        return Ok(Value::Null);
    };
    let (x, y, w, h) = (int(args, 1), int(args, 2), int(args, 3), int(args, 4));
    let mut out = Surface::new(w, h).map_err(|e| fail(it, format!("clip(): {e}")))?;
    let mut st = src.state();
    let (sw, sh, sstride) = (
        st.surface.width() as i64,
        st.surface.height() as i64,
        st.surface.stride(),
    );
    // The overlap, in source coordinates.
    let (x0, y0) = (x.max(0), y.max(0));
    let (x1, y1) = (x.saturating_add(w).min(sw), y.saturating_add(h).min(sh));
    if x0 < x1 && y0 < y1 {
        let from = st.surface.pixels();
        let ostride = out.stride();
        let to = out.pixels_mut();
        for sy in y0..y1 {
            let s = sy as usize * sstride;
            let d = (sy - y) as usize * ostride + (x0 - x) as usize;
            to[d..d + (x1 - x0) as usize].copy_from_slice(&from[s + x0 as usize..s + x1 as usize]);
        }
    }
    Ok(Value::handle(ImgObj::new(out)))
}

/// `.resize(w, h)`: the image scaled to `w` x `h` in place.
fn resize(it: &mut Interpreter, args: &[Value]) -> R {
    let Some(target) = img(args, 0) else {
        return Ok(Value::Null);
    };
    let (w, h) = (int(args, 1), int(args, 2));
    let mut out = Surface::new(w, h).map_err(|e| fail(it, format!("resize(): {e}")))?;
    let mut st = target.state();
    let (sw, sh) = (st.surface.width(), st.surface.height());
    let source = st.surface.as_source().clone();
    {
        let ctx = out.ctx();
        ctx.scale(w as f64 / sw as f64, h as f64 / sh as f64);
        if ctx.set_source_surface(&source, 0.0, 0.0).is_ok() {
            ctx.source().set_filter(cairo::Filter::Good);
            ctx.source().set_extend(cairo::Extend::Pad);
            ctx.rectangle(0.0, 0.0, sw as f64, sh as f64);
            let _ = ctx.fill();
        }
    }
    drop(source);
    st.surface = out;
    st.touch();
    Ok(Value::Null)
}

fn pixel_color_at(_it: &mut Interpreter, args: &[Value]) -> R {
    Ok(pixel_color(img(args, 0).and_then(|i| {
        i.state().surface.pixel(int(args, 1), int(args, 2))
    })))
}

/// Draw on the receiver through its transform with `f`, which gets the
/// target and the canvas state (for the style and the direct paths). The
/// image's source bytes no longer describe it.
fn draw_on(
    it: &mut Interpreter,
    args: &[Value],
    f: impl FnOnce(&mut Target<'_>, &mut Canvas),
) -> R {
    let Some(target) = img(args, 0) else {
        return Ok(Value::Null);
    };
    let c = canvas(it);
    let mut st = target.state();
    st.touch();
    let ImgState {
        surface, matrix, ..
    } = &mut *st;
    f(&mut Target { surface, matrix }, c);
    Ok(Value::Null)
}

fn draw_rect(it: &mut Interpreter, args: &[Value]) -> R {
    let (fill, border) = overrides(args, 5);
    draw_on(it, args, |t, c| {
        let ink = c.style.ink(fill, border);
        t.rect(
            &c.direct,
            &ink,
            int(args, 1),
            int(args, 2),
            int(args, 3),
            int(args, 4),
        );
    })
}

fn draw_circle(it: &mut Interpreter, args: &[Value]) -> R {
    let (fill, border) = overrides(args, 4);
    draw_on(it, args, |t, c| {
        let ink = c.style.ink(fill, border);
        t.circle(
            &mut c.direct,
            &ink,
            int(args, 1),
            int(args, 2),
            int(args, 3),
        );
    })
}

fn draw_pixel(it: &mut Interpreter, args: &[Value]) -> R {
    let (fill, _) = overrides(args, 3);
    draw_on(it, args, |t, c| {
        let ink = c.style.ink(fill, None);
        t.pixel(&c.direct, &ink, int(args, 1), int(args, 2));
    })
}

fn draw_text(it: &mut Interpreter, args: &[Value]) -> R {
    let s = text(args, 1).unwrap_or("");
    draw_on(it, args, |t, c| {
        if let Some(options) = &c.font_options {
            let ink = c.style.ink(None, None);
            t.text(&ink, &c.style.font, options, s, int(args, 2), int(args, 3));
        }
    })
}

/// `.drawImage(src, ...)`; an image drawn onto itself is copied first.
fn draw_image(it: &mut Interpreter, args: &[Value]) -> R {
    let (Some(target), Some(src)) = (img(args, 0), img(args, 1)) else {
        return Ok(Value::Null);
    };
    let (source, w, h) = if target.same(src) {
        let copied = src.state().surface.copy();
        let mut copy = copied.map_err(|e| fail(it, format!("drawImage(): {e}")))?;
        let (w, h) = (copy.width(), copy.height());
        (copy.as_source().clone(), w, h)
    } else {
        let mut st = src.state();
        let (w, h) = (st.surface.width(), st.surface.height());
        (st.surface.as_source().clone(), w, h)
    };
    let at = place(&args[1..]);
    draw_on(it, args, |t, c| t.image(&source, w, h, c.style.alpha, at))
}

fn clear(_it: &mut Interpreter, args: &[Value]) -> R {
    if let Some(target) = img(args, 0) {
        let mut st = target.state();
        st.touch();
        st.surface.clear();
    }
    Ok(Value::Null)
}

fn clear_rect(it: &mut Interpreter, args: &[Value]) -> R {
    let shape = Shape::Rect(int(args, 1), int(args, 2), int(args, 3), int(args, 4));
    draw_on(it, args, |t, _| t.clear(shape))
}

fn clear_circle(it: &mut Interpreter, args: &[Value]) -> R {
    let shape = Shape::Circle(int(args, 1), int(args, 2), int(args, 3));
    draw_on(it, args, |t, _| t.clear(shape))
}

fn clear_pixel(it: &mut Interpreter, args: &[Value]) -> R {
    let shape = Shape::Rect(int(args, 1), int(args, 2), 1, 1);
    draw_on(it, args, |t, _| t.clear(shape))
}

/// Change the receiver's transform with `f`.
fn transform(args: &[Value], f: impl FnOnce(&mut Matrix)) -> R {
    if let Some(target) = img(args, 0) {
        f(&mut target.state().matrix);
    }
    Ok(Value::Null)
}

fn translate(_it: &mut Interpreter, args: &[Value]) -> R {
    let (x, y) = (
        super::draw::coord(int(args, 1)),
        super::draw::coord(int(args, 2)),
    );
    transform(args, |m| m.translate(x, y))
}

fn rotate(_it: &mut Interpreter, args: &[Value]) -> R {
    match radians(args, 1) {
        Some(a) => transform(args, |m| m.rotate(a)),
        None => Ok(Value::Null),
    }
}

fn scale(_it: &mut Interpreter, args: &[Value]) -> R {
    match factors(&args[1.min(args.len())..]) {
        Some((sx, sy)) => transform(args, |m| m.scale(sx, sy)),
        None => Ok(Value::Null),
    }
}

fn reset_transform(_it: &mut Interpreter, args: &[Value]) -> R {
    transform(args, |m| *m = Matrix::identity())
}

/// `.saveState()`: push the image's transform (§17.6), at most 64 deep.
fn save_state(it: &mut Interpreter, args: &[Value]) -> R {
    let Some(target) = img(args, 0) else {
        return Ok(Value::Null);
    };
    let mut st = target.state();
    if st.saved.len() >= MAX_STATES {
        return Err(fail(
            it,
            "saveState(): more than 64 states saved on this image (is a restoreState() missing?)",
        ));
    }
    let m = st.matrix;
    st.saved.push(m);
    Ok(Value::Null)
}

/// `.restoreState()`: pop it; nothing saved is a runtime failure.
fn restore_state(it: &mut Interpreter, args: &[Value]) -> R {
    let Some(target) = img(args, 0) else {
        return Ok(Value::Null);
    };
    let mut st = target.state();
    match st.saved.pop() {
        Some(m) => {
            st.matrix = m;
            Ok(Value::Null)
        }
        None => Err(fail(
            it,
            "restoreState(): nothing was saved on this image (every restoreState() needs a saveState() first)",
        )),
    }
}

/// `.save()` (§16.6): the image's bytes to its own path; no path is a
/// runtime failure.
fn save(it: &mut Interpreter, args: &[Value]) -> R {
    let path = img(args, 0).and_then(|i| i.state().path.clone());
    match (img(args, 0), path) {
        (Some(i), Some(p)) => Ok(Value::Bool(save_bytes(&p, &i.bytes()))),
        _ => Err(fail(it, "save() on an img with no path")),
    }
}

/// `.save(path)`: write there and, if that landed, adopt the path.
fn save_as(_it: &mut Interpreter, args: &[Value]) -> R {
    let (Some(i), Some(p)) = (img(args, 0), text(args, 1)) else {
        return Ok(Value::Bool(false));
    };
    let ok = save_bytes(p, &i.bytes());
    if ok {
        i.state().path = Some(p.to_string());
    }
    Ok(Value::Bool(ok))
}

/// `.saveCopy(path)`: write there, keeping the own path.
fn save_copy(_it: &mut Interpreter, args: &[Value]) -> R {
    let ok = match (img(args, 0), text(args, 1)) {
        (Some(i), Some(p)) => save_bytes(p, &i.bytes()),
        _ => false,
    };
    Ok(Value::Bool(ok))
}

/// `blob.toImg()`: the blob's bytes decoded, or `null`.
fn blob_to_img(_it: &mut Interpreter, args: &[Value]) -> R {
    Ok(match args.first().and_then(Value::as_handle::<BlobObj>) {
        Some(b) => super::img_from_bytes(&b.bytes()),
        None => Value::Null,
    })
}

/// A `font` literal: the canonical text the checker wrote.
fn font_literal(_it: &mut Interpreter, args: &[Value]) -> R {
    Ok(match text(args, 0).and_then(FontSpec::decode) {
        Some(spec) => Value::handle(FontObj { spec }),
        None => Value::Null,
    })
}

/// Program start with `img` columns: let the database decode them.
fn img_columns(it: &mut Interpreter, _args: &[Value]) -> R {
    it.set_ext(super::ImgColumns(super::img_from_bytes));
    Ok(Value::Null)
}
