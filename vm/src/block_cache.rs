//! A per-thread cache of small freed blocks in front of the system
//! allocator: the allocation layer of [`crate::oom::Allocator`].
//!
//! # Why
//!
//! A Festina program allocates many small blocks and frees them soon:
//! every text is an `Rc` box and its bytes, every map key an `Rc<str>`,
//! every handle a box. A request proxied by `examples/threaded_proxy.f`
//! made 68 allocations and as many frees, and glibc's `malloc`/`free`
//! pair cost about 150 instructions on average there (a quarter of the
//! request's instructions, callgrind): its own per-thread cache holds 7
//! blocks per size, so a burst of frees spills into the arena with
//! atomic operations. mimalloc as the global allocator was measured and
//! dropped twice (benches/RESULTS.md): a 10 MB text built by appends
//! peaked at 2.3 times glibc's memory and took 5 times as long (glibc
//! grows a large block in place with `mremap`).
//!
//! # Design
//!
//! Blocks of 1 to [`MAX_SIZE`] bytes with an alignment of at most
//! [`GRAIN`] fall into [`CLASSES`] size classes of [`GRAIN`] bytes
//! (16, 32, ..., 128). Each class of each thread has a stack of at most
//! [`DEPTH`] free blocks (a `thread_local` without a destructor, so that
//! it is usable at any point of a thread's life and costs one
//! thread-pointer-relative access). A small allocation pops its class's
//! stack, or asks the system for a block of the class's full size; a
//! small free pushes the block, or gives it back to the system when the
//! stack is full. Every block of a class therefore holds the class's
//! size, whatever size was asked: a `realloc` that starts or ends in a
//! class moves the contents to a block of the right class (at most 128
//! bytes copied) rather than letting the system resize it to a size the
//! class would not know of. Larger or more aligned blocks go straight to
//! the system.
//!
//! A block freed on another thread than the one that allocated it joins
//! the freeing thread's cache: to the system allocator it is the same
//! block either way. A thread holds at most `DEPTH` × (16 + 32 + ... +
//! 128) = 18,432 bytes in its cache; [`release_thread_cache`] returns
//! them (a Festina thread calls it when it ends; what a thread that ends
//! otherwise holds stays allocated, within that bound).
//!
//! Whether the cache is used is decided once, at the process's first
//! allocation, before any other thread exists: `FESTINA_NO_ALLOC_CACHE`
//! (or `FESTINA_NO_OPT`, see [`crate::switches`]) set turns it off, and
//! every block then goes to the system with the size asked. The variable
//! is read with `getenv`, which allocates nothing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::ptr;
use std::sync::atomic::{AtomicU8, Ordering};

/// The size step of the classes, bytes; also the largest alignment a
/// cached block serves (the system allocator's own minimum on x86-64).
pub const GRAIN: usize = 16;
/// The number of size classes.
pub const CLASSES: usize = 8;
/// The largest block size served from the cache, bytes.
pub const MAX_SIZE: usize = GRAIN * CLASSES;
/// The most free blocks a thread keeps per class.
pub const DEPTH: usize = 32;

/// One thread's stacks of free blocks, one per class.
struct Bins {
    len: [usize; CLASSES],
    slots: [[*mut u8; DEPTH]; CLASSES],
}

thread_local! {
    /// This thread's cache; no destructor (see the module documentation).
    static BINS: UnsafeCell<Bins> = const {
        UnsafeCell::new(Bins {
            len: [0; CLASSES],
            slots: [[ptr::null_mut(); DEPTH]; CLASSES],
        })
    };
}

const NO_ALLOC_CACHE: &std::ffi::CStr = c"FESTINA_NO_ALLOC_CACHE";
const NO_OPT: &std::ffi::CStr = c"FESTINA_NO_OPT";

/// 0: not decided yet; 1: the cache is used; 2: it is off.
static STATE: AtomicU8 = AtomicU8::new(0);

/// Whether the cache is used (decided at the first call).
#[inline]
fn enabled() -> bool {
    match STATE.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => decide(),
    }
}

#[cold]
#[inline(never)]
fn decide() -> bool {
    // `crate::switches::NO_ALLOC_CACHE` and `NO_OPT` (the test below
    // checks that the names agree).
    let off = env_set(NO_ALLOC_CACHE) || env_set(NO_OPT);
    STATE.store(if off { 2 } else { 1 }, Ordering::Relaxed);
    !off
}

/// Whether the environment variable `name` is present, not empty and not
/// `0` (the switches' convention), read without allocating.
fn env_set(name: &std::ffi::CStr) -> bool {
    // SAFETY: `getenv` reads the environment; the first allocation of
    // the process happens before any thread could change it. A non-null
    // result points to a NUL-terminated string, so reading its first byte
    // and, when that is not NUL, its second is in bounds.
    unsafe {
        let p = libc::getenv(name.as_ptr());
        if p.is_null() || *p == 0 {
            return false;
        }
        !(*p == b'0' as libc::c_char && *p.add(1) == 0)
    }
}

/// The class of `layout` when the cache serves it.
#[inline]
fn class_of(layout: Layout) -> Option<usize> {
    let size = layout.size();
    if size == 0 || size > MAX_SIZE || layout.align() > GRAIN || !enabled() {
        return None;
    }
    Some((size - 1) / GRAIN)
}

/// The layout every block of class `c` is allocated with.
#[inline]
fn class_layout(c: usize) -> Layout {
    // SAFETY: (c + 1) * GRAIN is at most MAX_SIZE, non-zero, and GRAIN is
    // a power of two.
    unsafe { Layout::from_size_align_unchecked((c + 1) * GRAIN, GRAIN) }
}

/// A cached block of class `c`, taken off its stack; null when the stack
/// is empty.
#[inline]
fn pop(c: usize) -> *mut u8 {
    // SAFETY: the cell is this thread's own and no reference to it
    // outlives this closure (nothing here allocates or re-enters).
    BINS.with(|b| unsafe {
        let b = &mut *b.get();
        match b.len[c] {
            0 => ptr::null_mut(),
            n => {
                b.len[c] = n - 1;
                b.slots[c][n - 1]
            }
        }
    })
}

/// A block for `layout`: a cached one, or the system's (null when the
/// system refused).
///
/// # Safety
/// As [`GlobalAlloc::alloc`]: `layout` has a non-zero size.
#[inline(never)]
pub unsafe fn alloc(layout: Layout) -> *mut u8 {
    let Some(c) = class_of(layout) else {
        // SAFETY: the caller's guarantees.
        return unsafe { System.alloc(layout) };
    };
    let p = pop(c);
    if !p.is_null() {
        return p;
    }
    // SAFETY: a class layout is valid and non-zero.
    unsafe { System.alloc(class_layout(c)) }
}

/// [`alloc`], with the block's first `layout.size()` bytes zeroed.
///
/// # Safety
/// As [`GlobalAlloc::alloc_zeroed`].
#[inline(never)]
pub unsafe fn alloc_zeroed(layout: Layout) -> *mut u8 {
    let Some(c) = class_of(layout) else {
        // SAFETY: the caller's guarantees.
        return unsafe { System.alloc_zeroed(layout) };
    };
    let p = pop(c);
    if p.is_null() {
        // SAFETY: a class layout is valid and non-zero.
        return unsafe { System.alloc_zeroed(class_layout(c)) };
    }
    // SAFETY: a block of class `c` holds `class_layout(c).size()` bytes,
    // at least `layout.size()`.
    unsafe { ptr::write_bytes(p, 0, layout.size()) };
    p
}

/// Free `ptr`, allocated by [`alloc`] (or [`alloc_zeroed`], [`realloc`])
/// with `layout`.
///
/// # Safety
/// As [`GlobalAlloc::dealloc`].
#[inline(never)]
pub unsafe fn dealloc(ptr: *mut u8, layout: Layout) {
    let Some(c) = class_of(layout) else {
        // SAFETY: the caller's guarantees.
        return unsafe { System.dealloc(ptr, layout) };
    };
    // SAFETY: as in `alloc`.
    let kept = BINS.with(|b| unsafe {
        let b = &mut *b.get();
        let n = b.len[c];
        if n == DEPTH {
            return false;
        }
        b.slots[c][n] = ptr;
        b.len[c] = n + 1;
        true
    });
    if !kept {
        // SAFETY: the block came from the system with the class layout.
        unsafe { System.dealloc(ptr, class_layout(c)) };
    }
}

/// Resize `ptr` (allocated with `layout`) to `new_size` bytes; null when
/// the system refused (`ptr` is then untouched).
///
/// # Safety
/// As [`GlobalAlloc::realloc`].
#[inline(never)]
pub unsafe fn realloc(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    // SAFETY: the caller guarantees that the new layout is valid.
    let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
    let old_class = class_of(layout);
    let new_class = class_of(new_layout);
    if old_class.is_none() && new_class.is_none() {
        // SAFETY: the caller's guarantees; neither size is a class's.
        return unsafe { System.realloc(ptr, layout, new_size) };
    }
    if old_class.is_some() && old_class == new_class {
        // The block already holds the class's size.
        return ptr;
    }
    // SAFETY: `new_layout` is non-zero (the caller's guarantee).
    let q = unsafe { alloc(new_layout) };
    if !q.is_null() {
        // SAFETY: both blocks hold at least the smaller of the two sizes
        // and are distinct; `ptr` is freed once, with its layout.
        unsafe {
            ptr::copy_nonoverlapping(ptr, q, layout.size().min(new_size));
            dealloc(ptr, layout);
        }
    }
    q
}

/// Give this thread's cached blocks back to the system (a thread that
/// ends calls it; the cache refills as the thread allocates again).
pub fn release_thread_cache() {
    // SAFETY: as in `alloc`; the blocks are taken out of the stacks
    // before they are freed, and `System.dealloc` does not re-enter.
    BINS.with(|b| unsafe {
        let b = &mut *b.get();
        for c in 0..CLASSES {
            while b.len[c] > 0 {
                b.len[c] -= 1;
                System.dealloc(b.slots[c][b.len[c]], class_layout(c));
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switch_names_agree() {
        assert_eq!(NO_ALLOC_CACHE.to_str(), Ok(crate::switches::NO_ALLOC_CACHE));
        assert_eq!(NO_OPT.to_str(), Ok(crate::switches::NO_OPT));
    }

    /// Blocks come back through the cache, keep their contents across
    /// reallocations into, within and out of the classes, and a freed
    /// block is reused for the next allocation of its class.
    #[test]
    fn blocks_round_trip_through_the_cache() {
        // SAFETY: every block is used within its layout and freed once
        // with the layout it was last allocated or reallocated with.
        unsafe {
            let l24 = Layout::from_size_align(24, 8).unwrap();
            let a = alloc(l24);
            assert!(!a.is_null());
            ptr::write_bytes(a, 0xab, 24);
            dealloc(a, l24);
            if enabled() {
                let b = alloc(Layout::from_size_align(32, 8).unwrap());
                assert_eq!(a, b, "the freed block of class 32 is reused");
                dealloc(b, Layout::from_size_align(32, 8).unwrap());
            }
            // Grow 10 -> 100 -> 1000 -> 40 bytes, checking the contents.
            let mut p = alloc(Layout::from_size_align(10, 1).unwrap());
            for i in 0..10 {
                *p.add(i) = i as u8;
            }
            let mut size = 10;
            for new in [100usize, 1000, 40] {
                p = realloc(p, Layout::from_size_align(size, 1).unwrap(), new);
                assert!(!p.is_null());
                for i in 0..10 {
                    assert_eq!(*p.add(i), i as u8);
                }
                if new > size {
                    ptr::write_bytes(p.add(size), 7, new - size);
                }
                size = new;
            }
            dealloc(p, Layout::from_size_align(size, 1).unwrap());
            // Zeroed blocks are zero even when recycled.
            let l = Layout::from_size_align(48, 16).unwrap();
            let z = alloc(l);
            ptr::write_bytes(z, 0xff, 48);
            dealloc(z, l);
            let z = alloc_zeroed(l);
            assert!((0..48).all(|i| *z.add(i) == 0));
            dealloc(z, l);
            // Fill a class past its depth, then release everything.
            let l = Layout::from_size_align(64, 8).unwrap();
            let blocks: Vec<*mut u8> = (0..DEPTH * 2).map(|_| alloc(l)).collect();
            for b in blocks {
                dealloc(b, l);
            }
            release_thread_cache();
            BINS.with(|b| assert!((*b.get()).len.iter().all(|&n| n == 0)));
        }
    }
}
