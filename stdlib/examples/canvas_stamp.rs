//! Micro-benchmark of the direct circle and rectangle paths: the
//! canvas benchmark's scene (benches/canvas/README.md) drawn straight
//! through `Target`, without the interpreter, best of 10 frames.
//!
//!     cargo run --profile fast -p festina-stdlib --example canvas_stamp

use festina_stdlib::canvas::style::Fill;
use festina_stdlib::canvas::Canvas;
use std::time::Instant;

fn main() {
    let mut canvas = Canvas::new(std::env::var_os("NO_DIRECT").is_none());
    let mut best = (f64::MAX, f64::MAX);
    for _ in 0..12 {
        let mut s: u64 = 12345;
        let mut next = || {
            s = s * 48271 % 2147483647;
            s as i64
        };
        let (mut t, style, direct) = canvas.parts().unwrap();
        t.surface.clear();
        let mut style = style.clone();
        let t0 = Instant::now();
        for _ in 0..20000 {
            let (x, y, w, h) = (next() % 800, next() % 600, 1 + next() % 40, 1 + next() % 40);
            style.fill = Fill::Flat(rgb(next(), next(), next()));
            t.rect(direct, &style.ink(None, None), x, y, w, h);
        }
        let t1 = Instant::now();
        for _ in 0..20000 {
            let (x, y, r) = (next() % 800, next() % 600, 1 + next() % 20);
            style.fill = Fill::Flat(rgb(next(), next(), next()));
            t.circle(direct, &style.ink(None, None), x, y, r);
        }
        let t2 = Instant::now();
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1000.0;
        best.0 = best.0.min(ms(t0, t1));
        best.1 = best.1.min(ms(t1, t2));
    }
    println!("rects {:.2} ms circles {:.2} ms", best.0, best.1);
}

/// A colour from three PRNG values (each taken modulo 256).
fn rgb(r: i64, g: i64, b: i64) -> u32 {
    (((r % 256) << 16) | ((g % 256) << 8) | (b % 256)) as u32
}
