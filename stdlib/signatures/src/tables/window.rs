//! The window and its input events (§17): facility `window`, which will
//! link X11.
//!
//! To come. The battery adds here `render()` and the window builtins and
//! globals, and the natives the checker emits for the window's events;
//! its natives go in a `festina-stdlib` module compiled under the
//! `window` feature. Until then the names are only reserved.
//!
//! The canvas size (`clientWidth`, `clientHeight`, `setClientWidth`,
//! `setClientHeight`, §17.2) is the canvas's (see [`super::canvas`]):
//! it works without a window; the window follows it.

use crate::{Facility, Table};

/// The table.
pub const TABLE: Table = Table {
    reserved: &[
        "render",
        "enterFullscreen",
        "exitFullscreen",
        "showCursor",
        "hideCursor",
        "screenWidth",
        "screenHeight",
        "devicePixelRatio",
    ],
    ..Table::empty("window", Facility::Window)
};
