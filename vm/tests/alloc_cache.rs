//! The executables' global allocator ([`festina_vm::oom::Allocator`], the
//! system allocator behind [`festina_vm::block_cache`]) installed as this
//! test binary's global allocator, so that every allocation of the test
//! (and of the standard library under it) goes through the per-thread
//! cache: blocks allocated on one thread and freed on another, texts
//! grown and shrunk across the size classes, zeroed blocks recycled.
//!
//! Small enough to run under Miri (`scripts/miri.sh`), which checks the
//! cache's pointer handling and the threads' accesses for undefined
//! behaviour and data races.

use festina_vm::block_cache::{release_thread_cache, MAX_SIZE};
use std::sync::mpsc;
use std::thread;

#[global_allocator]
static ALLOCATOR: festina_vm::oom::Allocator = festina_vm::oom::Allocator;

/// A block of `n` bytes whose contents tell its number and size.
fn block(i: usize, n: usize) -> Vec<u8> {
    (0..n).map(|k| (i + k) as u8).collect()
}

fn check(i: usize, b: &[u8]) {
    assert!(b.iter().enumerate().all(|(k, &x)| x == (i + k) as u8));
}

/// Blocks of every size class (and a few larger ones) cross threads in
/// both directions and are freed where they arrive, into the freeing
/// thread's cache; their contents survive the trip.
#[test]
fn blocks_freed_on_another_thread_join_its_cache() {
    const THREADS: usize = 3;
    const BLOCKS: usize = 40;
    let (to_main, from_workers) = mpsc::channel::<(usize, Vec<u8>)>();
    let mut back = Vec::new();
    let mut workers = Vec::new();
    for w in 0..THREADS {
        let to_main = to_main.clone();
        let (to_worker, from_main) = mpsc::channel::<(usize, Vec<u8>)>();
        back.push(to_worker);
        workers.push(thread::spawn(move || {
            for i in 0..BLOCKS {
                let n = 1 + (i * 7 + w) % (MAX_SIZE + 40);
                to_main.send((i, block(i, n))).unwrap();
            }
            drop(to_main);
            let mut got = 0;
            for (i, b) in from_main {
                check(i, &b);
                got += 1;
            }
            release_thread_cache();
            got
        }));
    }
    drop(to_main);
    let mut n = 0;
    for (i, b) in from_workers {
        check(i, &b);
        // The block is freed here, and this thread's next block of its
        // class may be it: the worker gets a recycled block back.
        drop(b);
        back[n % THREADS]
            .send((i, block(i, 1 + i % MAX_SIZE)))
            .unwrap();
        n += 1;
    }
    drop(back);
    let got: usize = workers.into_iter().map(|w| w.join().unwrap()).sum();
    assert_eq!((n, got), (THREADS * BLOCKS, THREADS * BLOCKS));
    release_thread_cache();
}

/// A text grown byte by byte moves from class to class and out of the
/// classes (reallocations), then shrinks back into them, keeping its
/// contents; zeroed vectors are zero even on recycled blocks.
#[test]
fn reallocations_across_classes_keep_contents() {
    let mut s = String::new();
    for i in 0..300 {
        s.push(char::from(b'a' + (i % 26) as u8));
    }
    for (i, c) in s.bytes().enumerate() {
        assert_eq!(c, b'a' + (i % 26) as u8);
    }
    s.truncate(50);
    s.shrink_to_fit();
    assert_eq!(s.len(), 50);
    assert!(s
        .bytes()
        .enumerate()
        .all(|(i, c)| c == b'a' + (i % 26) as u8));
    for n in [1usize, 16, 17, 64, 100, 128, 129] {
        let dirty = vec![0xffu8; n];
        drop(dirty);
        let clean = vec![0u8; n];
        assert!(clean.iter().all(|&x| x == 0));
    }
    release_thread_cache();
}
