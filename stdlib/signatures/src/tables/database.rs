//! The built-in database (§15). `sqlite(...)` has no [`Builtin`] entry:
//! its result depends on where the call stands and its parameter list is
//! the one array literal that mixes types, so the checker handles it
//! itself (`compiler/src/check/db.rs`) and emits these natives directly:
//!
//! | native | emitted for |
//! |---|---|
//! | `db_open` | opening the database at start-up (a `table`, `sqlite()` or `DatabaseURL`) |
//! | `sqlite_exec` | `sqlite(sql, params)` as a statement |
//! | `sqlite_query` | `arr[T] rows = sqlite(sql, params)` |
//! | `row_set` | `row.col = v` on a table row |
//! | `row_delete` | `delete row.col` |
//! | `row_undefined` | reading a column the row does not define |
//!
//! [`Builtin`]: crate::Builtin

use crate::{Facility, Table};

/// The table.
pub const TABLE: Table = Table {
    natives: &[
        "db_open",
        "sqlite_exec",
        "sqlite_query",
        "row_set",
        "row_delete",
        "row_undefined",
    ],
    reserved: &["sqlite"],
    ..Table::empty("database", Facility::Database)
};
