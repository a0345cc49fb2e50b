//! The `Math` namespace (§16.2), called as `Math.name(args)`; `float`
//! parameters accept `int` arguments (§8.3). The rounding four yield
//! `null` for a null, infinite or out-of-range argument; `floorDiv`
//! yields `null` for a zero divisor.

use crate::{builtin, Builtin, Facility, Shape as S, Table};

/// The functions.
const FUNCTIONS: &[Builtin] = &[
    builtin("floor", &[S::Float], S::Int, "math_floor"),
    builtin("ceil", &[S::Float], S::Int, "math_ceil"),
    builtin("round", &[S::Float], S::Int, "math_round"),
    builtin("trunc", &[S::Float], S::Int, "math_trunc"),
    builtin("floorDiv", &[S::Int, S::Int], S::Int, "math_floorDiv"),
    builtin("sqrt", &[S::Float], S::Float, "math_sqrt"),
    builtin("abs", &[S::Float], S::Float, "math_abs"),
    builtin("exp", &[S::Float], S::Float, "math_exp"),
    builtin("sin", &[S::Float], S::Float, "math_sin"),
    builtin("cos", &[S::Float], S::Float, "math_cos"),
    builtin("tan", &[S::Float], S::Float, "math_tan"),
    builtin("asin", &[S::Float], S::Float, "math_asin"),
    builtin("acos", &[S::Float], S::Float, "math_acos"),
    builtin("atan", &[S::Float], S::Float, "math_atan"),
    builtin("log", &[S::Float], S::Float, "math_log"),
    builtin("log2", &[S::Float], S::Float, "math_log2"),
    builtin("log10", &[S::Float], S::Float, "math_log10"),
    builtin("pow", &[S::Float, S::Float], S::Float, "math_pow"),
    builtin("min", &[S::Float, S::Float], S::Float, "math_min"),
    builtin("max", &[S::Float, S::Float], S::Float, "math_max"),
    builtin("atan2", &[S::Float, S::Float], S::Float, "math_atan2"),
    builtin("random", &[], S::Float, "math_random"),
];

/// The constants, folded at compile time.
pub const CONSTANTS: &[(&str, f64)] = &[("PI", std::f64::consts::PI), ("E", std::f64::consts::E)];

/// The table.
pub const TABLE: Table = Table {
    math: FUNCTIONS,
    reserved: &["Math"],
    ..Table::empty("math", Facility::Core)
};
