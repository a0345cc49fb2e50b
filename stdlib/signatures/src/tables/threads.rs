//! Threads and messages (§20): facility `core`, since they need nothing
//! beyond the Rust standard library. The checker compiles `thread`
//! declarations, `postMessage`, `.callback`, the methods of thread names
//! (`kill`, `live`, `isAlive`, `drain`) and of `worker` values (`main`,
//! `reply`) to the natives below by itself (`compiler/src/check/threads.rs`);
//! they are implemented in `festina-stdlib`'s `threads` module. Messages
//! cross threads as deep copies (§20.4); handle values take part through
//! the handle mechanism's copy hook (`festina_vm::value::Handle::send_copy`).

use crate::{Facility, Table};

/// The table.
pub const TABLE: Table = Table {
    natives: &[
        "thread_declare",
        "thread_start",
        "thread_post",
        "thread_post_main",
        "thread_in_range",
        "thread_kill",
        "thread_live",
        "thread_is_alive",
        "thread_drain",
        "thread_worker_main",
        "thread_reply",
    ],
    reserved: &["postMessage"],
    ..Table::empty("threads", Facility::Core)
};
