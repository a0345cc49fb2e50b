//! Unit tests of the formatter's rules; the golden pairs are in
//! `compiler/tests/fmt_data/` and the corpus-wide properties in
//! `festina-cli/tests/fmt_corpus.rs`.

use super::{format, FormatError};

fn fmt(src: &str) -> String {
    match format(src) {
        Ok(out) => {
            assert_eq!(
                format(&out).as_deref(),
                Ok(out.as_str()),
                "not idempotent on:\n{src}"
            );
            out
        }
        Err(e) => panic!("format failed: {e:?}\n{src}"),
    }
}

#[test]
fn spacing_and_indentation() {
    assert_eq!(fmt("int  x=1+2*3"), "int x = 1 + 2 * 3\n");
    assert_eq!(
        fmt("int func add(a:int,b:int){return a+b}"),
        "int func add(a:int, b:int) { return a + b }\n"
    );
    assert_eq!(
        fmt("if x>1{\nlog( x )\n}\nelse{log(-x)}"),
        "if x > 1 {\n    log(x)\n} else { log(-x) }\n"
    );
    assert_eq!(
        fmt("arr[int] xs=[1 2 3,]\nxs[0]++"),
        "arr[int] xs = [1, 2, 3]\nxs[0]++\n"
    );
    assert_eq!(fmt("map[int] m={ 'a' :1 }"), "map[int] m = {'a': 1}\n");
    assert_eq!(fmt("int y = - -3"), "int y = - -3\n");
}

#[test]
fn statements_one_per_line() {
    assert_eq!(
        fmt("int n = 0  while n < 3 { n++ }  log(n); log(1);"),
        "int n = 0\nwhile n < 3 { n++ }\nlog(n)\nlog(1)\n"
    );
    assert_eq!(
        fmt("struct P { x:int, y:int }"),
        "struct P {\n    x:int\n    y:int\n}\n"
    );
    assert_eq!(
        fmt("for int i = 0, i < 10, i++ { if i == 4 { end = i break } }"),
        "for int i = 0, i < 10, i++ {\n    if i == 4 {\n        end = i\n        break\n    }\n}\n"
    );
}

#[test]
fn comments_and_blank_lines() {
    let src = "\n\n// a\nint x = 1   // one\nint yy = 22 // two\n\n\n\n// b\n/* c */ log(x)\n\n";
    assert_eq!(
        fmt(src),
        "// a\nint x = 1    // one\nint yy = 22  // two\n\n// b\n/* c */ log(x)\n"
    );
    assert_eq!(
        fmt("void func f() {\n\n    log(1)\n\n    // end\n\n}\n"),
        "void func f() {\n    log(1)\n\n    // end\n}\n"
    );
}

#[test]
fn continuation_lines() {
    assert_eq!(
        fmt("bool c = a\n|| b\n  && !a"),
        "bool c = a\n    || b\n    && !a\n"
    );
    assert_eq!(
        fmt("if a\n&& b\n{\nlog(1)\n}"),
        "if a\n    && b {\n    log(1)\n}\n"
    );
    assert_eq!(fmt("log(foo(\n1,\n2\n))"), "log(foo(\n    1,\n    2,\n))\n");
}

#[test]
fn refuses_syntax_errors() {
    match format("int x = (1 +") {
        Err(FormatError::Syntax(errors)) => assert!(!errors.is_empty()),
        other => panic!("expected syntax errors, got {other:?}"),
    }
}

/// A long flat expression nests as deep as it is long; formatting it
/// (on a 2 MiB test thread) must not overflow the stack (a break run
/// aborted `festina fmt` and the language server with 150,000 terms).
#[test]
fn a_long_flat_expression_does_not_overflow_the_stack() {
    let terms = vec!["1"; 200_000].join("+");
    let src = format!("int x = {terms}\n");
    let out = format(&src).expect("formats");
    assert_eq!(out, format!("int x = {}\n", vec!["1"; 200_000].join(" + ")));
}
