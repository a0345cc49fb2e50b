//! Compile errors by their exact diagnostics (§14.1).

use festina_compiler::driver::{check_source, render_diagnostics};

/// The rendered diagnostics for `src`, or "ok".
fn diags(src: &str) -> String {
    match check_source("t.f", src) {
        Ok(_) => "ok".to_string(),
        Err(d) => render_diagnostics(&d),
    }
}

/// Only the `file:line:col: error: message` lines.
fn heads(src: &str) -> Vec<String> {
    diags(src)
        .lines()
        .filter(|l| l.starts_with("t.f:"))
        .map(str::to_string)
        .collect()
}

#[test]
fn three_independent_type_errors_are_all_reported() {
    let src = "int a = 'x'\nbool b = 3\nint func f(x:int) {\n    return x\n}\ntext c = f('no')\n";
    assert_eq!(
        heads(src),
        vec![
            "t.f:1:9: error: cannot assign value of type text to int",
            "t.f:2:10: error: cannot assign value of type int to bool",
            "t.f:6:10: error: cannot assign value of type int to text",
            "t.f:6:12: error: argument 1 of 'f': cannot assign value of type text to int",
        ]
    );
}

#[test]
fn rendering_has_source_line_and_caret() {
    assert_eq!(
        diags("log(1)\nint x = 'a'\n"),
        "t.f:2:9: error: cannot assign value of type text to int\n 2 | int x = 'a'\n   |         ^\n"
    );
}

#[test]
fn valid_program_checks() {
    let src = "struct P { x:int  y:int }\nP p = {'x': 1}\nint func sq(n:int) { return n * n }\nlog(sq(p.x) + 2)\n";
    assert_eq!(diags(src), "ok");
}
