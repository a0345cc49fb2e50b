//! Micro-benchmarks of the dispatch loop on hand-built programs:
//! `cargo run --release -p festina-vm --example vm_bench`.

use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::opcode::Instr::{self, *};
use festina_vm::program::{Function, Program};
use festina_vm::value::Value;
use std::sync::Arc;
use std::time::Instant;

fn log(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let s = it.render(&a[0]);
    it.write_line(&s);
    Ok(Value::Null)
}

fn func(name: &str, nparams: u16, nregs: u16, code: Vec<Instr>) -> Function {
    let lines = vec![1; code.len()];
    Function {
        name: name.into(),
        file: 0,
        nparams,
        nregs,
        returns_value: true,
        code,
        lines,
    }
}

fn run(name: &str, functions: Vec<Function>) {
    let p = Program {
        files: vec!["bench.f".into()],
        functions,
        natives: vec!["log".into()],
        ..Program::default()
    };
    let natives = [NativeEntry {
        name: "log",
        func: log,
    }];
    let mut it = Interpreter::new(Arc::new(p), &natives).unwrap();
    let t = Instant::now();
    let code = it.run(vec![]);
    it.flush_output();
    eprintln!("{name}: {:?} (exit {code})", t.elapsed());
}

fn main() {
    let only = std::env::args().nth(1).unwrap_or_default();
    // fib(32), recursive: `if n < 2 return n; return fib(n-1) + fib(n-2)`.
    let fib = func(
        "fib",
        1,
        4,
        vec![
            LoadInt { dst: 1, imm: 2 },
            LtInt { dst: 2, a: 0, b: 1 },
            JumpIfFalse { cond: 2, off: 1 },
            Return { src: 0 },
            AddIntImm {
                dst: 3,
                a: 0,
                imm: -1,
            },
            Call {
                dst: 1,
                base: 3,
                func: 1,
            },
            AddIntImm {
                dst: 3,
                a: 0,
                imm: -2,
            },
            Call {
                dst: 2,
                base: 3,
                func: 1,
            },
            AddInt { dst: 1, a: 1, b: 2 },
            Return { src: 1 },
        ],
    );
    let main = func(
        "<main>",
        0,
        3,
        vec![
            LoadInt { dst: 0, imm: 32 },
            Call {
                dst: 1,
                base: 0,
                func: 1,
            },
            CallNative {
                dst: 2,
                base: 1,
                id: 0,
                argc: 1,
            },
            ReturnVoid {},
        ],
    );
    if only.is_empty() || only == "fib" {
        run("fib(32)", vec![main, fib]);
    }

    // for i in 0..100_000_000: sum += i
    let main = func(
        "<main>",
        0,
        5,
        vec![
            LoadInt { dst: 0, imm: 0 },
            LoadInt { dst: 1, imm: 0 },
            LoadInt {
                dst: 2,
                imm: 100_000_000,
            },
            LtInt { dst: 3, a: 1, b: 2 },
            JumpIfFalse { cond: 3, off: 3 },
            AddInt { dst: 0, a: 0, b: 1 },
            AddIntImm {
                dst: 1,
                a: 1,
                imm: 1,
            },
            Jump { off: -5 },
            CallNative {
                dst: 4,
                base: 0,
                id: 0,
                argc: 1,
            },
            ReturnVoid {},
        ],
    );
    if only.is_empty() || only == "loop" {
        run("loop 1e8", vec![main]);
    }
}
