//! The program's source read from something that can be read only once
//! (issue 10, item 6): `festina /dev/stdin`, `festina <(...)` and a named
//! pipe. Each used to fail with "no such file" or hang (the file was read
//! twice). Every run has a deadline, so a hang fails the test instead of
//! blocking the suite.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn festina() -> &'static str {
    env!("CARGO_BIN_EXE_festina")
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("festina-src-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Wait for `child` (at most 20 s), returning (stdout, stderr, status).
fn finish(child: Child) -> (String, String, i32) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let id = child.id();
    let waiter = std::thread::spawn(move || child.wait_with_output());
    while !waiter.is_finished() {
        if Instant::now() > deadline {
            let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
            panic!("festina did not finish within 20 s (reading the source twice?)");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = waiter.join().unwrap().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn run_with_stdin(args: &[&str], dir: &Path, input: &str) -> (String, String, i32) {
    let mut child = Command::new(festina())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    finish(child)
}

#[test]
fn a_program_on_standard_input() {
    let dir = scratch("stdin");
    let (out, err, code) = run_with_stdin(&["/dev/stdin"], &dir, "log('from a pipe')\n");
    assert_eq!((out.as_str(), err.as_str(), code), ("from a pipe\n", "", 0));
    // Diagnostics name the path as given.
    let (_, err, code) = run_with_stdin(&["/dev/stdin"], &dir, "log(1\n");
    assert_eq!(
        (err.as_str(), code),
        (
            "/dev/stdin:1:6: error: expected ')'\n 1 | log(1\n   |      ^\n",
            2
        )
    );
    // `festina check` and `festina compile` read it once too.
    let (_, err, code) = run_with_stdin(&["check", "/dev/stdin"], &dir, "log(2)\n");
    assert_eq!((err.as_str(), code), ("", 0));
    let bundle = dir.join("app");
    let (_, _, code) = run_with_stdin(
        &["compile", "/dev/stdin", "-o", bundle.to_str().unwrap()],
        &dir,
        "log('bundled')\n",
    );
    assert_eq!(code, 0);
    let out = Command::new(&bundle).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "bundled\n");
}

#[test]
fn a_program_from_process_substitution_imports_from_the_current_directory() {
    let dir = scratch("procsub");
    std::fs::write(
        dir.join("lib.f"),
        "int func twice(x:int) {\n    return 2 * x\n}\n",
    )
    .unwrap();
    let script = format!(
        "exec {} <(printf 'import lib.f\\nlog(twice(21))\\n')",
        festina()
    );
    let child = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (out, err, code) = finish(child);
    assert_eq!((out.as_str(), err.as_str(), code), ("42\n", "", 0));
}

#[test]
fn a_program_in_a_named_pipe() {
    let dir = scratch("fifo");
    let fifo = dir.join("prog.f");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path; mkfifo only reads it.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    std::fs::write(
        dir.join("lib.f"),
        "text func hello() {\n    return 'hi'\n}\n",
    )
    .unwrap();
    // Run from another directory: imports resolve beside the pipe.
    let child = Command::new(festina())
        .arg(&fifo)
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The writer opens the pipe (blocking until festina opens it to read),
    // writes the program and closes it: exactly one reader's worth.
    let writer = std::thread::spawn(move || {
        std::fs::write(fifo, "import lib.f\nlog(hello())\n").unwrap();
    });
    let (out, err, code) = finish(child);
    writer.join().unwrap();
    // A named pipe is a file in a directory: imports resolve beside it.
    assert_eq!((out.as_str(), err.as_str(), code), ("hi\n", "", 0));
}
