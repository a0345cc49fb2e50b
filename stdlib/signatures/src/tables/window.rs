//! The window and its input events (§17.1, §17.2, §17.4): facility
//! `window`, whose natives (`festina_stdlib::window`) open an X11 window
//! through minifb. Outcomes:
//!
//! - `render()`: presents the canvas (transparent pixels as white),
//!   opening the window on first use at the canvas size; with no display
//!   it fails `no display: set DISPLAY ...`; after the user closed the
//!   window it runs `on close`, then ends the program like `close(0)`.
//! - `enterFullscreen()`/`exitFullscreen()`: before the window exists
//!   they set its initial state; the size change and `on resize` arrive
//!   later; a redundant call does nothing.
//! - `showCursor()`/`hideCursor()`: never open a window.
//! - `screenWidth`/`screenHeight`: the display's size in pixels (a
//!   runtime failure with no display); `devicePixelRatio`: `1.0` (X11
//!   windows are not scaled).
//! - `window_events` (emitted by the checker at the end of the entry
//!   function of a program that declares any of the nine window events,
//!   §17.2): opens the window as `render()` does.
//!
//! The canvas size (`clientWidth`, `clientHeight`, `setClientWidth`,
//! `setClientHeight`, §17.2) is the canvas's (see [`super::canvas`]);
//! the window follows it.

use crate::{builtin, Facility, Shape as S, Table};

/// The window events of §11.5, whose handlers open a window (§17.2).
pub const WINDOW_EVENTS: [&str; 9] = [
    "mouseDown",
    "mouseUp",
    "mouse",
    "mouseWheelUp",
    "mouseWheelDown",
    "keyDown",
    "keyUp",
    "resize",
    "close",
];

/// The table.
pub const TABLE: Table = Table {
    builtins: &[
        builtin("render", &[], S::Void, "window_render"),
        builtin("enterFullscreen", &[], S::Void, "window_enter_fullscreen"),
        builtin("exitFullscreen", &[], S::Void, "window_exit_fullscreen"),
        builtin("showCursor", &[], S::Void, "window_show_cursor"),
        builtin("hideCursor", &[], S::Void, "window_hide_cursor"),
    ],
    values: &[
        builtin("screenWidth", &[], S::Int, "window_screen_width"),
        builtin("screenHeight", &[], S::Int, "window_screen_height"),
        builtin("devicePixelRatio", &[], S::Float, "window_pixel_ratio"),
    ],
    natives: &["window_events"],
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
