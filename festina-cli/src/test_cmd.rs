//! `festina test`: run a program with its assertions, then report (the
//! reference's §11.7, added after edition 0.44).
//!
//! `festina test app.f [args...]` compiles `app.f` as a test build
//! (`driver::compile_tests`: the `test` groups' assertions are compiled,
//! see the compiler's `check::testing`), runs it, and once it has
//! finished prints the report of `festina_stdlib::testing` after its own
//! output: one line per group, each failure quoted, and an `Overall`
//! line. The exit status is non-zero exactly when an assertion failed (1,
//! or the program's own non-zero status, which also makes it non-zero).
//!
//! Beyond the reference, `festina test DIR` runs every `*_test.f` file
//! under `DIR` (recursively, in path order, skipping directories whose
//! name starts with `.`), one after the other in this process, each with
//! a fresh interpreter and `argv` = its path. Before each file's groups
//! comes a line `== <path>`; at the end one `Overall` line sums every
//! file, followed, when a file did not compile or ended otherwise than
//! by finishing (a runtime failure, `close` with a non-zero status), by
//! the line `<n> of <m> files did not finish: <path> (<reason>), ...`.
//! Such a file counts as one `unfinished` in the `Overall` line and its
//! percentage (`Overall: 4 pass, 1 fail, 1 unfinished. 66%`).
//! The status is non-zero when an assertion failed or a file did not
//! finish. `--filter NAME` applies to the groups of every file.

use festina_compiler::driver;
use festina_stdlib::testing::{self, TestRegistry, Totals};
use festina_vm::interp::Interpreter;
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

/// How one file's run ended.
enum Outcome {
    /// The program ran; its totals and its own exit status.
    Ran(Totals, i32),
    /// It did not compile or load (already reported); the status.
    NotRun(u8),
}

/// `festina test PATH`: a file or a directory (see the module
/// documentation). Returns the exit status.
pub fn run(path: &str, filter: Option<String>, args: Vec<String>) -> i32 {
    if Path::new(path).is_dir() {
        return run_dir(path, filter);
    }
    match run_file(path, filter, args, true) {
        Outcome::Ran(totals, status) => exit_status(totals, status),
        Outcome::NotRun(status) => i32::from(status),
    }
}

/// The status of a run: the program's own, or 1 when it was 0 and an
/// assertion failed.
fn exit_status(totals: Totals, status: i32) -> i32 {
    if totals.failed > 0 && status == 0 {
        1
    } else {
        status
    }
}

/// Compile and run one file as a test build; its report (with the
/// `Overall` line when `overall`) follows its output.
fn run_file(path: &str, filter: Option<String>, args: Vec<String>, overall: bool) -> Outcome {
    if let Err(e) = std::fs::read(path) {
        eprintln!("festina: cannot read '{path}': {e}");
        return Outcome::NotRun(crate::USAGE_ERROR);
    }
    let program = match driver::compile_tests(Path::new(path)) {
        Ok(p) => p,
        Err(diags) => {
            eprint!("{}", driver::render_diagnostics(&diags));
            return Outcome::NotRun(crate::USAGE_ERROR);
        }
    };
    let mut interp = match Interpreter::new(Arc::new(program), &festina_stdlib::natives()) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("festina: {e}");
            return Outcome::NotRun(crate::USAGE_ERROR);
        }
    };
    let mut registry = TestRegistry::default();
    registry.set_filter(filter);
    interp.set_ext(registry);
    let totals = Rc::new(Cell::new(Totals::default()));
    let out = Rc::clone(&totals);
    interp.set_finish_hook(Box::new(move |it, status| {
        out.set(testing::report(it, overall));
        status
    }));
    let argv = std::iter::once(path.to_string()).chain(args).collect();
    festina_vm::oom::arm_reserve();
    let status = interp.run(argv);
    Outcome::Ran(totals.get(), status)
}

/// Every `*_test.f` file under `dir`, one summary.
fn run_dir(dir: &str, filter: Option<String>) -> i32 {
    let mut files = Vec::new();
    collect(Path::new(dir), &mut files);
    files.sort();
    if files.is_empty() {
        eprintln!("festina: no *_test.f files under '{dir}'");
        return i32::from(crate::USAGE_ERROR);
    }
    let mut sum = Totals::default();
    let mut unfinished = Vec::new();
    for f in &files {
        let shown = f.display().to_string();
        println!("== {shown}");
        let _ = std::io::Write::flush(&mut std::io::stdout());
        match run_file(&shown, filter.clone(), Vec::new(), false) {
            Outcome::Ran(t, status) => {
                sum.passed += t.passed;
                sum.failed += t.failed;
                sum.groups += t.groups;
                if status != 0 {
                    unfinished.push(format!("{shown} (exit status {status})"));
                }
            }
            Outcome::NotRun(status) => {
                let why = if status == crate::USAGE_ERROR {
                    "did not compile".to_string()
                } else {
                    format!("exit status {status}")
                };
                unfinished.push(format!("{shown} ({why})"));
            }
        }
    }
    // A file that did not finish counts against the percentage: a suite
    // whose only file did not compile is not "100%".
    let mut overall = testing::summary_line("Overall", sum.passed, sum.failed);
    if !unfinished.is_empty() {
        let total = sum.passed + sum.failed + unfinished.len() as u64;
        let pct = sum.passed * 100 / total;
        let fail = if sum.failed > 0 {
            format!(", {} fail", sum.failed)
        } else {
            String::new()
        };
        overall = format!(
            "Overall: {} pass{fail}, {} unfinished. {pct}%",
            sum.passed,
            unfinished.len()
        );
    }
    println!("{overall}");
    if !unfinished.is_empty() {
        println!(
            "{} of {} files did not finish: {}",
            unfinished.len(),
            files.len(),
            unfinished.join(", ")
        );
    }
    i32::from(sum.failed > 0 || !unfinished.is_empty())
}

/// The `*_test.f` files under `dir` (directories starting with `.`
/// skipped; unreadable directories ignored).
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') {
                collect(&path, out);
            }
        } else if name.ends_with("_test.f") {
            out.push(path);
        }
    }
}
