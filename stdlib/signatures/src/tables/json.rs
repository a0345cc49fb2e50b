//! JSON parsing (§16.4): `text.toStruct(T)` and `text.toArr(T)`, throwing
//! a descriptive text on malformed input, a wrong shape or trailing data.

use crate::{method, Facility, Impl::Native, Recv, Shape as S, Table};

/// The table.
pub const TABLE: Table = Table {
    methods: &[
        method(
            Recv::Text,
            "toStruct",
            &[S::StructTypeArg],
            S::OfTypeArg,
            Native("json_parse"),
        ),
        method(
            Recv::Text,
            "toArr",
            &[S::TypeArg],
            S::ArrOfTypeArg,
            Native("json_parse"),
        ),
    ],
    ..Table::empty("json", Facility::Core)
};
