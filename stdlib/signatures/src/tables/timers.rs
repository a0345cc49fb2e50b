//! Timers (§12.4): callbacks run from the event loop.

use crate::{builtin, Facility, Shape as S, Table};

/// The table.
pub const TABLE: Table = Table {
    builtins: &[
        builtin(
            "setTimeout",
            &[S::TimerCallback, S::Int],
            S::Int,
            "set_timeout",
        ),
        builtin(
            "setInterval",
            &[S::TimerCallback, S::Int],
            S::Int,
            "set_interval",
        ),
        builtin("clearTimeout", &[S::Int], S::Void, "clear_timer"),
        builtin("clearInterval", &[S::Int], S::Void, "clear_timer"),
    ],
    reserved: &["setTimeout", "setInterval", "clearTimeout", "clearInterval"],
    ..Table::empty("timers", Facility::Core)
};
