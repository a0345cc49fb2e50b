//! Front-end throughput on a large generated program: lexing, parsing,
//! checking (lines per second; criterion prints them as `elem/s`) and the
//! bytecode generator on its own; and `festina fmt` on a program of about
//! 10,000 lines (target: under 100 ms, docs/style.md).
//!
//! `cargo bench -p festina-compiler --bench frontend`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use festina_compiler::{codegen, driver, format, lexer, parsing};

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

/// `festina fmt` of a 10,000-line program (the generated program with
/// some of its spacing spoiled, so that the layout has work to do),
/// including the formatter's own check that the result parses to the
/// same tree.
fn fmt(c: &mut Criterion) {
    let src = program(345).replace(" = ", "=").replace(", ", ",");
    let lines = src.lines().count() as u64;
    assert!((9_900..=10_100).contains(&lines), "{lines} lines");
    let mut g = c.benchmark_group("fmt");
    g.throughput(Throughput::Elements(lines));
    g.sample_size(20);
    g.bench_function("format 10,000 lines", |b| {
        b.iter(|| format::format(&src).expect("the program formats"))
    });
    g.finish();
}

criterion_group!(benches, frontend, fmt);
criterion_main!(benches);
