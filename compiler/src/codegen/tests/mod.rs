//! Codegen unit tests: small HIR modules built by hand, checked by their
//! instructions and by running them on the VM.
//!
//! The compiler does not link the standard library (`festina-stdlib`), so
//! the one native these modules call, `log`, is registered by [`log`]
//! below with the standard library's behaviour. Programs compiled from
//! source run against the real standard library in `festina-cli`'s tests
//! (`codegen_e2e.rs` and the golden corpus).

use crate::hir::*;
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::opcode::Instr;
use festina_vm::program::{Const, Field, Global, Program, Record};
use festina_vm::types::Type;
use festina_vm::value::Value;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// [`super::generate`] for modules that fit every limit.
fn generate(m: &Module) -> Program {
    super::generate(m).expect("within the limits")
}

// ---- HIR builders ----

fn ex(kind: ExprKind, ty: Type) -> Expr {
    Expr { kind, ty, line: 1 }
}
fn int(v: i64) -> Expr {
    ex(ExprKind::Int(v), Type::Int)
}
fn text(s: &str) -> Expr {
    ex(ExprKind::Text(s.into()), Type::Text)
}
fn lc(l: LocalId, ty: Type) -> Expr {
    ex(ExprKind::Local(l), ty)
}
fn li(l: LocalId) -> Expr {
    lc(l, Type::Int)
}
fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    use BinOp as B;
    let ty = match op {
        B::AddInt | B::SubInt | B::MulInt | B::ModInt => Type::Int,
        B::AddFloat | B::SubFloat | B::MulFloat | B::DivFloat | B::ModFloat => Type::Float,
        B::Concat => Type::Text,
        B::ConcatAscii => Type::Ascii,
        _ => Type::Bool,
    };
    ex(ExprKind::Binary(op, Box::new([a, b])), ty)
}
fn call(func: FuncId, args: Vec<Expr>, ty: Type) -> Expr {
    ex(ExprKind::Call { func, args }, ty)
}
fn to_text(e: Expr) -> Expr {
    ex(
        ExprKind::ToText {
            expr: Box::new(e),
            null_empty: false,
        },
        Type::Text,
    )
}
/// `log(e)` with native 0 = "log".
fn log(e: Expr) -> Stmt {
    st(StmtKind::Expr(ex(
        ExprKind::CallNative {
            id: 0,
            args: vec![to_text(e)],
        },
        Type::Void,
    )))
}
fn st(kind: StmtKind) -> Stmt {
    Stmt { kind, line: 1 }
}
fn at(line: u32, kind: StmtKind) -> Stmt {
    Stmt { kind, line }
}
fn let_(local: LocalId, init: Expr) -> Stmt {
    st(StmtKind::Let {
        local,
        init: Some(init),
    })
}
fn set(l: LocalId, value: Expr) -> Stmt {
    st(StmtKind::Assign {
        place: Place::Local(l),
        value,
    })
}
fn if_(cond: Expr, then_body: Vec<Stmt>, else_body: Vec<Stmt>) -> Stmt {
    st(StmtKind::If {
        cond,
        then_body,
        else_body,
    })
}
fn while_(cond: Expr, body: Vec<Stmt>, update: Vec<Stmt>) -> Stmt {
    st(StmtKind::Loop { cond, body, update })
}
fn inc(l: LocalId) -> Stmt {
    st(StmtKind::Increment {
        place: Place::Local(l),
        delta: 1,
    })
}
fn ret(e: Expr) -> Stmt {
    st(StmtKind::Return(Some(e)))
}
fn func(name: &str, nparams: u32, locals: &[Type], ret: Type, body: Vec<Stmt>) -> Function {
    Function {
        name: name.into(),
        file: 0,
        line: 1,
        nparams,
        locals: locals
            .iter()
            .enumerate()
            .map(|(i, ty)| Local {
                name: format!("v{i}"),
                ty: ty.clone(),
            })
            .collect(),
        ret,
        body,
    }
}
/// A module whose entry is the last function.
fn module(functions: Vec<Function>) -> Module {
    Module {
        files: vec!["t.f".into()],
        entry: functions.len() as u32 - 1,
        functions,
        natives: vec!["log".into()],
        ..Module::default()
    }
}
fn main_only(locals: &[Type], body: Vec<Stmt>) -> Module {
    module(vec![func("<main>", 0, locals, Type::Void, body)])
}

// ---- inspection ----

fn mnemonics(p: &Program, f: usize) -> Vec<&'static str> {
    p.functions[f].code.iter().map(Instr::mnemonic).collect()
}
fn count(p: &Program, f: usize, m: &str) -> usize {
    mnemonics(p, f).iter().filter(|x| **x == m).count()
}
fn listing(p: &Program, f: usize) -> String {
    p.functions[f]
        .code
        .iter()
        .map(|i| {
            let ops: Vec<String> = i.operands().iter().map(|(_, v)| v.to_string()).collect();
            format!("{} {}", i.mnemonic(), ops.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}
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

/// `log(v)` as the standard library implements it: the text (a null as
/// an empty line, anything else rendered) and a newline on stdout.
fn log_native(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let line = match args.first() {
        None | Some(Value::Null) => String::new(),
        Some(v) => it.render(v),
    };
    it.write_line(&line);
    Ok(Value::Null)
}

/// Generate `m`, run it on the VM and return the lines it logged; panics
/// (with the entry's listing) on a load error or a non-zero exit.
fn run_ok(m: &Module) -> Vec<String> {
    let p = generate(m);
    check_invariants(&p);
    let entry = listing(&p, p.entry as usize);
    let mut vm = Interpreter::new(
        Arc::new(p),
        &[NativeEntry {
            name: "log",
            func: log_native,
        }],
    )
    .unwrap_or_else(|e| panic!("load error: {e}\n{entry}"));
    let (out, err) = (Sink::default(), Sink::default());
    vm.set_output(Box::new(out.clone()), Box::new(err.clone()), false);
    let status = vm.run(vec!["t.f".into()]);
    let text = |s: &Sink| String::from_utf8_lossy(&s.0.lock().unwrap()).into_owned();
    assert_eq!(status, 0, "stderr: {}\n{entry}", text(&err));
    text(&out).lines().map(String::from).collect()
}
fn check_invariants(p: &Program) {
    for f in &p.functions {
        assert_eq!(f.code.len(), f.lines.len(), "line table of {}", f.name);
        for (i, ins) in f.code.iter().enumerate() {
            for (name, v) in ins.operands() {
                // `EnumField`'s `idx` indexes the enum-field table.
                if name == "idx" && matches!(ins, Instr::EnumField { .. }) {
                    continue;
                }
                if [
                    "dst", "src", "a", "b", "reg", "obj", "arr", "idx", "map", "key", "cond",
                ]
                .contains(&name)
                {
                    assert!(
                        v < f.nregs as i64,
                        "{}#{i} {ins:?} beyond nregs {}",
                        f.name,
                        f.nregs
                    );
                }
                if name == "off" {
                    let t = i as i64 + 1 + v;
                    assert!(
                        (0..f.code.len() as i64).contains(&t),
                        "{}#{i} jumps out",
                        f.name
                    );
                }
            }
        }
    }
}

fn fib_module() -> Module {
    // int func fib(n:int) { if n < 2 { return n } return fib(n-1) + fib(n-2) }
    let fib = func(
        "fib",
        1,
        &[Type::Int],
        Type::Int,
        vec![
            if_(bin(BinOp::LtInt, li(0), int(2)), vec![ret(li(0))], vec![]),
            ret(bin(
                BinOp::AddInt,
                call(0, vec![bin(BinOp::SubInt, li(0), int(1))], Type::Int),
                call(0, vec![bin(BinOp::SubInt, li(0), int(2))], Type::Int),
            )),
        ],
    );
    let main = func(
        "<main>",
        0,
        &[],
        Type::Void,
        vec![log(call(0, vec![int(20)], Type::Int))],
    );
    module(vec![fib, main])
}

#[test]
fn fib_uses_typed_int_instructions() {
    let m = fib_module();
    let p = generate(&m);
    let ms = mnemonics(&p, 0);
    // `if n < 2` is one compare-and-branch on an immediate: taken (past
    // the `return n`) when n >= 2.
    assert!(ms.contains(&"JumpGeIntImm"), "{ms:?}");
    assert!(
        !ms.contains(&"LtInt") && !ms.contains(&"JumpIfFalse"),
        "{ms:?}"
    );
    assert!(ms.contains(&"AddInt"));
    assert_eq!(count(&p, 0, "AddIntImm"), 2, "n-1 and n-2 use immediates");
    assert_eq!(count(&p, 0, "Call"), 2);
    assert!(!ms.contains(&"Move"), "{}", listing(&p, 0));
    assert!(!ms.contains(&"LoadNull"), "no releases for ints");
    assert_eq!(p.functions[0].nparams, 1);
    assert!(p.functions[0].returns_value);
    assert_eq!(run_ok(&m), vec!["6765"]);
}

#[test]
fn call_arguments_sit_above_live_registers() {
    let p = generate(&fib_module());
    let code = &p.functions[0].code;
    for (i, ins) in code.iter().enumerate() {
        if let Instr::Call { dst, base, .. } = *ins {
            assert!(base > dst, "#{i}: base {base} above the result {dst}");
            assert!(base > 0, "base above the parameter");
        }
    }
    // return fib(n-1) + fib(n-2): second call's base is above the first
    // call's result register.
    let calls: Vec<_> = code
        .iter()
        .filter_map(|i| match *i {
            Instr::Call { dst, base, .. } => Some((dst, base)),
            _ => None,
        })
        .collect();
    assert!(calls[1].1 > calls[0].0);
}

#[test]
fn greater_than_swaps_registers_not_evaluation() {
    // int a = 1; int b = 2; log(a > b); log(a >= b)
    let m = main_only(
        &[Type::Int, Type::Int],
        vec![
            let_(0, int(1)),
            let_(1, int(2)),
            log(bin(BinOp::GtInt, li(0), li(1))),
            log(bin(BinOp::GeInt, li(1), li(1))),
        ],
    );
    let p = generate(&m);
    let lt = p.functions[0]
        .code
        .iter()
        .find_map(|i| match *i {
            Instr::LtInt { a, b, .. } => Some((a, b)),
            _ => None,
        })
        .unwrap();
    assert_eq!(lt, (1, 0), "a > b is b < a");
    assert_eq!(count(&p, 0, "LeInt"), 1);
    assert_eq!(run_ok(&m), vec!["false", "true"]);
}

#[test]
fn loop_with_break_and_continue() {
    // int s = 0; for int i = 0, i < 100, i++ { if i % 2 == 0 { continue }
    //   if i > 9 { break } s = s + i } log(s)
    let m = main_only(
        &[Type::Int, Type::Int],
        vec![
            let_(0, int(0)),
            st(StmtKind::Block(vec![
                let_(1, int(0)),
                while_(
                    bin(BinOp::LtInt, li(1), int(100)),
                    vec![
                        if_(
                            bin(BinOp::EqInt, bin(BinOp::ModInt, li(1), int(2)), int(0)),
                            vec![st(StmtKind::Continue)],
                            vec![],
                        ),
                        if_(
                            bin(BinOp::GtInt, li(1), int(9)),
                            vec![st(StmtKind::Break)],
                            vec![],
                        ),
                        set(0, bin(BinOp::AddInt, li(0), li(1))),
                    ],
                    vec![inc(1)],
                ),
            ])),
            log(li(0)),
        ],
    );
    let p = generate(&m);
    assert_eq!(run_ok(&m), vec!["25"]);
    // The loop's operand literals 100, 0, 2 and 9 are pinned in r0..r3
    // (see `consts.rs`), so s is r4 and i is r5.
    assert_eq!(
        &p.functions[0].code[..4],
        &[
            Instr::LoadInt { dst: 0, imm: 100 },
            Instr::LoadInt { dst: 1, imm: 0 },
            Instr::LoadInt { dst: 2, imm: 2 },
            Instr::LoadInt { dst: 3, imm: 9 },
        ],
        "{}",
        listing(&p, 0)
    );
    assert_eq!(count(&p, 0, "LoadInt"), 6, "{}", listing(&p, 0));
    // s = s + i is one AddInt straight into s's register.
    assert!(p.functions[0]
        .code
        .contains(&Instr::AddInt { dst: 4, a: 4, b: 5 }));
    assert!(p.functions[0].code.contains(&Instr::AddIntImm {
        dst: 5,
        a: 5,
        imm: 1
    }));
    // Bottom-tested: the last jump of the loop goes backwards.
    let back = p.functions[0]
        .code
        .iter()
        .any(|i| matches!(i, Instr::JumpLtInt { off, .. } if *off < 0));
    assert!(back, "{}", listing(&p, 0));
}

/// Operand literals of a loop are loaded once, before it: the loop body
/// has no `LoadInt`; an `AddIntImm` immediate is not pinned.
#[test]
fn loop_operand_literals_are_pinned() {
    // int t = 0; for int i = 0, i < 100000, i++ { t = (t * 1000003 + i) % 1000000007 } log(t)
    let m = main_only(
        &[Type::Int, Type::Int],
        vec![
            let_(0, int(0)),
            st(StmtKind::Block(vec![
                let_(1, int(0)),
                while_(
                    bin(BinOp::LtInt, li(1), int(100000)),
                    vec![set(
                        0,
                        bin(
                            BinOp::ModInt,
                            bin(
                                BinOp::AddInt,
                                bin(BinOp::MulInt, li(0), int(1000003)),
                                li(1),
                            ),
                            int(1000000007),
                        ),
                    )],
                    vec![inc(1)],
                ),
            ])),
            log(li(0)),
        ],
    );
    let p = generate(&m);
    let code = &p.functions[0].code;
    assert_eq!(count(&p, 0, "LoadInt"), 5, "{}", listing(&p, 0));
    let entry = code
        .iter()
        .position(|i| matches!(i, Instr::Jump { .. }))
        .unwrap();
    assert!(
        code[entry..]
            .iter()
            .all(|i| !matches!(i, Instr::LoadInt { .. } | Instr::LoadConst { .. })),
        "{}",
        listing(&p, 0)
    );
    assert_eq!(run_ok(&m), vec!["597592266"]);
}

#[test]
fn while_true_has_no_entry_jump() {
    // int i = 0; while true { i++; if i == 3 { break } } log(i)
    let m = main_only(
        &[Type::Int],
        vec![
            let_(0, int(0)),
            while_(
                ex(ExprKind::Bool(true), Type::Bool),
                vec![
                    inc(0),
                    if_(
                        bin(BinOp::EqInt, li(0), int(3)),
                        vec![st(StmtKind::Break)],
                        vec![],
                    ),
                ],
                vec![],
            ),
            log(li(0)),
        ],
    );
    let p = generate(&m);
    // r0 holds the pinned literal 3, i is r1; the body starts right after
    // the prologue and `int i = 0`.
    assert_eq!(
        p.functions[0].code[2],
        Instr::AddIntImm {
            dst: 1,
            a: 1,
            imm: 1
        },
        "{}",
        listing(&p, 0)
    );
    assert_eq!(run_ok(&m), vec!["3"]);
}

#[test]
fn and_or_cond_as_values_and_branches() {
    // int a = 5; bool b = a > 1 && a < 10; log(b); log(a < 0 || a == 5)
    // log(a > 3 ? 'big' : 'small'); if !(a < 0) && (a == 4 || a == 5) { log('yes') }
    let cmp = |op, k| bin(op, li(0), int(k));
    let m = main_only(
        &[Type::Int, Type::Bool],
        vec![
            let_(0, int(5)),
            let_(
                1,
                ex(
                    ExprKind::And(
                        Box::new(cmp(BinOp::GtInt, 1)),
                        Box::new(cmp(BinOp::LtInt, 10)),
                    ),
                    Type::Bool,
                ),
            ),
            log(lc(1, Type::Bool)),
            log(ex(
                ExprKind::Or(
                    Box::new(cmp(BinOp::LtInt, 0)),
                    Box::new(cmp(BinOp::EqInt, 5)),
                ),
                Type::Bool,
            )),
            log(ex(
                ExprKind::Cond(
                    Box::new(cmp(BinOp::GtInt, 3)),
                    Box::new(text("big")),
                    Box::new(text("small")),
                ),
                Type::Text,
            )),
            if_(
                ex(
                    ExprKind::And(
                        Box::new(ex(
                            ExprKind::Unary(UnOp::Not, Box::new(cmp(BinOp::LtInt, 0))),
                            Type::Bool,
                        )),
                        Box::new(ex(
                            ExprKind::Or(
                                Box::new(cmp(BinOp::EqInt, 4)),
                                Box::new(cmp(BinOp::EqInt, 5)),
                            ),
                            Type::Bool,
                        )),
                    ),
                    Type::Bool,
                ),
                vec![log(text("yes"))],
                vec![log(text("no"))],
            ),
        ],
    );
    assert_eq!(run_ok(&m), vec!["true", "true", "big", "yes"]);
    let p = generate(&m);
    // The `if` condition is pure control flow: no Not instruction.
    assert_eq!(count(&p, 0, "Not"), 0, "{}", listing(&p, 0));
}

#[test]
fn try_catch_through_calls_and_rethrow() {
    // void func boom(x:int) { if x > 1 { throw `bad ${x}` } log(x) }
    // try { boom(1); boom(2); log('unreached') } catch (e:text) { log(e) }
    // try { try { throw 'in' } catch (e2:text) { throw e2 + '!' } } catch (e3:text) { log(e3) }
    let boom = func(
        "boom",
        1,
        &[Type::Int],
        Type::Void,
        vec![
            if_(
                bin(BinOp::GtInt, li(0), int(1)),
                vec![st(StmtKind::Throw(ex(
                    ExprKind::Template(vec![text("bad "), to_text(li(0))]),
                    Type::Text,
                )))],
                vec![],
            ),
            log(li(0)),
        ],
    );
    let main = func(
        "<main>",
        0,
        &[Type::Text, Type::Text, Type::Text],
        Type::Void,
        vec![
            st(StmtKind::Try {
                body: vec![
                    st(StmtKind::Expr(call(0, vec![int(1)], Type::Void))),
                    st(StmtKind::Expr(call(0, vec![int(2)], Type::Void))),
                    log(text("unreached")),
                ],
                catch_local: 0,
                handler: vec![log(lc(0, Type::Text))],
            }),
            st(StmtKind::Try {
                body: vec![st(StmtKind::Try {
                    body: vec![st(StmtKind::Throw(text("in")))],
                    catch_local: 1,
                    handler: vec![st(StmtKind::Throw(bin(
                        BinOp::Concat,
                        lc(1, Type::Text),
                        text("!"),
                    )))],
                })],
                catch_local: 2,
                handler: vec![log(lc(2, Type::Text))],
            }),
        ],
    );
    let m = module(vec![boom, main]);
    assert_eq!(run_ok(&m), vec!["1", "bad 2", "in!"]);
    let p = generate(&m);
    assert_eq!(count(&p, 1, "TryEnter"), 3);
    // The nested trys cannot complete normally (their bodies and handler
    // end in throws): only the first try needs a TryExit.
    assert_eq!(count(&p, 1, "TryExit"), 1, "{}", listing(&p, 1));
}

#[test]
fn leaving_try_by_break_and_return_exits_handlers() {
    // int func f() { while true { try { return 7 } catch (e:text) { } } return 0 }
    // while true { try { break } catch (e:text) {} }  log(f())
    // try { throw 'after' } catch (e:text) { log(e) }   -- handler stack must be clean
    let f = func(
        "f",
        0,
        &[Type::Text],
        Type::Int,
        vec![
            while_(
                ex(ExprKind::Bool(true), Type::Bool),
                vec![st(StmtKind::Try {
                    body: vec![ret(int(7))],
                    catch_local: 0,
                    handler: vec![],
                })],
                vec![],
            ),
            ret(int(0)),
        ],
    );
    let main = func(
        "<main>",
        0,
        &[Type::Text, Type::Text],
        Type::Void,
        vec![
            while_(
                ex(ExprKind::Bool(true), Type::Bool),
                vec![st(StmtKind::Try {
                    body: vec![st(StmtKind::Break)],
                    catch_local: 0,
                    handler: vec![],
                })],
                vec![],
            ),
            log(call(0, vec![], Type::Int)),
            st(StmtKind::Try {
                body: vec![st(StmtKind::Throw(text("after")))],
                catch_local: 1,
                handler: vec![log(lc(1, Type::Text))],
            }),
        ],
    );
    let m = module(vec![f, main]);
    let p = generate(&m);
    let f_code = &p.functions[0].code;
    let r = f_code
        .iter()
        .position(|i| matches!(i, Instr::Return { .. }))
        .unwrap();
    assert_eq!(f_code[r - 1], Instr::TryExit {}, "{}", listing(&p, 0));
    let main_code = &p.functions[1].code;
    let j = main_code
        .iter()
        .position(|i| matches!(i, Instr::Jump { .. }))
        .unwrap();
    assert_eq!(main_code[j - 1], Instr::TryExit {}, "{}", listing(&p, 1));
    assert_eq!(run_ok(&m), vec!["7", "after"]);
}

#[test]
fn handler_releases_registers_of_interrupted_body() {
    // try { arr[int] xs = [1]; throw 'x' } catch (e:text) { log(e) }
    let arr = Type::Arr(Box::new(Type::Int));
    let m = main_only(
        &[Type::Text, arr.clone()],
        vec![st(StmtKind::Try {
            body: vec![
                let_(1, ex(ExprKind::NewArr(vec![int(1)]), arr.clone())),
                st(StmtKind::Throw(text("x"))),
            ],
            catch_local: 0,
            handler: vec![log(lc(0, Type::Text))],
        })],
    );
    let p = generate(&m);
    let code = &p.functions[0].code;
    let Instr::TryEnter { reg, off } = code[0] else {
        panic!("{}", listing(&p, 0))
    };
    assert_eq!(reg, 0);
    assert_eq!(
        code[1 + off as usize],
        Instr::Release { reg: 1 },
        "{}",
        listing(&p, 0)
    );
    assert_eq!(run_ok(&m), vec!["x"]);
}

fn point_module() -> Module {
    // struct P { x:int, name:text }
    // P p; p.x = 4; p.x++; P q = P{x: p.x + 1}; log(q.x); log(p.x)
    let p_ty = Type::Struct(0);
    let field = |obj: Expr, f: u16, ty: Type| {
        ex(
            ExprKind::Field {
                obj: Box::new(obj),
                field: f,
                vivify: false,
            },
            ty,
        )
    };
    let px = || Place::Field {
        obj: Box::new(lc(0, Type::Struct(0))),
        field: 0,
    };
    let mut m = main_only(
        &[p_ty.clone(), p_ty.clone()],
        vec![
            st(StmtKind::Let {
                local: 0,
                init: None,
            }),
            st(StmtKind::Assign {
                place: px(),
                value: int(4),
            }),
            st(StmtKind::Increment {
                place: px(),
                delta: 1,
            }),
            let_(
                1,
                ex(
                    ExprKind::NewStruct {
                        sid: 0,
                        fields: vec![(
                            0,
                            bin(
                                BinOp::AddInt,
                                field(lc(0, p_ty.clone()), 0, Type::Int),
                                int(1),
                            ),
                        )],
                    },
                    p_ty.clone(),
                ),
            ),
            log(field(lc(1, p_ty.clone()), 0, Type::Int)),
            log(field(lc(0, p_ty), 0, Type::Int)),
        ],
    );
    m.structs = vec![Record {
        name: "P".into(),
        fields: vec![
            Field {
                name: "x".into(),
                ty: Type::Int,
            },
            Field {
                name: "name".into(),
                ty: Type::Text,
            },
        ],
        may_cycle: false,
    }];
    m
}

#[test]
fn struct_fields() {
    let m = point_module();
    let p = generate(&m);
    let ms = mnemonics(&p, 0);
    assert_eq!(ms[0], "NewStruct", "zero value of a struct local");
    assert!(ms.contains(&"SetField") && ms.contains(&"GetField"));
    // p.x++ is GetField, AddIntImm, SetField.
    let i = ms.iter().position(|m| *m == "AddIntImm").unwrap();
    assert_eq!(&ms[i - 1..=i + 1], &["GetField", "AddIntImm", "SetField"]);
    // The function's own locals are released by the return itself.
    assert_eq!(p.functions[0].code.last(), Some(&Instr::ReturnVoid {}));
    let code = &p.functions[0].code;
    assert_eq!(
        count(&p, 0, "Release"),
        count_temp_nulls(code, 2),
        "{}",
        listing(&p, 0)
    );
    assert_eq!(run_ok(&m), vec!["6", "5"]);
}

#[test]
fn arrays_push_index_length() {
    // arr[int] xs = [3, 4]; xs.push(5); int s = 0
    // for int i = 0, i < xs.length, i++ { s = s + xs[i] } log(s); log(xs.pop()); log(xs)
    let arr = Type::Arr(Box::new(Type::Int));
    let xs = || lc(0, Type::Arr(Box::new(Type::Int)));
    let m = main_only(
        &[arr.clone(), Type::Int, Type::Int],
        vec![
            let_(0, ex(ExprKind::NewArr(vec![int(3), int(4)]), arr.clone())),
            st(StmtKind::Expr(ex(
                ExprKind::ArrPush(Box::new(xs()), Box::new(int(5))),
                Type::Int,
            ))),
            let_(1, int(0)),
            st(StmtKind::Block(vec![
                let_(2, int(0)),
                while_(
                    bin(
                        BinOp::LtInt,
                        li(2),
                        ex(ExprKind::ArrLen(Box::new(xs())), Type::Int),
                    ),
                    vec![set(
                        1,
                        bin(
                            BinOp::AddInt,
                            li(1),
                            ex(
                                ExprKind::Index {
                                    arr: Box::new(xs()),
                                    index: Box::new(li(2)),
                                },
                                Type::Int,
                            ),
                        ),
                    )],
                    vec![inc(2)],
                ),
            ])),
            log(li(1)),
            log(ex(ExprKind::ArrPop(Box::new(xs())), Type::Int)),
            log(xs()),
        ],
    );
    let p = generate(&m);
    // The literal is one `NewArrFrom`; the statement `xs.push(5)` one push.
    assert_eq!(count(&p, 0, "NewArrFrom"), 1, "{}", listing(&p, 0));
    assert_eq!(count(&p, 0, "ArrPush"), 1);
    assert_eq!(
        count(&p, 0, "ArrLen"),
        1,
        "a discarded push needs no length"
    );
    assert_eq!(run_ok(&m), vec!["12", "5", "[3,4]"]);
}

#[test]
fn text_append_local_in_place() {
    // text s = 'a'; for int i = 0, i < 3, i++ { s = s + i.toText() + '-' } log(s)
    let m = main_only(
        &[Type::Text, Type::Int],
        vec![
            let_(0, text("a")),
            st(StmtKind::Block(vec![
                let_(1, int(0)),
                while_(
                    bin(BinOp::LtInt, li(1), int(3)),
                    vec![st(StmtKind::Append {
                        place: Place::Local(0),
                        parts: vec![to_text(li(1)), text("-")],
                    })],
                    vec![inc(1)],
                ),
            ])),
            log(lc(0, Type::Text)),
        ],
    );
    let p = generate(&m);
    let appends: Vec<_> = p.functions[0]
        .code
        .iter()
        // s is r1 (r0 holds the loop's pinned literal 3).
        .filter(|i| matches!(i, Instr::AppendText { dst: 1, .. }))
        .collect();
    assert_eq!(appends.len(), 2, "{}", listing(&p, 0));
    assert_eq!(count(&p, 0, "Concat"), 0);
    assert_eq!(run_ok(&m), vec!["a0-1-2-"]);
}

#[test]
fn text_append_reading_itself() {
    // text s = 'ab'; s = s + '.' + s; log(s)
    let m = main_only(
        &[Type::Text],
        vec![
            let_(0, text("ab")),
            st(StmtKind::Append {
                place: Place::Local(0),
                parts: vec![text("."), lc(0, Type::Text)],
            }),
            log(lc(0, Type::Text)),
        ],
    );
    assert_eq!(run_ok(&m), vec!["ab.ab"]);
}

#[test]
fn text_append_global_detaches() {
    // text g = 'x'; g = g + 'y'; log(g); with a function `show` also
    // reading g, so that g stays a global (see `globals.rs`).
    let g = || {
        ex(
            ExprKind::Global {
                global: 0,
                vivify: false,
            },
            Type::Text,
        )
    };
    let show = func("show", 0, &[], Type::Void, vec![log(g())]);
    let main = func(
        "<main>",
        0,
        &[],
        Type::Void,
        vec![
            st(StmtKind::InitGlobal {
                global: 0,
                init: Some(text("x")),
            }),
            st(StmtKind::Append {
                place: Place::Global(0),
                parts: vec![text("y")],
            }),
            log(g()),
        ],
    );
    let mut m = module(vec![show, main]);
    m.globals = vec![Global {
        name: "g".into(),
        ty: Type::Text,
    }];
    let p = generate(&m);
    let ms = mnemonics(&p, 1);
    let i = ms.iter().position(|m| *m == "GetGlobal").unwrap();
    assert_eq!(
        &ms[i..i + 5],
        &[
            "GetGlobal",
            "LoadNull",
            "SetGlobal",
            "AppendText",
            "SetGlobal"
        ],
        "{}",
        listing(&p, 1)
    );
    assert_eq!(run_ok(&m), vec!["xy"]);
}

/// Globals mentioned only by the function declaring them live in its
/// registers: no `GetGlobal`/`SetGlobal`, same results.
#[test]
fn globals_of_top_level_code_live_in_registers() {
    // int n; text s = 'a'; n = n + 2; n++; s = s + 'b'; s = `${s}!`;
    // arr[int] xs; xs.push(n); log(n); log(s); log(xs)
    let gl = |g: u32, ty: Type| {
        ex(
            ExprKind::Global {
                global: g,
                vivify: false,
            },
            ty,
        )
    };
    let arr_ty = Type::Arr(Box::new(Type::Int));
    let mut m = main_only(
        &[],
        vec![
            st(StmtKind::InitGlobal {
                global: 0,
                init: None,
            }),
            st(StmtKind::InitGlobal {
                global: 1,
                init: Some(text("a")),
            }),
            st(StmtKind::Assign {
                place: Place::Global(0),
                value: bin(BinOp::AddInt, gl(0, Type::Int), int(2)),
            }),
            st(StmtKind::Increment {
                place: Place::Global(0),
                delta: 1,
            }),
            st(StmtKind::Append {
                place: Place::Global(1),
                parts: vec![text("b")],
            }),
            st(StmtKind::Assign {
                place: Place::Global(1),
                value: ex(
                    ExprKind::Template(vec![gl(1, Type::Text), text("!")]),
                    Type::Text,
                ),
            }),
            st(StmtKind::InitGlobal {
                global: 2,
                init: None,
            }),
            st(StmtKind::Expr(ex(
                ExprKind::ArrPush(Box::new(gl(2, arr_ty.clone())), Box::new(gl(0, Type::Int))),
                Type::Int,
            ))),
            log(gl(0, Type::Int)),
            log(gl(1, Type::Text)),
            log(gl(2, arr_ty.clone())),
        ],
    );
    m.globals = vec![
        Global {
            name: "n".into(),
            ty: Type::Int,
        },
        Global {
            name: "s".into(),
            ty: Type::Text,
        },
        Global {
            name: "xs".into(),
            ty: arr_ty,
        },
    ];
    let p = generate(&m);
    assert_eq!(count(&p, 0, "GetGlobal"), 0, "{}", listing(&p, 0));
    assert_eq!(count(&p, 0, "SetGlobal"), 0, "{}", listing(&p, 0));
    assert_eq!(run_ok(&m), vec!["3", "ab!", "[3]"]);
}

/// A global that another function mentions stays in the globals table,
/// and that function sees the top-level code's writes.
#[test]
fn globals_shared_with_functions_stay_globals() {
    // int n = 1; void func bump() { n++ }; bump(); log(n)
    let bump = func(
        "bump",
        0,
        &[],
        Type::Void,
        vec![st(StmtKind::Increment {
            place: Place::Global(0),
            delta: 1,
        })],
    );
    let main = func(
        "<main>",
        0,
        &[],
        Type::Void,
        vec![
            st(StmtKind::InitGlobal {
                global: 0,
                init: Some(int(1)),
            }),
            st(StmtKind::Expr(call(0, vec![], Type::Void))),
            log(ex(
                ExprKind::Global {
                    global: 0,
                    vivify: false,
                },
                Type::Int,
            )),
        ],
    );
    let mut m = module(vec![bump, main]);
    m.globals = vec![Global {
        name: "n".into(),
        ty: Type::Int,
    }];
    let p = generate(&m);
    assert!(count(&p, 1, "SetGlobal") >= 1, "{}", listing(&p, 1));
    assert_eq!(run_ok(&m), vec!["2"]);
}

#[test]
fn template_appends_into_fresh_register() {
    // int n = 3; log(`n=${n}!`)
    let m = main_only(
        &[Type::Int],
        vec![
            let_(0, int(3)),
            log(ex(
                ExprKind::Template(vec![text("n="), to_text(li(0)), text("!")]),
                Type::Text,
            )),
        ],
    );
    let p = generate(&m);
    assert_eq!(count(&p, 0, "AppendText"), 2);
    assert_eq!(run_ok(&m), vec!["n=3!"]);
}

#[test]
fn managed_loop_locals_released_every_iteration_and_on_break() {
    // for int i = 0, i < 3, i++ { text t = i.toText(); if i == 1 { break } log(t) }
    let m = main_only(
        &[Type::Int, Type::Text],
        vec![st(StmtKind::Block(vec![
            let_(0, int(0)),
            while_(
                bin(BinOp::LtInt, li(0), int(3)),
                vec![
                    let_(1, to_text(li(0))),
                    if_(
                        bin(BinOp::EqInt, li(0), int(1)),
                        vec![st(StmtKind::Break)],
                        vec![],
                    ),
                    log(lc(1, Type::Text)),
                ],
                vec![inc(0)],
            ),
        ]))],
    );
    let p = generate(&m);
    let code = &p.functions[0].code;
    // r0 and r1 hold the pinned literals 3 and 1; i is r2, t is r3.
    // One release before the break's jump, one at the end of the body.
    assert_eq!(
        count(&p, 0, "Release") - count_temp_nulls(code, 4),
        2,
        "{}",
        listing(&p, 0)
    );
    let released_then_break = code
        .windows(2)
        .any(|w| w[0] == Instr::Release { reg: 3 } && matches!(w[1], Instr::Jump { .. }));
    assert!(released_then_break, "{}", listing(&p, 0));
    assert_eq!(run_ok(&m), vec!["0"]);
}

/// `Release`s on registers at or above `from` (temporaries).
fn count_temp_nulls(code: &[Instr], from: u16) -> usize {
    code.iter()
        .filter(|i| matches!(i, Instr::Release { reg } if *reg >= from))
        .count()
}

#[test]
fn discarded_managed_call_result_is_released() {
    // text func mk() { return 'x' }  mk()
    let mk = func("mk", 0, &[], Type::Text, vec![ret(text("x"))]);
    let main = func(
        "<main>",
        0,
        &[],
        Type::Void,
        vec![st(StmtKind::Expr(call(0, vec![], Type::Text)))],
    );
    let p = generate(&module(vec![mk, main]));
    assert_eq!(
        p.functions[1].code,
        vec![
            Instr::Call {
                dst: 0,
                base: 1,
                func: 0
            },
            Instr::Release { reg: 0 },
            Instr::ReturnVoid {}
        ]
    );
}

#[test]
fn return_emits_no_releases() {
    // text func f(c:bool) { text a = 'a'; { text b = 'b'; if c { return a } } return a }
    let f = func(
        "f",
        1,
        &[Type::Bool, Type::Text, Type::Text],
        Type::Text,
        vec![
            let_(1, text("a")),
            st(StmtKind::Block(vec![
                let_(2, text("b")),
                if_(lc(0, Type::Bool), vec![ret(lc(1, Type::Text))], vec![]),
            ])),
            ret(lc(1, Type::Text)),
        ],
    );
    let p = generate(&module(vec![f]));
    let code = &p.functions[0].code;
    let i = code
        .iter()
        .position(|i| matches!(i, Instr::Return { .. }))
        .unwrap();
    assert!(
        !matches!(code[i - 1], Instr::Release { .. }),
        "{}",
        listing(&p, 0)
    );
    // The inner block's end releases `b`; the final return nothing more.
    assert_eq!(count(&p, 0, "Release"), 1, "{}", listing(&p, 0));
    assert_eq!(code.last(), Some(&Instr::Return { src: 1 }));
}

#[test]
fn sibling_blocks_reuse_registers() {
    // { int a = 1; log(a) } { int b = 2; log(b) }
    let m = main_only(
        &[Type::Int, Type::Int],
        vec![
            st(StmtKind::Block(vec![let_(0, int(1)), log(li(0))])),
            st(StmtKind::Block(vec![let_(1, int(2)), log(li(1))])),
        ],
    );
    let p = generate(&m);
    let loads: Vec<_> = p.functions[0]
        .code
        .iter()
        .filter_map(|i| match *i {
            Instr::LoadInt { dst, .. } => Some(dst),
            _ => None,
        })
        .collect();
    assert_eq!(loads, vec![0, 0]);
    assert_eq!(run_ok(&m), vec!["1", "2"]);
}

#[test]
fn constants_are_pooled_and_deduplicated() {
    // log('hi'); log('hi'); log(10000000000); log(1.5); log(1.5); log(-7)
    let m = main_only(
        &[],
        vec![
            log(text("hi")),
            log(text("hi")),
            log(int(10_000_000_000)),
            log(ex(ExprKind::Float(1.5), Type::Float)),
            log(ex(ExprKind::Float(1.5), Type::Float)),
            log(ex(
                ExprKind::Unary(UnOp::NegInt, Box::new(int(7))),
                Type::Int,
            )),
        ],
    );
    let p = generate(&m);
    assert_eq!(
        p.consts,
        vec![
            Const::Text("hi".into()),
            Const::Int(10_000_000_000),
            Const::Float(1.5)
        ]
    );
    assert!(p.functions[0]
        .code
        .iter()
        .any(|i| matches!(i, Instr::LoadInt { imm: -7, .. })));
    assert_eq!(run_ok(&m)[..3], ["hi", "hi", "10000000000"]);
}

#[test]
fn builder_reading_its_target_goes_through_a_temporary() {
    // arr[int] xs = [1]; xs = [xs.length, 9]; log(xs)
    // bool b = true; b = false || b; log(b)
    let arr = Type::Arr(Box::new(Type::Int));
    let xs = || lc(0, Type::Arr(Box::new(Type::Int)));
    let m = main_only(
        &[arr.clone(), Type::Bool],
        vec![
            let_(0, ex(ExprKind::NewArr(vec![int(1)]), arr.clone())),
            set(
                0,
                ex(
                    ExprKind::NewArr(vec![
                        ex(ExprKind::ArrLen(Box::new(xs())), Type::Int),
                        int(9),
                    ]),
                    arr,
                ),
            ),
            log(xs()),
            let_(1, ex(ExprKind::Bool(true), Type::Bool)),
            set(
                1,
                ex(
                    ExprKind::Or(
                        Box::new(ex(ExprKind::Bool(false), Type::Bool)),
                        Box::new(lc(1, Type::Bool)),
                    ),
                    Type::Bool,
                ),
            ),
            log(lc(1, Type::Bool)),
        ],
    );
    assert_eq!(run_ok(&m), vec!["[1,9]", "true"]);
}

#[test]
fn maps_and_delete() {
    // map[int] m = {'a': 1}; m['b'] = 2; delete m['a']; log(m['a'] == null); log(m['b'])
    let map = Type::Map(Box::new(Type::Int));
    let mm = || Box::new(lc(0, Type::Map(Box::new(Type::Int))));
    let m = main_only(
        std::slice::from_ref(&map),
        vec![
            let_(
                0,
                ex(ExprKind::NewMap(vec![(text("a"), int(1))]), map.clone()),
            ),
            st(StmtKind::Assign {
                place: Place::MapEntry {
                    map: mm(),
                    key: Box::new(text("b")),
                },
                value: int(2),
            }),
            st(StmtKind::Delete(Place::MapEntry {
                map: mm(),
                key: Box::new(text("a")),
            })),
            log(ex(
                ExprKind::IsNull {
                    expr: Box::new(ex(
                        ExprKind::MapGet {
                            map: mm(),
                            key: Box::new(text("a")),
                        },
                        Type::Int,
                    )),
                    negate: false,
                },
                Type::Bool,
            )),
            log(ex(
                ExprKind::MapGet {
                    map: mm(),
                    key: Box::new(text("b")),
                },
                Type::Int,
            )),
        ],
    );
    assert_eq!(run_ok(&m), vec!["true", "2"]);
}

#[test]
fn function_values_and_globals() {
    // int func twice(x:int) { return x * 2 }  func[int]:int f = twice; log(f(21))
    // int g; g++; log(g)
    let twice = func(
        "twice",
        1,
        &[Type::Int],
        Type::Int,
        vec![ret(bin(BinOp::MulInt, li(0), int(2)))],
    );
    let fty = Type::Func(vec![Type::Int], Box::new(Type::Int));
    let mut m = module(vec![
        twice,
        func(
            "<main>",
            0,
            std::slice::from_ref(&fty),
            Type::Void,
            vec![
                let_(0, ex(ExprKind::FuncRef(0), fty.clone())),
                log(ex(
                    ExprKind::CallValue {
                        callee: Box::new(lc(0, fty.clone())),
                        args: vec![int(21)],
                    },
                    Type::Int,
                )),
                st(StmtKind::InitGlobal {
                    global: 0,
                    init: None,
                }),
                st(StmtKind::Increment {
                    place: Place::Global(0),
                    delta: 1,
                }),
                log(ex(
                    ExprKind::Global {
                        global: 0,
                        vivify: false,
                    },
                    Type::Int,
                )),
            ],
        ),
    ]);
    m.globals = vec![Global {
        name: "g".into(),
        ty: Type::Int,
    }];
    assert_eq!(run_ok(&m), vec!["42", "1"]);
}

#[test]
fn line_table_follows_statements() {
    let m = main_only(
        &[Type::Int],
        vec![
            at(
                3,
                StmtKind::Let {
                    local: 0,
                    init: Some(Expr { line: 4, ..int(1) }),
                },
            ),
            at(
                5,
                StmtKind::Increment {
                    place: Place::Local(0),
                    delta: -1,
                },
            ),
        ],
    );
    let p = generate(&m);
    assert_eq!(p.functions[0].lines, vec![4, 5, 5]);
    assert_eq!(
        p.functions[0].code[1],
        Instr::AddIntImm {
            dst: 0,
            a: 0,
            imm: -1
        }
    );
}

/// [`point_module`] with the pure-struct enum `Shape = P`, and the
/// expression wrapping a fresh `P` (its fields set from `fields`) into it.
fn shape_module(fields: Vec<(u16, Expr)>) -> (Module, Expr) {
    use festina_vm::program::Enum;
    let mut m = point_module();
    m.enums = vec![Enum {
        name: "Shape".into(),
        members: vec![Type::Struct(0)],
        member_names: vec!["P".into()],
        pure_struct: true,
    }];
    let point = ex(ExprKind::NewStruct { sid: 0, fields }, Type::Struct(0));
    let wrap = ex(
        ExprKind::EnumWrap {
            expr: Box::new(point),
            enum_id: 0,
            member: 0,
        },
        Type::Enum(0),
    );
    (m, wrap)
}

#[test]
fn pure_struct_enum_wrap_is_free_and_enum_fields_dedup() {
    let (mut m, wrap) = shape_module(vec![]);
    let enum_ty = Type::Enum(0);
    let field = || {
        ex(
            ExprKind::EnumField {
                obj: Box::new(lc(0, Type::Enum(0))),
                sid: 0,
                field: 0,
                name: "x".into(),
            },
            Type::Int,
        )
    };
    m.functions = vec![func(
        "<main>",
        0,
        &[enum_ty],
        Type::Void,
        vec![let_(0, wrap), log(field()), log(field())],
    )];
    let p = generate(&m);
    assert_eq!(p.functions[0].code[0], Instr::NewStruct { dst: 0, sid: 0 });
    assert_eq!(count(&p, 0, "EnumWrap"), 0);
    assert_eq!(count(&p, 0, "EnumField"), 2);
    assert_eq!(p.enum_fields.len(), 1);
}

/// A condition whose branch must jump farther than a compare-and-branch's
/// 16-bit offset: the function is compiled again with a plain compare and
/// a `JumpIfFalse` (32-bit offset), and still runs correctly.
#[test]
fn far_branches_fall_back_to_plain_compares() {
    // if x < 5 { s = s + 1 (x 40,000) }; log(s); and a near one that fuses.
    let far_body: Vec<Stmt> = (0..40_000)
        .map(|_| set(1, bin(BinOp::AddInt, li(1), li(0))))
        .collect();
    let body = vec![
        let_(0, int(1)),
        let_(1, int(0)),
        if_(bin(BinOp::LtInt, li(0), int(5)), far_body, vec![]),
        log(to_text(li(1))),
    ];
    let far = func("<main>", 0, &[Type::Int, Type::Int], Type::Void, body);
    let m = module(vec![far]);
    let p = generate(&m);
    let ms = mnemonics(&p, 0);
    assert!(
        ms.contains(&"LtInt") && ms.contains(&"JumpIfFalse"),
        "{ms:?}"
    );
    assert!(!ms.iter().any(|m| m.starts_with("JumpGe")), "{ms:?}");
    assert_eq!(run_ok(&m), vec!["40000"]);

    let near = func(
        "<main>",
        0,
        &[Type::Int],
        Type::Void,
        vec![
            let_(0, int(1)),
            if_(
                bin(BinOp::LtInt, li(0), int(5)),
                vec![log(text("near"))],
                vec![],
            ),
        ],
    );
    let m = module(vec![near]);
    let p = generate(&m);
    assert_eq!(count(&p, 0, "JumpGeIntImm"), 1, "{}", listing(&p, 0));
    assert_eq!(run_ok(&m), vec!["near"]);
}

// ---- limits (issue 10, item 1) ----

/// More live registers than a window has: a limit error naming the limit
/// and the line, not a panic.
#[test]
fn a_function_out_of_registers_is_a_limit_error() {
    let n = 66_000u32;
    let locals = vec![Type::Int; n as usize];
    let body: Vec<Stmt> = (0..n)
        .map(|i| {
            at(
                i + 1,
                StmtKind::Let {
                    local: i,
                    init: Some(int(i as i64)),
                },
            )
        })
        .collect();
    let mut m = main_only(&locals, vec![st(StmtKind::Block(body))]);
    m.functions[0].name = "big".into();
    let err = super::generate(&m).unwrap_err();
    assert_eq!(
        err.line, 65_536,
        "the statement declaring the 65,536th local"
    );
    assert_eq!(
        err.message,
        "function 'big' needs more than 65535 registers (the most one function may use: \
         its variables, temporaries and the arguments of nested calls live at once); split it \
         into smaller functions"
    );
}

/// Globals kept in registers do not count against the window: a function
/// that runs out with them is compiled again without them.
#[test]
fn promoted_globals_give_way_when_registers_run_out() {
    // 40,000 globals declared and used only by the top-level code (16,384
    // of them promoted), then a block of 50,000 locals: 66,384 registers
    // with promotion, 50,000 + a few without.
    let (ng, nl) = (40_000u32, 50_000u32);
    let mut body: Vec<Stmt> = (0..ng)
        .map(|g| {
            st(StmtKind::InitGlobal {
                global: g,
                init: Some(int(g as i64)),
            })
        })
        .collect();
    let mut block: Vec<Stmt> = (0..nl).map(|l| let_(l, int(1))).collect();
    block.push(log(to_text(ex(
        ExprKind::Global {
            global: ng - 1,
            vivify: false,
        },
        Type::Int,
    ))));
    body.push(st(StmtKind::Block(block)));
    let mut m = main_only(&vec![Type::Int; nl as usize], body);
    m.functions[0].name = "<top:t.f>".into();
    m.globals = (0..ng)
        .map(|g| Global {
            name: format!("g{g}"),
            ty: Type::Int,
        })
        .collect();
    let p = generate(&m);
    assert!(p.functions[0].nregs < 51_000, "{}", p.functions[0].nregs);
    assert_eq!(count(&p, 0, "SetGlobal"), ng as usize);
    assert_eq!(run_ok(&m), vec!["39999"]);
}

/// A call of a function beyond the 16-bit operand of `Call` loads it as a
/// value and calls that.
#[test]
fn calls_beyond_the_65536th_function() {
    let n = 65_600u32;
    let mut functions: Vec<Function> = (0..n)
        .map(|i| {
            func(
                &format!("f{i}"),
                0,
                &[],
                Type::Int,
                vec![ret(int(i as i64))],
            )
        })
        .collect();
    functions.push(func(
        "<main>",
        0,
        &[],
        Type::Void,
        vec![
            log(to_text(call(n - 1, vec![], Type::Int))),
            log(to_text(call(7, vec![], Type::Int))),
        ],
    ));
    let m = module(functions);
    let p = generate(&m);
    let main = n as usize;
    assert_eq!(count(&p, main, "LoadFunc"), 1, "{}", listing(&p, main));
    assert_eq!(count(&p, main, "CallValue"), 1);
    assert_eq!(count(&p, main, "Call"), 1);
    assert_eq!(run_ok(&m), vec!["65599", "7"]);
}

/// More than 65,536 distinct enum field reads: the later ones use
/// `EnumFieldWide` and an `ExtraArg`.
#[test]
fn enum_field_reads_beyond_16_bits() {
    let (mut m, wrap) = shape_module(vec![(0, int(42))]);
    let enum_ty = Type::Enum(0);
    // Distinct references (by name) to the same field `x`.
    let field = |i: usize| {
        ex(
            ExprKind::EnumField {
                obj: Box::new(lc(0, Type::Enum(0))),
                sid: 0,
                field: 0,
                name: format!("x{i}"),
            },
            Type::Int,
        )
    };
    let n = 65_540;
    let mut body = vec![let_(0, wrap)];
    body.extend((0..n - 1).map(|i| st(StmtKind::Expr(field(i)))));
    body.push(log(to_text(field(n - 1))));
    m.functions = vec![func("<main>", 0, &[enum_ty], Type::Void, body)];
    let p = generate(&m);
    assert_eq!(p.enum_fields.len(), n);
    assert_eq!(count(&p, 0, "EnumFieldWide"), n - 65_536);
    assert_eq!(count(&p, 0, "ExtraArg"), n - 65_536);
    assert_eq!(run_ok(&m), vec!["42"]);
}
