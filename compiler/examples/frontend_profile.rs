//! Runs one front-end stage many times on the benchmark program, for
//! profiling with perf or callgrind:
//! `cargo run --profile fast-prof -p festina-compiler --example frontend_profile -- check 10`
//! (stages: `lex`, `parse`, `check`, `compile`).

use festina_compiler::{driver, lexer, parsing};

#[path = "../benches/support/program.rs"]
mod support;
use support::program;

fn main() {
    let mut args = std::env::args().skip(1);
    let stage = args.next().unwrap_or_else(|| "check".to_string());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let src = program(700);
    for _ in 0..n {
        match stage.as_str() {
            "lex" => drop(lexer::tokenize(&src)),
            "parse" => {
                let (tokens, _) = lexer::tokenize(&src);
                drop(parsing::parse_tokens(&src, &tokens));
            }
            "check" => drop(driver::check_source("bench.f", &src).expect("the program checks")),
            _ => drop(driver::compile_source("bench.f", &src).expect("the program compiles")),
        }
    }
}
