//! The register-liveness check (`festina_vm::liveness`: no register is
//! read after a `Release` of it) over every program of the golden corpus
//! and the examples, compiled with and without fusions. The verifier runs
//! the same check at load in debug builds; this test runs it in every
//! build profile, the suite's `fast` one included.

use festina_compiler::codegen::Options;
use festina_compiler::driver::{compile_file_with, render_diagnostics};
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "f") {
            out.push(p);
        }
    }
}

#[test]
fn no_register_is_read_after_its_release_in_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    sources(&root.join("tests/programs"), &mut files);
    sources(&root.join("examples"), &mut files);
    files.sort();
    let mut checked = 0;
    for path in &files {
        for fusion in [true, false] {
            let Ok(program) = compile_file_with(path, Options { fusion }) else {
                continue;
            };
            if let Err(e) = festina_vm::liveness::check(&program) {
                panic!(
                    "{} (fusion {fusion}): {e}\n{}",
                    path.display(),
                    festina_vm::disasm::listing(&program)
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked > 600,
        "only {checked} compiled programs were checked"
    );
}

#[test]
fn the_issue_program_passes_the_check_and_the_fused_compare_keeps_its_operand() {
    let src = "int lt = 60\nascii s = 'x<'.toAscii()\nvoid func probe() {\n    if s.charCodeAt(1) == lt { log('equal') } else { log('WRONG') }\n}\nprobe()\n";
    for fusion in [true, false] {
        let p = festina_compiler::driver::compile_source_with("t.f", src, Options { fusion })
            .unwrap_or_else(|d| panic!("{}", render_diagnostics(&d)));
        festina_vm::liveness::check(&p).unwrap();
    }
}
