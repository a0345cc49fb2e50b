//! The test bench of the window tests: a private Xvfb server, a program
//! run on it whose stdout lines arrive through a channel, real input
//! injected with xdotool, screenshots with xwd and ImageMagick, and the
//! window manager's close request sent by hand (Xvfb has no window
//! manager).
//!
//! Nothing here sleeps to synchronise: the server says when it is ready
//! (`-displayfd`), programs say what happened on stdout, and every wait
//! has a generous deadline (a loaded 2-core machine).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any one expected thing may take.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// The tools the tests need (scripts/setup.sh installs them).
const TOOLS: [&str; 4] = ["Xvfb", "xdotool", "xwd", "convert"];

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
}

/// A running Xvfb on a display of its own choosing, stopped on drop.
pub struct Xvfb {
    child: Child,
    /// Xvfb's stdout, kept open for its life (no SIGPIPE).
    _out: BufReader<std::process::ChildStdout>,
    /// `:N`.
    pub display: String,
}

impl Xvfb {
    /// Start one, or `None` (with a message) when a tool is missing and
    /// `FESTINA_REQUIRE_XVFB` is not set; CI sets it, so there a missing
    /// tool fails the test instead of skipping it.
    pub fn start() -> Option<Xvfb> {
        if let Some(t) = TOOLS.iter().find(|t| !on_path(t)) {
            let msg = format!("window tests skipped: `{t}` is not installed (scripts/setup.sh installs xvfb, xdotool, x11-apps and imagemagick)");
            if std::env::var_os("FESTINA_REQUIRE_XVFB").is_some() {
                panic!("{msg}");
            }
            eprintln!("{msg}");
            return None;
        }
        let mut child = Command::new("Xvfb")
            // -noreset: the server must not reset when its last client
            // leaves (a reset would write to -displayfd again)
            .args([
                "-displayfd",
                "1",
                "-noreset",
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb");
        // Xvfb writes the display number once it accepts connections.
        let mut line = String::new();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        out.read_line(&mut line)
            .expect("read Xvfb's display number");
        let n = line.trim();
        assert!(
            !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
            "Xvfb did not start: {line:?}"
        );
        Some(Xvfb {
            child,
            _out: out,
            display: format!(":{n}"),
        })
    }

    /// Run `tool args` on this display; its stdout. Panics on failure.
    pub fn run(&self, tool: &str, args: &[&str]) -> Vec<u8> {
        let out = Command::new("timeout")
            .arg("120")
            .arg(tool)
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .unwrap_or_else(|e| panic!("{tool}: {e}"));
        assert!(
            out.status.success(),
            "{tool} {args:?}: {}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    /// `xdotool args...`.
    pub fn xdo(&self, args: &[&str]) -> String {
        String::from_utf8_lossy(&self.run("xdotool", args)).into_owned()
    }

    /// The id of the window titled `title` (waits for it to exist).
    pub fn window(&self, title: &str) -> String {
        let out = self.xdo(&["search", "--sync", "--name", &format!("^{title}$")]);
        out.lines().next().expect("a window id").trim().to_string()
    }

    /// The window's size, from `xdotool getwindowgeometry`.
    pub fn size(&self, win: &str) -> (u32, u32) {
        let out = self.xdo(&["getwindowgeometry", win]);
        let g = out
            .lines()
            .find_map(|l| l.trim().strip_prefix("Geometry: "))
            .expect("a geometry line");
        let (w, h) = g.split_once('x').unwrap();
        (w.parse().unwrap(), h.parse().unwrap())
    }

    /// Wait until the window has size `want`.
    pub fn wait_size(&self, win: &str, want: (u32, u32)) {
        let end = Instant::now() + DEADLINE;
        loop {
            let got = self.size(win);
            if got == want {
                return;
            }
            assert!(
                Instant::now() < end,
                "window {win} stayed {got:?}, expected {want:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A screenshot of the window: (width, height, 0xRRGGBB pixels).
    pub fn screenshot(&self, win: &str) -> (u32, u32, Vec<u32>) {
        let xwd = self.run("xwd", &["-silent", "-id", win]);
        let mut conv = Command::new("convert")
            .args(["xwd:-", "-depth", "8", "rgb:-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("convert");
        let mut stdin = conv.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            stdin.write_all(&xwd).unwrap();
        });
        let mut rgb = Vec::new();
        conv.stdout.take().unwrap().read_to_end(&mut rgb).unwrap();
        writer.join().unwrap();
        assert!(conv.wait().unwrap().success());
        let (w, h) = self.size(win);
        assert_eq!(rgb.len(), (w * h * 3) as usize, "screenshot size");
        let px = rgb
            .chunks(3)
            .map(|c| (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32)
            .collect();
        (w, h, px)
    }

    /// Ask the window to close the way a window manager does when its
    /// close button is clicked: a `WM_DELETE_WINDOW` client message.
    pub fn request_close(&self, win: &str) {
        use x11_dl::xlib;
        let id: xlib::Window = win.parse().expect("a window id");
        let lib = xlib::Xlib::open().expect("libX11");
        let name = std::ffi::CString::new(self.display.as_str()).unwrap();
        // SAFETY: a display of our own, used only here and closed before
        // returning; the event is fully initialised (zeroed, then the
        // client message fields) before XSendEvent reads it.
        unsafe {
            let d = (lib.XOpenDisplay)(name.as_ptr());
            assert!(!d.is_null(), "cannot open {}", self.display);
            let protocols = (lib.XInternAtom)(d, c"WM_PROTOCOLS".as_ptr(), 0);
            let delete = (lib.XInternAtom)(d, c"WM_DELETE_WINDOW".as_ptr(), 0);
            let mut ev: xlib::XEvent = std::mem::zeroed();
            ev.client_message.type_ = xlib::ClientMessage;
            ev.client_message.window = id;
            ev.client_message.message_type = protocols;
            ev.client_message.format = 32;
            ev.client_message.data.set_long(0, delete as i64);
            ev.client_message.data.set_long(1, xlib::CurrentTime as i64);
            (lib.XSendEvent)(d, id, 0, xlib::NoEventMask, &mut ev);
            (lib.XSync)(d, 0);
            (lib.XCloseDisplay)(d);
        }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A Festina program running on an Xvfb display.
pub struct Program {
    child: Child,
    lines: Receiver<String>,
    /// Every stdout line received so far.
    pub seen: Vec<String>,
    stderr: Receiver<String>,
    dir: PathBuf,
    /// Whether `dir` is ours to remove at the end.
    scratch: bool,
}

impl Program {
    /// Write `source` to `<title>.f` in a fresh directory and run it
    /// with `festina` (the window's title is `title`), with `env`.
    pub fn start(
        x: Option<&Xvfb>,
        title: &str,
        source: &str,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Program {
        let dir =
            std::env::temp_dir().join(format!("festina-window-{}-{title}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{title}.f"));
        std::fs::write(&file, source).unwrap();
        let mut p = Program::start_file(x, &file, &dir, args, env);
        p.scratch = true;
        p
    }

    /// Run `file` with `festina` in `dir`.
    pub fn start_file(
        x: Option<&Xvfb>,
        file: &Path,
        dir: &Path,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Program {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_festina"));
        cmd.arg(file).args(args).current_dir(dir);
        cmd.env_remove("DISPLAY");
        if let Some(x) = x {
            cmd.env("DISPLAY", &x.display);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start festina");
        let (tx, lines) = channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let (etx, stderr) = channel();
        let mut err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            let _ = etx.send(s);
        });
        Program {
            child,
            lines,
            seen: Vec::new(),
            stderr,
            dir: dir.to_path_buf(),
            scratch: false,
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The program's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Wait for a stdout line equal to `want`, keeping every line.
    pub fn expect(&mut self, want: &str) {
        self.expect_where(want, |l| l == want);
    }

    /// Wait for a stdout line that satisfies `ok`.
    pub fn expect_where(&mut self, what: &str, ok: impl Fn(&str) -> bool) {
        let end = Instant::now() + DEADLINE;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let hit = ok(&l);
                    self.seen.push(l);
                    if hit {
                        return;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!(
                        "no line {what:?} within {DEADLINE:?}; lines: {:#?}",
                        self.seen
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait().unwrap();
                    let err = self.stderr.recv_timeout(DEADLINE).unwrap_or_default();
                    panic!(
                        "the program ended ({status}) before {what:?}; lines: {:#?}\nstderr: {err}",
                        self.seen
                    )
                }
            }
        }
    }

    /// How many lines seen so far equal `line`.
    pub fn count(&self, line: &str) -> usize {
        self.seen.iter().filter(|l| *l == line).count()
    }

    /// Wait for the end: (exit status, every stdout line, stderr).
    pub fn finish(mut self) -> (Option<i32>, Vec<String>, String) {
        let end = Instant::now() + DEADLINE;
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                while let Ok(l) = self.lines.recv_timeout(Duration::from_secs(10)) {
                    self.seen.push(l);
                }
                let err = self.stderr.recv_timeout(DEADLINE).unwrap_or_default();
                if self.scratch {
                    let _ = std::fs::remove_dir_all(&self.dir);
                }
                return (s.code(), std::mem::take(&mut self.seen), err);
            }
            if Instant::now() > end {
                let _ = self.child.kill();
                panic!("the program did not end; lines: {:#?}", self.seen);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
