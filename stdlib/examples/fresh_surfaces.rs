//! Fresh surfaces made and drawn on by several threads at once (issue 16,
//! item 5): each thread makes `IMAGES` new 1600x1200 images one after the
//! other, paints its background and draws stripes on it, as a thread
//! pool drawing its own pictures would. Prints the wall time per
//! image for 1 and 2 threads, with the pages faulted in when a surface is
//! made and (with `FESTINA_NO_PREFAULT=1`) as it is first drawn on.
//!
//!     cargo run --release -p festina-stdlib --example fresh_surfaces [-- --fresh]
//!     FESTINA_NO_PREFAULT=1 cargo run --release -p festina-stdlib --example fresh_surfaces [-- --fresh]
//!
//! `--fresh` makes every image's pages come fresh from the kernel (by
//! default the allocator reuses a freed image's memory, whose pages are
//! already there, and a new surface does not prefault them).

use festina_stdlib::canvas::direct::Direct;
use festina_stdlib::canvas::draw::Target;
use festina_stdlib::canvas::style::Style;
use festina_stdlib::canvas::ImgObj;
use std::time::Instant;

const IMAGES: usize = 40;

fn work() {
    let style = Style::default();
    let direct = Direct::new(true);
    let ink = style.ink(Some(Some(0x336699)), None);
    let background = style.ink(Some(Some(0xffffff)), None);
    for _ in 0..IMAGES {
        let img = ImgObj::blank(1600, 1200).unwrap();
        let mut st = img.state();
        let st = &mut *st;
        let mut t = Target {
            surface: &mut st.surface,
            matrix: &st.matrix,
        };
        // a background, then stripes
        t.rect(&direct, &background, 0, 0, 1600, 1200);
        for y in (0..1200).step_by(40) {
            t.rect(&direct, &ink, 0, y, 1600, 10);
        }
    }
}

fn main() {
    let prefault = !festina_vm::switches::disabled(festina_vm::switches::NO_PREFAULT);
    let fresh = std::env::args().any(|a| a == "--fresh");
    if fresh {
        // A fixed mmap threshold: every image gets fresh pages from the
        // kernel, as the first images of a program (or of a thread's
        // allocator arena) do; by default glibc raises the threshold
        // after the first free and reuses the memory.
        // SAFETY: mallopt only changes the allocator's tuning.
        unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, 64 * 1024) };
    }
    for threads in [1, 2] {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t0 = Instant::now();
            let handles: Vec<_> = (0..threads).map(|_| std::thread::spawn(work)).collect();
            for h in handles {
                h.join().unwrap();
            }
            best = best.min(t0.elapsed().as_secs_f64());
        }
        println!(
            "prefault {prefault}, fresh pages {fresh}: {threads} thread(s), {:.3} ms per image per thread (best of 5)",
            best * 1000.0 / IMAGES as f64
        );
    }
}
