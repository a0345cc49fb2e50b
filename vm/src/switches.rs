//! Optimisation switches.
//!
//! Every optimisation of the VM has an environment variable that turns it
//! off, so that the golden corpus can run with and without it and show
//! identical results; `FESTINA_NO_OPT=1` turns every one of them off
//! (the team's convention, README "Golden tests"). A switch is read once,
//! when the interpreter is created, never while a program runs.
//!
//! | variable | what it turns off |
//! |---|---|
//! | [`NO_OPT`] | every optimisation below |
//! | [`NO_FAST_TIER`] | the interpreter's fast tier (`run_fast`): every instruction runs in the full step |

/// The umbrella switch: set, it implies every other one.
pub const NO_OPT: &str = "FESTINA_NO_OPT";

/// Turns off the interpreter's fast tier (see the module documentation
/// of [`crate::interp`], "Dispatch").
pub const NO_FAST_TIER: &str = "FESTINA_NO_FAST_TIER";

/// True when the optimisation switched off by the environment variable
/// `var` is off: `var` or [`NO_OPT`] is set to anything but the empty
/// text or `0`.
pub fn disabled(var: &str) -> bool {
    is_set(var) || is_set(NO_OPT)
}

fn is_set(var: &str) -> bool {
    matches!(std::env::var_os(var), Some(v) if !v.is_empty() && v != "0")
}
