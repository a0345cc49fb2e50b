//! The fuzz corpus run both ways: mutations of the repository's programs
//! (the seeded mutator of `compiler/tests/check_fuzz_smoke.rs`) that
//! compile are run by `festina` with every optimisation on and again with
//! `FESTINA_NO_OPT=1`; stdout, stderr and the exit status must be
//! identical. The golden runner (`tests/golden.rs`) does the same for the
//! golden corpus itself; this covers the odd programs the mutations make.
//!
//! Only programs whose natives are pure (no files, processes, database,
//! clock, randomness or timers) are run, each in a fresh temporary
//! directory; a program that runs past the time limit or prints more than
//! the output cap is skipped (an endless loop is no evidence either way).

#[path = "../../compiler/tests/mutations/mod.rs"]
mod mutations;

use festina_compiler::driver::compile_source;
use mutations::{corpus, mutate, Rng};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How many compiling mutations are run (both ways).
const RUNS: usize = 150;
/// A run longer than this is skipped.
const TIME_LIMIT: Duration = Duration::from_secs(4);
/// A run printing more than this many bytes on a stream is skipped.
const OUTPUT_CAP: usize = 1 << 20;

/// True for natives whose results depend only on their arguments.
fn pure_native(name: &str) -> bool {
    let prefixes = ["arr_", "map_", "regex_", "text_", "math_"];
    let names = [
        "log",
        "fail_fields",
        "close",
        "argv",
        "json_parse",
        "int_to_char",
        "ascii_slice",
        "env_get",
    ];
    name != "math_random" && (names.contains(&name) || prefixes.iter().any(|p| name.starts_with(p)))
}

/// What one run printed and how it ended; `None` when it was skipped.
#[derive(Debug, PartialEq)]
struct Run {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    status: Option<i32>,
}

fn read_capped(
    mut pipe: impl Read + Send + 'static,
    over: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            if out.len() + n > OUTPUT_CAP {
                over.store(true, Ordering::SeqCst);
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        out
    })
}

fn run(dir: &Path, no_opt: bool) -> Option<Run> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_festina"));
    cmd.arg("m.f")
        .current_dir(dir)
        .env_remove("FESTINA_NO_OPT")
        .env_remove("FESTINA_NO_FUSION")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if no_opt {
        cmd.env("FESTINA_NO_OPT", "1");
    }
    let mut child = cmd.spawn().expect("festina starts");
    let over = Arc::new(AtomicBool::new(false));
    let out = read_capped(child.stdout.take().unwrap(), over.clone());
    let err = read_capped(child.stderr.take().unwrap(), over.clone());
    let deadline = Instant::now() + TIME_LIMIT;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if Instant::now() > deadline || over.load(Ordering::SeqCst) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let (stdout, stderr) = (out.join().unwrap(), err.join().unwrap());
    let status = status?;
    if over.load(Ordering::SeqCst) {
        return None;
    }
    Some(Run {
        stdout,
        stderr,
        status: status.code(),
    })
}

#[test]
fn mutated_programs_give_the_same_results_with_and_without_optimisations() {
    let files = corpus();
    assert!(!files.is_empty(), "no .f files found for the corpus");
    let mut rng = Rng(0x005E_ED0F_F05E_0010);
    let tmp = std::env::temp_dir().join(format!("festina-both-ways-{}", std::process::id()));
    let (mut compared, mut candidates) = (0usize, 0usize);
    'outer: for round in 0..8 {
        for (i, (_, text)) in files.iter().enumerate() {
            let other = &files[(i * 5 + round + 1) % files.len()].1;
            let input = mutate(&mut rng, text, other);
            if input == *text || input.contains("import") {
                continue;
            }
            let Ok(program) = compile_source("m.f", &input) else {
                continue;
            };
            if !program.natives.iter().all(|n| pure_native(n)) || !program.tables.is_empty() {
                continue;
            }
            candidates += 1;
            let dir = tmp.join(candidates.to_string());
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("m.f"), &input).unwrap();
            if let (Some(fast), Some(plain)) = (run(&dir, false), run(&dir, true)) {
                assert_eq!(
                    fast, plain,
                    "optimised and unoptimised runs differ on\n---\n{input}\n---"
                );
                compared += 1;
            }
            let _ = std::fs::remove_dir_all(&dir);
            if compared == RUNS {
                break 'outer;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        compared >= RUNS / 2,
        "only {compared} of {candidates} candidate programs could be compared"
    );
}
