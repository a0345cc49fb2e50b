//! `arr[T]`, `amor arr[T]` (§8.7) and `map[T]` (§8.8).
//!
//! Outcomes the natives guarantee (each has a golden test):
//! - `arr.shift()`, `arr.pop()`: `null` when empty. `arr.unshift(v)`: the
//!   new length. `arr.splice(start, count[, insert])`: start clamped to
//!   `[0, length]` after adding the length to a negative start; count
//!   clamped to `[0, length - start]`; the removed elements as a new array.
//! - `arr.indexOf(v)`: first index or `-1`; by value for scalars (a null
//!   float is never found), content for `text`/`ascii`, identity for
//!   everything else.
//! - `arr.sort(cmp)`: stable merge sort; a null comparator result counts as
//!   `0`; a throw out of the comparator leaves the array unchanged (a
//!   permutation of itself, §13.7) and propagates.
//! - `arr.join(sep)`: each element's text form, a null element as empty.
//! - `map.forEach(fn)`: `fn(value, key)` over a snapshot of the entries in
//!   iteration order. `map.keys()`, `map.values()`: fresh arrays.

use crate::{
    method, property, Facility,
    Impl::{Inline, Native},
    Recv, Shape as S, Table,
};

/// The table.
pub const TABLE: Table = Table {
    methods: &[
        method(Recv::Arr, "push", &[S::Elem], S::Int, Inline),
        method(Recv::Arr, "pop", &[], S::Elem, Inline),
        method(
            Recv::Arr,
            "unshift",
            &[S::Elem],
            S::Int,
            Native("arr_unshift"),
        ),
        method(Recv::Arr, "shift", &[], S::Elem, Native("arr_shift")),
        method(
            Recv::Arr,
            "splice",
            &[S::Int, S::Int],
            S::ArrOfElem,
            Native("arr_splice"),
        ),
        method(
            Recv::Arr,
            "splice",
            &[S::Int, S::Int, S::ArrOfElem],
            S::ArrOfElem,
            Native("arr_splice"),
        ),
        method(
            Recv::Arr,
            "indexOf",
            &[S::Elem],
            S::Int,
            Native("arr_index_of"),
        ),
        method(
            Recv::Arr,
            "sort",
            &[S::Comparator],
            S::Void,
            Native("arr_sort"),
        ),
        method(
            Recv::ArrOfScalar,
            "join",
            &[S::Text],
            S::Text,
            Native("arr_join"),
        ),
        method(Recv::Arr, "toText", &[], S::Text, Inline),
        method(
            Recv::Map,
            "forEach",
            &[S::ForEachFn],
            S::Void,
            Native("map_for_each"),
        ),
        method(Recv::Map, "keys", &[], S::ArrText, Native("map_keys")),
        method(Recv::Map, "values", &[], S::ArrOfElem, Native("map_values")),
        method(Recv::Map, "toText", &[], S::Text, Inline),
    ],
    properties: &[property(Recv::Arr, "length", S::Int, Inline)],
    ..Table::empty("collections", Facility::Core)
};
