//! The formatter's two promises, proved on every `.f` file in the
//! repository and on the fuzz corpus (the seeded mutations of
//! `check_fuzz_smoke.rs`):
//!
//! - **idempotent**: formatting the formatted text changes nothing;
//! - **meaning-preserving**: the formatted program compiles to the same
//!   bytecode as the original (the line table aside: lines move), or,
//!   when the original does not compile, to the same error messages.
//!
//! A file with syntax errors must be refused with them. The golden pairs
//! of `fmt_data/` pin the style itself.

mod mutations;

use festina_compiler::codegen::Options;
use festina_compiler::driver::{compile_source_with, Diagnostic};
use festina_compiler::format::{format, FormatError};
use festina_compiler::parsing::parse;
use festina_vm::serialize::to_bytes;
use mutations::{corpus, mutate, Rng};
use std::path::{Path, PathBuf};

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.f` file under the repository root, skipping `target/` and
/// hidden directories.
fn repository_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let path = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "node_modules" {
                    walk(&path, out);
                }
            } else if name.ends_with(".f") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), &mut out);
    out.sort();
    out
}

/// What compiling a program gave, comparable across layouts: the
/// serialized program without its line table and the lines in arrow
/// functions' names (bytes, so that a NaN
/// constant equals itself), or the error messages without positions.
#[derive(Debug, PartialEq)]
enum Compiled {
    Program { functions: usize, bytes: Vec<u8> },
    Errors(Vec<String>),
}

fn compiled(name: &str, text: &str) -> Compiled {
    match compile_source_with(name, text, Options::default()) {
        Ok(mut program) => {
            for f in &mut program.functions {
                f.lines.clear();
                // An arrow function is named after its line.
                if f.name.starts_with("<arrow@") {
                    f.name = "<arrow>".to_string();
                }
            }
            Compiled::Program {
                functions: program.functions.len(),
                bytes: to_bytes(&program),
            }
        }
        Err(diags) => {
            let mut messages: Vec<String> =
                diags.into_iter().map(|d: Diagnostic| d.message).collect();
            messages.sort();
            Compiled::Errors(messages)
        }
    }
}

/// Checks both promises on `text` (the program `name`); `Err` describes a
/// broken one. `Ok(false)` when the text has syntax errors (and was
/// refused with them).
fn check_one(name: &str, text: &str) -> Result<bool, String> {
    let once = match format(text) {
        Ok(out) => out,
        Err(FormatError::Syntax(errors)) => {
            let parsed = parse(text);
            if parsed.errors != errors || errors.is_empty() {
                return Err("refused with errors other than the parser's".to_string());
            }
            return Ok(false);
        }
        Err(e @ FormatError::Internal(_)) => return Err(e.to_string()),
    };
    match format(&once) {
        Ok(twice) if twice == once => {}
        Ok(twice) => {
            return Err(format!(
                "not idempotent: formatting twice differs\n--- once\n{once}\n--- twice\n{twice}"
            ))
        }
        Err(e) => return Err(format!("the formatted text is refused: {e:?}\n{once}")),
    }
    let before = compiled(name, text);
    let after = compiled(name, &once);
    if before != after {
        return Err(format!(
            "the formatted program compiles differently\n--- before: {}\n--- after: {}\n--- formatted\n{once}",
            summary(&before),
            summary(&after)
        ));
    }
    Ok(true)
}

fn summary(c: &Compiled) -> String {
    match c {
        Compiled::Program { functions, .. } => format!("a program of {functions} functions"),
        Compiled::Errors(e) => format!("errors {e:?}"),
    }
}

#[test]
fn every_repository_file_formats_idempotently_and_keeps_its_meaning() {
    let files = repository_files();
    assert!(files.len() > 100, "found only {} .f files", files.len());
    let mut formatted = 0;
    let mut failures = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue; // not UTF-8: a test of the compiler's UTF-8 errors
        };
        let name = path.canonicalize().unwrap_or(path.clone());
        match check_one(&name.display().to_string(), &text) {
            Ok(true) => formatted += 1,
            Ok(false) => {}
            Err(why) => failures.push(format!("{}: {why}", path.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "`festina fmt` breaks its promises on {} file(s). This is a bug in the formatter \
         (compiler/src/format), not in the file; until it is fixed, do not run `festina fmt` \
         on these files:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(formatted > 100, "only {formatted} files formatted");
}

#[test]
fn fuzz_corpus_formats_idempotently_and_keeps_its_meaning() {
    let files = corpus();
    let mut rng = Rng(0xF0_4A7C_0DE5_EED1);
    let per_file = (12_000 / files.len().max(1)).clamp(4, 40);
    let (mut parsed, mut failures) = (0, Vec::new());
    for (i, (path, text)) in files.iter().enumerate() {
        let other = &files[(i * 11 + 5) % files.len()].1;
        for _ in 0..per_file {
            let input = mutate(&mut rng, text, other);
            match check_one("fuzz.f", &input) {
                Ok(true) => parsed += 1,
                Ok(false) => {}
                Err(why) => failures.push(format!(
                    "a mutation of {}: {why}\n--- input\n{input}",
                    path.display()
                )),
            }
            if failures.len() >= 5 {
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "`festina fmt` breaks its promises on mutated programs (a bug in compiler/src/format):\n\n{}",
        failures.join("\n\n")
    );
    assert!(parsed > 500, "only {parsed} mutations parsed");
}

/// The golden pairs: `fmt_data/NAME.in.f` formats to `fmt_data/NAME.out.f`.
#[test]
fn golden_pairs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fmt_data");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fmt_data")
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".in.f").map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 10, "only {} golden pairs", names.len());
    let bless = std::env::var_os("FESTINA_BLESS").is_some();
    let mut failures = Vec::new();
    for name in &names {
        let input = std::fs::read_to_string(dir.join(format!("{name}.in.f"))).expect("input");
        let out_path = dir.join(format!("{name}.out.f"));
        let got = match format(&input) {
            Ok(got) => got,
            Err(e) => {
                failures.push(format!("{name}: {e:?}"));
                continue;
            }
        };
        if bless {
            std::fs::write(&out_path, &got).expect("write the expectation");
            continue;
        }
        let want = std::fs::read_to_string(&out_path).unwrap_or_default();
        if got != want {
            failures.push(format!(
                "{name}: formats differently from {name}.out.f\n--- got\n{got}--- want\n{want}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(FESTINA_BLESS=1 rewrites the .out.f files; review the diff)",
        failures.join("\n")
    );
}
