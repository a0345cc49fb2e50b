//! WebSocket connections, `socket` values (§19.4): facility `net`,
//! natives in `festina-stdlib`'s `net` module beside HTTP's.
//!
//! Outcomes the natives guarantee (each has a test):
//! - `s.state`: the connection's own `map[text]`, the same map for every
//!   event of one connection, entries writable (§9.2).
//! - `s.send(b)` with a `blob`: one binary message of its bytes;
//!   `s.send(v)` with any other value that has a text form: one text
//!   message of its rendering (§8.21). A send on a closed or closing
//!   connection is a silent no-op. A connection whose peer does not read
//!   is closed once its unsent output passes a cap.
//! - `s.close()`: sends a close frame (1000); `on socketClose` follows
//!   when the connection has ended. A second close is a no-op.
//!
//! The handlers `on upgrade`, `on socketMessage` and `on socketClose` are
//! found in the program's handler table by the server; the checker emits
//! no native for them.

use crate::{method, property, Facility, Impl::Native, Recv, Shape as S, Table};

/// The table.
pub const TABLE: Table = Table {
    methods: &[
        method(
            Recv::Socket,
            "send",
            &[S::Blob],
            S::Void,
            Native("socket_send_blob"),
        ),
        method(
            Recv::Socket,
            "send",
            &[S::Rendered],
            S::Void,
            Native("socket_send_text"),
        ),
        method(Recv::Socket, "close", &[], S::Void, Native("socket_close")),
    ],
    properties: &[property(
        Recv::Socket,
        "state",
        S::MapText,
        Native("socket_state"),
    )],
    ..Table::empty("websocket", Facility::Net)
};
