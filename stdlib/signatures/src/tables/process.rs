//! Processes, directories, time and structured logging (§16.5). None of
//! these fails the program: every environmental problem is the documented
//! `-1`, `false`, `[]` or `null` (§2.3).

use crate::{builtin, Facility, Shape as S, Table};

/// The table.
pub const TABLE: Table = Table {
    builtins: &[
        builtin("exec", &[S::ArrText], S::Int, "exec"),
        builtin("mkdir", &[S::Text], S::Bool, "mkdir"),
        builtin("ls", &[S::Text], S::ArrText, "ls"),
        builtin("now", &[], S::Int, "now"),
        builtin("formatTime", &[S::Int, S::Text], S::Text, "format_time"),
        builtin(
            "troubleshoot",
            &[S::Rendered, S::MapText],
            S::Void,
            "troubleshoot",
        ),
    ],
    reserved: &["exec", "mkdir", "ls", "now", "formatTime", "troubleshoot"],
    ..Table::empty("process", Facility::Core)
};
