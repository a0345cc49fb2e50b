//! Size limits (issue 10, item 1; `festina_compiler::limits`): programs
//! that pass a limit get a compile error naming it, and the limits the
//! bytecode widens instead (functions, globals, enums) work past 16 bits.
//! Each program is generated; each used to panic the code generator, be
//! refused by the VM or print the wrong enum member.

use festina_compiler::driver::{compile_source, render_diagnostics};
use festina_vm::interp::Interpreter;
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Compile and run `src`; its stdout, after asserting a clean exit.
fn run(src: &str) -> String {
    let program = compile_source("t.f", src)
        .unwrap_or_else(|d| panic!("{}", render_diagnostics(&d[..d.len().min(3)])));
    let mut vm = Interpreter::new(Arc::new(program), &festina_stdlib::natives())
        .unwrap_or_else(|e| panic!("load error: {e}"));
    let (out, err) = (Sink::default(), Sink::default());
    vm.set_output(Box::new(out.clone()), Box::new(err.clone()), false);
    let status = vm.run(vec!["t.f".into()]);
    let text = |s: &Sink| String::from_utf8_lossy(&s.0.lock().unwrap()).into_owned();
    assert_eq!(status, 0, "stderr: {}", text(&err));
    text(&out)
}

#[test]
fn many_globals_locals_and_wide_nested_calls_compile_and_run() {
    // 30,000 globals and a block of 29,990 locals in the top-level code,
    // then 31 nested calls of 250 arguments.
    let mut src = String::new();
    for i in 0..30_000 {
        src.push_str(&format!("int g{i} = {i}\n"));
    }
    let params: Vec<String> = (0..250).map(|i| format!("a{i}:int")).collect();
    src.push_str(&format!(
        "int func s({}) {{\n    return a0 + a249\n}}\n{{\n",
        params.join(", ")
    ));
    for i in 0..29_990 {
        src.push_str(&format!("    int l{i} = {i}\n"));
    }
    let args: Vec<String> = (1..250).map(|i| format!("l{i}")).collect();
    let args = args.join(", ");
    let mut call = format!("s({args}, 1)");
    for _ in 0..30 {
        call = format!("s({args}, {call})");
    }
    src.push_str(&format!("    log({call})\n}}\nlog(g29999)\n"));
    assert_eq!(run(&src), "32\n29999\n");
}

#[test]
fn more_than_65536_functions() {
    let mut src = String::new();
    for i in 0..66_000 {
        src.push_str(&format!("int func f{i}() {{\n    return {i}\n}}\n"));
    }
    src.push_str("log(f65999() + f1())\nfunc[]:int g = f65999\nlog(g())\n");
    assert_eq!(run(&src), "66000\n65999\n");
}

#[test]
fn more_than_65536_enums() {
    let mut src = String::from(
        "struct A {\n    x:int\n}\nstruct B {\n    y:int\n}\nstruct C {\n    z:int\n}\n",
    );
    for i in 0..65_536 {
        src.push_str(&format!("enum E{i} = A, B\n"));
    }
    src.push_str("enum Last = C, B, A\nC c = {}\nLast l = c\nlog(typeof l)\n");
    src.push_str(
        "match l {\n    'B' { log('B') }\n    'C' { log('C') }\n    'A' { log('A') }\n}\n",
    );
    assert_eq!(run(&src), "C\nC\n");
}

#[test]
fn an_enum_with_more_than_65536_members_is_a_compile_error() {
    let n = 65_537;
    let mut src = String::new();
    for i in 0..n {
        src.push_str(&format!("struct S{i} {{\n    x{i}:int\n}}\n"));
    }
    let members: Vec<String> = (0..n).map(|i| format!("S{i}")).collect();
    src.push_str(&format!("enum E = {}\n", members.join(", ")));
    let errs = compile_source("t.f", &src).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].message, "an enum may have at most 65536 members");
    assert_eq!(errs[0].line, 3 * n + 1);
    // The column of the 65,537th member.
    let col = "enum E = ".len()
        + members[..n as usize - 1]
            .iter()
            .map(|m| m.len() + 2)
            .sum::<usize>()
        + 1;
    assert_eq!(errs[0].col as usize, col);
}
