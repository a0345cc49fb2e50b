//! Mailboxes: long-lived channels into the loop, each with a handler that
//! runs on the loop's thread for every message.
//!
//! A mailbox is a channel plus the loop's waker. Any number of
//! [`MailboxSender`]s (`Send + Clone`) may live on other threads: another
//! interpreter posting thread messages (§20.4), an HTTP client's thread
//! reporting completions. A send queues the message, sets the mailbox's
//! pending flag and, when the flag was clear, wakes the poll; the loop
//! then clears the flag and delivers what is queued, in arrival order
//! (so the order of one sender's messages is kept), at most
//! [`BATCH`] messages per mailbox per round so that sockets and timers
//! are served between the messages of a storm. Delivery runs the
//! mailbox's handler with the whole interpreter; the mailbox is out of
//! the table meanwhile, and closing it from its own handler takes effect
//! when the handler returns.
//!
//! Closing a mailbox drops the messages not yet delivered (§20.2: a
//! killed thread's queued messages are dropped) and makes every later
//! send fail, giving the message back. A mailbox may keep the program
//! alive (a live thread does, §20.2); that can change while it is open.
//!
//! The one-shot job channel of `workers.rs` is separate: a job is one
//! closure with one continuation; a mailbox is a stream.

use super::EventLoop;
use crate::interp::Interpreter;
use crate::native::Trap;
use hashbrown::HashMap;
use mio::Waker;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

/// A mailbox's id in its loop: positive, never reused.
pub type MailboxId = u64;

/// Most messages delivered from one mailbox in one round of the loop.
pub const BATCH: usize = 256;

/// The sending side of a mailbox: cheap to clone, usable from any thread.
pub struct MailboxSender<T> {
    tx: mpsc::Sender<T>,
    pending: Arc<AtomicBool>,
    waker: Arc<Waker>,
}

impl<T> Clone for MailboxSender<T> {
    fn clone(&self) -> Self {
        MailboxSender {
            tx: self.tx.clone(),
            pending: Arc::clone(&self.pending),
            waker: Arc::clone(&self.waker),
        }
    }
}

impl<T> std::fmt::Debug for MailboxSender<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailboxSender").finish_non_exhaustive()
    }
}

impl<T: Send> MailboxSender<T> {
    /// Queue `msg` and wake the mailbox's loop. Errors: the mailbox was
    /// closed (or its loop dropped); the message comes back.
    pub fn send(&self, msg: T) -> Result<(), T> {
        self.tx.send(msg).map_err(|e| e.0)?;
        // Wake only on the first message since the loop last looked: it
        // clears the flag before it takes what is queued.
        if !self.pending.swap(true, Ordering::AcqRel) {
            let _ = self.waker.wake();
        }
        Ok(())
    }
}

/// The receiving side, with its handler, type-erased for the table.
trait Inbox {
    /// Deliver up to `max` queued messages; the number delivered.
    fn deliver(&mut self, it: &mut Interpreter, max: usize) -> Result<usize, Trap>;
}

/// What a mailbox does with each message.
type OnMessage<T> = Box<dyn FnMut(&mut Interpreter, T) -> Result<(), Trap>>;

struct TypedInbox<T> {
    rx: mpsc::Receiver<T>,
    on_message: OnMessage<T>,
}

impl<T> Inbox for TypedInbox<T> {
    fn deliver(&mut self, it: &mut Interpreter, max: usize) -> Result<usize, Trap> {
        let mut n = 0;
        while n < max {
            let Ok(msg) = self.rx.try_recv() else { break };
            n += 1;
            (self.on_message)(it, msg)?;
        }
        Ok(n)
    }
}

/// An open mailbox.
pub(super) struct MailboxEntry {
    inbox: Box<dyn Inbox>,
    pending: Arc<AtomicBool>,
    keeps_alive: bool,
}

/// The open mailboxes.
#[derive(Default)]
pub(super) struct Mailboxes {
    map: HashMap<MailboxId, MailboxEntry>,
    next: MailboxId,
    /// Number of open mailboxes (the running one included) that keep the
    /// program alive.
    alive: usize,
    /// The mailbox whose handler is running (out of the table), and what
    /// was asked of it meanwhile.
    running: Option<RunningBox>,
}

/// The running mailbox and what was asked of it meanwhile.
struct RunningBox {
    id: MailboxId,
    closed: bool,
    keeps_alive: Option<bool>,
}

impl Mailboxes {
    /// Number of open mailboxes that keep the program alive.
    pub(super) fn alive(&self) -> usize {
        self.alive
    }

    /// The mailboxes with messages queued since the loop last looked
    /// (their flags cleared), in id order.
    pub(super) fn pending(&self) -> Vec<MailboxId> {
        let mut ids: Vec<MailboxId> = self
            .map
            .iter()
            .filter(|(_, e)| e.pending.swap(false, Ordering::AcqRel))
            .map(|(id, _)| *id)
            .collect();
        ids.sort_unstable();
        ids
    }
}

impl EventLoop {
    /// Open a mailbox whose messages of type `T` are handed to
    /// `on_message` on this loop's thread, in arrival order; returns its
    /// id and a sender for other threads. With `keeps_alive`, the open
    /// mailbox keeps the program alive (§12.2). A `Trap` from the handler
    /// ends the event loop like a failure in a callback.
    pub fn open_mailbox<T: Send + 'static>(
        &mut self,
        on_message: impl FnMut(&mut Interpreter, T) -> Result<(), Trap> + 'static,
        keeps_alive: bool,
    ) -> (MailboxId, MailboxSender<T>) {
        let (tx, rx) = mpsc::channel();
        let pending = Arc::new(AtomicBool::new(false));
        let boxes = &mut self.mailboxes;
        boxes.next += 1;
        let id = boxes.next;
        boxes.alive += keeps_alive as usize;
        boxes.map.insert(
            id,
            MailboxEntry {
                inbox: Box::new(TypedInbox {
                    rx,
                    on_message: Box::new(on_message),
                }),
                pending: Arc::clone(&pending),
                keeps_alive,
            },
        );
        let sender = MailboxSender {
            tx,
            pending,
            waker: Arc::clone(&self.waker),
        };
        (id, sender)
    }

    /// Close mailbox `id`: undelivered messages are dropped and later
    /// sends fail (unknown ids: no-op). From inside its own handler the
    /// mailbox closes when the handler returns.
    pub fn close_mailbox(&mut self, id: MailboxId) {
        let boxes = &mut self.mailboxes;
        if let Some(r) = &mut boxes.running {
            if r.id == id {
                r.closed = true;
                return;
            }
        }
        if let Some(e) = boxes.map.remove(&id) {
            boxes.alive -= e.keeps_alive as usize;
        }
    }

    /// Whether the open mailbox `id` keeps the program alive (a thread
    /// that finished its work stops keeping it alive, say). Unknown ids
    /// are ignored; from inside its own handler the change is applied
    /// when the handler returns.
    pub fn set_mailbox_keeps_alive(&mut self, id: MailboxId, keeps_alive: bool) {
        let boxes = &mut self.mailboxes;
        if let Some(r) = &mut boxes.running {
            if r.id == id {
                r.keeps_alive = Some(keeps_alive);
                return;
            }
        }
        if let Some(e) = boxes.map.get_mut(&id) {
            boxes.alive = boxes.alive + keeps_alive as usize - e.keeps_alive as usize;
            e.keeps_alive = keeps_alive;
        }
    }

    /// Number of open mailboxes.
    pub fn mailbox_count(&self) -> usize {
        self.mailboxes.map.len() + self.mailboxes.running.is_some() as usize
    }
}

impl Interpreter {
    /// Deliver up to [`BATCH`] queued messages of mailbox `id` (gone: no
    /// op); when the batch was full, leave the mailbox pending and wake
    /// the poll so the next round delivers the rest.
    pub(super) fn run_mailbox(&mut self, id: MailboxId) -> Result<(), Trap> {
        let Some(lp) = self.event_loop_if_started() else {
            return Ok(());
        };
        let Some(mut entry) = lp.mailboxes.map.remove(&id) else {
            return Ok(());
        };
        lp.mailboxes.running = Some(RunningBox {
            id,
            closed: false,
            keeps_alive: None,
        });
        let result = entry.inbox.deliver(self, BATCH);
        let Some(lp) = self.event_loop_if_started() else {
            return result.map(|_| ());
        };
        let asked = lp.mailboxes.running.take();
        if asked.as_ref().is_some_and(|r| r.closed) {
            lp.mailboxes.alive -= entry.keeps_alive as usize;
            return result.map(|_| ());
        }
        if let Some(k) = asked.and_then(|r| r.keeps_alive) {
            lp.mailboxes.alive = lp.mailboxes.alive + k as usize - entry.keeps_alive as usize;
            entry.keeps_alive = k;
        }
        if matches!(result, Ok(n) if n == BATCH) {
            entry.pending.store(true, Ordering::Release);
            let _ = lp.waker.wake();
        }
        lp.mailboxes.map.insert(id, entry);
        result.map(|_| ())
    }
}
