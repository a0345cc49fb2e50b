//! Timers: `setTimeout`/`setInterval` callbacks (§12.4), timers that wake
//! a registered source (idle timeouts), and frame ticks (a periodic wake
//! for a source without a file descriptor, such as a window).
//!
//! One min-heap of `(deadline, arming sequence, id)` serves every kind;
//! the entries by id say what a timer does when it is due. Entries of
//! cleared or re-armed timers stay in the heap until they surface (they
//! no longer match their id's arming and are skipped) or until the heap
//! holds too many of them, when it is pruned. Ids are positive and unique
//! for the life of the loop; a program's `clearTimeout` can only clear
//! the timers it armed, never a source's.

use super::EventLoop;
use hashbrown::HashMap;
use mio::Token;
use smallvec::SmallVec;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

/// A timer's id: positive, unique for the life of its loop.
pub type TimerId = i64;

/// Shortest interval period: a `setInterval(f, 0)` ticks every
/// millisecond instead of spinning.
const MIN_INTERVAL: Duration = Duration::from_millis(1);
/// Longest delay honoured (about ten years); longer delays are clamped so
/// deadline arithmetic cannot overflow.
const MAX_DELAY: Duration = Duration::from_millis(10 * 366 * 24 * 60 * 60 * 1000);

/// What a due timer does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TimerAction {
    /// Call Festina function `F[func]` with no arguments (§12.4).
    Call(u32),
    /// Give the source under this token to its handler's
    /// [`super::SourceHandler::timer`].
    Wake(Token),
}

/// One armed timer.
struct TimerEntry {
    action: TimerAction,
    /// `Some(period)` for a repeating timer.
    period: Option<Duration>,
    /// Deadline of the current arming.
    deadline: Instant,
    /// Arming sequence number: orders equal deadlines and detects stale
    /// heap entries.
    seq: u64,
}

/// Every armed timer; see the module documentation.
#[derive(Default)]
pub(super) struct Timers {
    entries: HashMap<TimerId, TimerEntry>,
    heap: BinaryHeap<Reverse<(Instant, u64, TimerId)>>,
    next_id: TimerId,
    next_seq: u64,
    /// Number of `Call` timers (they keep the program alive, §12.2).
    calls: usize,
    /// The `Wake` timers of each source, cleared with the source.
    by_token: HashMap<Token, SmallVec<[TimerId; 2]>>,
}

impl Timers {
    /// A fresh id.
    fn new_id(&mut self) -> TimerId {
        self.next_id += 1;
        self.next_id
    }

    /// Store `entry` under `id` (replacing any earlier arming) and push its
    /// deadline.
    fn arm(
        &mut self,
        id: TimerId,
        action: TimerAction,
        deadline: Instant,
        period: Option<Duration>,
    ) {
        self.take(id);
        let seq = self.next_seq;
        self.next_seq += 1;
        match action {
            TimerAction::Call(_) => self.calls += 1,
            TimerAction::Wake(t) => self.by_token.entry(t).or_default().push(id),
        }
        self.entries.insert(
            id,
            TimerEntry {
                action,
                period,
                deadline,
                seq,
            },
        );
        self.heap.push(Reverse((deadline, seq, id)));
        if self.heap.len() > 64 + 2 * self.entries.len() {
            self.prune();
        }
    }

    /// Remove timer `id`, if armed.
    fn take(&mut self, id: TimerId) -> Option<TimerEntry> {
        let e = self.entries.remove(&id)?;
        match e.action {
            TimerAction::Call(_) => self.calls -= 1,
            TimerAction::Wake(t) => {
                if let Some(ids) = self.by_token.get_mut(&t) {
                    ids.retain(|x| *x != id);
                    if ids.is_empty() {
                        self.by_token.remove(&t);
                    }
                }
            }
        }
        Some(e)
    }

    /// Drop heap entries that no longer match an armed timer.
    fn prune(&mut self) {
        let entries = &self.entries;
        self.heap
            .retain(|Reverse((_, seq, id))| entries.get(id).is_some_and(|e| e.seq == *seq));
    }

    /// The earliest live deadline.
    pub(super) fn next_deadline(&mut self) -> Option<Instant> {
        while let Some(Reverse((deadline, seq, id))) = self.heap.peek().copied() {
            if self.entries.get(&id).is_some_and(|e| e.seq == seq) {
                return Some(deadline);
            }
            self.heap.pop();
        }
        None
    }

    /// Pop the next timer due at or before `now`, re-arming a repeating
    /// one first: one period after its previous deadline, or one period
    /// from now when that has passed already (a slow callback or a missed
    /// frame never causes a burst).
    pub(super) fn pop_due(&mut self, now: Instant) -> Option<(TimerId, TimerAction)> {
        let deadline = self.next_deadline()?;
        if deadline > now {
            return None;
        }
        let Reverse((_, _, id)) = self.heap.pop()?;
        let entry = self.take(id)?;
        if let Some(period) = entry.period {
            let mut next = entry.deadline + period;
            let current = Instant::now();
            if next <= current {
                next = current + period;
            }
            self.arm(id, entry.action, next, Some(period));
        }
        Some((id, entry.action))
    }

    /// Number of `Call` timers.
    pub(super) fn calls(&self) -> usize {
        self.calls
    }

    /// Clear every timer that wakes `token`.
    pub(super) fn clear_source(&mut self, token: Token) {
        if let Some(ids) = self.by_token.remove(&token) {
            for id in ids {
                if let Some(e) = self.entries.remove(&id) {
                    debug_assert!(matches!(e.action, TimerAction::Wake(_)));
                }
            }
        }
    }

    /// Whether timer `id` is armed with an action of this kind.
    fn is(&self, id: TimerId, wake: bool) -> bool {
        self.entries
            .get(&id)
            .is_some_and(|e| matches!(e.action, TimerAction::Wake(_)) == wake)
    }
}

impl EventLoop {
    // ---- setTimeout / setInterval (§12.4) ----

    /// Arm a timer running function `func` after `delay_ms` milliseconds
    /// (negative counts as 0, more than about ten years counts as ten
    /// years), once or, with `repeat`, every `delay_ms` (at least 1 ms)
    /// until cleared. Returns its id: positive, unique for the life of the
    /// loop. Such a timer keeps the program alive (§12.2).
    pub fn set_timer(&mut self, func: u32, delay_ms: i64, repeat: bool) -> TimerId {
        let delay = Duration::from_millis(delay_ms.max(0) as u64).min(MAX_DELAY);
        let period = repeat.then(|| delay.max(MIN_INTERVAL));
        let id = self.timers.new_id();
        let deadline = Instant::now() + period.unwrap_or(delay);
        self.timers
            .arm(id, TimerAction::Call(func), deadline, period);
        id
    }

    /// Cancel the `setTimeout`/`setInterval` timer `id` (unknown ids, ids
    /// already fired and the ids of source timers are ignored).
    pub fn clear_timer(&mut self, id: TimerId) {
        if self.timers.is(id, false) {
            self.timers.take(id);
        }
    }

    /// Number of armed `setTimeout`/`setInterval` timers.
    pub fn timer_count(&self) -> usize {
        self.timers.calls()
    }

    // ---- timers that wake a source ----

    /// Arm a timer that gives the source under `token` to its handler's
    /// [`super::SourceHandler::timer`] after `after` (an idle timeout, a
    /// retry), once or, with `period`, repeatedly (clamped to at least
    /// 1 ms) until cleared. Source timers do not keep the program alive by
    /// themselves (the source does, if it says so) and are cleared with
    /// their source; a timer whose source is gone when it is due is
    /// dropped. Returns its id.
    pub fn set_source_timer(
        &mut self,
        token: Token,
        after: Duration,
        period: Option<Duration>,
    ) -> TimerId {
        let period = period.map(|p| p.clamp(MIN_INTERVAL, MAX_DELAY));
        let id = self.timers.new_id();
        let deadline = Instant::now() + after.min(MAX_DELAY);
        self.timers
            .arm(id, TimerAction::Wake(token), deadline, period);
        id
    }

    /// Move source timer `id` to `after` from now (an idle timeout reset
    /// by activity), keeping its period. Returns false when `id` is not an
    /// armed source timer (it fired already, or was cleared).
    pub fn rearm_source_timer(&mut self, id: TimerId, after: Duration) -> bool {
        if !self.timers.is(id, true) {
            return false;
        }
        let Some(e) = self.timers.take(id) else {
            return false;
        };
        let deadline = Instant::now() + after.min(MAX_DELAY);
        self.timers.arm(id, e.action, deadline, e.period);
        true
    }

    /// Cancel source timer `id` (unknown ids, and the ids of
    /// `setTimeout`/`setInterval` timers, are ignored).
    pub fn clear_source_timer(&mut self, id: TimerId) {
        if self.timers.is(id, true) {
            self.timers.take(id);
        }
    }

    // ---- frame ticks ----

    /// A frame tick: wake the source under `token` every `period` (first
    /// after one period), for a source that has no file descriptor to
    /// poll -- a window, whose library (minifb) exposes none, polls its
    /// events and presents its frame on each tick. A tick that finds the
    /// previous one overran is not made up: the next follows one period
    /// later, never a burst. Cleared with [`EventLoop::clear_source_timer`]
    /// or with the source.
    pub fn set_frame_tick(&mut self, token: Token, period: Duration) -> TimerId {
        self.set_source_timer(token, period, Some(period))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(f: u32) -> TimerAction {
        TimerAction::Call(f)
    }

    #[test]
    fn timers_fire_in_deadline_then_arming_order() {
        let mut t = Timers::default();
        let base = Instant::now();
        t.arm(1, call(10), base + Duration::from_millis(5), None);
        t.arm(2, call(20), base + Duration::from_millis(1), None);
        t.arm(3, call(30), base + Duration::from_millis(5), None);
        t.arm(4, call(40), base + Duration::from_millis(9), None);
        t.take(4);
        let later = base + Duration::from_millis(50);
        let mut fired = Vec::new();
        while let Some((_, a)) = t.pop_due(later) {
            fired.push(a);
        }
        assert_eq!(fired, vec![call(20), call(10), call(30)]);
        assert!(t.entries.is_empty());
        assert_eq!(t.calls(), 0);
        assert_eq!(t.next_deadline(), None);
    }

    #[test]
    fn intervals_rearm_and_stale_entries_are_pruned() {
        let mut t = Timers::default();
        let base = Instant::now();
        t.arm(1, call(7), base, Some(Duration::from_millis(1000)));
        assert_eq!(t.pop_due(base), Some((1, call(7))));
        assert_eq!(t.entries.len(), 1);
        assert_eq!(t.calls(), 1);
        assert_eq!(t.pop_due(base), None);
        for i in 0..1000 {
            t.arm(100 + i, call(1), base, None);
            t.take(100 + i);
        }
        assert!(t.heap.len() < 200, "{}", t.heap.len());
    }

    #[test]
    fn source_timers_are_indexed_by_token_and_cleared_with_it() {
        let mut t = Timers::default();
        let base = Instant::now();
        let (a, b) = (Token(7), Token(8));
        t.arm(1, TimerAction::Wake(a), base, None);
        t.arm(
            2,
            TimerAction::Wake(a),
            base,
            Some(Duration::from_millis(5)),
        );
        t.arm(3, TimerAction::Wake(b), base, None);
        t.arm(4, call(1), base, None);
        assert_eq!(t.calls(), 1);
        t.clear_source(a);
        assert!(!t.by_token.contains_key(&a));
        let mut fired = Vec::new();
        while let Some((id, _)) = t.pop_due(base) {
            fired.push(id);
        }
        assert_eq!(fired, vec![3, 4]);
        assert!(t.by_token.is_empty());
    }
}
