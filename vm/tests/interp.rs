//! End-to-end tests of the interpreter on hand-built programs.

use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::opcode::Instr::{self, *};
use festina_vm::program::{Const, Enum, EnumFieldRef, Field, Function, Global, Program, Record};
use festina_vm::types::Type;
use festina_vm::value::Value;
use std::cell::{Cell, RefCell};
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;

#[derive(Clone, Default)]
struct Sink(Rc<RefCell<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn text(&self) -> String {
        String::from_utf8(self.0.borrow().clone()).unwrap()
    }
}

thread_local! {
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn t_log(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let s = match &a[0] {
        Value::Text(t) => t.as_str().to_string(),
        Value::Null => String::new(),
        other => it.render(other),
    };
    it.write_line(&s);
    Ok(Value::Null)
}

fn t_live(it: &mut Interpreter, _a: &[Value]) -> Result<Value, Trap> {
    let n = it.live_objects();
    PEAK.with(|p| p.set(p.get().max(n)));
    Ok(Value::Int(n as i64))
}

fn t_close(_it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    Err(Trap::Exit(a[0].as_int() as i32))
}

fn t_throw(_it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    Err(Trap::Throw(a[0].as_str().unwrap_or("").to_string()))
}

const NATIVES: &[NativeEntry] = &[
    NativeEntry {
        name: "log",
        func: t_log,
    },
    NativeEntry {
        name: "live",
        func: t_live,
    },
    NativeEntry {
        name: "close",
        func: t_close,
    },
    NativeEntry {
        name: "throw",
        func: t_throw,
    },
];

fn func(name: &str, nparams: u16, nregs: u16, code: Vec<Instr>) -> Function {
    Function::hand_written(name, nparams, nregs, code)
}

fn program(functions: Vec<Function>) -> Program {
    Program {
        files: vec!["prog.f".into()],
        functions,
        entry: 0,
        natives: vec!["log".into(), "live".into(), "close".into(), "throw".into()],
        ..Program::default()
    }
}

const LOG: u16 = 0;
const LIVE: u16 = 1;
const CLOSE: u16 = 2;
const NTHROW: u16 = 3;

/// Run with the fast tier and again without it (every instruction in the
/// full step), require the same results, and return (exit status, stdout,
/// stderr). Everything must be released at exit.
fn run(p: Program) -> (i32, String, String) {
    let p = Arc::new(p);
    let fast = run_tier(Arc::clone(&p), true);
    let full = run_tier(p, false);
    assert_eq!(fast, full, "the fast tier and the full step disagree");
    fast
}

fn run_tier(p: Arc<Program>, fast_tier: bool) -> (i32, String, String) {
    let out = Sink::default();
    let err = Sink::default();
    let mut it = Interpreter::new(p, NATIVES).expect("loads");
    it.set_fast_tier(fast_tier);
    it.set_output(Box::new(out.clone()), Box::new(err.clone()), false);
    let code = it.run(vec!["prog".into()]);
    assert_eq!(it.live_objects(), 0, "everything released at exit");
    (code, out.text(), err.text())
}

/// `log(R[r])` with R[r] rendered into R[tmp].
fn log_reg(r: u16, tmp: u16) -> [Instr; 2] {
    [
        ToText {
            dst: tmp,
            src: r,
            mode: 0,
        },
        CallNative {
            dst: tmp,
            base: tmp,
            id: LOG,
            argc: 1,
        },
    ]
}

#[test]
fn recursive_fib() {
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
    let mut main = vec![
        LoadInt { dst: 0, imm: 25 },
        Call {
            dst: 1,
            base: 0,
            func: 1,
        },
    ];
    main.extend(log_reg(1, 2));
    main.push(ReturnVoid {});
    let (code, out, _) = run(program(vec![func("<main>", 0, 3, main), fib]));
    assert_eq!(code, 0);
    assert_eq!(out, "75025\n");
}

#[test]
fn iterative_fib_and_sum_loop() {
    // a, b = 0, 1; repeat 90 times: a, b = b, a + b
    let mut main = vec![
        LoadInt { dst: 0, imm: 0 },
        LoadInt { dst: 1, imm: 1 },
        LoadInt { dst: 2, imm: 0 },
        LoadInt { dst: 3, imm: 90 },
        // 4: loop test
        LtInt { dst: 4, a: 2, b: 3 },
        JumpIfFalse { cond: 4, off: 5 },
        AddInt { dst: 5, a: 0, b: 1 },
        Move { dst: 0, src: 1 },
        Move { dst: 1, src: 5 },
        AddIntImm {
            dst: 2,
            a: 2,
            imm: 1,
        },
        Jump { off: -7 },
    ];
    main.extend(log_reg(0, 6));
    // sum 1..=1_000_000
    main.extend([
        LoadInt { dst: 0, imm: 0 },
        LoadInt { dst: 1, imm: 1 },
        LoadInt {
            dst: 2,
            imm: 1_000_000,
        },
        LeInt { dst: 3, a: 1, b: 2 },
        JumpIfFalse { cond: 3, off: 3 },
        AddInt { dst: 0, a: 0, b: 1 },
        AddIntImm {
            dst: 1,
            a: 1,
            imm: 1,
        },
        Jump { off: -5 },
    ]);
    main.extend(log_reg(0, 6));
    main.push(ReturnVoid {});
    let (code, out, _) = run(program(vec![func("<main>", 0, 7, main)]));
    assert_eq!(code, 0);
    assert_eq!(out, "2880067194370816120\n500000500000\n");
}

#[test]
fn text_append_loop_is_linear() {
    let mut p = program(vec![]);
    p.consts = vec![Const::Text("ab".into())];
    let mut main = vec![
        LoadNull { dst: 0 },
        LoadConst { dst: 1, k: 0 },
        LoadInt { dst: 2, imm: 0 },
        LoadInt {
            dst: 3,
            imm: 1_000_000,
        },
        LtInt { dst: 4, a: 2, b: 3 },
        JumpIfFalse { cond: 4, off: 3 },
        AppendText { dst: 0, src: 1 },
        AddIntImm {
            dst: 2,
            a: 2,
            imm: 1,
        },
        Jump { off: -5 },
        TextLen { dst: 5, s: 0 },
    ];
    main.extend(log_reg(5, 6));
    main.push(ReturnVoid {});
    p.functions = vec![func("<main>", 0, 7, main)];
    let start = std::time::Instant::now();
    let (code, out, _) = run(p);
    assert_eq!(code, 0);
    assert_eq!(out, "2000000\n");
    assert!(start.elapsed().as_secs() < 5);
}

fn point_structs() -> Vec<Record> {
    vec![
        Record {
            name: "Point".into(),
            fields: vec![
                Field {
                    name: "x".into(),
                    ty: Type::Int,
                },
                Field {
                    name: "label".into(),
                    ty: Type::Text,
                },
                Field {
                    name: "tags".into(),
                    ty: Type::Arr(Box::new(Type::Text)),
                },
                Field {
                    name: "next".into(),
                    ty: Type::Struct(0),
                },
            ],
            may_cycle: true,
        },
        Record {
            name: "Square".into(),
            fields: vec![Field {
                name: "side".into(),
                ty: Type::Float,
            }],
            may_cycle: false,
        },
    ]
}

#[test]
fn struct_fields_render_and_vivify() {
    let mut p = program(vec![]);
    p.structs = point_structs();
    p.consts = vec![Const::Text("tag\"1".into()), Const::Float(2.5)];
    let mut main = vec![
        NewStruct { dst: 0, sid: 0 },
        LoadInt { dst: 1, imm: 7 },
        SetField {
            obj: 0,
            field: 0,
            src: 1,
        },
        GetFieldViv {
            dst: 2,
            obj: 0,
            field: 2,
        },
        LoadConst { dst: 3, k: 0 },
        ArrPush { arr: 2, src: 3 },
        GetField {
            dst: 4,
            obj: 0,
            field: 0,
        },
    ];
    main.extend(log_reg(4, 5));
    main.extend(log_reg(0, 5));
    main.extend([
        NewStruct { dst: 6, sid: 1 },
        LoadConst { dst: 7, k: 1 },
        SetField {
            obj: 6,
            field: 0,
            src: 7,
        },
    ]);
    main.extend(log_reg(6, 5));
    main.push(ReturnVoid {});
    p.functions = vec![func("<main>", 0, 8, main)];
    let (code, out, err) = run(p);
    assert_eq!(err, "");
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "7\n{\"x\":7,\"label\":null,\"tags\":[\"tag\\\"1\"],\"next\":null}\n{\"side\":2.5}\n"
    );
}

#[test]
fn try_throw_across_three_frames_releases_values() {
    let mut p = program(vec![]);
    p.structs = point_structs();
    p.consts = vec![
        Const::Text("boom".into()),
        Const::Text("after".into()),
        Const::Text("not reached".into()),
    ];
    let mut main = vec![
        TryEnter { reg: 0, off: 5 },
        Call {
            dst: 1,
            base: 1,
            func: 1,
        },
        TryExit {},
        LoadConst { dst: 2, k: 2 },
        CallNative {
            dst: 2,
            base: 2,
            id: LOG,
            argc: 1,
        },
        Jump { off: 2 },
        // handler (pc 6)
        CallNative {
            dst: 3,
            base: 0,
            id: LOG,
            argc: 1,
        },
        Jump { off: 0 },
        CallNative {
            dst: 2,
            base: 2,
            id: LIVE,
            argc: 0,
        },
    ];
    main.extend(log_reg(2, 3));
    main.extend([
        LoadConst { dst: 2, k: 1 },
        CallNative {
            dst: 2,
            base: 2,
            id: LOG,
            argc: 1,
        },
        ReturnVoid {},
    ]);
    let f1 = func(
        "f1",
        0,
        2,
        vec![
            NewStruct { dst: 0, sid: 0 },
            Call {
                dst: 1,
                base: 1,
                func: 2,
            },
            Return { src: 1 },
        ],
    );
    let f2 = func(
        "f2",
        0,
        2,
        vec![
            NewArr { dst: 0, cap: 0 },
            Call {
                dst: 1,
                base: 1,
                func: 3,
            },
            Return { src: 1 },
        ],
    );
    let f3 = func(
        "f3",
        0,
        2,
        vec![
            NewMap { dst: 1 },
            LoadConst { dst: 0, k: 0 },
            Throw { src: 0 },
        ],
    );
    p.functions = vec![func("<main>", 0, 4, main), f1, f2, f3];
    let (code, out, err) = run(p);
    assert_eq!(err, "");
    assert_eq!(code, 0);
    assert_eq!(out, "boom\n0\nafter\n");
}

#[test]
fn native_throw_is_caught_and_uncaught_throw_fails() {
    let mut p = program(vec![]);
    p.consts = vec![Const::Text("from native".into())];
    p.functions = vec![func(
        "<main>",
        0,
        3,
        vec![
            TryEnter { reg: 0, off: 3 },
            LoadConst { dst: 1, k: 0 },
            CallNative {
                dst: 1,
                base: 1,
                id: NTHROW,
                argc: 1,
            },
            TryExit {},
            CallNative {
                dst: 2,
                base: 0,
                id: LOG,
                argc: 1,
            },
            Throw { src: 0 },
        ],
    )];
    let (code, out, err) = run(p);
    assert_eq!(out, "from native\n");
    assert_eq!(err, "fail: from native\n");
    assert_eq!(code, 1);
}

#[test]
fn array_index_failure() {
    let mut main = vec![NewArr { dst: 0, cap: 0 }];
    for i in 0..3 {
        main.push(LoadInt { dst: 1, imm: i });
        main.push(ArrPush { arr: 0, src: 1 });
    }
    main.extend([
        LoadInt { dst: 2, imm: 5 },
        ArrGet {
            dst: 3,
            arr: 0,
            idx: 2,
        },
        ReturnVoid {},
    ]);
    let mut f = func("<main>", 0, 4, main);
    f.lines = vec![1, 1, 1, 1, 1, 1, 1, 3, 4, 4];
    let (code, _, err) = run(program(vec![f]));
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "fail: index 5 out of range for array of length 3 at prog.f:4\n"
    );
}

#[test]
fn runtime_failure_messages() {
    fn fails(code: Vec<Instr>, structs: Vec<Record>, want: &str) {
        let n = code.len();
        let mut p = program(vec![]);
        p.structs = structs;
        p.functions = vec![func("<main>", 0, 6, code)];
        let (status, _, err) = run(p);
        assert_eq!(status, 1);
        assert_eq!(err, format!("fail: {want} at prog.f:{n}\n"));
    }
    // Field read through a null struct held by a null field.
    fails(
        vec![
            NewStruct { dst: 0, sid: 0 },
            GetField {
                dst: 1,
                obj: 0,
                field: 3,
            },
            GetField {
                dst: 2,
                obj: 1,
                field: 1,
            },
        ],
        point_structs(),
        "field 'label' read through null",
    );
    fails(
        vec![
            NewStruct { dst: 0, sid: 0 },
            GetField {
                dst: 1,
                obj: 0,
                field: 3,
            },
            SetField {
                obj: 1,
                field: 0,
                src: 0,
            },
        ],
        point_structs(),
        "field 'x' written through null",
    );
    fails(
        vec![
            LoadNull { dst: 0 },
            CallValue {
                dst: 1,
                callee: 0,
                base: 1,
            },
        ],
        vec![],
        "call of a null function value",
    );
}

#[test]
fn enum_failures_and_typeof() {
    let mut p = program(vec![]);
    p.structs = vec![
        Record {
            name: "Circle".into(),
            fields: vec![Field {
                name: "radius".into(),
                ty: Type::Float,
            }],
            may_cycle: false,
        },
        Record {
            name: "Square".into(),
            fields: vec![Field {
                name: "side".into(),
                ty: Type::Float,
            }],
            may_cycle: false,
        },
    ];
    p.enums = vec![
        Enum {
            name: "Shape".into(),
            members: vec![Type::Struct(0), Type::Struct(1)],
            member_names: vec!["Circle".into(), "Square".into()],
            pure_struct: true,
        },
        Enum {
            name: "Val".into(),
            members: vec![Type::Int, Type::Text],
            member_names: vec!["int".into(), "text".into()],
            pure_struct: false,
        },
    ];
    p.enum_fields = vec![EnumFieldRef {
        sid: 0,
        field: 0,
        name: "radius".into(),
        enum_id: 0,
    }];
    let mut main = vec![
        NewStruct { dst: 0, sid: 1 },
        EnumTypeof {
            dst: 1,
            src: 0,
            enum_id: 0,
        },
        CallNative {
            dst: 1,
            base: 1,
            id: LOG,
            argc: 1,
        },
        LoadInt { dst: 2, imm: 42 },
        EnumWrap {
            dst: 3,
            src: 2,
            member: 0,
        },
        EnumTag {
            dst: 4,
            src: 3,
            enum_id: 1,
        },
    ];
    main.extend(log_reg(4, 5));
    main.extend(log_reg(3, 5));
    main.extend([EnumField {
        dst: 1,
        obj: 0,
        idx: 0,
    }]);
    let n = main.len();
    p.functions = vec![func("<main>", 0, 6, main)];
    let (code, out, err) = run(p.clone());
    assert_eq!(out, "Square\n0\n42\n");
    assert_eq!(
        err,
        format!(
            "fail: field 'radius' is only valid when this Shape value is a Circle at prog.f:{n}\n"
        )
    );
    assert_eq!(code, 1);

    p.functions = vec![func(
        "<main>",
        0,
        2,
        vec![
            LoadNull { dst: 0 },
            EnumTag {
                dst: 1,
                src: 0,
                enum_id: 0,
            },
        ],
    )];
    let (code, _, err) = run(p);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "fail: typeof applied to a null Shape value at prog.f:2\n"
    );
}

#[test]
fn stack_overflow_is_a_failure() {
    let f = func(
        "f",
        0,
        1,
        vec![
            Call {
                dst: 0,
                base: 0,
                func: 1,
            },
            ReturnVoid {},
        ],
    );
    let main = func(
        "<main>",
        0,
        1,
        vec![
            Call {
                dst: 0,
                base: 0,
                func: 1,
            },
            ReturnVoid {},
        ],
    );
    let (code, _, err) = run(program(vec![main, f]));
    assert_eq!(code, 1);
    // The message, then the call stack: 100,000 frames of `f` (the entry
    // `<main>` is left out), of which the innermost and outermost ten are
    // printed.
    let ten = "    at f (prog.f:1)\n".repeat(10);
    assert_eq!(
        err,
        format!(
            "fail: stack overflow in function 'f' at prog.f:1\n{ten}    ... 99980 more frames ...\n{ten}"
        )
    );
}

#[test]
fn close_exits_with_code_and_flushes() {
    let mut p = program(vec![]);
    p.consts = vec![Const::Text("bye".into())];
    p.functions = vec![func(
        "<main>",
        0,
        2,
        vec![
            LoadConst { dst: 0, k: 0 },
            CallNative {
                dst: 0,
                base: 0,
                id: LOG,
                argc: 1,
            },
            LoadInt { dst: 1, imm: 3 },
            CallNative {
                dst: 1,
                base: 1,
                id: CLOSE,
                argc: 1,
            },
            Fail { src: 0 },
        ],
    )];
    let (code, out, err) = run(p);
    assert_eq!((code, out.as_str(), err.as_str()), (3, "bye\n", ""));
}

#[test]
fn cycles_created_in_a_loop_keep_memory_flat() {
    let mut p = program(vec![]);
    p.structs = point_structs();
    let main = vec![
        LoadInt { dst: 0, imm: 0 },
        LoadInt {
            dst: 1,
            imm: 1_000_000,
        },
        // 2: loop
        LtInt { dst: 2, a: 0, b: 1 },
        JumpIfFalse { cond: 2, off: 7 },
        NewStruct { dst: 3, sid: 0 },
        NewStruct { dst: 4, sid: 0 },
        SetField {
            obj: 3,
            field: 3,
            src: 4,
        },
        SetField {
            obj: 4,
            field: 3,
            src: 3,
        },
        CallNative {
            dst: 5,
            base: 5,
            id: LIVE,
            argc: 0,
        },
        AddIntImm {
            dst: 0,
            a: 0,
            imm: 1,
        },
        Jump { off: -9 },
        // A cycle still referenced from a local survives a collection.
        NewStruct { dst: 3, sid: 0 },
        NewStruct { dst: 4, sid: 0 },
        SetField {
            obj: 3,
            field: 3,
            src: 4,
        },
        SetField {
            obj: 4,
            field: 3,
            src: 3,
        },
        LoadNull { dst: 4 },
        LoadInt { dst: 5, imm: 99 },
        GetField {
            dst: 4,
            obj: 3,
            field: 3,
        },
        SetField {
            obj: 4,
            field: 0,
            src: 5,
        },
        LoadNull { dst: 4 },
    ];
    let mut main = main;
    // Force many collections while the local cycle is alive.
    main.extend([
        LoadInt { dst: 0, imm: 0 },
        LtInt { dst: 2, a: 0, b: 1 },
        JumpIfFalse { cond: 2, off: 7 },
        NewStruct { dst: 4, sid: 0 },
        NewStruct { dst: 5, sid: 0 },
        SetField {
            obj: 4,
            field: 3,
            src: 5,
        },
        SetField {
            obj: 5,
            field: 3,
            src: 4,
        },
        LoadNull { dst: 5 },
        AddIntImm {
            dst: 0,
            a: 0,
            imm: 1,
        },
        Jump { off: -9 },
        GetField {
            dst: 4,
            obj: 3,
            field: 3,
        },
        GetField {
            dst: 5,
            obj: 4,
            field: 0,
        },
    ]);
    main.extend(log_reg(5, 4));
    main.push(ReturnVoid {});
    p.functions = vec![func("<main>", 0, 6, main)];
    PEAK.with(|p| p.set(0));
    let (code, out, err) = run(p);
    assert_eq!(err, "");
    assert_eq!(code, 0);
    assert_eq!(out, "99\n");
    let peak = PEAK.with(|p| p.get());
    assert!(peak > 0 && peak < 50_000, "peak live objects {peak}");
}

#[test]
fn unknown_native_is_a_load_error() {
    let mut p = program(vec![func("<main>", 0, 1, vec![ReturnVoid {}])]);
    p.natives.push("nope".into());
    let e = Interpreter::new(Arc::new(p), NATIVES).unwrap_err();
    assert!(e.message.contains("'nope'"), "{}", e.message);
}

#[test]
fn globals_vivify_and_maps_work() {
    let mut p = program(vec![]);
    p.globals = vec![
        Global {
            name: "m".into(),
            ty: Type::Map(Box::new(Type::Int)),
        },
        Global {
            name: "n".into(),
            ty: Type::Int,
        },
    ];
    p.consts = vec![Const::Text("k".into()), Const::Text("z".into())];
    let mut main = vec![
        GetGlobalViv { dst: 0, g: 0 },
        LoadConst { dst: 1, k: 0 },
        LoadInt { dst: 2, imm: 5 },
        MapSet {
            map: 0,
            key: 1,
            src: 2,
        },
        LoadConst { dst: 1, k: 1 },
        MapSet {
            map: 0,
            key: 1,
            src: 2,
        },
        LoadConst { dst: 1, k: 0 },
        MapDelete { map: 0, key: 1 },
        GetGlobalViv { dst: 3, g: 0 },
        GetGlobal { dst: 4, g: 1 },
    ];
    main.extend(log_reg(3, 5));
    main.extend(log_reg(4, 5));
    main.push(ReturnVoid {});
    p.functions = vec![func("<main>", 0, 6, main)];
    let (code, out, _) = run(p);
    assert_eq!(code, 0);
    assert_eq!(out, "{\"z\":5}\n0\n");
}

#[test]
fn return_inside_try_drops_the_handler() {
    // f: try { return 1 } catch ... ; main: call f, then throw uncaught:
    // the stale handler of f must not catch it.
    let mut p = program(vec![]);
    p.consts = vec![Const::Text("late".into())];
    let f = func(
        "f",
        0,
        2,
        vec![
            TryEnter { reg: 0, off: 2 },
            LoadInt { dst: 1, imm: 1 },
            Return { src: 1 },
            Return { src: 0 },
        ],
    );
    let main = vec![
        Call {
            dst: 0,
            base: 0,
            func: 1,
        },
        LoadConst { dst: 1, k: 0 },
        Throw { src: 1 },
    ];
    p.functions = vec![func("<main>", 0, 2, main), f];
    let (code, out, err) = run(p);
    assert_eq!((code, out.as_str(), err.as_str()), (1, "", "fail: late\n"));
}

#[test]
fn clear_releases_and_nulls() {
    let mut p = program(vec![]);
    p.structs = point_structs();
    p.consts = vec![Const::Text("secret".into())];
    let mut main = vec![
        NewStruct { dst: 0, sid: 0 },
        LoadConst { dst: 1, k: 0 },
        AppendText { dst: 2, src: 1 },
        SetField {
            obj: 0,
            field: 1,
            src: 2,
        },
        LoadNull { dst: 2 },
        Clear { reg: 0 },
        CallNative {
            dst: 3,
            base: 3,
            id: LIVE,
            argc: 0,
        },
    ];
    main.extend(log_reg(3, 4));
    main.push(IsNull { dst: 3, src: 0 });
    main.extend(log_reg(3, 4));
    main.push(ReturnVoid {});
    p.functions = vec![func("<main>", 0, 5, main)];
    let (code, out, _) = run(p);
    assert_eq!((code, out.as_str()), (0, "0\ntrue\n"));
}

#[test]
fn fused_compare_branches_match_unfused_semantics() {
    // Count i in 0..10 with i <= 4, i == 7, i != 3, and a float loop.
    let mut p = program(vec![]);
    p.consts = vec![Const::Float(0.5), Const::Float(3.0)];
    let mut main = vec![
        LoadInt { dst: 0, imm: 0 }, // i
        LoadInt { dst: 1, imm: 0 }, // count
        LoadInt { dst: 2, imm: 10 },
        LoadInt { dst: 3, imm: 4 },
        LoadInt { dst: 4, imm: 7 },
        // 5: loop head
        LtInt { dst: 5, a: 0, b: 2 },
        JumpIfFalse { cond: 5, off: 10 },
        LeInt { dst: 5, a: 0, b: 3 },
        JumpIfFalse { cond: 5, off: 1 },
        AddIntImm {
            dst: 1,
            a: 1,
            imm: 1,
        },
        EqInt { dst: 5, a: 0, b: 4 },
        JumpIfTrue { cond: 5, off: 2 },
        NeInt { dst: 5, a: 0, b: 4 },
        JumpIfTrue { cond: 5, off: 1 },
        AddIntImm {
            dst: 1,
            a: 1,
            imm: 100,
        },
        AddIntImm {
            dst: 0,
            a: 0,
            imm: 1,
        },
        Jump { off: -12 },
    ];
    main.extend(log_reg(1, 6));
    main.extend([
        LoadConst { dst: 0, k: 0 },
        LoadConst { dst: 2, k: 1 },
        LoadInt { dst: 1, imm: 0 },
        LeFloat { dst: 5, a: 0, b: 2 },
        JumpIfFalse { cond: 5, off: 4 },
        AddFloat { dst: 0, a: 0, b: 0 },
        AddIntImm {
            dst: 1,
            a: 1,
            imm: 1,
        },
        LtFloat { dst: 5, a: 2, b: 0 },
        JumpIfFalse { cond: 5, off: -6 },
    ]);
    main.extend(log_reg(1, 6));
    main.push(ReturnVoid {});
    p.functions = vec![func("<main>", 0, 7, main)];
    let (code, out, _) = run(p);
    assert_eq!((code, out.as_str()), (0, "105\n3\n"));
}

/// A bottom-tested counting loop (`AddIntImm` then a `JumpLtInt`/`JumpLeInt`
/// back) runs as `AddIntImmCmpJump` in the VM's copy of
/// the code; both orders of `<`/`<=`, a count-down and a loop entered at its
/// test (the compare is a jump target) give the plain results.
#[test]
fn increment_and_loop_fusion() {
    let mut main = vec![
        // sum 0..10 (i < 10), entered at the test
        LoadInt { dst: 0, imm: 0 },
        LoadInt { dst: 1, imm: 0 },
        LoadInt { dst: 2, imm: 10 },
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
    ];
    main.extend(log_reg(0, 6));
    main.extend([
        // count down from 5 while 1 <= i, by -2: 5 + 3 + 1
        LoadInt { dst: 0, imm: 0 },
        LoadInt { dst: 1, imm: 5 },
        LoadInt { dst: 2, imm: 1 },
        AddInt { dst: 0, a: 0, b: 1 },
        AddIntImm {
            dst: 1,
            a: 1,
            imm: -2,
        },
        JumpLeInt {
            a: 2,
            b: 1,
            off: -3,
        },
    ]);
    main.extend(log_reg(0, 6));
    main.push(ReturnVoid {});
    let (code, out, _) = run(program(vec![func("<main>", 0, 7, main)]));
    assert_eq!(code, 0);
    assert_eq!(out, "45\n9\n");
}

/// A serialized `AddIntImmCmpJump` must be followed by an int compare-and-branch.
#[test]
fn lone_increment_and_loop_is_rejected() {
    let main = vec![
        LoadInt { dst: 0, imm: 0 },
        AddIntImmCmpJump {
            dst: 0,
            a: 0,
            imm: 1,
        },
        ReturnVoid {},
    ];
    let err =
        Interpreter::new(Arc::new(program(vec![func("<main>", 0, 2, main)])), NATIVES).unwrap_err();
    assert!(
        err.message.contains("increment-and-loop"),
        "{}",
        err.message
    );
}

/// `NewArrFrom` builds an array literal from consecutive registers (ints
/// and managed values alike); a block past the window is rejected.
#[test]
fn new_arr_from_registers() {
    let mut p = program(vec![func(
        "<main>",
        0,
        6,
        vec![
            LoadInt { dst: 1, imm: 7 },
            LoadConst { dst: 2, k: 0 },
            LoadInt { dst: 3, imm: -1 },
            NewArrFrom {
                dst: 0,
                base: 1,
                n: 3,
            },
            LoadNull { dst: 2 },
            ToText {
                dst: 4,
                src: 0,
                mode: 0,
            },
            CallNative {
                dst: 4,
                base: 4,
                id: LOG,
                argc: 1,
            },
            ReturnVoid {},
        ],
    )]);
    p.consts = vec![festina_vm::program::Const::Text("x".into())];
    let (code, out, _) = run(p);
    assert_eq!(code, 0);
    assert_eq!(out, "[7,\"x\",-1]\n");
    let bad = program(vec![func(
        "<main>",
        0,
        2,
        vec![
            NewArrFrom {
                dst: 0,
                base: 1,
                n: 2,
            },
            ReturnVoid {},
        ],
    )]);
    let err = Interpreter::new(Arc::new(bad), NATIVES).unwrap_err();
    assert!(err.message.contains("element block"), "{}", err.message);
}

/// Every compare-and-branch instruction, taken and not taken, on ints,
/// immediates, a null int (ordered as 0, equal only to null) and floats
/// with NaN (every ordered comparison false; the `Not` forms true).
#[test]
fn compare_and_branch_instructions() {
    // r0 = 3, r1 = 7, r2 = null int, r3 = 1.5, r4 = NaN
    let mut main = vec![
        LoadInt { dst: 0, imm: 3 },
        LoadInt { dst: 1, imm: 7 },
        LoadNull { dst: 2 },
        LoadConst { dst: 3, k: 0 },
        LoadConst { dst: 4, k: 1 },
    ];
    // Logs 1 when `branch` is taken, 0 when it falls through.
    let case = |branch: Instr| {
        let mut v = vec![
            branch,
            LoadInt { dst: 5, imm: 0 },
            Jump { off: 1 },
            LoadInt { dst: 5, imm: 1 },
        ];
        v.extend(log_reg(5, 6));
        v
    };
    let cases = [
        JumpLtInt { a: 0, b: 1, off: 2 },
        JumpLtInt { a: 1, b: 0, off: 2 },
        JumpLeInt { a: 0, b: 0, off: 2 },
        JumpEqInt { a: 0, b: 0, off: 2 },
        JumpEqInt { a: 2, b: 2, off: 2 },
        JumpNeInt { a: 0, b: 1, off: 2 },
        JumpNeInt { a: 2, b: 2, off: 2 },
        JumpLtIntImm {
            a: 0,
            imm: 4,
            off: 2,
        },
        JumpLeIntImm {
            a: 0,
            imm: 2,
            off: 2,
        },
        JumpGtIntImm {
            a: 0,
            imm: -1,
            off: 2,
        },
        JumpGeIntImm {
            a: 0,
            imm: 4,
            off: 2,
        },
        JumpEqIntImm {
            a: 0,
            imm: 3,
            off: 2,
        },
        JumpEqIntImm {
            a: 2,
            imm: 0,
            off: 2,
        },
        JumpNeIntImm {
            a: 2,
            imm: 0,
            off: 2,
        },
        JumpLtIntImm {
            a: 2,
            imm: 1,
            off: 2,
        },
        JumpLtFloat { a: 3, b: 3, off: 2 },
        JumpLeFloat { a: 3, b: 3, off: 2 },
        JumpLtFloat { a: 4, b: 3, off: 2 },
        JumpNotLtFloat { a: 4, b: 3, off: 2 },
        JumpNotLeFloat { a: 3, b: 3, off: 2 },
        JumpNotLeFloat { a: 3, b: 4, off: 2 },
    ];
    for c in cases {
        main.extend(case(c));
    }
    main.push(ReturnVoid {});
    let mut p = program(vec![func("<main>", 0, 7, main)]);
    p.consts = vec![Const::Float(1.5), Const::Float(f64::NAN)];
    let (code, out, _) = run(p);
    assert_eq!(code, 0);
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(
        got,
        [
            "1", "0", "1", "1", "1", "1", "0", "1", "0", "1", "0", "1", "0", "1", "1", "0", "1",
            "0", "1", "0", "1"
        ]
    );
}

/// `MulInt` feeding the next `AddInt` (`x * k + c`) runs as `MulAddInt` in
/// the VM's copy of the code: the product on either side of the sum, the
/// sum written over a register holding text (the full step releases it),
/// and a jump straight to the `AddInt` all give the plain results.
#[test]
fn multiply_add_fusion() {
    let mut main = vec![
        LoadInt { dst: 0, imm: 6 },
        LoadInt { dst: 1, imm: 7 },
        // r2 = 6 * 7; r3 = r2 + 1 (product on the left)
        MulInt { dst: 2, a: 0, b: 1 },
        AddInt { dst: 3, a: 2, b: 0 },
    ];
    main.extend(log_reg(3, 6));
    main.extend([
        // r3 = r0 + r2 where r2 = 7 * 7 (product on the right), into a
        // register that holds text
        LoadConst { dst: 4, k: 0 },
        MulInt { dst: 2, a: 1, b: 1 },
        AddInt { dst: 4, a: 0, b: 2 },
    ]);
    main.extend(log_reg(4, 6));
    main.extend([
        // jump over the multiply to its add: r5 = r2 (49) + r0
        Jump { off: 1 },
        MulInt { dst: 2, a: 0, b: 0 },
        AddInt { dst: 5, a: 2, b: 0 },
    ]);
    main.extend(log_reg(5, 6));
    main.push(ReturnVoid {});
    let mut p = program(vec![func("<main>", 0, 7, main)]);
    p.consts = vec![Const::Text("held".into())];
    let (code, out, _) = run(p);
    assert_eq!((code, out.as_str()), (0, "48\n55\n55\n"));
}
