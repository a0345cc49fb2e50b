//! HTTP/1.1 servers and clients, and TLS (§19): facility `net`.
//!
//! To come. The battery adds here its builtins (`openPort`, `closePort`,
//! `openSecurePort`, `parseURL`), the methods of `http` and `url` values
//! (new [`Recv`](crate::Recv) kinds), and the natives the checker emits
//! for `on request`; its natives go in a `festina-stdlib` module compiled
//! under the `net` feature. Until then the names are only reserved.

use crate::{Facility, Table};

/// The table.
pub const TABLE: Table = Table {
    reserved: &["parseURL", "openPort", "closePort", "openSecurePort"],
    ..Table::empty("http", Facility::Net)
};
