// The window benchmark, Festina's side (benches/window/README.md): every
// frame fills the 800x600 canvas with white, draws 1,000 filled
// rectangles and 1,000 filled circles (the colour set before every
// shape, from the Park-Miller PRNG of shapes.py, continued across
// frames) and presents it with render().
//
//     festina benches/window/shapes.f SECONDS [START_MS]
//
// prints `first_frame_ms <ms from START_MS to the first presented
// frame>` (START_MS: the runner's launch time in epoch milliseconds, the
// BENCH_START_MS the runner also puts in the environment, which a
// Festina program cannot read), then after SECONDS of frames
// `frames <n> seconds <s> fps <n/s>`. The program's clock, now(),
// counts whole milliseconds.

import scene.f

float seconds = argv.length > 1 ? argv[1].toFloat() : 5.0
float startMs = argv.length > 2 ? argv[2].toFloat() : now() * 1.0
void func frame() {
    drawScene()
    render()
}

frame()
log(`first_frame_ms ${now() - startMs}`)
int frames = 0
int t0 = now()
while (now() - t0) < seconds * 1000.0 {
    frame()
    frames++
}
float elapsed = (now() - t0) / 1000.0
log(`frames ${frames} seconds ${elapsed} fps ${frames / elapsed}`)
close(0)
