//! Front-end throughput on a large generated program: lexing, parsing,
//! checking (lines per second; criterion prints them as `elem/s`) and the
//! bytecode generator on its own.
//!
//! `cargo bench -p festina-compiler --bench frontend`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use festina_compiler::{codegen, driver, lexer, parsing};

#[path = "support/program.rs"]
mod support;
use support::program;

fn frontend(c: &mut Criterion) {
    let src = program(700);
    let lines = src.lines().count() as u64;
    let mut g = c.benchmark_group("frontend");
    g.throughput(Throughput::Elements(lines));
    g.sample_size(20);
    g.bench_function("lex", |b| b.iter(|| lexer::tokenize(&src)));
    g.bench_function("lex+parse", |b| {
        b.iter(|| {
            let (tokens, _) = lexer::tokenize(&src);
            parsing::parse_tokens(&src, &tokens)
        })
    });
    g.bench_function("lex+parse+check", |b| {
        b.iter(|| driver::check_source("bench.f", &src).expect("the program checks"))
    });
    g.bench_function("compile (all stages)", |b| {
        b.iter(|| driver::compile_source("bench.f", &src).expect("the program compiles"))
    });
    let module = driver::check_source("bench.f", &src).expect("the program checks");
    g.bench_function("codegen only", |b| {
        b.iter(|| codegen::generate(&module).unwrap())
    });
    g.finish();
}

criterion_group!(benches, frontend);
criterion_main!(benches);
