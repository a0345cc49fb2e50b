//! WebSocket (§19.4): facility `net`.
//!
//! To come. The battery adds here the methods of `socket` values and the
//! natives the checker emits for `on upgrade`, `on socketMessage` and
//! `on socketClose`; its natives go in the `festina-stdlib` module of the
//! `net` feature, beside HTTP's.

use crate::{Facility, Table};

/// The table.
pub const TABLE: Table = Table::empty("websocket", Facility::Net);
