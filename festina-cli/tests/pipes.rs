//! A reader that goes away: `festina ... | head -1` must end quietly (as
//! `yes | head -1` does), never panic on the broken pipe nor run forever.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn festina() -> &'static str {
    env!("CARGO_BIN_EXE_festina")
}

/// Run `festina args`, read one line of its stdout, close the pipe, and
/// return (stderr, whether it ended within 10 s).
fn read_one_line_then_close(args: &[&str], dir: &std::path::Path) -> (String, bool) {
    let mut child = Command::new(festina())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("festina starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty(), "festina printed a first line");
    // The reader is dropped here: the pipe is closed.
    let deadline = Instant::now() + Duration::from_secs(10);
    let ended = loop {
        if child.try_wait().unwrap().is_some() {
            break true;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break false;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        let _ = e.read_to_string(&mut err);
    }
    (err, ended)
}

#[test]
fn a_program_logging_forever_ends_when_its_reader_goes() {
    let dir = std::env::temp_dir().join(format!("festina-pipes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("forever.f"),
        "int i = 0\nwhile true {\n    log(i)\n    i++\n}\n",
    )
    .unwrap();
    let (err, ended) = read_one_line_then_close(&["forever.f"], &dir);
    assert!(ended, "the program kept running after its reader left");
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_listing_into_a_closed_pipe_does_not_panic() {
    let dir = std::env::temp_dir().join(format!("festina-pipes-l-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut src = String::new();
    for i in 0..20_000 {
        src.push_str(&format!("log({i})\n"));
    }
    std::fs::write(dir.join("big.f"), src).unwrap();
    let (err, ended) = read_one_line_then_close(&["big.f", "--emit-bytecode"], &dir);
    assert!(ended);
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
