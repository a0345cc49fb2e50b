//! Background jobs (§12.5): one-shot work on a small pool of worker
//! threads, whose continuation runs on the loop's thread.
//!
//! [`EventLoop::spawn_job`] hands a `Send` closure to the pool (at most
//! [`MAX_WORKERS`] threads, started on demand). A worker sends the
//! closure's result back over the job channel and wakes the poll; the
//! loop's thread then runs the job's continuation, which may hold
//! main-thread values (`Rc`s) because it never leaves that thread. If no
//! worker thread can be started the job runs inline, so a job always
//! completes. A job keeps the program alive until its continuation has
//! run.
//!
//! For a stream of results rather than one (thread messages, completions
//! of a client that runs its own thread), see the mailboxes
//! (`mailbox.rs`).

use super::EventLoop;
use crate::interp::Interpreter;
use crate::native::Trap;
use mio::Waker;
use std::any::Any;
use std::collections::HashMap;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// Most worker threads a loop starts for background jobs.
pub const MAX_WORKERS: usize = 4;

/// The result a worker job sends back to the loop's thread.
pub type JobResult = Box<dyn Any + Send>;
/// Work run on a worker thread.
pub type Work = Box<dyn FnOnce() -> JobResult + Send>;
/// What the loop's thread does with a finished job's result.
pub type Continuation = Box<dyn FnOnce(&mut Interpreter, JobResult) -> Result<(), Trap>>;

/// A finished job, sent from a worker thread.
pub(super) struct Completion {
    pub(super) id: u64,
    pub(super) result: JobResult,
}

/// Work queued for the worker pool.
struct Job {
    id: u64,
    work: Work,
}

/// The job channel, the worker pool and the continuations of the jobs in
/// flight.
pub(super) struct Jobs {
    done_tx: mpsc::Sender<Completion>,
    done_rx: mpsc::Receiver<Completion>,
    /// The pool's shared queue (`None` once the loop is dropped: the
    /// workers then finish their current job and stop).
    queue: Option<mpsc::Sender<Job>>,
    shared_rx: Arc<Mutex<mpsc::Receiver<Job>>>,
    started: usize,
    pending: HashMap<u64, Continuation>,
    next: u64,
}

impl Jobs {
    pub(super) fn new() -> Jobs {
        let (done_tx, done_rx) = mpsc::channel();
        let (queue, rx) = mpsc::channel();
        Jobs {
            done_tx,
            done_rx,
            queue: Some(queue),
            shared_rx: Arc::new(Mutex::new(rx)),
            started: 0,
            pending: HashMap::new(),
            next: 0,
        }
    }

    /// Number of jobs whose continuation has not run.
    pub(super) fn in_flight(&self) -> usize {
        self.pending.len()
    }

    /// Every completion received so far, in completion order.
    pub(super) fn completed(&mut self) -> Vec<Completion> {
        let mut out = Vec::new();
        while let Ok(c) = self.done_rx.try_recv() {
            out.push(c);
        }
        out
    }

    /// The continuation of job `id`, taken out (it runs once).
    pub(super) fn take(&mut self, id: u64) -> Option<Continuation> {
        self.pending.remove(&id)
    }

    fn start_worker(&mut self, waker: &Arc<Waker>) {
        let rx = Arc::clone(&self.shared_rx);
        let tx = self.done_tx.clone();
        let waker = Arc::clone(waker);
        let spawned = std::thread::Builder::new()
            .name("festina-worker".into())
            .spawn(move || loop {
                let job = match rx.lock() {
                    Ok(guard) => guard.recv(),
                    Err(_) => return,
                };
                let Ok(job) = job else { return };
                let result = (job.work)();
                if tx.send(Completion { id: job.id, result }).is_err() {
                    return;
                }
                let _ = waker.wake();
            });
        if spawned.is_ok() {
            self.started += 1;
        }
    }

    /// Stop handing out work: the workers finish their current job and
    /// end.
    pub(super) fn close(&mut self) {
        self.queue = None;
    }
}

impl EventLoop {
    /// Run `work` on a worker thread; when it finishes, the loop runs
    /// `done` with its result on this thread. The job keeps the program
    /// alive until `done` has run.
    pub fn spawn_job(&mut self, work: Work, done: Continuation) {
        let jobs = &mut self.jobs;
        let id = jobs.next;
        jobs.next += 1;
        jobs.pending.insert(id, done);
        let in_flight = jobs.pending.len();
        if jobs.started < MAX_WORKERS && jobs.started < in_flight {
            jobs.start_worker(&self.waker);
        }
        let job = Job { id, work };
        let job = match (&jobs.queue, jobs.started) {
            (Some(q), n) if n > 0 => match q.send(job) {
                Ok(()) => return,
                Err(mpsc::SendError(job)) => job,
            },
            _ => job,
        };
        // No worker could be started: run it here; the result is picked up
        // like any other completion.
        let result = (job.work)();
        let _ = jobs.done_tx.send(Completion { id, result });
        let _ = self.waker.wake();
    }

    /// Number of jobs whose continuation has not run yet.
    pub fn jobs_in_flight(&self) -> usize {
        self.jobs.in_flight()
    }
}
