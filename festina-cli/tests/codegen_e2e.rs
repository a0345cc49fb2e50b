//! End-to-end tests of the code generator: Festina source compiled with
//! the driver and run on the real VM with the standard library's natives,
//! checking output and exit status. (They live here, not in `compiler/`,
//! because the compiler does not link the standard library.)

use festina_compiler::driver;
use festina_vm::interp::Interpreter;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A `Write` sink shared with the test.
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

impl Sink {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// Compile and run `src`: (stdout, stderr, exit status). Panics with the
/// diagnostics if it does not compile.
fn run(src: &str) -> (String, String, i32) {
    let program = driver::compile_source("t.f", src)
        .unwrap_or_else(|d| panic!("compile errors:\n{}", driver::render_diagnostics(&d)));
    let mut interp = Interpreter::new(Arc::new(program), &festina_stdlib::natives())
        .unwrap_or_else(|e| panic!("load error: {e}"));
    let (out, err) = (Sink::default(), Sink::default());
    interp.set_output(Box::new(out.clone()), Box::new(err.clone()), false);
    let status = interp.run(vec!["t.f".into()]);
    (out.text(), err.text(), status)
}

/// Run `src` and expect it to print `expected` and exit 0.
fn expect(src: &str, expected: &str) {
    let (out, err, status) = run(src);
    assert_eq!(
        (out.as_str(), err.as_str(), status),
        (expected, "", 0),
        "program:\n{src}"
    );
}

#[test]
fn recursion() {
    expect(
        "int func fib(n:int) {\n if n < 2 { return n }\n return fib(n - 1) + fib(n - 2)\n}\nlog(fib(20))\n",
        "6765\n",
    );
}

#[test]
fn loops_break_continue() {
    expect(
        "text s = ''\nfor int i = 0, i < 10, i++ {\n if i == 1 { continue }\n if i > 4 { break }\n s = s + i.toText() + ','\n}\nlog(s)\nint n = 0\nwhile n < 3 { n++ }\nlog(n)\n",
        "0,2,3,4,\n3\n",
    );
}

#[test]
fn structs_arrays_maps() {
    expect(
        "struct P { x:int, name:text }\nP p\np.x = 3\np.x = p.x + 1\nlog(p.x)\narr[int] xs = [1, 2, 3]\nxs.push(4)\nlog(xs.length)\nint s = 0\nfor int i = 0, i < xs.length, i++ { s = s + xs[i] }\nlog(s)\nmap[int] m = {'a': 1}\nm['b'] = 2\nlog(m['a'] + m['b'])\n",
        "4\n4\n10\n3\n",
    );
}

#[test]
fn try_catch_and_uncaught_throw() {
    expect(
        "void func f(x:int) {\n if x > 1 { throw `bad ${x}` }\n}\ntry {\n f(1)\n f(2)\n log('no')\n} catch (e:text) {\n log(e)\n}\nfor int i = 0, i < 3, i++ {\n try { break } catch (e:text) { }\n}\ntry { throw 'again' } catch (e:text) { log(e) }\n",
        "bad 2\nagain\n",
    );
    let (out, err, status) = run("throw 'oops'\n");
    assert_eq!((out.as_str(), status), ("", 1));
    assert!(err.contains("oops"), "{err}");
}

#[test]
fn text_and_conditions() {
    expect(
        "int a = 5\nlog(a > 3 && a < 10)\nlog(a > 3 ? 'big' : 'small')\nif !(a < 0) && (a == 4 || a == 5) { log('yes') } else { log('no') }\ntext t = 'x'\nt = t + t\nlog(`${t}!${a}`)\n",
        "true\nbig\nyes\nxx!5\n",
    );
}

// ---- size limits (issue 10, item 1; `festina_compiler::limits`) ----
//
// Generated programs past a 16-bit limit: the ones the bytecode widens
// (functions, globals, enums) work, the others get a compile error naming
// the limit. Each used to panic the code generator, be refused by the VM
// or print the wrong enum member.

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
    expect(&src, "32\n29999\n");
}

#[test]
fn more_than_65536_functions() {
    let mut src = String::new();
    for i in 0..66_000 {
        src.push_str(&format!("int func f{i}() {{\n    return {i}\n}}\n"));
    }
    src.push_str("log(f65999() + f1())\nfunc[]:int g = f65999\nlog(g())\n");
    expect(&src, "66000\n65999\n");
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
    expect(&src, "C\nC\n");
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
    let errs = driver::compile_source("t.f", &src).unwrap_err();
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
