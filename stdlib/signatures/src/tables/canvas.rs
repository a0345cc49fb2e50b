//! The 2D canvas, images and fonts (§17): facility `canvas`, which will
//! link cairo.
//!
//! To come. The battery adds here the drawing builtins and the methods of
//! `img` and `font` values; its natives go in a `festina-stdlib` module
//! compiled under the `canvas` feature, so that only runtimes with that
//! facility link cairo. Until then the names are only reserved.

use crate::{Facility, Table};

/// The table.
pub const TABLE: Table = Table {
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
    ],
    ..Table::empty("canvas", Facility::Canvas)
};
