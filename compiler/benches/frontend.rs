//! Front-end throughput on a large generated program: lexing, parsing,
//! checking (lines per second; criterion prints them as `elem/s`) and the
//! bytecode generator on its own.
//!
//! `cargo bench -p festina-compiler --bench frontend`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use festina_compiler::{codegen, driver, lexer, parser};
use std::fmt::Write;

/// A program of `n` blocks, each a struct, a function with loops, calls,
/// arithmetic, text and arrays, and some top-level code: the mix a real
/// program has (about 30 lines per block).
fn program(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        write!(
            s,
            r#"struct Item{i} {{
    id:int
    name:text
    price:float
    tags:arr[text]
}}

// Sums, counts and formats a few items.
int func work{i}(limit:int, label:text) {{
    int total = 0
    arr[int] xs = [1, 2, 3, 4, 5]
    Item{i} item = {{'id': {i}, 'name': label, 'price': 2.5}}
    for int k = 0, k < limit, k++ {{
        if k % 3 == 0 && k != {i} {{
            total = total + xs[k % 5] * 2
        }} else {{
            total = total - 1
        }}
    }}
    while total > 1000 {{
        total = total / 2 > 10 ? total - 100 : total - 1
    }}
    item.tags.push(`${{label}}-${{total}}`)
    text out = `${{item.name}}: ${{item.price * 2.0}}`
    log(out)
    return total + item.id
}}

int r{i} = work{i}({i} % 7, 'item {i}')
"#
        )
        .unwrap();
    }
    s
}

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
            parser::parse_tokens(&src, &tokens)
        })
    });
    g.bench_function("lex+parse+check", |b| {
        b.iter(|| driver::check_source("bench.f", &src).expect("the program checks"))
    });
    g.bench_function("compile (all stages)", |b| {
        b.iter(|| driver::compile_source("bench.f", &src).expect("the program compiles"))
    });
    let module = driver::check_source("bench.f", &src).expect("the program checks");
    g.bench_function("codegen only", |b| b.iter(|| codegen::generate(&module)));
    g.finish();
}

criterion_group!(benches, frontend);
criterion_main!(benches);
