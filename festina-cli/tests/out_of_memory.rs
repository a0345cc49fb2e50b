//! Running out of memory and runaway recursion end a program as runtime
//! failures (issue 10 items 3 and 4), never with `SIGABRT`: under `ulimit
//! -v 2000000` (about 1.9 GiB of address space), growing a text, an array,
//! a map, a blob or the register stack past what the allocator gives ends
//! with `fail: out of memory ...` naming the line, status 1, with what was
//! logged before still delivered; and a recursion through a function with
//! 1,000 or 20,000 locals ends with `fail: stack overflow in function 'f'`
//! after at most 256 MiB of registers, well within that limit.
//!
//! Each case uses up to 2 GB of memory, so they run one at a time.
#![cfg(target_os = "linux")]

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One memory-hungry program at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The address-space limit, in KiB, as `ulimit -v` takes it.
const LIMIT_KIB: u32 = 2_000_000;

struct Outcome {
    code: Option<i32>,
    signal: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Run `source` as `main.f` under the address-space limit (and `env`).
fn run_limited(label: &str, source: &str, env: &[(&str, &str)]) -> Outcome {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("festina-oom-{}-{n}-{label}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    fs::write(dir.join("main.f"), source).expect("write program");
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$0\" main.f"))
        .arg(env!("CARGO_BIN_EXE_festina"))
        .current_dir(&dir)
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run bash");
    let _ = fs::remove_dir_all(&dir);
    use std::os::unix::process::ExitStatusExt;
    Outcome {
        code: out.status.code(),
        signal: out.status.signal(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The program failed cleanly: status 1 (no signal), `before` on stdout,
/// and a first stderr line that starts with `prefix` and ends with `at
/// main.f:<line>`, followed by the call stack.
fn assert_fails_at(o: &Outcome, prefix: &str, line: u32) {
    assert_eq!(o.signal, None, "killed by a signal; stderr: {}", o.stderr);
    assert_eq!(o.code, Some(1), "stderr: {}", o.stderr);
    assert_eq!(o.stdout, "before\n");
    let first = o.stderr.lines().next().unwrap_or("");
    assert!(
        first.starts_with(prefix) && first.ends_with(&format!(" at main.f:{line}")),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("    at ")),
        "{}",
        o.stderr
    );
}

#[test]
fn a_text_that_outgrows_memory_fails_with_its_line() {
    let src = "log('before')\ntext s = 'x'\nwhile true {\n    s = s + s\n}\n";
    for env in [&[][..], &[("FESTINA_NO_OPT", "1")][..]] {
        let o = run_limited("text", src, env);
        assert_fails_at(&o, "fail: out of memory growing a text to ", 4);
    }
}

#[test]
fn a_template_that_outgrows_memory_fails_with_its_line() {
    let src = "log('before')\ntext s = 'ab'\nwhile true {\n    s = `${s}${s}`\n}\n";
    let o = run_limited("template", src, &[]);
    assert_fails_at(&o, "fail: out of memory growing a text to ", 4);
}

#[test]
fn an_array_that_outgrows_memory_fails_with_its_line() {
    let src = "log('before')\narr[int] a = []\nwhile true {\n    a.push(1)\n}\n";
    let o = run_limited("array", src, &[]);
    assert_fails_at(&o, "fail: out of memory growing an array to ", 4);
}

#[test]
fn an_array_grown_by_splice_fails_with_its_line() {
    let src = "log('before')\narr[int] a = [1, 2, 3, 4]\nwhile true {\n    a.splice(0, 0, a)\n}\n";
    let o = run_limited("splice", src, &[]);
    assert_fails_at(&o, "fail: out of memory growing an array to ", 4);
}

#[test]
fn a_map_that_outgrows_memory_fails_with_its_line() {
    // Long keys, so that it takes two million entries rather than twenty.
    let src = "\
log('before')
text pad = 'k'
while pad.length < 1000 {
    pad = pad + pad
}
map[int] m = {}
int i = 0
while true {
    m[`${pad}${i}`] = i
    i++
}
";
    let o = run_limited("map", src, &[]);
    assert_fails_at(&o, "fail: out of memory growing a map to ", 9);
}

#[test]
fn a_blob_that_outgrows_memory_fails_with_its_line() {
    // Appending to /dev/null keeps the disk out of it; the bytes still
    // grow in memory.
    let src = "\
log('before')
blob b = '/dev/null'
text chunk = 'x'
while chunk.length < 1000000 {
    chunk = chunk + chunk
}
while true {
    b.append(chunk)
}
";
    let o = run_limited("blob", src, &[]);
    assert_fails_at(&o, "fail: out of memory growing a blob to ", 8);
}

/// A function `f` with `locals` int locals that calls itself forever,
/// after `prelude`.
fn deep_recursion(locals: usize, prelude: &str) -> (String, u32) {
    let mut src = String::from(prelude);
    src.push_str("int func f(n:int) {\n");
    for i in 0..locals {
        src.push_str(&format!("    int v{i} = n + {i}\n"));
    }
    src.push_str("    return f(n + 1) + v0\n}\nlog(f(0))\n");
    let call_line = prelude.lines().count() + locals + 2;
    (src, call_line as u32)
}

#[test]
fn the_register_stack_that_outgrows_memory_fails_with_its_line() {
    // Hold about 1.6 GiB in texts first, so that the register stack (which
    // may take up to 256 MiB) is what cannot grow.
    let prelude = "\
log('before')
text s = 'x'
while s.length < 1073741824 {
    s = s + s
}
text t = 'y'
while t.length < 536870912 {
    t = t + t
}
text u = 'z'
while u.length < 134217728 {
    u = u + u
}
";
    let (src, line) = deep_recursion(20_000, prelude);
    let o = run_limited("registers", &src, &[]);
    assert_fails_at(
        &o,
        "fail: out of memory growing the register stack to ",
        line,
    );
}

#[test]
fn recursion_with_large_frames_is_a_stack_overflow() {
    for locals in [1_000, 20_000] {
        let (src, line) = deep_recursion(locals, "log('before')\n");
        let o = run_limited("recursion", &src, &[]);
        assert_fails_at(&o, "fail: stack overflow in function 'f'", line);
    }
}
