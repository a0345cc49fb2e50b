//! The `window` facility: the window and its input events (§17.1,
//! §17.2, §17.4, §11.5, §19.7). Compiled only with the cargo feature
//! `window`, so that only the runtimes that register it reach X11; even
//! there libX11 is opened at run time (minifb through `x11-dl`), the
//! first time a program opens a window or asks for the screen size.
//!
//! # Design
//! - **Who owns what.** The window is per interpreter, kept with
//!   `Interpreter::set_ext` as a [`WindowState`]: the minifb window (an
//!   X11 window with its own display connection; `vendor/minifb`, patched
//!   for input events in arrival order, resizing, fullscreen and the
//!   screen size, see `vendor/README.md`), the frame presented last, the
//!   wanted fullscreen and cursor states (set before the window exists,
//!   applied when it opens), the sizes the program asked of the window
//!   and the last pointer position. Everything runs on the interpreter's
//!   thread; only the main program reaches these natives (§17.1: graphics
//!   builtins may not be used in a thread body).
//! - **Opening** (state *closed → open*): `render()` (native
//!   `window_render`), or the end of the entry function of a program that
//!   declares any of the nine window events (native `window_events`,
//!   emitted by the checker), opens the window at the canvas size
//!   (`clientWidth` × `clientHeight`) as a normal, decorated, resizable
//!   window titled with the program's file name, presents the canvas,
//!   installs the canvas's [`ResizeHook`] and registers a
//!   [`WindowSource`] with the event loop: a source without a file
//!   descriptor, woken by a frame tick every [`TICK`], which keeps the
//!   program alive (§17.2). With no `DISPLAY`, or a display that does not
//!   answer, the native fails with `no display: ...`.
//! - **Presenting**: the canvas's premultiplied ARGB32 pixels
//!   ([`crate::canvas::canvas_pixels`]) composited over white (§17.2: the
//!   transparent regions appear opaque white; for premultiplied pixels
//!   that is `channel + (255 - alpha)`) into the frame, which minifb puts
//!   on the window (`XPutImage`).
//! - **Events** (state *open*): each tick processes the X events minifb
//!   has received, then calls the handlers one at a time, in arrival
//!   order, from the event loop like any timer or connection (§12.1):
//!   pointer motion (`mouse`, only when the position changed), X buttons
//!   4 and 5 (`mouseWheelUp`/`mouseWheelDown`, once per notch, on press;
//!   never a button event; horizontal wheel buttons 6 and 7 fire
//!   nothing), other buttons (`mouseDown`/`mouseUp` with the X button
//!   number: 1 left, 2 middle, 3 right, 8 back, 9 forward), keys
//!   (`keyDown` for every press and auto-repeat, `keyUp` once on
//!   release, with the character of the unshifted key or the X key
//!   name), and an exposed window gets the last presented frame again.
//!   A size of the window the program did not ask for (the user
//!   or the window manager resized it, fullscreen) resizes the canvas,
//!   which starts transparent, and fires `on resize`.
//! - **Resizing from the program**: `setClientWidth`/`setClientHeight`
//!   resize the canvas (the canvas facility), then call the
//!   [`ResizeHook`]: the window is asked for the new size, the cleared
//!   canvas is presented and `on resize` fires once, synchronously
//!   (§17.2). The size is remembered so that the server's confirmation
//!   fires nothing.
//! - **Closing** (state *open → gone*): when the user closes the window,
//!   the next tick (or the next `render()`) drops it, runs `on close`,
//!   then ends the program like `close(0)`: `on exit(0)` runs and the
//!   exit status is 0 (§17.2, §12.3), whatever timers or ports remain.
//! - **Coexistence** (§19.7): the window is one source among the timers,
//!   ports and connections of the one event loop; a tick costs one
//!   `XQueryPointer` round trip and the pending events, so a request to
//!   a listening port waits at most for the handler running at the time:
//!   in a program that redraws from a 0 ms timer chain, the rest of the
//!   frame being drawn, since the event loop handles what its poll
//!   reported before the timer that draws the next frame
//!   (`festina_vm::event_loop`; `benches/RESULTS.md`, "Window: an HTTP
//!   request beside an open window"). A program that loops at the top
//!   level (`while ... { render() }`) never reaches the event loop, so
//!   its port waits until the loop ends.

use crate::canvas::{canvas, canvas_pixels, ResizeHook};
use festina_vm::event_loop::{Interest, Keep, Readiness, Source, SourceHandler, TimerId, Token};
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::Value;
use minifb::{InputEvent, ScaleMode, Window, WindowOptions};
use std::collections::VecDeque;
use std::time::Duration;

mod screen;

/// How often an open window's events are processed: the frame tick.
pub const TICK: Duration = Duration::from_millis(8);

/// Sizes asked of the window and not yet confirmed, kept at most.
const MAX_ASKED: usize = 16;

/// The window state of one interpreter (see the module documentation).
#[derive(Default)]
pub struct WindowState {
    /// The open window (`None` before `render()` and after closing).
    win: Option<Window>,
    /// Its source's token in the event loop.
    token: Option<Token>,
    /// Wanted fullscreen state (applied when the window opens).
    fullscreen: bool,
    /// Whether the cursor is hidden (applied when the window opens).
    cursor_hidden: bool,
    /// The frame presented last, `0RGB` (reused between frames), and its
    /// size.
    frame: Vec<u32>,
    frame_size: (usize, usize),
    /// Sizes the program asked of the window, oldest first.
    asked: VecDeque<(usize, usize)>,
    /// The window size seen last.
    size: (usize, usize),
    /// The pointer position reported last by `on mouse`.
    pointer: Option<(i32, i32)>,
}

/// The natives of the facility, for the registry.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "window_render",
            func: render,
        },
        NativeEntry {
            name: "window_events",
            func: open_for_events,
        },
        NativeEntry {
            name: "window_enter_fullscreen",
            func: enter_fullscreen,
        },
        NativeEntry {
            name: "window_exit_fullscreen",
            func: exit_fullscreen,
        },
        NativeEntry {
            name: "window_show_cursor",
            func: show_cursor,
        },
        NativeEntry {
            name: "window_hide_cursor",
            func: hide_cursor,
        },
        NativeEntry {
            name: "window_screen_width",
            func: screen_width,
        },
        NativeEntry {
            name: "window_screen_height",
            func: screen_height,
        },
        NativeEntry {
            name: "window_pixel_ratio",
            func: pixel_ratio,
        },
    ]
}

type R = Result<Value, Trap>;

fn state(it: &mut Interpreter) -> &mut WindowState {
    it.ext_or_insert_with(WindowState::default)
}

/// `render()` (§17.3): open the window if needed, present the canvas; a
/// window the user closed meanwhile ends the program (module docs).
fn render(it: &mut Interpreter, _args: &[Value]) -> R {
    open(it)?;
    present(it)?;
    let closed = state(it).win.as_ref().is_some_and(|w| !w.is_open());
    if closed {
        close(it)?;
    }
    Ok(Value::Null)
}

/// The end of the entry function of a program with window event
/// handlers (§17.2): the window exists from now on.
fn open_for_events(it: &mut Interpreter, _args: &[Value]) -> R {
    if state(it).win.is_none() {
        open(it)?;
        present(it)?;
    }
    Ok(Value::Null)
}

fn enter_fullscreen(it: &mut Interpreter, _args: &[Value]) -> R {
    set_fullscreen(it, true)
}

fn exit_fullscreen(it: &mut Interpreter, _args: &[Value]) -> R {
    set_fullscreen(it, false)
}

/// §17.2: before the window exists, only the wanted state; a redundant
/// call does nothing; the size change arrives later (a tick).
fn set_fullscreen(it: &mut Interpreter, on: bool) -> R {
    let st = state(it);
    if st.fullscreen != on {
        st.fullscreen = on;
        if let Some(w) = st.win.as_mut() {
            w.set_fullscreen(on);
        }
    }
    Ok(Value::Null)
}

fn show_cursor(it: &mut Interpreter, _args: &[Value]) -> R {
    set_cursor(it, false)
}

fn hide_cursor(it: &mut Interpreter, _args: &[Value]) -> R {
    set_cursor(it, true)
}

/// §17.2: never opens a window.
fn set_cursor(it: &mut Interpreter, hidden: bool) -> R {
    let st = state(it);
    if st.cursor_hidden != hidden {
        st.cursor_hidden = hidden;
        if let Some(w) = st.win.as_mut() {
            w.set_cursor_visibility(!hidden);
        }
    }
    Ok(Value::Null)
}

fn screen_width(it: &mut Interpreter, _args: &[Value]) -> R {
    Ok(Value::Int(screen_size(it)?.0))
}

fn screen_height(it: &mut Interpreter, _args: &[Value]) -> R {
    Ok(Value::Int(screen_size(it)?.1))
}

/// `devicePixelRatio`: X11 windows are not scaled, so 1.
fn pixel_ratio(_it: &mut Interpreter, _args: &[Value]) -> R {
    Ok(Value::Float(1.0))
}

/// The screen's size: the open window's display, or a short-lived
/// connection to `$DISPLAY`.
fn screen_size(it: &mut Interpreter) -> Result<(i64, i64), Trap> {
    if let Some(w) = state(it).win.as_ref() {
        let (w, h) = w.screen_size();
        return Ok((w as i64, h as i64));
    }
    let display = display_name()?;
    screen::size().map_err(|e| no_display(&display, &e))
}

/// `$DISPLAY`, or the `no display` failure.
fn display_name() -> Result<String, Trap> {
    match std::env::var("DISPLAY") {
        Ok(d) if !d.is_empty() => Ok(d),
        _ => Err(Trap::Fail(
            "no display: set DISPLAY to an X server to open a window (for example `Xvfb :99 &` then `DISPLAY=:99`); drawing without a window needs none".into(),
        )),
    }
}

fn no_display(display: &str, why: &str) -> Trap {
    Trap::Fail(format!(
        "no display: cannot reach the X server DISPLAY={display} names ({why}); set DISPLAY to a running X server"
    ))
}

/// The window's title: the program's file name without its directory
/// and `.f` extension.
fn title(it: &Interpreter) -> String {
    let p = it.program();
    let file = p
        .functions
        .get(p.entry as usize)
        .and_then(|f| p.files.get(f.file as usize))
        .map_or("festina", String::as_str);
    let name = file.rsplit('/').next().unwrap_or(file);
    name.strip_suffix(".f").unwrap_or(name).to_string()
}

/// Open the window at the canvas size, unless it is open (module docs).
fn open(it: &mut Interpreter) -> Result<(), Trap> {
    if state(it).win.is_some() {
        return Ok(());
    }
    let display = display_name()?;
    let (w, h) = canvas(it).size();
    let (w, h) = (w as usize, h as usize);
    let title = title(it);
    let options = WindowOptions {
        resize: true,
        scale_mode: ScaleMode::UpperLeft,
        ..WindowOptions::default()
    };
    let mut win =
        Window::new(&title, w, h, options).map_err(|e| no_display(&display, &e.to_string()))?;
    // Our event loop paces the window: never let minifb sleep.
    win.set_target_fps(0);
    win.set_background_color(255, 255, 255);
    let token = it
        .event_loop()?
        .register(Box::new(WindowSource), Interest::READABLE)
        .map_err(|e| Trap::Fail(format!("cannot watch the window: {e}")))?;
    it.event_loop()?.set_frame_tick(token, TICK);
    let st = state(it);
    if st.cursor_hidden {
        win.set_cursor_visibility(false);
    }
    if st.fullscreen {
        win.set_fullscreen(true);
    }
    st.size = (w, h);
    st.token = Some(token);
    st.win = Some(win);
    it.set_ext(ResizeHook(program_resized));
    Ok(())
}

/// Composite `px` (premultiplied ARGB32, `stride` pixels a row) over
/// white into `frame` (`0RGB`, `w` × `h`).
pub fn composite_over_white(px: &[u32], w: usize, h: usize, stride: usize, frame: &mut Vec<u32>) {
    frame.clear();
    frame.reserve(w * h);
    for row in px.chunks(stride.max(1)).take(h) {
        frame.extend(row.iter().take(w).map(|&p| {
            let a = p >> 24;
            if a == 255 {
                p & 0x00ff_ffff
            } else {
                // premultiplied: every channel is at most alpha, so the
                // sum never passes 255
                let inv = 255 - a;
                let r = ((p >> 16) & 0xff) + inv;
                let g = ((p >> 8) & 0xff) + inv;
                let b = (p & 0xff) + inv;
                (r << 16) | (g << 8) | b
            }
        }));
    }
}

/// Put the canvas on the open window.
fn present(it: &mut Interpreter) -> Result<(), Trap> {
    let mut frame = std::mem::take(&mut state(it).frame);
    let (w, h) = canvas_pixels(it, |w, h, stride, px| {
        let (w, h) = (w.max(0) as usize, h.max(0) as usize);
        composite_over_white(px, w, h, stride, &mut frame);
        (w, h)
    })?;
    let st = state(it);
    let result = match st.win.as_mut() {
        Some(win) => win.update_with_buffer(&frame, w, h),
        None => Ok(()),
    };
    st.frame = frame;
    st.frame_size = (w, h);
    result.map_err(|e| Trap::Fail(format!("render(): cannot present the frame: {e}")))
}

/// The [`ResizeHook`]: the program changed the canvas size (§17.2).
fn program_resized(it: &mut Interpreter) -> Result<(), Trap> {
    let (w, h) = canvas(it).size();
    let (w, h) = (w as usize, h as usize);
    let st = state(it);
    let Some(win) = st.win.as_mut() else {
        return Ok(());
    };
    win.set_size(w, h);
    if st.asked.len() >= MAX_ASKED {
        st.asked.pop_front();
    }
    st.asked.push_back((w, h));
    present(it)?;
    fire(it, "resize", &[])
}

/// Call the handler of `event`, if declared.
fn fire(it: &mut Interpreter, event: &str, args: &[Value]) -> Result<(), Trap> {
    if let Some(f) = it.program().handler(event) {
        it.call_function(&Value::Func(f), args)?;
    }
    Ok(())
}

/// The window closed: drop it, run `on close`, end the program like
/// `close(0)`.
fn close(it: &mut Interpreter) -> Result<(), Trap> {
    let st = state(it);
    st.win = None;
    if let Some(token) = st.token.take() {
        if let Some(lp) = it.event_loop_if_started() {
            lp.deregister(token);
        }
    }
    fire(it, "close", &[])?;
    Err(Trap::Exit(0))
}

/// One tick of the open window: its events, in arrival order, then a
/// size change, then closing (module docs).
fn pump(it: &mut Interpreter) -> Result<Keep, Trap> {
    let st = state(it);
    let Some(win) = st.win.as_mut() else {
        return Ok(Keep::Remove);
    };
    win.update();
    let events = win.take_input_events();
    let open = win.is_open();
    let size = win.get_size();
    for ev in events {
        deliver(it, ev)?;
    }
    if state(it).win.is_none() {
        return Ok(Keep::Remove);
    }
    window_resized(it, size)?;
    if !open {
        close(it)?;
    }
    Ok(Keep::Keep)
}

/// Call the handler one input event fires (module docs).
fn deliver(it: &mut Interpreter, ev: InputEvent) -> Result<(), Trap> {
    let int = |v: i32| Value::Int(v as i64);
    match ev {
        InputEvent::Motion { x, y } => {
            let st = state(it);
            if st.pointer != Some((x, y)) {
                st.pointer = Some((x, y));
                fire(it, "mouse", &[int(x), int(y)])?;
            }
        }
        InputEvent::Button { button, x, y, down } => {
            state(it).pointer = Some((x, y));
            match (button, down) {
                (4, true) => fire(it, "mouseWheelUp", &[int(x), int(y)])?,
                (5, true) => fire(it, "mouseWheelDown", &[int(x), int(y)])?,
                (4..=7, _) => {}
                (b, true) => fire(it, "mouseDown", &[int(x), int(y), Value::Int(b as i64)])?,
                (b, false) => fire(it, "mouseUp", &[int(x), int(y), Value::Int(b as i64)])?,
            }
        }
        InputEvent::Key { name, down } => {
            let event = if down { "keyDown" } else { "keyUp" };
            fire(it, event, &[Value::text(name)])?;
        }
        InputEvent::Expose => {
            // the last presented frame again (not the canvas, which may
            // hold a frame being drawn)
            let st = state(it);
            let (w, h) = st.frame_size;
            if let Some(win) = st.win.as_mut() {
                if st.frame.len() == w * h && w * h > 0 {
                    win.update_with_buffer(&st.frame, w, h).map_err(|e| {
                        Trap::Fail(format!("the window: cannot present the frame: {e}"))
                    })?;
                }
            }
        }
    }
    Ok(())
}

/// The window has `size` now: one the program asked for fires nothing;
/// any other (the user, the window manager, fullscreen) resizes the
/// canvas and fires `on resize`.
fn window_resized(it: &mut Interpreter, size: (usize, usize)) -> Result<(), Trap> {
    let st = state(it);
    if size == st.size {
        return Ok(());
    }
    st.size = size;
    if let Some(i) = st.asked.iter().position(|s| *s == size) {
        st.asked.drain(..=i);
        return Ok(());
    }
    if canvas(it).resize(size.0 as i64, size.1 as i64) {
        fire(it, "resize", &[])?;
    }
    Ok(())
}

/// The window's place in the event loop: no file descriptor, woken by
/// its frame tick ([`TICK`]); keeps the program alive.
pub struct WindowSource;

impl SourceHandler for WindowSource {
    fn source(&mut self) -> Option<&mut dyn Source> {
        None
    }

    fn ready(&mut self, _it: &mut Interpreter, _token: Token, _r: Readiness) -> Result<Keep, Trap> {
        Ok(Keep::Keep)
    }

    fn timer(
        &mut self,
        it: &mut Interpreter,
        _token: Token,
        _timer: TimerId,
    ) -> Result<Keep, Trap> {
        pump(it)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transparent_pixels_show_white() {
        // opaque red, transparent, half-transparent premultiplied blue
        let px = [0xffff_0000, 0x0000_0000, 0x8000_0080, 0xff00_ff00];
        let mut frame = Vec::new();
        composite_over_white(&px, 2, 2, 2, &mut frame);
        assert_eq!(frame, vec![0xff0000, 0xffffff, 0x7f7fff, 0x00ff00]);
    }

    #[test]
    fn stride_wider_than_the_frame() {
        let px = [0xff01_0203, 9, 9, 0xff04_0506, 9, 9];
        let mut frame = vec![7; 10];
        composite_over_white(&px, 1, 2, 3, &mut frame);
        assert_eq!(frame, vec![0x010203, 0x040506]);
    }
}
