//! Runs one front-end stage many times on the benchmark program, for
//! profiling with perf or callgrind:
//! `cargo run --profile fast-prof -p festina-compiler --example frontend_profile -- check 10`
//! (stages: `lex`, `parse`, `check`, `compile`). Prints the stage's
//! in-process throughput (lines per second, the best of the runs) on
//! stderr, which `benches/frontend/run.py` compares with a whole file.
//! `frontend_profile write BLOCKS PATH` writes the benchmark program with
//! `BLOCKS` blocks (29 lines each) to `PATH` instead (the large file of
//! that runner).

use festina_compiler::{driver, lexer, parsing};

#[path = "../benches/support/program.rs"]
mod support;
use support::program;

fn main() {
    let mut args = std::env::args().skip(1);
    let stage = args.next().unwrap_or_else(|| "check".to_string());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    if stage == "write" {
        let path = args.next().expect("write BLOCKS PATH");
        std::fs::write(&path, program(n)).expect("write the program");
        return;
    }
    let src = program(700);
    let lines = src.lines().count();
    let mut best = f64::MAX;
    for _ in 0..n {
        let start = std::time::Instant::now();
        match stage.as_str() {
            "lex" => drop(lexer::tokenize(&src)),
            "parse" => {
                let (tokens, _) = lexer::tokenize(&src);
                drop(parsing::parse_tokens(&src, &tokens));
            }
            "check" => drop(driver::check_source("bench.f", &src).expect("the program checks")),
            _ => drop(driver::compile_source("bench.f", &src).expect("the program compiles")),
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    eprintln!(
        "{stage}: {lines} lines, {:.0} lines/s (best of {n})",
        lines as f64 / best
    );
}
