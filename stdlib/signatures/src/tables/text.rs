//! `text` (§8.4), `ascii` (§8.5), `int.toChar()` (§8.3) and the
//! `environment` namespace (§16.2). The methods taking a `regex` are in
//! [`super::regex`], `toStruct`/`toArr` in [`super::json`].
//!
//! Outcomes the natives guarantee (each has a golden test):
//! - `int.toChar()`: UTF-8 of the code point; `null` if negative, above
//!   `0x10FFFF` or a surrogate.
//! - `text.toInt()`: leading ASCII whitespace, an optional sign, decimal
//!   digits; anything after them ignored; `null` with no digits or when
//!   the value does not fit in 64 bits.
//! - `text.toAscii()`: `null` unless every character is ASCII.
//! - `text.trim()`: ASCII whitespace (space, `\t`, `\n`, `\v`, `\f`,
//!   `\r`) removed at both ends.
//! - `text.charCodeAt(i)`: code point `i` (§8.4), `null` out of range.
//! - `text.split(sep)`: empty pieces kept; an empty separator splits per
//!   code point.
//! - `text.replace(t, r)`: the first occurrence of `t`; `r` is literal.
//! - `ascii.slice(start, end)`: bytes `[start, end)` clamped to the
//!   length; negative positions count from the end.
//! - `text.slice(start, end)`, `text.indexOf(t[, start])`, `startsWith`,
//!   `endsWith`, `toUpperCase`, `toLowerCase`, `repeat`, `toFloat` and
//!   `ascii.toInt()` (the reference's additions after edition 0.44;
//!   natives in `festina-stdlib`'s `text_methods.rs`): code-point indexes,
//!   both slice ends clamped to `[0, length]`, ASCII-only case conversion,
//!   an empty `repeat` for a count of 0 or less, `toFloat` of no number is
//!   `null`.
//! - `environment.NAME`, `environment[key]` (native `env_get`, emitted by
//!   the checker): the variable's value, or `null` when unset.

use crate::{
    method, property, Facility,
    Impl::{Inline, Native},
    Recv, Shape as S, Table,
};

/// The table.
pub const TABLE: Table = Table {
    methods: &[
        method(Recv::Int, "toChar", &[], S::Text, Native("int_to_char")),
        method(Recv::Text, "toText", &[], S::Text, Inline),
        method(Recv::Text, "toInt", &[], S::Int, Native("text_to_int")),
        method(
            Recv::Text,
            "toAscii",
            &[],
            S::Ascii,
            Native("text_to_ascii"),
        ),
        method(Recv::Text, "trim", &[], S::Text, Native("text_trim")),
        method(
            Recv::Text,
            "charCodeAt",
            &[S::Int],
            S::Int,
            Native("text_char_code_at"),
        ),
        method(
            Recv::Text,
            "split",
            &[S::Text],
            S::ArrText,
            Native("text_split"),
        ),
        method(
            Recv::Text,
            "replace",
            &[S::Text, S::Text],
            S::Text,
            Native("text_replace"),
        ),
        // Added by the reference after edition 0.44 (text_methods.rs).
        method(
            Recv::Text,
            "slice",
            &[S::Int, S::Int],
            S::Text,
            Native("text_slice"),
        ),
        method(
            Recv::Text,
            "indexOf",
            &[S::Text],
            S::Int,
            Native("text_index_of"),
        ),
        method(
            Recv::Text,
            "indexOf",
            &[S::Text, S::Int],
            S::Int,
            Native("text_index_of_from"),
        ),
        method(
            Recv::Text,
            "startsWith",
            &[S::Text],
            S::Bool,
            Native("text_starts_with"),
        ),
        method(
            Recv::Text,
            "endsWith",
            &[S::Text],
            S::Bool,
            Native("text_ends_with"),
        ),
        method(
            Recv::Text,
            "toUpperCase",
            &[],
            S::Text,
            Native("text_to_upper"),
        ),
        method(
            Recv::Text,
            "toLowerCase",
            &[],
            S::Text,
            Native("text_to_lower"),
        ),
        method(
            Recv::Text,
            "repeat",
            &[S::Int],
            S::Text,
            Native("text_repeat"),
        ),
        method(
            Recv::Text,
            "toFloat",
            &[],
            S::Float,
            Native("text_to_float"),
        ),
        method(Recv::Ascii, "toInt", &[], S::Int, Native("ascii_to_int")),
        method(Recv::Ascii, "toText", &[], S::Text, Inline),
        method(Recv::Ascii, "charCodeAt", &[S::Int], S::Int, Inline),
        method(
            Recv::Ascii,
            "slice",
            &[S::Int, S::Int],
            S::Ascii,
            Native("ascii_slice"),
        ),
    ],
    properties: &[
        property(Recv::Text, "length", S::Int, Inline),
        property(Recv::Ascii, "length", S::Int, Inline),
    ],
    natives: &["env_get"],
    reserved: &["environment"],
    ..Table::empty("text", Facility::Core)
};
