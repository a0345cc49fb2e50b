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

#[test]
fn pathological_inputs_get_diagnostics_not_crashes() {
    use festina_compiler::driver::compile_source;
    // A 200,000-term left-leaning chain: too deep, reported once.
    let chain = format!("int x = {}\nlog(x)\n", vec!["1"; 200_000].join(" + "));
    let errs = compile_source("t.f", &chain).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].message, "this expression is nested too deeply");
    // 2,500 terms are fine.
    let ok = format!("int x = {}\nlog(x)\n", vec!["1"; 2_500].join(" + "));
    assert!(compile_source("t.f", &ok).is_ok());
    // More variables than one register window holds.
    let mut many = String::from("{\n");
    for i in 0..30_001 {
        many.push_str(&format!("int x{i} = {i}\n"));
    }
    many.push_str("}\n");
    let errs = compile_source("t.f", &many).unwrap_err();
    assert_eq!(
        errs[0].message,
        "a function may declare at most 30000 variables"
    );
    // A call with too many arguments.
    let args = vec!["1"; 300].join(", ");
    let call = format!("void func f() {{}}\nf({args})\n");
    let errs = compile_source("t.f", &call).unwrap_err();
    assert_eq!(errs[0].message, "a call may pass at most 250 arguments");
}

#[test]
fn long_lines_are_cut_to_a_window_around_the_caret() {
    use festina_compiler::driver::{excerpt, EXCERPT_WIDTH};
    let line: String = (0..300)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    // Near the start: no cut before, cut after.
    let (text, caret) = excerpt(&line, 5);
    assert_eq!(text, format!("{}...", &line[..EXCERPT_WIDTH]));
    assert_eq!(caret, 5);
    // In the middle: half a window before the caret.
    let (text, caret) = excerpt(&line, 151);
    assert_eq!(text, format!("...{}...", &line[100..200]));
    assert_eq!(&text[caret as usize - 1..caret as usize], &line[150..151]);
    // At the end of the line (one past the last character).
    let (text, caret) = excerpt(&line, 301);
    assert_eq!(text, format!("...{}", &line[200..]));
    assert_eq!(caret as usize, 3 + EXCERPT_WIDTH + 1);
    // A short line is shown whole.
    assert_eq!(excerpt("int x = 'a'", 9), ("int x = 'a'".to_string(), 9));
    // Through the checker: an error far along a 2,000-character line.
    let src = format!("int x = {}'a'\n", "1 + ".repeat(500));
    let shown = diags(&src);
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(
        lines[0],
        "t.f:1:2007: error: operator '+' cannot be applied to int and text"
    );
    assert!(lines[1].len() < EXCERPT_WIDTH + 20, "{}", lines[1]);
}
