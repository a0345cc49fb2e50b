//! `blob` values: the bytes of a file and the path they came from (§8.6,
//! §12.5, §16.3, §16.6).
//!
//! Null receivers read as an empty pathless blob; `save()` without a path
//! is a runtime failure; every file-system problem is `false`. The natives
//! the checker emits by itself: `blob_load` (`blob b = path`, §8.20 rule
//! 5) and `blob_load_async` (`path.callback(fn)`, §12.5).

use crate::{
    method, property, Facility,
    Impl::{Inline, Native},
    Recv, Shape as S, Table,
};

/// The table.
pub const TABLE: Table = Table {
    methods: &[
        method(
            Recv::Blob,
            "byteAt",
            &[S::Int],
            S::Int,
            Native("blob_byte_at"),
        ),
        method(
            Recv::Blob,
            "slice",
            &[S::Int, S::Int],
            S::Text,
            Native("blob_slice"),
        ),
        method(Recv::Blob, "toText", &[], S::Text, Inline),
        method(Recv::Blob, "exists", &[], S::Bool, Native("blob_exists")),
        method(
            Recv::Blob,
            "write",
            &[S::Text],
            S::Bool,
            Native("blob_write"),
        ),
        method(
            Recv::Blob,
            "append",
            &[S::Text],
            S::Bool,
            Native("blob_append"),
        ),
        method(Recv::Blob, "delete", &[], S::Bool, Native("blob_delete")),
        method(Recv::Blob, "save", &[], S::Bool, Native("blob_save")),
        method(
            Recv::Blob,
            "save",
            &[S::Text],
            S::Bool,
            Native("blob_save_as"),
        ),
        method(
            Recv::Blob,
            "saveCopy",
            &[S::Text],
            S::Bool,
            Native("blob_save_copy"),
        ),
    ],
    properties: &[property(
        Recv::Blob,
        "length",
        S::Int,
        Native("blob_length"),
    )],
    natives: &["blob_load", "blob_load_async"],
    ..Table::empty("blob", Facility::Core)
};
