//! The 2D canvas, images and fonts (§17.1, §17.3, §17.5, §17.6, §8.13,
//! §8.14): facility `canvas`, which links cairo. The natives are in
//! `festina-stdlib`'s `canvas` module (feature `canvas`), whose
//! documentation gives the design.
//!
//! Outcomes the natives guarantee (each has a golden test):
//! - Drawing never needs a display. Coordinates are `int` pixels; the
//!   canvas starts 800x600 and fully transparent.
//! - `drawRect`/`drawCircle` take up to two trailing colors (the fill,
//!   then the border, for that call only; `none` turns either off);
//!   `drawPixel` one (its fill). A rectangle with a negative size extends
//!   the other way; a circle with a radius of 0 or less draws nothing.
//! - `drawText(t, x, y)`: `y` is the baseline; text is filled, never
//!   outlined.
//! - `drawImage` (3, 5 and 9 arguments) takes an `img` or an `img?`; a
//!   `null` image draws nothing; a source region past the image's edge
//!   draws only the overlap; `fillAlpha` applies.
//! - `clearCanvas()` ignores the transform; `clearRect`, `clearCircle`
//!   and `clearPixel` honour it.
//! - `saveCanvas(path)`: a PNG with alpha, `false` when it cannot be
//!   written; `saveCanvas()` a copy of the canvas as a new `img`.
//! - `getPixelColor(x, y)` reads the pixel at device coordinates (the
//!   transform does not apply): its color with the alpha taken out, or
//!   `null` when it is fully transparent or outside the canvas.
//! - `blankImage(w, h)`, `img.clip(...)`, `img.resize(...)`: a width or
//!   height below 1 or above 32767 is a runtime failure.
//! - `fillStyle(r, g, b)`/`borderColor(r, g, b)`: a negative component
//!   means `none`, a component above 255 counts as 255. `lineWidth` below
//!   0 counts as 0. `fillAlpha` is clamped to `[0, 1]`; `null` leaves it.
//!   A gradient stop given `none` is transparent.
//! - `changeFont(px, style, family)`: `px <= 0` keeps the size; a `null`
//!   style or family keeps it; a style mentioning `italic`/`oblique`
//!   slants, one mentioning `bold` is bold, anything else is upright and
//!   regular.
//! - Paths: `moveTo`, `lineTo`, `curveTo`, `closePath`, `fillPath` and
//!   `strokePath` with no path open are runtime failures; the transform
//!   applies to each point as it is added and to the line width when
//!   stroked (as in the HTML canvas).
//! - `rotate` is in degrees; `scale` with a zero or non-finite factor
//!   and `rotate` by a non-finite angle are ignored.
//! - `saveState()` pushes the transform and the whole style (fill,
//!   border, line width, alpha, gradient, font), at most 64 deep (a 65th
//!   push is a runtime failure); `restoreState()` with nothing saved is a
//!   runtime failure. On an image they push and pop its own transform
//!   only, with the same limits.
//! - `measureTextWidth(t)`: the advance width, `measureTextHeight(t)` the
//!   inked height, both rounded to whole pixels, in the current font.
//! - `setClientWidth(w)`/`setClientHeight(h)`: the canvas gets the new
//!   size at once, fully transparent; a size below 1 or above 32767 is
//!   ignored. `clientWidth`/`clientHeight` read the current size.
//! - `img.save()` on an image with no path is a runtime failure;
//!   `save(path)`/`saveCopy(path)` write the image's own bytes (the file
//!   it was loaded from, unless it has been drawn on since), otherwise a
//!   PNG.
//! - `blob.toImg()`: the blob's bytes decoded as PNG or JPEG (sniffed),
//!   `null` when they are neither or do not decode.
//!
//! The natives the checker emits by itself: `img_load` (`img x = path`,
//! §8.20 rule 5: an unreadable, unrecognized or corrupt file is a runtime
//! failure, §14.2), `img_load_async` (`path.callback(fn)` with `fn` a
//! `func[img]:void`, §12.5: a failed load leaves a 1x1 transparent image),
//! `font_literal` (a `font` literal: the canonical text of
//! `festina_signatures::style::FontSpec::encode` to a font value) and
//! `img_columns` (first in the entry function of a program whose table
//! rows or query targets have `img` columns: lets the database decode
//! them, §15.3).

use crate::{builtin, method, property, Facility, Impl::Native, Recv, Shape as S, Table};

const I: S = S::Int;

/// The table.
pub const TABLE: Table = Table {
    builtins: &[
        // §17.3 drawing
        builtin("drawRect", &[I, I, I, I], S::Void, "canvas_draw_rect"),
        builtin(
            "drawRect",
            &[I, I, I, I, S::Color],
            S::Void,
            "canvas_draw_rect",
        ),
        builtin(
            "drawRect",
            &[I, I, I, I, S::Color, S::Color],
            S::Void,
            "canvas_draw_rect",
        ),
        builtin("drawCircle", &[I, I, I], S::Void, "canvas_draw_circle"),
        builtin(
            "drawCircle",
            &[I, I, I, S::Color],
            S::Void,
            "canvas_draw_circle",
        ),
        builtin(
            "drawCircle",
            &[I, I, I, S::Color, S::Color],
            S::Void,
            "canvas_draw_circle",
        ),
        builtin("drawPixel", &[I, I], S::Void, "canvas_draw_pixel"),
        builtin("drawPixel", &[I, I, S::Color], S::Void, "canvas_draw_pixel"),
        builtin("drawText", &[S::Text, I, I], S::Void, "canvas_draw_text"),
        builtin(
            "drawImage",
            &[S::ImgSource, I, I],
            S::Void,
            "canvas_draw_image",
        ),
        builtin(
            "drawImage",
            &[S::ImgSource, I, I, I, I],
            S::Void,
            "canvas_draw_image",
        ),
        builtin(
            "drawImage",
            &[S::ImgSource, I, I, I, I, I, I, I, I],
            S::Void,
            "canvas_draw_image",
        ),
        builtin("clearCanvas", &[], S::Void, "canvas_clear"),
        builtin("clearRect", &[I, I, I, I], S::Void, "canvas_clear_rect"),
        builtin("clearCircle", &[I, I, I], S::Void, "canvas_clear_circle"),
        builtin("clearPixel", &[I, I], S::Void, "canvas_clear_pixel"),
        builtin("saveCanvas", &[S::Text], S::Bool, "canvas_save"),
        builtin("saveCanvas", &[], S::Img, "canvas_snapshot"),
        builtin("getPixelColor", &[I, I], S::Color, "canvas_pixel_color"),
        builtin("blankImage", &[I, I], S::Img, "img_blank"),
        // §17.5 style
        builtin("fillStyle", &[S::Color], S::Void, "canvas_fill_style"),
        builtin("fillStyle", &[I, I, I], S::Void, "canvas_fill_rgb"),
        builtin("borderColor", &[S::Color], S::Void, "canvas_border_color"),
        builtin("borderColor", &[I, I, I], S::Void, "canvas_border_rgb"),
        builtin("lineWidth", &[I], S::Void, "canvas_line_width"),
        builtin("changeFont", &[S::Font], S::Void, "canvas_change_font"),
        builtin(
            "changeFont",
            &[I, S::Text, S::Text],
            S::Void,
            "canvas_change_font_parts",
        ),
        builtin("fillAlpha", &[S::Float], S::Void, "canvas_fill_alpha"),
        builtin(
            "fillLinearGradient",
            &[I, I, S::Color, I, I, S::Color],
            S::Void,
            "canvas_linear_gradient",
        ),
        builtin(
            "fillRadialGradient",
            &[I, I, I, S::Color, S::Color],
            S::Void,
            "canvas_radial_gradient",
        ),
        builtin("measureTextWidth", &[S::Text], I, "canvas_text_width"),
        builtin("measureTextHeight", &[S::Text], I, "canvas_text_height"),
        // §17.5 paths
        builtin("beginPath", &[], S::Void, "canvas_begin_path"),
        builtin("moveTo", &[I, I], S::Void, "canvas_move_to"),
        builtin("lineTo", &[I, I], S::Void, "canvas_line_to"),
        builtin("curveTo", &[I, I, I, I, I, I], S::Void, "canvas_curve_to"),
        builtin("closePath", &[], S::Void, "canvas_close_path"),
        builtin("fillPath", &[], S::Void, "canvas_fill_path"),
        builtin("strokePath", &[], S::Void, "canvas_stroke_path"),
        // §17.5 transforms and state
        builtin("translate", &[I, I], S::Void, "canvas_translate"),
        builtin("rotate", &[S::Float], S::Void, "canvas_rotate"),
        builtin("scale", &[S::Float, S::Float], S::Void, "canvas_scale"),
        builtin("resetTransform", &[], S::Void, "canvas_reset_transform"),
        builtin("saveState", &[], S::Void, "canvas_save_state"),
        builtin("restoreState", &[], S::Void, "canvas_restore_state"),
        // §17.2: the canvas size (the window, when one is open, follows it)
        builtin("setClientWidth", &[I], S::Void, "canvas_set_width"),
        builtin("setClientHeight", &[I], S::Void, "canvas_set_height"),
    ],
    values: &[
        builtin("clientWidth", &[], I, "canvas_width"),
        builtin("clientHeight", &[], I, "canvas_height"),
    ],
    methods: &[
        method(Recv::Img, "clip", &[I, I, I, I], S::Img, Native("img_clip")),
        method(Recv::Img, "resize", &[I, I], S::Void, Native("img_resize")),
        method(
            Recv::Img,
            "getPixelColor",
            &[I, I],
            S::Color,
            Native("img_pixel_color"),
        ),
        method(
            Recv::Img,
            "drawRect",
            &[I, I, I, I],
            S::Void,
            Native("img_draw_rect"),
        ),
        method(
            Recv::Img,
            "drawRect",
            &[I, I, I, I, S::Color],
            S::Void,
            Native("img_draw_rect"),
        ),
        method(
            Recv::Img,
            "drawRect",
            &[I, I, I, I, S::Color, S::Color],
            S::Void,
            Native("img_draw_rect"),
        ),
        method(
            Recv::Img,
            "drawCircle",
            &[I, I, I],
            S::Void,
            Native("img_draw_circle"),
        ),
        method(
            Recv::Img,
            "drawCircle",
            &[I, I, I, S::Color],
            S::Void,
            Native("img_draw_circle"),
        ),
        method(
            Recv::Img,
            "drawCircle",
            &[I, I, I, S::Color, S::Color],
            S::Void,
            Native("img_draw_circle"),
        ),
        method(
            Recv::Img,
            "drawPixel",
            &[I, I],
            S::Void,
            Native("img_draw_pixel"),
        ),
        method(
            Recv::Img,
            "drawPixel",
            &[I, I, S::Color],
            S::Void,
            Native("img_draw_pixel"),
        ),
        method(
            Recv::Img,
            "drawText",
            &[S::Text, I, I],
            S::Void,
            Native("img_draw_text"),
        ),
        method(
            Recv::Img,
            "drawImage",
            &[S::ImgSource, I, I],
            S::Void,
            Native("img_draw_image"),
        ),
        method(
            Recv::Img,
            "drawImage",
            &[S::ImgSource, I, I, I, I],
            S::Void,
            Native("img_draw_image"),
        ),
        method(Recv::Img, "clear", &[], S::Void, Native("img_clear")),
        method(
            Recv::Img,
            "clearRect",
            &[I, I, I, I],
            S::Void,
            Native("img_clear_rect"),
        ),
        method(
            Recv::Img,
            "clearCircle",
            &[I, I, I],
            S::Void,
            Native("img_clear_circle"),
        ),
        method(
            Recv::Img,
            "clearPixel",
            &[I, I],
            S::Void,
            Native("img_clear_pixel"),
        ),
        method(
            Recv::Img,
            "translate",
            &[I, I],
            S::Void,
            Native("img_translate"),
        ),
        method(
            Recv::Img,
            "rotate",
            &[S::Float],
            S::Void,
            Native("img_rotate"),
        ),
        method(
            Recv::Img,
            "scale",
            &[S::Float, S::Float],
            S::Void,
            Native("img_scale"),
        ),
        method(
            Recv::Img,
            "resetTransform",
            &[],
            S::Void,
            Native("img_reset_transform"),
        ),
        method(
            Recv::Img,
            "saveState",
            &[],
            S::Void,
            Native("img_save_state"),
        ),
        method(
            Recv::Img,
            "restoreState",
            &[],
            S::Void,
            Native("img_restore_state"),
        ),
        method(Recv::Img, "save", &[], S::Bool, Native("img_save")),
        method(
            Recv::Img,
            "save",
            &[S::Text],
            S::Bool,
            Native("img_save_as"),
        ),
        method(
            Recv::Img,
            "saveCopy",
            &[S::Text],
            S::Bool,
            Native("img_save_copy"),
        ),
        method(Recv::Blob, "toImg", &[], S::Img, Native("blob_to_img")),
    ],
    properties: &[
        property(Recv::Img, "width", I, Native("img_width")),
        property(Recv::Img, "height", I, Native("img_height")),
    ],
    natives: &["img_load", "img_load_async", "font_literal", "img_columns"],
    reserved: &[
        "drawRect",
        "drawCircle",
        "drawPixel",
        "drawText",
        "drawImage",
        "clearCanvas",
        "clearRect",
        "clearCircle",
        "clearPixel",
        "saveCanvas",
        "blankImage",
        "getPixelColor",
        "fillStyle",
        "borderColor",
        "lineWidth",
        "changeFont",
        "fillAlpha",
        "fillLinearGradient",
        "fillRadialGradient",
        "measureTextWidth",
        "measureTextHeight",
        "beginPath",
        "moveTo",
        "lineTo",
        "curveTo",
        "closePath",
        "fillPath",
        "strokePath",
        "translate",
        "rotate",
        "scale",
        "resetTransform",
        "saveState",
        "restoreState",
        "setClientWidth",
        "setClientHeight",
        "clientWidth",
        "clientHeight",
    ],
    ..Table::empty("canvas", Facility::Canvas)
};
