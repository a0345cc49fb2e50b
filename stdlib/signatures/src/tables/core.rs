//! Output, failure and exit (§14.2, §12.3, §16.1), `argv` (§16.2), and
//! the inline conversions of the scalars and structs (§8.3, §8.21).
//!
//! - `log(v)`: `v`'s text form and a newline on stdout; a null prints an
//!   empty line.
//! - `fail(msg, fields)`: one JSON line on stderr, then exit status 1.
//! - `close(code)`: exit with `code`.
//! - `argv` (native `argv`, emitted by the checker for the global): the
//!   program path and its arguments as one shared `arr[text]`.

use crate::{builtin, method, Facility, Impl::Inline, Recv, Shape as S, Table};

/// The table.
pub const TABLE: Table = Table {
    builtins: &[
        builtin("log", &[S::Rendered], S::Void, "log"),
        builtin("fail", &[S::Rendered, S::MapText], S::Void, "fail_fields"),
        builtin("close", &[S::Int], S::Void, "close"),
    ],
    methods: &[
        method(Recv::Int, "toFloat", &[], S::Float, Inline),
        method(Recv::Int, "toText", &[], S::Text, Inline),
        method(Recv::Float, "toText", &[], S::Text, Inline),
        method(Recv::Bool, "toText", &[], S::Text, Inline),
        method(Recv::Struct, "toText", &[], S::Text, Inline),
    ],
    natives: &["argv"],
    reserved: &["log", "fail", "close", "argv"],
    ..Table::empty("core", Facility::Core)
};
