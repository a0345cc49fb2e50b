//! Which handlers may run interleaved with others: the analysis behind
//! parking (`interp/park.rs`).
//!
//! §19.1 services connections "one handler at a time". A handler that
//! waits for the blocking client (`req.send()`, §19.5) can nevertheless
//! be set aside while another runs, *when nothing it can observe depends
//! on the order*: then the interleaved run is indistinguishable from
//! running the requests one after the other in some order, which the
//! program could not tell from a different arrival order. This module
//! decides that conservatively, from the verified bytecode of the handler
//! and of every function it calls directly:
//!
//! - no global is written (`SetGlobal`, or `GetGlobalViv`, which may
//!   create the value it reads);
//! - a global is read only when it holds a scalar or a `text` (immutable:
//!   no handler can change what another reads through it) and is written
//!   only by the start-up code (the entry function, a thread's
//!   initializer), which has finished before any handler runs;
//! - no function value is made or called (`LoadFunc`, `CallValue`): every
//!   callee is known, and no callback escapes into a native;
//! - every native called is one the caller's predicate accepts: natives
//!   whose effects stay within their arguments (texts, arrays, maps,
//!   JSON, URLs, the `http` values the handler holds, answering its own
//!   request) and the blocking client itself. Output (`log`), the
//!   database, timers, threads, files, processes, randomness and
//!   WebSocket sockets are order-visible and refused by the standard
//!   library's predicate.
//!
//! What such a handler can reach is its own request, the values it made
//! and immutable values: another handler cannot observe it, nor it
//! another. A runtime failure in one still ends the process (§14.2),
//! as it does in a pool of threads while other instances are answering.

use crate::opcode::Instr;
use crate::program::Program;
use crate::types::Type;

/// Whether function `f` of `program` may be interleaved with other
/// handlers (see the module documentation). `startup` are the functions
/// that run before any handler (the entry function, or a thread's
/// initializer); `native_ok` says whether a native, by name, keeps its
/// effects within its arguments.
pub fn self_contained(
    program: &Program,
    f: u32,
    startup: &[u32],
    native_ok: &dyn Fn(&str) -> bool,
) -> bool {
    let n = program.functions.len();
    if f as usize >= n {
        return false;
    }
    // The start-up functions and, to a fixpoint, the functions that only
    // start-up functions call (directly, never as a function value): a
    // top-level helper called from `<top:file>`, which `<main>` calls.
    let mut callers: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut as_value = vec![false; n];
    for (i, func) in program.functions.iter().enumerate() {
        for ins in &func.code {
            match *ins {
                Instr::Call { func: c, .. } => {
                    if let Some(x) = callers.get_mut(c as usize) {
                        x.push(i as u32);
                    }
                }
                Instr::LoadFunc { func: c, .. } => {
                    if let Some(x) = as_value.get_mut(c as usize) {
                        *x = true;
                    }
                }
                _ => {}
            }
        }
    }
    let mut in_startup = vec![false; n];
    for &s in startup {
        if let Some(x) = in_startup.get_mut(s as usize) {
            *x = true;
        }
    }
    loop {
        let mut grew = false;
        for c in 0..n {
            if in_startup[c] || as_value[c] || callers[c].is_empty() {
                continue;
            }
            if callers[c].iter().all(|&k| in_startup[k as usize]) {
                in_startup[c] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    // Globals written after start-up.
    let mut unstable = vec![false; program.globals.len()];
    for (i, func) in program.functions.iter().enumerate() {
        if in_startup[i] {
            continue;
        }
        for ins in &func.code {
            if let Instr::SetGlobal { g, .. } | Instr::GetGlobalViv { g, .. } = *ins {
                if let Some(x) = unstable.get_mut(g as usize) {
                    *x = true;
                }
            }
        }
    }
    let readable = |g: u32| {
        let Some(global) = program.globals.get(g as usize) else {
            return false;
        };
        !unstable[g as usize]
            && matches!(
                global.ty,
                Type::Int | Type::Float | Type::Bool | Type::Text | Type::Color | Type::Font
            )
    };
    let mut seen = vec![false; n];
    let mut work = vec![f];
    while let Some(g) = work.pop() {
        if std::mem::replace(&mut seen[g as usize], true) {
            continue;
        }
        for ins in &program.functions[g as usize].code {
            match *ins {
                Instr::SetGlobal { .. }
                | Instr::GetGlobalViv { .. }
                | Instr::LoadFunc { .. }
                | Instr::CallValue { .. } => return false,
                Instr::GetGlobal { g, .. } if !readable(g) => return false,
                Instr::Call { func, .. } => {
                    if func as usize >= n {
                        return false;
                    }
                    work.push(func as u32);
                }
                Instr::CallNative { id, .. } => match program.natives.get(id as usize) {
                    Some(name) if native_ok(name) => {}
                    _ => return false,
                },
                _ => {}
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Function, Global};

    fn program(functions: Vec<Function>, globals: Vec<Global>, natives: &[&str]) -> Program {
        Program {
            files: vec!["t.f".into()],
            consts: vec![],
            functions,
            entry: 0,
            globals,
            structs: vec![],
            tables: vec![],
            enums: vec![],
            enum_fields: vec![],
            natives: natives.iter().map(|s| s.to_string()).collect(),
            handlers: vec![],
            types: vec![],
        }
    }

    fn global(name: &str, ty: Type) -> Global {
        Global {
            name: name.into(),
            ty,
        }
    }

    fn ok(name: &str) -> bool {
        name != "log"
    }

    #[test]
    fn reads_of_start_up_texts_and_allowed_natives_pass() {
        let p = program(
            vec![
                // 0: entry, writes g0 and calls 2 (only it calls 2).
                Function::hand_written(
                    "<main>",
                    0,
                    2,
                    vec![
                        Instr::Call {
                            dst: 0,
                            base: 1,
                            func: 2,
                        },
                        Instr::ReturnVoid {},
                    ],
                ),
                // 1: the handler: reads g0, calls natives 0 and 1.
                Function::hand_written(
                    "h",
                    1,
                    3,
                    vec![
                        Instr::GetGlobal { dst: 1, g: 0 },
                        Instr::CallNative {
                            dst: 1,
                            base: 1,
                            id: 1,
                            argc: 1,
                        },
                        Instr::ReturnVoid {},
                    ],
                ),
                // 2: start-up helper writing g0.
                Function::hand_written(
                    "top",
                    0,
                    1,
                    vec![Instr::SetGlobal { g: 0, src: 0 }, Instr::ReturnVoid {}],
                ),
            ],
            vec![global("u", Type::Text)],
            &["log", "http_send"],
        );
        assert!(self_contained(&p, 1, &[0], &ok));
        // Without the start-up set, g0's writer runs any time.
        assert!(!self_contained(&p, 1, &[], &ok));
    }

    #[test]
    fn a_helper_only_start_up_code_calls_is_start_up_code() {
        let call = |func: u16| Instr::Call {
            dst: 0,
            base: 1,
            func,
        };
        let read_then_return = vec![Instr::GetGlobal { dst: 1, g: 0 }, Instr::ReturnVoid {}];
        let p = |helper_also_called_by_handler: bool| {
            let mut handler = read_then_return.clone();
            if helper_also_called_by_handler {
                handler.insert(0, call(3));
            }
            program(
                vec![
                    // 0: entry -> 2 (the file's top level) -> 3 (a helper
                    // writing g0).
                    Function::hand_written("<main>", 0, 2, vec![call(2), Instr::ReturnVoid {}]),
                    Function::hand_written("h", 1, 3, handler),
                    Function::hand_written("top", 0, 2, vec![call(3), Instr::ReturnVoid {}]),
                    Function::hand_written(
                        "init",
                        0,
                        1,
                        vec![Instr::SetGlobal { g: 0, src: 0 }, Instr::ReturnVoid {}],
                    ),
                ],
                vec![global("t", Type::Text)],
                &[],
            )
        };
        assert!(self_contained(&p(false), 1, &[0], &ok));
        // Called by the handler too, the helper writes g0 at any time.
        assert!(!self_contained(&p(true), 1, &[0], &ok));
    }

    #[test]
    fn refused_instructions_and_natives() {
        let body = |ins: Instr| {
            program(
                vec![
                    Function::hand_written("<main>", 0, 1, vec![Instr::ReturnVoid {}]),
                    Function::hand_written("h", 1, 3, vec![ins, Instr::ReturnVoid {}]),
                ],
                vec![
                    global("a", Type::Arr(Box::new(Type::Int))),
                    global("n", Type::Int),
                ],
                &["log", "http_send"],
            )
        };
        let refused = [
            Instr::SetGlobal { g: 1, src: 0 },
            Instr::GetGlobalViv { dst: 0, g: 1 },
            Instr::GetGlobal { dst: 0, g: 0 },
            Instr::LoadFunc { dst: 0, func: 1 },
            Instr::CallValue {
                dst: 0,
                callee: 0,
                base: 1,
            },
            Instr::CallNative {
                dst: 0,
                base: 1,
                id: 0,
                argc: 1,
            },
        ];
        for ins in refused {
            assert!(!self_contained(&body(ins), 1, &[0], &ok), "{ins:?}");
        }
        assert!(self_contained(
            &body(Instr::GetGlobal { dst: 0, g: 1 }),
            1,
            &[0],
            &ok
        ));
        // A callee that logs makes its caller order-visible too.
        let p = program(
            vec![
                Function::hand_written("<main>", 0, 1, vec![Instr::ReturnVoid {}]),
                Function::hand_written(
                    "h",
                    1,
                    3,
                    vec![
                        Instr::Call {
                            dst: 0,
                            base: 1,
                            func: 2,
                        },
                        Instr::ReturnVoid {},
                    ],
                ),
                Function::hand_written(
                    "f",
                    0,
                    2,
                    vec![
                        Instr::CallNative {
                            dst: 0,
                            base: 1,
                            id: 0,
                            argc: 1,
                        },
                        Instr::ReturnVoid {},
                    ],
                ),
            ],
            vec![],
            &["log"],
        );
        assert!(!self_contained(&p, 1, &[0], &ok));
    }
}
