//! Parking (`interp/park.rs`) on hand-built programs: a native that
//! returns `Trap::Park` under `Interpreter::call_parkable` sets the call
//! aside (frames, open `try` handlers, registers); `resume_parked` runs it
//! on with the native's result or a throw, at any register-stack
//! position, as often as it parks; `may_park` is true only for a native
//! the parkable call made directly; dropping a parked call releases its
//! values. Every test runs with the fast tier and with the full step.

use festina_vm::interp::{Interpreter, Parked};
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::opcode::Instr::{self, *};
use festina_vm::program::{Const, Function, Program};
use festina_vm::value::Value;
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    /// What `may_park()` said to each call of `wait` and `rogue`.
    static SEEN: RefCell<Vec<bool>> = const { RefCell::new(Vec::new()) };
    /// The parked call the native `resume_here` runs on.
    static STASH: RefCell<Option<Parked>> = const { RefCell::new(None) };
}

fn seen() -> Vec<bool> {
    SEEN.with(|s| std::mem::take(&mut *s.borrow_mut()))
}

/// `wait(n)`: parks (storing nothing) when it may; else returns `n * 2`.
fn t_wait(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let may = it.may_park();
    SEEN.with(|s| s.borrow_mut().push(may));
    if may {
        return Err(Trap::Park);
    }
    Ok(Value::Int(a[0].as_int() * 2))
}

/// `callback(f)`: a native calling back into Festina: `f(3)`.
fn t_callback(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    it.call_function(&a[0], &[Value::Int(3)])
}

/// `resume_here(n)`: run the stashed parked call on from inside this
/// native (its register window above the caller's) with the result `n`.
fn t_resume_here(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let p = STASH
        .with(|s| s.borrow_mut().take())
        .expect("a parked call is stashed");
    it.resume_parked(p, Ok(a[0].clone()))
}

/// `park_here(n)`: `handler(n)` called parkably from inside this native
/// (its register window above the caller's); the parked call goes to the
/// stash.
fn t_park_here(it: &mut Interpreter, a: &[Value]) -> Result<Value, Trap> {
    let r = it.call_parkable(&Value::Func(HANDLER), &[a[0].clone()]);
    assert!(matches!(r, Err(Trap::Park)), "{r:?}");
    let p = it.take_parked().expect("set aside");
    STASH.with(|s| *s.borrow_mut() = Some(p));
    Ok(Value::Int(0))
}

/// `rogue()`: parks whether or not it may (a faulty native).
fn t_rogue(it: &mut Interpreter, _a: &[Value]) -> Result<Value, Trap> {
    let may = it.may_park();
    SEEN.with(|s| s.borrow_mut().push(may));
    Err(Trap::Park)
}

const NATIVES: &[NativeEntry] = &[
    NativeEntry {
        name: "wait",
        func: t_wait,
    },
    NativeEntry {
        name: "callback",
        func: t_callback,
    },
    NativeEntry {
        name: "resume_here",
        func: t_resume_here,
    },
    NativeEntry {
        name: "rogue",
        func: t_rogue,
    },
    NativeEntry {
        name: "park_here",
        func: t_park_here,
    },
];
const WAIT: u16 = 0;
const CALLBACK: u16 = 1;
const RESUME_HERE: u16 = 2;
const ROGUE: u16 = 3;
const PARK_HERE: u16 = 4;

// Constants.
const BAR: u32 = 0;
const CAUGHT: u32 = 1;
const OUTER: u32 = 2;

// Functions.
const HANDLER: u32 = 1;
const HELPER: u32 = 2;
const TWICE: u32 = 3;
const SCRIBBLE: u32 = 4;
const RESUMER: u32 = 5;
const NESTED: u32 = 6;
const CALLEE: u32 = 7;
const HOLDER: u32 = 8;
const OUTER_TRY: u32 = 9;
const ROGUE_FN: u32 = 10;
const PARKER: u32 = 11;

fn func(name: &str, nparams: u16, nregs: u16, code: Vec<Instr>) -> Function {
    Function::hand_written(name, nparams, nregs, code)
}

fn functions() -> Vec<Function> {
    vec![
        func("<main>", 0, 1, vec![ReturnVoid {}]),
        // handler(x) = `${x}|${helper(x)}`: the helper's frame sits on top
        // of this one while it waits.
        func(
            "handler",
            1,
            4,
            vec![
                Move { dst: 3, src: 0 },
                Call {
                    dst: 1,
                    base: 3,
                    func: HELPER as u16,
                },
                ToText {
                    dst: 2,
                    src: 0,
                    mode: 0,
                },
                LoadConst { dst: 3, k: BAR },
                Concat { dst: 2, a: 2, b: 3 },
                Concat { dst: 2, a: 2, b: 1 },
                Return { src: 2 },
            ],
        ),
        // helper(y): try { return `${wait(y)}` } catch (e) { return
        // `caught ${e}` }.
        func(
            "helper",
            1,
            4,
            vec![
                TryEnter { reg: 1, off: 5 },
                Move { dst: 2, src: 0 },
                CallNative {
                    dst: 2,
                    base: 2,
                    id: WAIT,
                    argc: 1,
                },
                TryExit {},
                ToText {
                    dst: 3,
                    src: 2,
                    mode: 0,
                },
                Return { src: 3 },
                LoadConst { dst: 3, k: CAUGHT },
                Concat { dst: 3, a: 3, b: 1 },
                Return { src: 3 },
            ],
        ),
        // twice(x) = helper(x) + "|" + helper(x + 1): waits twice.
        func(
            "twice",
            1,
            5,
            vec![
                Move { dst: 4, src: 0 },
                Call {
                    dst: 1,
                    base: 4,
                    func: HELPER as u16,
                },
                AddIntImm {
                    dst: 4,
                    a: 0,
                    imm: 1,
                },
                Call {
                    dst: 2,
                    base: 4,
                    func: HELPER as u16,
                },
                LoadConst { dst: 3, k: BAR },
                Concat { dst: 1, a: 1, b: 3 },
                Concat { dst: 1, a: 1, b: 2 },
                Return { src: 1 },
            ],
        ),
        // scribble(): fills a wide window with texts and returns their
        // count (overwrites the registers a parked call left).
        func("scribble", 0, 24, {
            let mut code = Vec::new();
            for r in 0..23 {
                code.push(LoadConst { dst: r, k: OUTER });
            }
            code.push(LoadInt { dst: 23, imm: 23 });
            code.push(Return { src: 23 });
            code
        }),
        // resumer(): a wide window holding live values; resumes the
        // stashed call from inside a native and returns
        // `${resumed}/${R[1]}` (its own register intact).
        func(
            "resumer",
            0,
            30,
            vec![
                LoadConst { dst: 1, k: OUTER },
                NewArr { dst: 2, cap: 0 },
                ArrPush { arr: 2, src: 1 },
                LoadInt { dst: 29, imm: 5 },
                CallNative {
                    dst: 3,
                    base: 29,
                    id: RESUME_HERE,
                    argc: 1,
                },
                LoadConst { dst: 4, k: BAR },
                Concat { dst: 3, a: 3, b: 4 },
                Concat { dst: 3, a: 3, b: 1 },
                Return { src: 3 },
            ],
        ),
        // nested() = callback(callee): `wait` runs inside a callback.
        func(
            "nested",
            0,
            2,
            vec![
                LoadFunc {
                    dst: 1,
                    func: CALLEE,
                },
                CallNative {
                    dst: 0,
                    base: 1,
                    id: CALLBACK,
                    argc: 1,
                },
                Return { src: 0 },
            ],
        ),
        // callee(n) = wait(n).
        func(
            "callee",
            1,
            2,
            vec![
                Move { dst: 1, src: 0 },
                CallNative {
                    dst: 1,
                    base: 1,
                    id: WAIT,
                    argc: 1,
                },
                Return { src: 1 },
            ],
        ),
        // holder(x): holds an array and a map while it waits, returns
        // the array's length plus what `wait` returned.
        func(
            "holder",
            1,
            5,
            vec![
                NewArr { dst: 1, cap: 0 },
                ArrPush { arr: 1, src: 0 },
                NewMap { dst: 2 },
                MapSet {
                    map: 2,
                    key: 0,
                    src: 1,
                },
                Move { dst: 3, src: 0 },
                CallNative {
                    dst: 3,
                    base: 3,
                    id: WAIT,
                    argc: 1,
                },
                ArrLen { dst: 4, arr: 1 },
                AddInt { dst: 4, a: 4, b: 3 },
                Return { src: 4 },
            ],
        ),
        // outer_try(x): try { return holder(x) } catch (e) { return
        // `caught ${e}` }: the handler is a frame below the waiting one.
        func(
            "outer_try",
            1,
            4,
            vec![
                TryEnter { reg: 1, off: 4 },
                Move { dst: 3, src: 0 },
                Call {
                    dst: 2,
                    base: 3,
                    func: HOLDER as u16,
                },
                TryExit {},
                Return { src: 2 },
                LoadConst { dst: 3, k: CAUGHT },
                Concat { dst: 3, a: 3, b: 1 },
                Return { src: 3 },
            ],
        ),
        // rogue_fn() = rogue().
        func(
            "rogue_fn",
            0,
            1,
            vec![
                CallNative {
                    dst: 0,
                    base: 0,
                    id: ROGUE,
                    argc: 0,
                },
                Return { src: 0 },
            ],
        ),
        // parker(n): park_here(n) above a 30-register window.
        func(
            "parker",
            1,
            30,
            vec![
                Move { dst: 29, src: 0 },
                CallNative {
                    dst: 1,
                    base: 29,
                    id: PARK_HERE,
                    argc: 1,
                },
                Return { src: 1 },
            ],
        ),
    ]
}

fn program() -> Arc<Program> {
    Arc::new(Program {
        files: vec!["prog.f".into()],
        consts: vec![
            Const::Text("|".into()),
            Const::Text("caught ".into()),
            Const::Text("outer".into()),
        ],
        functions: functions(),
        entry: 0,
        natives: ["wait", "callback", "resume_here", "rogue", "park_here"]
            .map(String::from)
            .to_vec(),
        ..Program::default()
    })
}

fn interpreter(fast_tier: bool) -> Interpreter {
    let mut it = Interpreter::new(program(), NATIVES).expect("loads");
    it.set_fast_tier(fast_tier);
    it.set_signal_handling(false);
    it
}

/// Run `test` with the fast tier on and off.
fn both_tiers(test: impl Fn(&mut Interpreter)) {
    for fast in [true, false] {
        let mut it = interpreter(fast);
        seen();
        test(&mut it);
        assert_eq!(it.live_objects(), 0, "everything released (fast {fast})");
    }
}

fn f(i: u32) -> Value {
    Value::Func(i)
}

fn text(s: &str) -> Value {
    Value::text(s)
}

/// Call `func(arg)` parkably and require it to park: the parked call.
fn park(it: &mut Interpreter, func: u32, arg: i64) -> Parked {
    let r = it.call_parkable(&f(func), &[Value::Int(arg)]);
    assert!(matches!(r, Err(Trap::Park)), "{r:?}");
    let p = it.take_parked().expect("the call was set aside");
    assert!(it.take_parked().is_none(), "taken once");
    p
}

#[test]
fn a_parked_call_resumes_with_the_natives_result() {
    both_tiers(|it| {
        let p = park(it, HANDLER, 7);
        assert_eq!(seen(), [true], "wait was told it may park");
        assert!(!it.may_park(), "no native may park between calls");
        let r = it.resume_parked(p, Ok(Value::Int(42)));
        assert_eq!(r, Ok(text("7|42")));
        assert!(it.take_parked().is_none());
    });
}

#[test]
fn a_throw_at_resumption_is_caught_by_the_try_around_the_call() {
    both_tiers(|it| {
        let p = park(it, HANDLER, 7);
        let r = it.resume_parked(p, Err(Trap::Throw("late".into())));
        assert_eq!(r, Ok(text("7|caught late")));
        // A handler one frame below the waiting one: the waiting frame
        // (and the array and map it holds) is unwound.
        let p = park(it, OUTER_TRY, 4);
        assert_eq!(it.live_objects(), 2, "the parked call holds its values");
        let r = it.resume_parked(p, Err(Trap::Throw("gone".into())));
        assert_eq!(r, Ok(text("caught gone")));
        assert_eq!(it.live_objects(), 0);
        // And without a throw, the same call runs to its end.
        let p = park(it, OUTER_TRY, 4);
        assert_eq!(it.resume_parked(p, Ok(Value::Int(10))), Ok(Value::Int(11)));
    });
}

#[test]
fn a_throw_no_try_catches_comes_back_from_resume() {
    both_tiers(|it| {
        let p = park(it, HOLDER, 1);
        let r = it.resume_parked(p, Err(Trap::Throw("nobody".into())));
        assert_eq!(r, Err(Trap::Throw("nobody".into())));
        // The interpreter is usable afterwards.
        let p = park(it, HANDLER, 2);
        assert_eq!(it.resume_parked(p, Ok(Value::Int(1))), Ok(text("2|1")));
    });
}

#[test]
fn a_parked_call_resumes_at_another_register_stack_position() {
    both_tiers(|it| {
        // Something else runs where the parked call's registers were.
        let p = park(it, HANDLER, 7);
        assert_eq!(it.call_function(&f(SCRIBBLE), &[]), Ok(Value::Int(23)));
        assert_eq!(
            it.resume_parked(p, Ok(Value::Int(1))),
            Ok(text("7|1")),
            "resumed at the bottom after another call"
        );
        // Resumed from inside a native, above a 30-register window that
        // holds live values, which stay intact.
        let p = park(it, HANDLER, 8);
        STASH.with(|s| *s.borrow_mut() = Some(p));
        assert_eq!(it.call_function(&f(RESUMER), &[]), Ok(text("8|5|outer")));
        // Parked from inside a native (high on the register stack),
        // resumed at the bottom.
        assert_eq!(
            it.call_function(&f(PARKER), &[Value::Int(9)]),
            Ok(Value::Int(0))
        );
        let p = STASH.with(|s| s.borrow_mut().take()).expect("stashed");
        assert_eq!(it.resume_parked(p, Ok(Value::Int(6))), Ok(text("9|6")));
        // Parked high, resumed high again.
        assert_eq!(
            it.call_function(&f(PARKER), &[Value::Int(10)]),
            Ok(Value::Int(0))
        );
        assert_eq!(it.call_function(&f(RESUMER), &[]), Ok(text("10|5|outer")));
        assert!(!it.may_park(), "a resumption does not leave parking on");
    });
}

#[test]
fn a_call_may_park_twice() {
    both_tiers(|it| {
        let p = park(it, TWICE, 1);
        let r = it.resume_parked(p, Ok(Value::Int(10)));
        assert!(matches!(r, Err(Trap::Park)), "{r:?}");
        let p = it.take_parked().expect("parked again");
        // Something else in between.
        assert_eq!(it.call_function(&f(SCRIBBLE), &[]), Ok(Value::Int(23)));
        let r = it.resume_parked(p, Err(Trap::Throw("second".into())));
        assert_eq!(r, Ok(text("10|caught second")));
        assert_eq!(seen(), [true, true]);
        // Two parked calls at once, resumed in the other order.
        let a = park(it, TWICE, 1);
        let b = park(it, HANDLER, 2);
        assert_eq!(it.resume_parked(b, Ok(Value::Int(3))), Ok(text("2|3")));
        assert!(matches!(
            it.resume_parked(a, Ok(Value::Int(4))),
            Err(Trap::Park)
        ));
        let a = it.take_parked().expect("parked again");
        assert_eq!(it.resume_parked(a, Ok(Value::Int(5))), Ok(text("4|5")));
    });
}

#[test]
fn may_park_only_for_natives_the_parkable_call_makes() {
    both_tiers(|it| {
        // Inside a callback of a native: `wait` may not park and returns.
        assert_eq!(it.call_parkable(&f(NESTED), &[]), Ok(Value::Int(6)));
        assert_eq!(seen(), [false]);
        assert!(it.take_parked().is_none());
        // Under a plain call: neither.
        assert_eq!(
            it.call_function(&f(HANDLER), &[Value::Int(7)]),
            Ok(text("7|14"))
        );
        assert_eq!(seen(), [false]);
        assert!(it.take_parked().is_none());
        assert!(!it.may_park());
        // A native that parks where none may is an internal error, and
        // nothing is set aside.
        let r = it.call_function(&f(ROGUE_FN), &[]);
        match r {
            Err(Trap::Fail(m)) => assert!(m.contains("parked where none may"), "{m}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(seen(), [false]);
        assert!(it.take_parked().is_none());
        // Parking works after all of that.
        let p = park(it, HANDLER, 1);
        assert_eq!(it.resume_parked(p, Ok(Value::Int(0))), Ok(text("1|0")));
    });
}

#[test]
fn dropping_a_parked_call_releases_its_values() {
    both_tiers(|it| {
        let before = it.live_objects();
        let p = park(it, HOLDER, 3);
        assert_eq!(it.live_objects(), before + 2, "an array and a map wait");
        // A collection while parked keeps them (they are referenced from
        // the parked call, outside the heap).
        it.heap().collect_cycles();
        assert_eq!(it.live_objects(), before + 2);
        drop(p);
        assert_eq!(it.live_objects(), before);
        // Resumed instead, they are released by the return.
        let p = park(it, HOLDER, 3);
        assert_eq!(it.resume_parked(p, Ok(Value::Int(4))), Ok(Value::Int(5)));
        assert_eq!(it.live_objects(), before);
    });
}

#[test]
fn a_parked_call_resumes_only_on_its_own_interpreter() {
    let mut a = interpreter(true);
    let mut b = interpreter(true);
    let p = park(&mut a, HANDLER, 1);
    match b.resume_parked(p, Ok(Value::Int(1))) {
        Err(Trap::Fail(m)) => assert!(m.contains("another interpreter"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(a.live_objects(), 0);
}

#[test]
fn a_parked_call_may_outlive_its_interpreter() {
    // Its values keep what they need (the heap, the code) and are
    // released when it is dropped.
    let mut it = interpreter(true);
    let heap = std::rc::Rc::clone(it.heap());
    let p = park(&mut it, HOLDER, 1);
    drop(it);
    assert_eq!(heap.live(), 2, "the parked call's array and map");
    drop(p);
    assert_eq!(heap.live(), 0);
}
