//! Table rows (§8.10, §15.5, §15.6): the layout of a row value.
//!
//! A row is a reference-counted [`StructObj`] with `is_row` set and `sid`
//! the table's index in `Program::tables`, so everything that handles
//! structs (moves, arrays, `GetField`, reference counting, `== null`)
//! handles rows too. Its field slots are, for a table of `n` columns:
//!
//! | slots | holds |
//! |---|---|
//! | `0..n` | the column values, in declaration order (`null` when the query did not select the column, or the database held NULL) |
//! | `n` | the `rowid` (§15.5): an `int` when the query selected `rowid`, otherwise `null` |
//! | `n + 1 ..` | `ceil(n / 64)` ints: bit `c % 64` of slot `n + 1 + c / 64` is set when column `c` is *defined* (the database supplied a value or a NULL, or the program assigned one), clear when the query did not select it or `delete row.col` removed it |
//!
//! Reading a column is a plain `GetField` of its index, and `row.rowid` a
//! `GetField` of slot `n`. Writes go through the helpers here (the natives
//! behind `row.col = v`, `delete row.col` and `row.undefined(col)`), which
//! keep the definedness bits in step. Rendering (§8.21) omits undefined
//! columns. Rows hold only scalars, text and blobs, so they never form
//! cycles and are allocated untracked.

use crate::heap::{Heap, Ref, StructObj};
use crate::value::Value;
use std::rc::Rc;

/// Number of field slots of a row of a table with `ncols` columns.
pub fn slot_count(ncols: usize) -> usize {
    ncols + 1 + ncols.div_ceil(64)
}

/// Index of the `rowid` slot of a row of a table with `ncols` columns.
pub fn rowid_slot(ncols: usize) -> usize {
    ncols
}

/// Slot index and bit of column `col`'s definedness flag.
fn flag_pos(ncols: usize, col: usize) -> (usize, u32) {
    (ncols + 1 + col / 64, (col % 64) as u32)
}

/// Fresh field slots for a row of `ncols` columns: every column `null`
/// and undefined, no rowid.
pub fn empty_slots(ncols: usize) -> Vec<Value> {
    let mut v = vec![Value::Null; slot_count(ncols)];
    for s in v.iter_mut().skip(ncols + 1) {
        *s = Value::Int(0);
    }
    v
}

/// Mark column `col` defined (`on`) or undefined in `slots` (a row's slots
/// under construction, see [`empty_slots`]).
pub fn mark_in_slots(slots: &mut [Value], ncols: usize, col: usize, on: bool) {
    let (slot, bit) = flag_pos(ncols, col);
    if let Some(v) = slots.get_mut(slot) {
        let bits = v.as_int();
        *v = Value::Int(if on {
            bits | (1 << bit)
        } else {
            bits & !(1 << bit)
        });
    }
}

/// Allocate a row of table `tid` from finished `slots` (see the module
/// documentation for their layout).
pub fn new_row(heap: &Rc<Heap>, tid: u32, slots: impl Into<Box<[Value]>>) -> Value {
    Value::Struct(heap.new_struct(tid, true, slots.into(), false))
}

/// Whether column `col` of `row` (a table of `ncols` columns) is defined:
/// the query selected it or the program assigned it since (§15.5).
pub fn is_defined(row: &Ref<StructObj>, ncols: usize, col: usize) -> bool {
    let (slot, bit) = flag_pos(ncols, col);
    row.get(slot).is_some_and(|v| v.as_int() & (1 << bit) != 0)
}

/// Set the definedness flag of column `col` of `row`.
pub fn set_defined(row: &Ref<StructObj>, ncols: usize, col: usize, on: bool) {
    let (slot, bit) = flag_pos(ncols, col);
    if let Some(v) = row.get(slot) {
        let bits = v.as_int();
        let new = if on {
            bits | (1 << bit)
        } else {
            bits & !(1 << bit)
        };
        row.set(slot, Value::Int(new));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_counts_flag_words() {
        assert_eq!(slot_count(1), 3);
        assert_eq!(slot_count(64), 66);
        assert_eq!(slot_count(65), 68);
        assert_eq!(rowid_slot(3), 3);
    }

    #[test]
    fn flags_track_definedness() {
        let heap = Heap::new();
        let mut slots = empty_slots(70);
        mark_in_slots(&mut slots, 70, 0, true);
        mark_in_slots(&mut slots, 70, 69, true);
        let Value::Struct(r) = new_row(&heap, 0, slots) else {
            panic!("not a row")
        };
        assert!(r.is_row());
        assert!(is_defined(&r, 70, 0));
        assert!(!is_defined(&r, 70, 1));
        assert!(is_defined(&r, 70, 69));
        set_defined(&r, 70, 69, false);
        set_defined(&r, 70, 1, true);
        assert!(!is_defined(&r, 70, 69));
        assert!(is_defined(&r, 70, 1));
    }
}
