//! Dispatch-loop micro-benchmarks on hand-built bytecode: calls, a counted
//! loop, struct field access, array indexing and text appends. Each
//! reports its inner operations per second (criterion's `elem/s`); the
//! time includes loading the program (verification), which is small.
//!
//! `cargo bench -p festina-vm --bench dispatch`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use festina_vm::interp::Interpreter;
use festina_vm::opcode::Instr::{self, *};
use festina_vm::program::{Const, Field, Function, Program, Record};
use festina_vm::types::Type;
use std::sync::Arc;

fn func(name: &str, nparams: u16, nregs: u16, code: Vec<Instr>) -> Function {
    Function::hand_written(name, nparams, nregs, code)
}

fn program(functions: Vec<Function>) -> Arc<Program> {
    Arc::new(Program {
        files: vec!["bench.f".into()],
        functions,
        structs: vec![Record {
            name: "Point".into(),
            fields: vec![
                Field {
                    name: "x".into(),
                    ty: Type::Int,
                },
                Field {
                    name: "y".into(),
                    ty: Type::Int,
                },
            ],
            may_cycle: false,
        }],
        consts: vec![Const::Text("ab".into())],
        ..Program::default()
    })
}

fn run(p: &Arc<Program>) -> i32 {
    let mut it = Interpreter::new(Arc::clone(p), &[]).expect("the program loads");
    it.set_signal_handling(false);
    it.run(vec!["bench.f".into()])
}

/// `fib(n)`, recursive: 2·fib(n+1) − 1 calls.
fn calls(n: i32) -> Arc<Program> {
    let main = func(
        "<main>",
        0,
        3,
        vec![
            LoadInt { dst: 1, imm: n },
            Call {
                dst: 0,
                base: 1,
                func: 1,
            },
            ReturnVoid {},
        ],
    );
    // if n < 2 return n; return fib(n - 1) + fib(n - 2)
    let fib = func(
        "fib",
        1,
        5,
        vec![
            JumpGeIntImm {
                a: 0,
                imm: 2,
                off: 1,
            },
            Return { src: 0 },
            AddIntImm {
                dst: 3,
                a: 0,
                imm: -1,
            },
            Call {
                dst: 2,
                base: 3,
                func: 1,
            },
            AddIntImm {
                dst: 4,
                a: 0,
                imm: -2,
            },
            Call {
                dst: 3,
                base: 4,
                func: 1,
            },
            AddInt { dst: 1, a: 2, b: 3 },
            Return { src: 1 },
        ],
    );
    program(vec![main, fib])
}

/// `for i = 0, i < n, i++ { sum = sum + i }`, bottom-tested as the code
/// generator emits it.
fn counted_loop(n: i32) -> Arc<Program> {
    program(vec![func(
        "<main>",
        0,
        4,
        vec![
            LoadInt { dst: 0, imm: 0 },
            LoadInt { dst: 1, imm: 0 },
            LoadInt { dst: 2, imm: n },
            Jump { off: 2 },
            AddInt { dst: 0, a: 0, b: 1 },
            AddIntImm {
                dst: 1,
                a: 1,
                imm: 1,
            },
            JumpLtInt {
                a: 1,
                b: 2,
                off: -3,
            },
            ReturnVoid {},
        ],
    )])
}

/// `p.x = p.x + p.y` `n` times on one struct.
fn field_access(n: i32) -> Arc<Program> {
    program(vec![func(
        "<main>",
        0,
        6,
        vec![
            NewStruct { dst: 0, sid: 0 },
            LoadInt { dst: 1, imm: 1 },
            SetField {
                obj: 0,
                field: 1,
                src: 1,
            },
            LoadInt { dst: 1, imm: 0 },
            LoadInt { dst: 2, imm: n },
            Jump { off: 5 },
            GetField {
                dst: 3,
                obj: 0,
                field: 0,
            },
            GetField {
                dst: 4,
                obj: 0,
                field: 1,
            },
            AddInt { dst: 3, a: 3, b: 4 },
            SetField {
                obj: 0,
                field: 0,
                src: 3,
            },
            AddIntImm {
                dst: 1,
                a: 1,
                imm: 1,
            },
            JumpLtInt {
                a: 1,
                b: 2,
                off: -6,
            },
            ReturnVoid {},
        ],
    )])
}

/// Push 1,000 ints, then sum them by index `rounds` times.
fn array_index(rounds: i32) -> Arc<Program> {
    program(vec![func(
        "<main>",
        0,
        9,
        vec![
            NewArr { dst: 0, cap: 0 },
            LoadInt { dst: 1, imm: 0 },
            LoadInt { dst: 2, imm: 1000 },
            // fill: xs.push(i)
            ArrPush { arr: 0, src: 1 },
            AddIntImm {
                dst: 1,
                a: 1,
                imm: 1,
            },
            JumpLtInt {
                a: 1,
                b: 2,
                off: -3,
            },
            // for r < rounds: for i < xs.length: sum += xs[i]
            LoadInt { dst: 4, imm: 0 },
            LoadInt {
                dst: 5,
                imm: rounds,
            },
            LoadInt { dst: 6, imm: 0 },
            LoadInt { dst: 1, imm: 0 },
            ArrLen { dst: 2, arr: 0 },
            ArrGet {
                dst: 7,
                arr: 0,
                idx: 1,
            },
            AddInt { dst: 6, a: 6, b: 7 },
            AddIntImm {
                dst: 1,
                a: 1,
                imm: 1,
            },
            JumpLtInt {
                a: 1,
                b: 2,
                off: -4,
            },
            AddIntImm {
                dst: 4,
                a: 4,
                imm: 1,
            },
            JumpLtInt {
                a: 4,
                b: 5,
                off: -8,
            },
            ReturnVoid {},
        ],
    )])
}

/// `s = s + 'ab'` `n` times (in-place amortized append).
fn text_append(n: i32) -> Arc<Program> {
    program(vec![func(
        "<main>",
        0,
        5,
        vec![
            LoadNull { dst: 0 },
            LoadConst { dst: 1, k: 0 },
            LoadInt { dst: 2, imm: 0 },
            LoadInt { dst: 3, imm: n },
            AppendText { dst: 0, src: 1 },
            AddIntImm {
                dst: 2,
                a: 2,
                imm: 1,
            },
            JumpLtInt {
                a: 2,
                b: 3,
                off: -3,
            },
            ReturnVoid {},
        ],
    )])
}

fn dispatch(c: &mut Criterion) {
    let mut g = c.benchmark_group("dispatch");
    g.sample_size(20);
    let cases: [(&str, u64, Arc<Program>); 5] = [
        ("calls (fib 20)", 2 * 10_946 - 1, calls(20)),
        ("loop (1e6 iterations)", 1_000_000, counted_loop(1_000_000)),
        (
            "field access (1e5 x.a = x.a + x.b)",
            100_000,
            field_access(100_000),
        ),
        ("array indexing (1e5 reads)", 100_000, array_index(100)),
        ("text append (1e5 appends)", 100_000, text_append(100_000)),
    ];
    for (name, elems, p) in &cases {
        assert_eq!(run(p), 0, "{name} runs");
        g.throughput(Throughput::Elements(*elems));
        g.bench_function(*name, |b| b.iter(|| run(p)));
    }
    g.finish();
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
