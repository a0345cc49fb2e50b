//! The screen size without a window (`screenWidth`/`screenHeight` before
//! `render()`, §17.1): a short-lived connection to `$DISPLAY` through
//! libX11, opened at run time (`x11-dl`, as minifb does), so that a
//! runtime with the window facility still never links X11.

use x11_dl::xlib::Xlib;

/// The default screen's size in pixels. Errors: libX11 cannot be loaded,
/// or the X server `$DISPLAY` names does not answer.
pub fn size() -> Result<(i64, i64), String> {
    let xlib = Xlib::open().map_err(|e| format!("cannot load libX11: {e}"))?;
    // SAFETY: XOpenDisplay with a null name connects to $DISPLAY and
    // returns null on failure (checked); the display is used only here,
    // on this thread, and closed before returning.
    unsafe {
        let d = (xlib.XOpenDisplay)(std::ptr::null());
        if d.is_null() {
            return Err("the X server does not answer".into());
        }
        let screen = (xlib.XDefaultScreen)(d);
        let w = (xlib.XDisplayWidth)(d, screen) as i64;
        let h = (xlib.XDisplayHeight)(d, screen) as i64;
        (xlib.XCloseDisplay)(d);
        Ok((w, h))
    }
}
