//! `SIGINT`/`SIGTERM` handling (§12.3), over real processes: a program
//! that uses the event loop (timers here) takes the `close(128 + signal)`
//! path, running `on exit` with 130/143 and exiting with that status; a
//! program that never starts the loop keeps the operating system's
//! default behaviour (killed by the signal, `on exit` silent); a second
//! signal while the first is still unhandled exits at once.
#![cfg(unix)]

use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A timer-driven program that logs its exit code.
const TICKER: &str = "\
on exit(code:int) {
    log(`exit code: ${code}`)
}
void func tick() {
    log('tick')
}
setInterval(tick, 20)
";

/// Writes `source` to a fresh file and returns its path.
fn program(label: &str, source: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!(
        "festina-signals-{}-{n}-{label}",
        std::process::id()
    ));
    fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("main.f");
    fs::write(&path, source).expect("write program");
    path
}

/// A running program and the lines of its stdout, read on a thread.
struct Running {
    child: Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

fn start(path: &Path) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_festina"))
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start festina");
    let (tx, lines) = mpsc::channel();
    let out = child.stdout.take().expect("stdout");
    thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    Running {
        child,
        lines,
        seen: Vec::new(),
    }
}

impl Running {
    /// Wait (at most 20 s) until the program has printed `line`: by then
    /// its event loop, and so its signal handling, is in place.
    fn wait_for(&mut self, line: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !self.seen.iter().any(|l| l == line) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => self.seen.push(l),
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("the program never printed {line:?}: {:?}", self.seen);
                }
            }
        }
    }
}

/// Send `sig` (a `kill` signal name such as `TERM`) to the child.
fn signal(r: &Running, sig: &str) {
    let ok = Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(r.child.id().to_string())
        .status()
        .expect("run kill")
        .success();
    assert!(ok, "kill -{sig} failed");
}

/// Wait for the program to end (at most 10 s), returning its status and
/// everything it printed.
fn finish(mut r: Running) -> (ExitStatus, String) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = r.child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = r.child.kill();
            let _ = r.child.wait();
            panic!("the program did not end after the signal");
        }
        thread::sleep(Duration::from_millis(10));
    };
    // The reader thread ends at end of file.
    while let Ok(l) = r.lines.recv_timeout(Duration::from_secs(5)) {
        r.seen.push(l);
    }
    let mut out = String::new();
    for l in &r.seen {
        out.push_str(l);
        out.push('\n');
    }
    (status, out)
}

fn cleanup(path: &Path) {
    if let Some(dir) = path.parent() {
        let _ = fs::remove_dir_all(dir);
    }
}

#[test]
fn sigterm_runs_on_exit_with_143() {
    let path = program("term", TICKER);
    let mut run = start(&path);
    run.wait_for("tick");
    signal(&run, "TERM");
    let (status, out) = finish(run);
    cleanup(&path);
    assert_eq!(
        status.code(),
        Some(143),
        "status {status:?}, output {out:?}"
    );
    assert!(out.contains("tick\n"), "{out:?}");
    assert!(out.ends_with("exit code: 143\n"), "{out:?}");
}

#[test]
fn sigint_runs_on_exit_with_130() {
    let path = program("int", TICKER);
    let mut run = start(&path);
    run.wait_for("tick");
    signal(&run, "INT");
    let (status, out) = finish(run);
    cleanup(&path);
    assert_eq!(
        status.code(),
        Some(130),
        "status {status:?}, output {out:?}"
    );
    assert!(out.ends_with("exit code: 130\n"), "{out:?}");
}

#[test]
fn signal_without_exit_handler_still_exits_with_its_code() {
    let src = "void func t() { }\nsetInterval(t, 10)\nlog('armed')\n";
    let path = program("nohandler", src);
    let mut run = start(&path);
    run.wait_for("armed");
    signal(&run, "TERM");
    let (status, out) = finish(run);
    cleanup(&path);
    assert_eq!(status.code(), Some(143), "status {status:?}");
    assert_eq!(out, "armed\n");
}

#[test]
fn program_without_timers_keeps_default_behaviour() {
    let src = "\
on exit(code:int) {
    log('should not print')
}
int i = 0
while true {
    i = i + 1
}
";
    let path = program("default", src);
    let run = start(&path);
    thread::sleep(Duration::from_millis(300));
    signal(&run, "TERM");
    let (status, out) = finish(run);
    cleanup(&path);
    assert_eq!(status.signal(), Some(15), "status {status:?}");
    assert_eq!(status.code(), None);
    assert!(!out.contains("should not print"), "{out:?}");
}

#[test]
fn second_signal_exits_at_once_when_a_callback_never_returns() {
    let src = "\
on exit(code:int) {
    log('should not print')
}
void func spin() {
    int i = 0
    while true {
        i = i + 1
    }
}
setTimeout(spin, 0)
log('armed')
";
    let path = program("stuck", src);
    let mut run = start(&path);
    run.wait_for("armed");
    thread::sleep(Duration::from_millis(100));
    signal(&run, "TERM");
    thread::sleep(Duration::from_millis(200));
    signal(&run, "TERM");
    let (status, out) = finish(run);
    cleanup(&path);
    assert_eq!(status.code(), Some(143), "status {status:?}");
    assert!(!out.contains("should not print"), "{out:?}");
}
