//! A request handler parked at the blocking client (§19.5) while its
//! loop serves other connections.
//!
//! # Why
//!
//! `req.send()` without a callback blocks the handler until the whole
//! response has arrived. Run literally, it holds the thread: a
//! reverse-proxy worker then has one upstream request in flight at a time
//! and sleeps through every round trip. When the handler is
//! *self-contained* (`festina_vm::interleave`: it writes no global, reads
//! only immutable ones, calls no order-visible native such as `log` or
//! `sqlite`), nothing it does can be observed by another handler nor the
//! other way round, so the loop may run other handlers while it waits:
//! the outcome is that of serving the requests one at a time in some
//! order. `FESTINA_NO_PARK` turns it off.
//!
//! # How
//!
//! 1. The server calls such a handler with
//!    `Interpreter::call_parkable` (`conn.rs`).
//! 2. `req.send()` (`client.rs`), seeing `Interpreter::may_park`, starts
//!    the exchange on the event loop as a client source whose completion
//!    is a [`Wait`] rather than a callback, leaves the wait in
//!    [`PendingPark`] and returns `Trap::Park`; the VM sets the call
//!    aside (`festina_vm::interp::Parked`).
//! 3. The connection ([`parked`]) puts the parked call and itself into
//!    the wait and stops parsing: no other request of this connection is
//!    dispatched, and its idle deadline is off (the client's own
//!    connect and request timeouts bound the wait).
//! 4. When the exchange ends, [`resume`] fills the `http` value (or makes
//!    the failure a throw at the call, as blocking mode does) and resumes
//!    the call. Once it returns, the connection finishes the request as
//!    usual (the default answer, keep-alive) and its own source carries
//!    on. A call may park several times (one `send()` after another).
//!
//! A failure in a parked handler ends the program as any other does
//! (§14.2). In a thread instance a parked handler counts as a unit of
//! work (`threads::WorkUnit`), so the program does not end, nor a
//! shutdown stop the instance, while it waits.

use super::conn::{self, ConnRef};
use festina_vm::interp::{Interpreter, Parked};
use festina_vm::native::Trap;
use festina_vm::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

/// What a parked handler waits with: filled by the connection once the
/// VM has set the call aside, emptied when it resumes.
#[derive(Default)]
pub struct Waiting {
    parked: Option<Parked>,
    conn: Option<ConnRef>,
    /// In a thread instance: the parked handler counts as work (§20.2).
    work: Option<crate::threads::WorkUnit>,
}

/// A parked handler's wait, shared by the client source (which ends it)
/// and the connection (which fills it).
pub type Wait = Rc<RefCell<Waiting>>;

/// The wait that the last parking `send()` started, until the connection
/// takes it (an interpreter extension).
#[derive(Default)]
pub struct PendingPark(Option<Wait>);

/// Start a wait (`client.rs`, before returning `Trap::Park`).
pub fn begin(it: &mut Interpreter) -> Wait {
    let w = Wait::default();
    it.ext_or_insert_with(PendingPark::default).0 = Some(Rc::clone(&w));
    w
}

/// Whether native `name` keeps its effects within its arguments and the
/// values the handler holds, so that a handler calling it may be
/// interleaved with others (`festina_vm::interleave`). Texts, arrays,
/// maps, JSON, regular expressions, math (not `random`), time, the
/// environment (fixed for the process), URLs and `http` values (the
/// client included) are; output, files, the database, timers, threads,
/// processes, WebSocket sockets and `req.upgrade()` are not.
pub fn order_free(name: &str) -> bool {
    const EXACT: &[&str] = &[
        // http values, answering the request, the client
        "http_new",
        "http_ok",
        "http_redirect",
        "http_respond",
        "http_send",
        "http_send_value",
        "http_to_text",
        "http_to_blob",
        "http_url",
        "http_method",
        "http_code",
        "http_headers",
        // texts
        "int_to_char",
        "text_to_int",
        "text_to_ascii",
        "text_trim",
        "text_char_code_at",
        "text_split",
        "text_replace",
        "ascii_slice",
        "env_get",
        "text_slice",
        "text_index_of",
        "text_index_of_from",
        "text_starts_with",
        "text_ends_with",
        "text_to_upper",
        "text_to_lower",
        "text_repeat",
        "text_to_float",
        "ascii_to_int",
        // collections (a callback needs a function value, which the
        // analysis refuses)
        "arr_unshift",
        "arr_shift",
        "arr_splice",
        "arr_index_of",
        "arr_sort",
        "arr_join",
        "map_for_each",
        "map_keys",
        "map_values",
        // JSON, regular expressions, time
        "json_parse",
        "regex_literal",
        "regex_new",
        "regex_test",
        "regex_match",
        "regex_replace",
        "regex_split",
        "now",
        "format_time",
    ];
    EXACT.contains(&name)
        || name.starts_with("url_")
        || (name.starts_with("math_") && name != "math_random")
}

/// The handler of connection `c` returned `Trap::Park`: keep the parked
/// call and the connection in the wait its `send()` started, and stop
/// the connection until it resumes.
pub fn parked(it: &mut Interpreter, c: &ConnRef) -> Result<(), Trap> {
    let parked = it.take_parked();
    let wait = it.ext_mut::<PendingPark>().and_then(|p| p.0.take());
    let (Some(p), Some(w)) = (parked, wait) else {
        return Err(Trap::Fail(
            "internal error: a request handler parked without a wait".into(),
        ));
    };
    let work = crate::threads::work_unit(it);
    crate::threads::parking_begin(it);
    let mut w = w.borrow_mut();
    w.parked = Some(p);
    w.conn = Some(Rc::clone(c));
    w.work = work;
    conn::set_parked(c, true);
    Ok(())
}

/// End wait `w` with `result` (what `send()` returns, or its throw):
/// resume the parked call; when it returns, finish its request.
pub fn resume(it: &mut Interpreter, w: &Wait, result: Result<Value, Trap>) -> Result<(), Trap> {
    // The unit of work ends when the handler has finished (`_work`
    // dropped at the end of this function), or is handed to the next
    // wait if it parks again.
    let (p, c, _work) = {
        let mut w = w.borrow_mut();
        (w.parked.take(), w.conn.take(), w.work.take())
    };
    let (Some(p), Some(c)) = (p, c) else {
        // The call was never set aside (the program is ending).
        return Ok(());
    };
    let r = it.resume_parked(p, result).map(drop);
    if matches!(r, Err(Trap::Park)) {
        // Parked again: counted anew before this wait's count ends.
        parked(it, &c)?;
        return crate::threads::parking_end(it);
    }
    let r = conn::resumed(it, &c, r);
    // After the answer has left: a kill waiting for this handler may
    // stop the instance now (the handler's own failure comes first).
    let end = crate::threads::parking_end(it);
    r.and(end)
}
