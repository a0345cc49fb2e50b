//! Threads and messages (§20): facility `core`, since they need nothing
//! beyond the Rust standard library.
//!
//! To come. The battery adds here `postMessage`, the methods of `thread`
//! values (`kill`, `live`, `isAlive`, `drain`, `reply`, ...) and the
//! natives the checker emits for `on message`. Messages cross threads as
//! deep copies (§20.4); handle values take part through the handle
//! mechanism's copy hook (`festina_vm::value::Handle::send_copy`).

use crate::{Facility, Table};

/// The table.
pub const TABLE: Table = Table {
    reserved: &["postMessage"],
    ..Table::empty("threads", Facility::Core)
};
