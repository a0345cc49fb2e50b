//! The optimisation switches are read from the environment when an
//! interpreter is created (one test in its own process: it changes the
//! environment).

use festina_vm::interp::Interpreter;
use festina_vm::opcode::Instr;
use festina_vm::program::{Function, Program};
use festina_vm::switches::{NO_FAST_TIER, NO_OPT};
use std::sync::Arc;

fn fast_tier() -> bool {
    let p = Program {
        files: vec!["prog.f".into()],
        functions: vec![Function::hand_written(
            "<main>",
            0,
            1,
            vec![Instr::ReturnVoid {}],
        )],
        ..Program::default()
    };
    Interpreter::new(Arc::new(p), &[])
        .expect("loads")
        .fast_tier()
}

#[test]
fn fast_tier_switch_and_umbrella() {
    std::env::remove_var(NO_FAST_TIER);
    std::env::remove_var(NO_OPT);
    assert!(fast_tier(), "on by default");
    std::env::set_var(NO_FAST_TIER, "1");
    assert!(!fast_tier(), "FESTINA_NO_FAST_TIER=1 turns it off");
    std::env::set_var(NO_FAST_TIER, "0");
    assert!(fast_tier(), "0 leaves it on");
    std::env::remove_var(NO_FAST_TIER);
    std::env::set_var(NO_OPT, "1");
    assert!(!fast_tier(), "FESTINA_NO_OPT=1 implies it");
    std::env::set_var(NO_OPT, "");
    assert!(fast_tier(), "an empty value leaves it on");
    std::env::remove_var(NO_OPT);
}
