//! Running out of memory is a runtime failure, never an abort (issue 10
//! item 3).
//!
//! # Design
//!
//! Three layers, from the most precise to the last resort:
//!
//! 1. **The growth paths are fallible.** Whatever a program can grow
//!    without bound -- a text (`Concat`, `AppendText`, templates), an
//!    array (`push`, `unshift`, `splice`), a map (a new key), a blob
//!    (`append`, `write`), the register and frame stacks (calls) --
//!    reserves its memory with `try_reserve` through [`grow`] (or
//!    [`fallible`] around any other fallible reservation) and turns a
//!    refusal into [`OutOfMemory`]. The interpreter (or the native) then
//!    fails like any runtime failure, naming what was growing, how big
//!    and the line: `fail: out of memory growing a text to 1073741824
//!    bytes at app.f:3`, exit status 1, stdout flushed, the Festina call
//!    stack after it.
//! 2. **One rescue for any other allocation.** Some allocations cannot be
//!    fallible on stable Rust (a map key's `Rc<str>`, a struct's box, a
//!    rendered text, a library's buffer); when one fails, [`Allocator`]
//!    frees the emergency reserve ([`RESERVE`] bytes, taken by
//!    [`arm_reserve`] when a program starts), retries (which then
//!    succeeds), and raises the [`low`] flag. The interpreter looks at the
//!    flag where a program allocates -- after each native call, at each
//!    map store, before each new struct, array or map, at each text
//!    conversion -- and fails there: `fail: out of memory growing a map to
//!    22369622 entries at app.f:5`, or `fail: out of memory at app.f:5`
//!    when it cannot say what grew. The flag is one relaxed load.
//! 3. **The last resort.** A failure outside a [`fallible`] section with
//!    the reserve already spent (or never armed) would make Rust abort
//!    (`SIGABRT`). Instead the allocator writes the stdout buffer
//!    ([`crate::stdout::flush_before_exit`]), prints `fail: out of memory
//!    (an allocation of N bytes failed)` on stderr and exits with status
//!    1. It allocates nothing and cannot name the line.
//!
//! The executables install [`Allocator`] as the global allocator
//! (`festina-cli`); without it (the crates' own tests) only layer 1
//! exists. [`fallible`] marks the current thread for the duration of one
//! reservation (a thread-local counter, read only after an allocation
//! failed), so that the allocator hands the failure back to `try_reserve`
//! instead of rescuing or ending the process. Successful allocations pay
//! one null-pointer test.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::time::Duration;

/// Size of the emergency reserve (layer 2 of the module documentation):
/// enough for the allocation that failed plus the failure's message and
/// unwinding.
pub const RESERVE: usize = 4 << 20;

/// The emergency reserve: a block from the system allocator, or null
/// (not armed, or spent).
static RESERVE_BLOCK: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());

/// Raised when the reserve was spent to rescue an allocation.
static LOW: AtomicBool = AtomicBool::new(false);

fn reserve_layout() -> Layout {
    Layout::from_size_align(RESERVE, 16).expect("a valid layout")
}

/// Take the emergency reserve, if not held already (the executables call
/// this before running a program). Its pages are never touched, so it
/// costs address space, not memory.
pub fn arm_reserve() {
    if !RESERVE_BLOCK.load(Ordering::SeqCst).is_null() {
        return;
    }
    // SAFETY: a non-zero-sized layout.
    let p = unsafe { System.alloc(reserve_layout()) };
    if !p.is_null()
        && RESERVE_BLOCK
            .compare_exchange(std::ptr::null_mut(), p, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
    {
        // SAFETY: `p` came from `System.alloc` with this layout and was
        // not published.
        unsafe { System.dealloc(p, reserve_layout()) };
    }
}

/// Whether the emergency reserve has been spent: the program is out of
/// memory and should fail at the next place that can say where (one
/// relaxed load).
#[inline]
pub fn low() -> bool {
    LOW.load(Ordering::Relaxed)
}

/// Free the reserve (once) and raise [`low`]; true if there was one.
fn spend_reserve() -> bool {
    let p = RESERVE_BLOCK.swap(std::ptr::null_mut(), Ordering::SeqCst);
    if p.is_null() {
        return false;
    }
    // SAFETY: `p` came from `System.alloc(reserve_layout())` in
    // `arm_reserve` and is freed once (the swap took it).
    unsafe { System.dealloc(p, reserve_layout()) };
    LOW.store(true, Ordering::SeqCst);
    true
}

/// A fallible reservation was refused: the allocator has no more memory
/// (or address space, under `ulimit -v`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfMemory;

impl fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("out of memory")
    }
}

impl std::error::Error for OutOfMemory {}

thread_local! {
    /// Depth of [`fallible`] sections on this thread.
    static FALLIBLE: Cell<u32> = const { Cell::new(0) };
}

/// Run `f` (a `try_reserve` or another fallible allocation) with the
/// allocator told that a failure is handled by the caller: [`Allocator`]
/// then returns it instead of ending the process.
#[inline]
pub fn fallible<R>(f: impl FnOnce() -> R) -> R {
    FALLIBLE.with(|c| c.set(c.get() + 1));
    let r = f();
    FALLIBLE.with(|c| c.set(c.get() - 1));
    r
}

/// Make room in `v` for `extra` more elements: amortized doubling when the
/// allocator allows it, else an eighth more (at least `extra`; so that
/// growth near the limit stays amortized), else [`OutOfMemory`]. Free
/// when the room is already there.
#[inline]
pub fn grow<T>(v: &mut Vec<T>, extra: usize) -> Result<(), OutOfMemory> {
    if v.capacity() - v.len() >= extra {
        return Ok(());
    }
    grow_slow(v, extra)
}

#[cold]
#[inline(never)]
fn grow_slow<T>(v: &mut Vec<T>, extra: usize) -> Result<(), OutOfMemory> {
    let step = extra.max(v.len() / 8);
    fallible(|| {
        v.try_reserve(extra)
            .or_else(|_| v.try_reserve_exact(step))
            .map_err(|_| OutOfMemory)
    })
}

/// [`grow`] for a `String`.
#[inline]
pub fn grow_str(s: &mut String, extra: usize) -> Result<(), OutOfMemory> {
    if s.capacity() - s.len() >= extra {
        return Ok(());
    }
    grow_str_slow(s, extra)
}

#[cold]
#[inline(never)]
fn grow_str_slow(s: &mut String, extra: usize) -> Result<(), OutOfMemory> {
    let step = extra.max(s.len() / 8);
    fallible(|| {
        s.try_reserve(extra)
            .or_else(|_| s.try_reserve_exact(step))
            .map_err(|_| OutOfMemory)
    })
}

/// A new `String` holding `a` then `b`, or [`OutOfMemory`].
pub fn concat_str(a: &str, b: &str) -> Result<String, OutOfMemory> {
    let mut s = String::new();
    fallible(|| s.try_reserve_exact(a.len() + b.len())).map_err(|_| OutOfMemory)?;
    s.push_str(a);
    s.push_str(b);
    Ok(s)
}

/// A new byte vector holding `a` then `b` (`b` empty: a copy of `a`), or
/// [`OutOfMemory`].
pub fn concat_bytes(a: &[u8], b: &[u8]) -> Result<Vec<u8>, OutOfMemory> {
    let mut v = Vec::new();
    fallible(|| v.try_reserve_exact(a.len() + b.len())).map_err(|_| OutOfMemory)?;
    v.extend_from_slice(a);
    v.extend_from_slice(b);
    Ok(v)
}

/// The global allocator of the Festina executables: the system allocator
/// behind a per-thread cache of small blocks ([`crate::block_cache`]),
/// with the last resort of the module documentation when an allocation
/// fails outside a [`fallible`] section. Install it with
/// `#[global_allocator] static A: festina_vm::oom::Allocator =
/// festina_vm::oom::Allocator;`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Allocator;

// SAFETY: every method forwards to `crate::block_cache` (the system
// allocator behind a per-thread cache of small blocks, which keeps the
// `GlobalAlloc` contract) with the same arguments and returns its
// result; after a failure it either returns null (the caller handles
// it), retries the same call once, or ends the process.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { crate::block_cache::alloc(layout) };
        if p.is_null() {
            // SAFETY: as above.
            return failed(layout.size(), || unsafe {
                crate::block_cache::alloc(layout)
            });
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { crate::block_cache::alloc_zeroed(layout) };
        if p.is_null() {
            // SAFETY: as above.
            return failed(layout.size(), || unsafe {
                crate::block_cache::alloc_zeroed(layout)
            });
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { crate::block_cache::dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { crate::block_cache::realloc(ptr, layout, new_size) };
        if p.is_null() {
            // SAFETY: a failed `realloc` leaves `ptr` valid, so the retry
            // has the caller's guarantees too.
            return failed(new_size, || unsafe {
                crate::block_cache::realloc(ptr, layout, new_size)
            });
        }
        p
    }
}

/// An allocation of `size` bytes failed: inside a [`fallible`] section
/// the caller handles it (null); otherwise spend the reserve and `retry`
/// once (layer 2), and when that is not possible, the last resort.
#[cold]
#[inline(never)]
fn failed(size: usize, retry: impl FnOnce() -> *mut u8) -> *mut u8 {
    if FALLIBLE.with(Cell::get) > 0 {
        return std::ptr::null_mut();
    }
    if spend_reserve() {
        let p = retry();
        if !p.is_null() {
            return p;
        }
    }
    last_resort(size)
}

/// The last resort for a growth that has no way to report a failure (an
/// API that cannot return one): flush stdout, print `fail: out of memory
/// (an allocation of N bytes failed)`, exit 1.
#[cold]
pub fn exhausted(size: usize) -> ! {
    last_resort(size)
}

/// Flush stdout, report, exit 1, allocating nothing.
fn last_resort(size: usize) -> ! {
    crate::stdout::flush_before_exit(Duration::from_millis(200));
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = size;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for part in [
        &b"fail: out of memory (an allocation of "[..],
        &digits[i..],
        &b" bytes failed)\n"[..],
    ] {
        let _ = crate::stdout::write_fd(2, part);
    }
    // SAFETY: `_exit` ends the process at once; nothing runs after it.
    unsafe { libc::_exit(1) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_within_the_limits_succeeds() {
        let mut v: Vec<u64> = Vec::new();
        grow(&mut v, 10).unwrap();
        assert!(v.capacity() >= 10);
        let mut s = String::from("ab");
        grow_str(&mut s, 100).unwrap();
        assert!(s.capacity() >= 102);
        assert_eq!(concat_str("ab", "cd").unwrap(), "abcd");
        assert_eq!(concat_bytes(b"xy", b"z").unwrap(), b"xyz");
    }

    #[test]
    fn an_impossible_reservation_is_refused_not_fatal() {
        let mut v: Vec<u64> = vec![1];
        assert_eq!(grow(&mut v, usize::MAX / 4), Err(OutOfMemory));
        assert_eq!(v, [1]);
        let mut s = String::from("a");
        assert_eq!(grow_str(&mut s, isize::MAX as usize), Err(OutOfMemory));
    }
}
