//! The direct pixel paths (§17.5 note) are byte-identical to cairo: random
//! scenes are drawn twice, with the paths on and off
//! (`FESTINA_NO_DIRECT_FILL`), and every byte of the results compared.
//!
//! The scenes mix what the direct paths take (opaque flat rectangles,
//! pixels and circles at whole-pixel positions, over whatever is already
//! drawn, partly off the surface, with negative sizes) with what they
//! must leave to cairo (alpha, gradients, borders, `none` fills, scaled
//! and rotated transforms, circles crossing the edge), on the canvas and
//! on images, so that a wrong decision or a wrong byte shows.

use festina_stdlib::canvas::direct::Direct;
use festina_stdlib::canvas::draw::Target;
use festina_stdlib::canvas::style::{Fill, Gradient, Style};
use festina_stdlib::canvas::{Canvas, ImgObj};
use std::rc::Rc;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }

    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent as i64
    }

    fn rgb(&mut self) -> u32 {
        (self.next() & 0xff_ffff) as u32
    }
}

/// What one scene step does.
#[derive(Clone, Copy)]
enum Op {
    Rect(i64, i64, i64, i64, Option<Option<u32>>),
    Circle(i64, i64, i64, Option<Option<u32>>),
    Pixel(i64, i64, Option<Option<u32>>),
    Fill(Option<u32>),
    Alpha(f64),
    Border(Option<u32>, f64),
    Gradient(u32, u32),
    Translate(i64, i64),
    Scale(f64),
    Rotate(f64),
    Reset,
}

fn scene(seed: u64, steps: usize, w: i64, h: i64) -> Vec<Op> {
    let mut r = Rng(seed);
    let mut ops = Vec::with_capacity(steps);
    for _ in 0..steps {
        let over = |r: &mut Rng| {
            if r.chance(10) {
                Some(if r.chance(20) { None } else { Some(r.rgb()) })
            } else {
                None
            }
        };
        let op = match r.below(100) {
            0..=34 => Op::Rect(
                r.range(-30, w + 10),
                r.range(-30, h + 10),
                r.range(-40, 60),
                r.range(-40, 60),
                over(&mut r),
            ),
            35..=69 => {
                // mostly small radii, sometimes up to past the mask limit
                let radius = if r.chance(5) {
                    r.range(100, 140)
                } else {
                    r.range(-2, 30)
                };
                Op::Circle(
                    r.range(-20, w + 20),
                    r.range(-20, h + 20),
                    radius,
                    over(&mut r),
                )
            }
            70..=77 => Op::Pixel(r.range(-2, w + 1), r.range(-2, h + 1), over(&mut r)),
            78..=87 => Op::Fill(if r.chance(5) { None } else { Some(r.rgb()) }),
            88..=89 => Op::Alpha(if r.chance(50) {
                1.0
            } else {
                r.below(100) as f64 / 100.0
            }),
            90..=91 => Op::Border(
                if r.chance(50) { None } else { Some(r.rgb()) },
                r.range(0, 4) as f64,
            ),
            92 => Op::Gradient(r.rgb(), r.rgb()),
            93..=95 => Op::Translate(r.range(-20, 20), r.range(-20, 20)),
            96 => Op::Scale(if r.chance(50) { 1.0 } else { 1.5 }),
            97 => Op::Rotate(if r.chance(50) { 0.0 } else { 0.3 }),
            _ => Op::Reset,
        };
        ops.push(op);
    }
    ops
}

/// Apply a style or transform step to `canvas`; `true` if it was one.
fn style_step(c: &mut Canvas, op: Op) -> bool {
    match op {
        Op::Fill(f) => c.style.fill = f.map_or(Fill::None, Fill::Flat),
        Op::Alpha(a) => c.style.alpha = a,
        Op::Border(b, wdt) => {
            c.style.border = b;
            c.style.line_width = wdt;
        }
        Op::Gradient(a, b) => {
            c.style.fill = Fill::Gradient(Rc::new(Gradient::Linear {
                from: (0.0, 0.0, Some(a)),
                to: (200.0, 100.0, Some(b)),
            }))
        }
        Op::Translate(x, y) => c.matrix.translate(x as f64, y as f64),
        Op::Scale(s) => c.matrix.scale(s, s),
        Op::Rotate(a) => c.matrix.rotate(a),
        Op::Reset => c.matrix = cairo::Matrix::identity(),
        _ => return false,
    }
    true
}

/// Draw `op` on `t` with `style` and `direct`.
fn draw_step(t: &mut Target<'_>, style: &Style, direct: &mut Direct, op: Op) {
    match op {
        Op::Rect(x, y, w, h, fill) => t.rect(direct, &style.ink(fill, None), x, y, w, h),
        Op::Circle(x, y, r, fill) => t.circle(direct, &style.ink(fill, None), x, y, r),
        Op::Pixel(x, y, fill) => t.pixel(direct, &style.ink(fill, None), x, y),
        _ => {}
    }
}

/// The canvas after `ops`, with the direct paths on or off.
fn draw_canvas(ops: &[Op], direct: bool) -> Vec<u32> {
    draw_canvas_with(ops, direct, true)
}

/// The canvas after `ops`, with the direct paths on or off, and their
/// circle windows blended with AVX2 where the CPU has it or with SSE2
/// alone (`avx2` false).
fn draw_canvas_with(ops: &[Op], direct: bool, avx2: bool) -> Vec<u32> {
    let mut c = Canvas::new(direct);
    c.direct.avx2 &= avx2;
    assert!(c.resize(320, 240));
    for &op in ops {
        if style_step(&mut c, op) {
            continue;
        }
        let (mut t, style, direct) = c.parts().unwrap();
        draw_step(&mut t, style, direct, op);
    }
    c.surface().unwrap().packed()
}

/// An image after `ops` drawn through its own transform.
fn draw_image(ops: &[Op], direct: bool) -> Vec<u32> {
    let mut c = Canvas::new(direct);
    let img = ImgObj::blank(150, 90).unwrap();
    for &op in ops {
        // the image's own transform stands in for the canvas's
        if style_step(&mut c, op) {
            img.state().matrix = c.matrix;
            continue;
        }
        let mut st = img.state();
        let st = &mut *st;
        let mut t = Target {
            surface: &mut st.surface,
            matrix: &st.matrix,
        };
        draw_step(&mut t, &c.style, &mut c.direct, op);
    }
    let mut st = img.state();
    st.surface.packed()
}

fn first_difference(a: &[u32], b: &[u32], width: usize) -> Option<String> {
    a.iter().zip(b).position(|(x, y)| x != y).map(|i| {
        format!(
            "pixel {},{}: direct {:08x}, cairo {:08x}",
            i % width,
            i / width,
            a[i],
            b[i]
        )
    })
}

#[test]
fn random_canvas_scenes_are_byte_identical() {
    for seed in 1..=12u64 {
        let ops = scene(seed, 2500, 320, 240);
        let (on, off) = (draw_canvas(&ops, true), draw_canvas(&ops, false));
        assert!(on.iter().any(|&p| p != 0), "seed {seed} drew something");
        if let Some(d) = first_difference(&on, &off, 320) {
            panic!("seed {seed}: {d}");
        }
    }
}

#[test]
fn random_image_scenes_are_byte_identical() {
    for seed in 100..=108u64 {
        let ops = scene(seed, 1500, 150, 90);
        let (on, off) = (draw_image(&ops, true), draw_image(&ops, false));
        if let Some(d) = first_difference(&on, &off, 150) {
            panic!("seed {seed}: {d}");
        }
    }
}

/// Only opaque flat shapes at whole-pixel positions: nearly every call
/// takes a direct path, on a background cairo drew; the circles' windows
/// both in AVX2 (where the CPU has it) and in SSE2.
#[test]
fn dense_opaque_scenes_are_byte_identical() {
    for seed in 200..=205u64 {
        let mut r = Rng(seed);
        let ops: Vec<Op> = (0..6000)
            .map(|_| match r.below(10) {
                0 => Op::Fill(Some(r.rgb())),
                1 => Op::Translate(r.range(-3, 3), r.range(-3, 3)),
                2..=5 => Op::Rect(
                    r.range(0, 319),
                    r.range(0, 239),
                    r.range(1, 40),
                    r.range(1, 40),
                    None,
                ),
                6..=8 => Op::Circle(r.range(0, 319), r.range(0, 239), r.range(1, 128), None),
                _ => Op::Pixel(r.range(0, 319), r.range(0, 239), Some(Some(r.rgb()))),
            })
            .collect();
        let off = draw_canvas(&ops, false);
        // the circles' windows in AVX2 (where the CPU has it) and in SSE2
        for avx2 in [true, false] {
            let on = draw_canvas_with(&ops, true, avx2);
            if let Some(d) = first_difference(&on, &off, 320) {
                panic!("seed {seed} avx2 {avx2}: {d}");
            }
        }
    }
}
