// The canvas benchmark, Festina's side (benches/canvas/README.md):
// 20,000 filled rectangles, then 20,000 filled circles, the fill colour
// set before every shape, into the 800x600 canvas, from the Park-Miller
// PRNG the browser side (scene.html) uses, restarted for every frame.
//
//     festina benches/canvas/draw_shapes.f RUNS OUT.png
//
// draws one warm-up frame and RUNS timed frames, prints
// `rects <ms> circles <ms> total <ms>` per frame (warm-up first) and
// saves the last frame to OUT.png. The program's clock, now(), counts
// whole milliseconds, so each reported frame is the mean of REPS
// identical frames (each one clearing the canvas and restarting the
// PRNG), timed part by part; the browser's clock has microseconds and
// times single frames. The PRNG is written inline rather than as a
// function, as the browser's JIT inlines its closure.

int runs = argv.length > 1 ? argv[1].toInt() : 10
text out = argv.length > 2 ? argv[2] : 'draw_shapes.png'
int N = 20000
// (one frame alone when RUNS is 0: the runner's start-up measurement)
int REPS = runs == 0 ? 1 : 5

void func frame() {
    int rects = 0
    int circles = 0
    for int rep = 0, rep < REPS, rep++ {
        int s = 12345
        clearCanvas()
        int t0 = now()
        for int i = 0, i < N, i++ {
            s = s * 48271 % 2147483647
            int x = s % 800
            s = s * 48271 % 2147483647
            int y = s % 600
            s = s * 48271 % 2147483647
            int w = 1 + s % 40
            s = s * 48271 % 2147483647
            int h = 1 + s % 40
            s = s * 48271 % 2147483647
            int r = s % 256
            s = s * 48271 % 2147483647
            int g = s % 256
            s = s * 48271 % 2147483647
            fillStyle(r, g, s % 256)
            drawRect(x, y, w, h)
        }
        int t1 = now()
        for int i = 0, i < N, i++ {
            s = s * 48271 % 2147483647
            int x = s % 800
            s = s * 48271 % 2147483647
            int y = s % 600
            s = s * 48271 % 2147483647
            int radius = 1 + s % 20
            s = s * 48271 % 2147483647
            int r = s % 256
            s = s * 48271 % 2147483647
            int g = s % 256
            s = s * 48271 % 2147483647
            fillStyle(r, g, s % 256)
            drawCircle(x, y, radius)
        }
        int t2 = now()
        rects = rects + t1 - t0
        circles = circles + t2 - t1
    }
    log(`rects ${rects / REPS} circles ${circles / REPS} total ${(rects + circles) / REPS}`)
}

for int f = 0, f <= runs, f++ {
    frame()
}
saveCanvas(out)
