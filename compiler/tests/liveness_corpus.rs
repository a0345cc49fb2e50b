//! The register-liveness check (`festina_vm::liveness`: no register is
//! read after a `Release` of it) over every program of the golden corpus
//! and the examples, compiled with and without fusions. The verifier runs
//! the same check at load in debug builds; this test runs it in every
//! build profile, the suite's `fast` one included.

mod mutations;

use festina_compiler::codegen::Options;
use festina_compiler::driver::{compile_file_with, render_diagnostics};

#[test]
fn no_register_is_read_after_its_release_in_the_corpus() {
    // The corpus the fuzz tests mutate: the examples, the golden programs
    // and the parser's test data (most of which does not compile).
    let files = mutations::corpus();
    let mut checked = 0;
    for (path, _) in &files {
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
