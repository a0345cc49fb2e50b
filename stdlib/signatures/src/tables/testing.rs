//! The `test` type (the reference's §11.7, added after edition 0.44):
//! the natives a `festina test` build's assertions call. The checker
//! emits them by itself (`compiler/src/check/testing.rs`), only in a test
//! build; `test` is a contextual word, so nothing is reserved.
//!
//! - `test_group(description, name)`: registers a group, returns its index.
//! - `test_eq(group, actual, expected, source)`: an equality assertion.
//! - `test_near(group, actual, expected, tolerance, source)`: a float
//!   assertion within a tolerance.

use crate::{Facility, Table};

/// The table.
pub const TABLE: Table = Table {
    natives: &["test_group", "test_eq", "test_near"],
    ..Table::empty("testing", Facility::Core)
};
