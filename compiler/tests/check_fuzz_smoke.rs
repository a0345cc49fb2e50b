//! Deterministic fuzz smoke test of the whole front end: parse, check and
//! code generation must never panic, whatever the input, and every mutation
//! that compiles must pass the register-liveness check
//! (`festina_vm::liveness`) with and without fusions. Inputs are the
//! repository's `.f` files, mutated with byte flips, truncations, splices
//! and inserted tokens by a seeded generator (so failures reproduce).

use festina_compiler::codegen::Options;
use festina_compiler::driver::{compile_source, compile_source_with};
mod mutations;

use mutations::{corpus, mutate, Rng};

#[test]
fn front_end_never_panics_on_mutated_programs() {
    let files = corpus();
    assert!(!files.is_empty(), "no .f files found for the corpus");
    let mut rng = Rng(0x00F3_5717_A5EE_D001);
    let per_file = (40_000 / files.len()).clamp(50, 400);
    let mut runs = 0usize;
    for (i, (path, text)) in files.iter().enumerate() {
        let other = &files[(i * 7 + 3) % files.len()].1;
        // The unmutated file too: the checker must not panic on it either.
        let mut inputs = vec![text.clone()];
        for _ in 0..per_file {
            inputs.push(mutate(&mut rng, text, other));
        }
        for input in inputs {
            let result = std::panic::catch_unwind(|| {
                // A program that compiles must also pass the register
                // liveness check, with and without fusions.
                if let Ok(p) = compile_source("fuzz.f", &input) {
                    festina_vm::liveness::check(&p)?;
                    let plain = compile_source_with("fuzz.f", &input, Options { fusion: false });
                    festina_vm::liveness::check(&plain.expect("compiles both ways"))?;
                }
                Ok::<(), String>(())
            });
            match result {
                Ok(Ok(())) => {}
                Ok(Err(e)) => panic!(
                    "a mutation of {} fails the liveness check: {e}\n---\n{}\n---",
                    path.display(),
                    input
                ),
                Err(_) => panic!(
                    "the front end panicked on a mutation of {}:\n---\n{}\n---",
                    path.display(),
                    input
                ),
            }
            runs += 1;
        }
    }
    assert!(runs >= files.len() * 21);
}
