//! `festina fmt [--check] FILE|DIR|-...`: lay source files out in the
//! canonical style (`festina_compiler::format`, docs/style.md).
//!
//! Each file is read, formatted and, when the result differs, written
//! back in place (or, with `--check`, named on stdout). A directory stands
//! for every `.f` file under it, in path order, skipping directories whose
//! name starts with `.` and `target`; `-` formats standard input to
//! standard output. A file with syntax errors is left alone and its
//! errors are printed as the compiler prints them.
//!
//! Exit status: 2 if any file could not be read, written or formatted
//! (syntax errors), else 1 if `--check` found files that would change,
//! else 0.

use festina_compiler::driver;
use festina_compiler::format::{format, FormatError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// What happened to one input.
enum Outcome {
    /// Already in the canonical style.
    Unchanged,
    /// Rewritten, or (with `--check`) would be.
    Changed,
    /// Not formatted; the reason was printed.
    Failed,
}

/// Run `festina fmt` over `paths`; returns the exit status.
pub fn run(check: bool, paths: &[String]) -> i32 {
    let mut failed = false;
    let mut changed = Vec::new();
    for path in paths {
        if path == "-" {
            match stdin(check) {
                Outcome::Changed => changed.push("<stdin>".to_string()),
                Outcome::Failed => failed = true,
                Outcome::Unchanged => {}
            }
            continue;
        }
        let files = match files_of(Path::new(path)) {
            Ok(files) => files,
            Err(e) => {
                eprintln!("festina: cannot read '{path}': {e}");
                failed = true;
                continue;
            }
        };
        for file in files {
            match one_file(&file, check) {
                Outcome::Changed => changed.push(file.display().to_string()),
                Outcome::Failed => failed = true,
                Outcome::Unchanged => {}
            }
        }
    }
    if check && !changed.is_empty() {
        let mut out = std::io::stdout().lock();
        for name in &changed {
            let _ = writeln!(out, "{name}");
        }
        eprintln!(
            "festina: {} file(s) not in the canonical style; run `festina fmt FILE...` to format them",
            changed.len()
        );
    }
    if failed {
        2
    } else if check && !changed.is_empty() {
        1
    } else {
        0
    }
}

/// The files `path` stands for: itself, or every `.f` file under a
/// directory (in path order).
fn files_of(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !std::fs::metadata(path)?.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    walk(path, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if entry.file_type()?.is_dir() {
            if !name.starts_with('.') && name != "target" {
                walk(&path, out)?;
            }
        } else if name.ends_with(".f") {
            out.push(path);
        }
    }
    Ok(())
}

/// Format one file in place (or check it).
fn one_file(file: &Path, check: bool) -> Outcome {
    let shown = file.display().to_string();
    let text = match std::fs::read(file) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                eprintln!("{shown}: error: invalid UTF-8 (source files must be UTF-8)");
                return Outcome::Failed;
            }
        },
        Err(e) => {
            eprintln!("festina: cannot read '{shown}': {e}");
            return Outcome::Failed;
        }
    };
    let Some(formatted) = formatted(&shown, &text) else {
        return Outcome::Failed;
    };
    if formatted == text {
        return Outcome::Unchanged;
    }
    if !check {
        if let Err(e) = std::fs::write(file, formatted) {
            eprintln!("festina: cannot write '{shown}': {e}");
            return Outcome::Failed;
        }
    }
    Outcome::Changed
}

/// Format standard input to standard output (with `check`, print nothing
/// and only say whether it would change).
fn stdin(check: bool) -> Outcome {
    let mut text = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut text) {
        eprintln!("festina: cannot read standard input: {e}");
        return Outcome::Failed;
    }
    let Some(formatted) = formatted("<stdin>", &text) else {
        return Outcome::Failed;
    };
    if !check {
        let mut out = std::io::stdout().lock();
        if out.write_all(formatted.as_bytes()).is_err() {
            return Outcome::Failed;
        }
    }
    if formatted == text {
        Outcome::Unchanged
    } else {
        Outcome::Changed
    }
}

/// The formatted `text` of the file shown as `shown`, or `None` after
/// printing why not (its syntax errors as the compiler prints them).
fn formatted(shown: &str, text: &str) -> Option<String> {
    match format(text) {
        Ok(out) => Some(out),
        Err(FormatError::Syntax(errors)) => {
            let diags: Vec<_> = errors
                .into_iter()
                .map(|e| driver::diagnostic_at(shown, text, e.range, e.message))
                .collect();
            eprint!("{}", driver::render_diagnostics(&diags));
            None
        }
        Err(e @ FormatError::Internal(_)) => {
            eprintln!("festina: {shown}: {e} (the file was left unchanged)");
            None
        }
    }
}
