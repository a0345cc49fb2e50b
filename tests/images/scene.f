// tolerance: 2
// A random scene of 4,000 rectangles, circles and pixels from a fixed
// Park-Miller PRNG, with translations by whole pixels: the direct pixel
// paths draw most of it, and the harness checks that without them the
// bytes are the same.
setClientWidth(400)
setClientHeight(300)
int s = 12345
int func next() {
    s = s * 48271 % 2147483647
    return s
}
for int i = 0, i < 4000, i++ {
    int kind = next() % 10
    fillStyle(next() % 256, next() % 256, next() % 256)
    if kind < 4 {
        drawRect(next() % 420 - 10, next() % 320 - 10, next() % 40 - 5, next() % 40 - 5)
    } else if kind < 8 {
        drawCircle(next() % 420 - 10, next() % 320 - 10, next() % 30)
    } else if kind < 9 {
        drawPixel(next() % 400, next() % 300)
    } else {
        translate(next() % 7 - 3, next() % 7 - 3)
    }
}
log(saveCanvas('out.png'))
