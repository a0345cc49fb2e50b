//! Optimisation switches: environment variables that turn an optimisation
//! off, so that the optimised and the plain paths can be compared.
//!
//! Convention for the whole project: each optimisation has its own
//! variable `FESTINA_NO_<NAME>`, and the umbrella [`NO_OPT`] implies every
//! one of them. A variable counts as set when it is present, not empty and
//! not `0`. The golden runner runs the whole corpus a second time with
//! `FESTINA_NO_OPT=1` and requires identical output.
//!
//! | variable | turns off |
//! |---|---|
//! | [`NO_FUSION`] | the code generator's fused and shortened forms (compare-and-branch, immediates, pinned literals, globals in registers, `NewArrFrom`, in-place appends and templates) and the loader's instruction pairing (`AddIntImmCmpJump`, `MulAddInt`) |
//! | [`NO_FAST_TIER`] | the interpreter's fast tier (`run_fast`): every instruction runs in the full step (see [`crate::interp`], "Dispatch") |
//! | [`NO_EAGER_READ`] | the HTTP server's read of a connection right after accepting it (it then waits for readiness first) |
//! | [`NO_DRAINED_SKIP`] | the WebSocket's skipped read after a short read proved the socket empty (every read then asks the kernel, until it says `WouldBlock`) |
//! | [`NO_IDLE_RELEASE`] | the HTTP server's return of an idle connection's input and output buffers to the pool (each connection then keeps its own while it lives) |
//! | [`NO_DIRECT_FILL`] | the canvas's direct pixel paths: opaque flat rectangles, pixels and circles written straight into the pixels instead of by cairo (§17.5 note; `festina-stdlib`'s `canvas::direct`) |
//! | [`NO_PREFAULT`] | faulting in the pages of a large new canvas or image when it is made, rather than as it is first drawn on (`festina-stdlib`'s `canvas::surface`) |
//! | [`NO_STDOUT_BUFFER`] | block-buffering of stdout to a pipe or file: every `log` line is written at once, as on a terminal (see [`crate::stdout`]) |
//! | [`NO_FAST_RENDER`] | `toText` of a struct, array or map rendered into a reused per-thread scratch buffer and copied once into a text of exactly its size (see [`crate::render`], "Speed"); off, it renders into a fresh buffer of 256 bytes |
//! | [`NO_FLAT_RENDER`] | rendering a struct whose fields are all ints, floats, bools, texts or nulls in one pass over its fields ([`crate::render`], `render_flat`): every struct then goes through the general per-field path |
//! | [`NO_SHORT_FLOAT`] | rendering a float with at most 6 shortest round-trip digits from those digits ([`crate::render`]): every float then goes through exact-precision formatting |
//! | [`NO_DIRECT_JSON`] | `toStruct`/`toArr` reading the text straight into Festina values (`festina-stdlib`'s `json.rs`, "Two paths, one result"): every text then goes through a `serde_json::Value` tree first |
//! | [`NO_RECYCLE`] | the heap's reuse of dead structs' memory (their boxes and field blocks) for new structs (see [`crate::heap`], "Recycled struct memory"), and the database's reused row buffer (`festina-stdlib`'s `db.rs`): every struct then allocates and frees its own, and a query's rows grow a fresh vector |
//! | [`NO_STMT_CACHE`] | the database's own map of prepared statements of literal SQL (`festina-stdlib`'s `db.rs`, `Db`): rusqlite's `prepare_cached` LRU cache is used instead |
//! | [`NO_READY_FIRST`] | the event loop's order within a round: what the poll reported (finished jobs, mailboxes, ready sources) before the timers due, so that a request arriving during a callback waits for that callback only, not for a timer armed by it too (see [`crate::event_loop`]) |
//! | [`NO_CLIENT_BUFFERS`] | the HTTP client's reuse of response read buffers: each response is then read into a fresh zeroed 8 KiB buffer (`festina-stdlib`'s `net::client_pool`) |
//! | [`NO_PARK`] | parking a request handler at the blocking client (`req.send()`) so that its loop serves other connections meanwhile, for handlers that cannot observe the interleaving (see [`crate::interleave`] and `interp/park.rs`); off, the handler holds its thread until the response arrives |
//! | [`NO_GC_PACING`] | the cycle collector's threshold growing with what a collection traced without freeing (see [`crate::heap`], "Cycle collection"): it then grows only with the roots that stayed buffered, and a large live structure reachable from buffered roots is walked again every 10,000 roots |
//! | [`NO_COLUMN_VALUE`] | the database's reading of a result column through `sqlite3_column_value` (one SQLite call per column) when the statement's handle is known (`festina-stdlib`'s `db.rs`, `RawStmt`): columns are then read through rusqlite's `get_ref` (two or three calls each) |
//! | [`NO_MATCH_MEMO`] | a kept statement's memory of how its result columns matched the fields of its last query's target (`festina-stdlib`'s `db.rs`, `Memo`): the columns are then matched by name at every query |
//! | [`NO_TEXT_RECYCLE`] | the heap's reuse of dead structs' small texts (their reference-counted box and string buffer) for the text columns of a query's rows (see [`crate::heap`], "Recycled texts"), and the one-pass ASCII check of those columns (`festina-stdlib`'s `db.rs`, `convert_on`): every such text then allocates twice and frees twice, after a UTF-8 check |
//! | [`NO_FINAL_READ`] | the WebSocket's skipping of the read after a batch of messages when the socket was read dry and its frames used every byte read (`festina-stdlib`'s `net/conn.rs`, `run_ws`): tungstenite is then asked once more, and zero-fills its read buffer to answer "would block" |
//! | [`NO_ALLOC_CACHE`] | the per-thread cache of small freed blocks in front of the system allocator (see [`crate::block_cache`]): every block then goes to `malloc`/`free` with the size asked. Read at the process's first allocation |
//! | [`NO_LAZY_HEADERS`] | HTTP header maps (a received request's, a client response's) made as maps with deferred entries ([`crate::value::MapData`], "Deferred entries") and encoded from the message's compact headers when passed on unchanged (`festina-stdlib`'s `net/value.rs`, "Header maps"): every such map's entries are then made at once and encoded one by one |
//! | [`NO_KEPT_REGISTRATION`] | the HTTP client's idle pooled connections staying registered with the event loop's poll (`festina-stdlib`'s `net::client_pool`, "Staying in the poll"): each request driven by the loop then registers its connection and deregisters it when it ends |
//! | [`NO_SEND_THEN_WAIT`] | the HTTP client's wait for readiness after writing a request on a plain connection (`net::client_pool`, "Staying in the poll"): it then tries a read at once, which nearly always finds nothing yet |
//! | [`NO_OPT`] | all of the above and every other switch |
//!
//! The values are read when a program is compiled or loaded (the canvas's:
//! when an interpreter first draws, or a large surface is made), never in
//! the dispatch loop.

/// The umbrella switch: implies every `FESTINA_NO_*` switch.
pub const NO_OPT: &str = "FESTINA_NO_OPT";

/// Code generator fusions and the loader's instruction pairing.
pub const NO_FUSION: &str = "FESTINA_NO_FUSION";

/// The interpreter's fast tier.
pub const NO_FAST_TIER: &str = "FESTINA_NO_FAST_TIER";

/// The HTTP server's read of a new connection before waiting for its
/// readiness (`festina-stdlib`'s `net/conn.rs`).
pub const NO_EAGER_READ: &str = "FESTINA_NO_EAGER_READ";

/// The HTTP server's return of the buffers of a connection that waits
/// between requests to the per-interpreter pool (`festina-stdlib`'s
/// `net/conn.rs`).
pub const NO_IDLE_RELEASE: &str = "FESTINA_NO_IDLE_RELEASE";

/// The WebSocket's read skipped after a short read proved the socket
/// empty (`festina-stdlib`'s `net/io.rs`, `WsIo`).
pub const NO_DRAINED_SKIP: &str = "FESTINA_NO_DRAINED_SKIP";

/// `toText` of a container through the scratch buffer (`crate::render`,
/// "Speed").
pub const NO_FAST_RENDER: &str = "FESTINA_NO_FAST_RENDER";

/// The canvas's direct pixel paths.
pub const NO_DIRECT_FILL: &str = "FESTINA_NO_DIRECT_FILL";

/// Faulting in a new surface's pages at once.
pub const NO_PREFAULT: &str = "FESTINA_NO_PREFAULT";

/// Block-buffered stdout (to a pipe or file).
pub const NO_STDOUT_BUFFER: &str = "FESTINA_NO_STDOUT_BUFFER";

/// Structs of plain fields rendered in one pass (`crate::render`).
pub const NO_FLAT_RENDER: &str = "FESTINA_NO_FLAT_RENDER";

/// Floats rendered from their shortest round-trip digits when those
/// number at most 6 (`crate::render::format_g`).
pub const NO_SHORT_FLOAT: &str = "FESTINA_NO_SHORT_FLOAT";

/// `toStruct`/`toArr` parsed straight into Festina values, without a
/// `serde_json::Value` tree (`festina-stdlib`'s `json.rs`).
pub const NO_DIRECT_JSON: &str = "FESTINA_NO_DIRECT_JSON";

/// The heap's recycling of struct memory ([`crate::heap`]) and the
/// database's reused row buffer.
pub const NO_RECYCLE: &str = "FESTINA_NO_RECYCLE";

/// The database's own map of prepared statements (`festina-stdlib`'s
/// `db.rs`).
pub const NO_STMT_CACHE: &str = "FESTINA_NO_STMT_CACHE";

/// The event loop's handling of what the poll reported before the due
/// timers ([`crate::event_loop`], "What the poll reported, before the
/// timers").
pub const NO_READY_FIRST: &str = "FESTINA_NO_READY_FIRST";

/// The HTTP client's reuse of response read buffers.
pub const NO_CLIENT_BUFFERS: &str = "FESTINA_NO_CLIENT_BUFFERS";

/// Parking a self-contained request handler at the blocking client
/// ([`crate::interleave`]).
pub const NO_PARK: &str = "FESTINA_NO_PARK";

/// The cycle collector's pacing by what it traced in vain
/// ([`crate::heap`]).
pub const NO_GC_PACING: &str = "FESTINA_NO_GC_PACING";

/// Result columns read through `sqlite3_column_value` (`festina-stdlib`'s
/// `db.rs`).
pub const NO_COLUMN_VALUE: &str = "FESTINA_NO_COLUMN_VALUE";

/// A kept statement's column matching kept between queries
/// (`festina-stdlib`'s `db.rs`).
pub const NO_MATCH_MEMO: &str = "FESTINA_NO_MATCH_MEMO";

/// Dead structs' small texts reused for query text columns
/// ([`crate::heap`]).
pub const NO_TEXT_RECYCLE: &str = "FESTINA_NO_TEXT_RECYCLE";

/// The WebSocket's read after a batch skipped when nothing can be left
/// (`festina-stdlib`'s `net/conn.rs`).
pub const NO_FINAL_READ: &str = "FESTINA_NO_FINAL_READ";

/// The per-thread cache of small blocks in front of the system allocator
/// ([`crate::block_cache`], which reads it with `getenv` at the first
/// allocation).
pub const NO_ALLOC_CACHE: &str = "FESTINA_NO_ALLOC_CACHE";

/// HTTP header maps with deferred entries, encoded from the compact
/// headers when unchanged (`festina-stdlib`'s `net/value.rs`).
pub const NO_LAZY_HEADERS: &str = "FESTINA_NO_LAZY_HEADERS";

/// Idle pooled client connections kept registered with the poll
/// (`festina-stdlib`'s `net::client_pool`).
pub const NO_KEPT_REGISTRATION: &str = "FESTINA_NO_KEPT_REGISTRATION";

/// The client's wait for readiness before the first read of a response
/// (`festina-stdlib`'s `net::client_pool`).
pub const NO_SEND_THEN_WAIT: &str = "FESTINA_NO_SEND_THEN_WAIT";

/// True when the optimisation guarded by the variable `var` (one of this
/// module's constants) is turned off, by `var` itself or by [`NO_OPT`].
pub fn disabled(var: &str) -> bool {
    is_set(var) || is_set(NO_OPT)
}

/// `!disabled(var)`, read from the environment once per process and
/// kept in `cell`: for optimisations checked where no interpreter or
/// loop state is at hand to hold the answer (rendering, say).
pub fn enabled_once(cell: &'static std::sync::OnceLock<bool>, var: &str) -> bool {
    *cell.get_or_init(|| !disabled(var))
}

fn is_set(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| !v.is_empty() && v != "0")
}
