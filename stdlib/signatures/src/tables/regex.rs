//! `regex` values (§8.15) and the text methods that take one.
//!
//! - `regex(pattern[, flags])`, and `/pattern/flags` literals (native
//!   `regex_literal`, emitted by the checker): a compiled `regex`; an
//!   invalid pattern is a runtime failure.
//! - `text.split(re)`: splits at every match, empty pieces kept.
//! - `text.match(re)`: the first match or `null` (`g` ignored).
//! - `text.replace(re, r)`: the first match, or every match with `g`; `r`
//!   is literal.
//! - `re.test(t)`: whether `re` matches anywhere in `t`.

use crate::{builtin, method, Facility, Impl::Native, Recv, Shape as S, Table};

/// The table.
pub const TABLE: Table = Table {
    builtins: &[
        builtin("regex", &[S::Text], S::Regex, "regex_new"),
        builtin("regex", &[S::Text, S::Text], S::Regex, "regex_new"),
    ],
    methods: &[
        method(
            Recv::Text,
            "split",
            &[S::Regex],
            S::ArrText,
            Native("regex_split"),
        ),
        method(
            Recv::Text,
            "match",
            &[S::Regex],
            S::Text,
            Native("regex_match"),
        ),
        method(
            Recv::Text,
            "replace",
            &[S::Regex, S::Text],
            S::Text,
            Native("regex_replace"),
        ),
        method(
            Recv::Regex,
            "test",
            &[S::Text],
            S::Bool,
            Native("regex_test"),
        ),
    ],
    natives: &["regex_literal"],
    reserved: &["regex"],
    ..Table::empty("regex", Facility::Core)
};
