// The window benchmarks' frame (benches/window/README.md), shared by
// shapes.f and coexist_http.f: fills the 800x600 canvas with white, then
// draws 1,000 filled rectangles and 1,000 filled circles, the colour set
// before every shape, from the Park-Miller PRNG of shapes.py (its state
// `s` continues across frames).

color white = 'white'
int s = 12345

void func drawScene() {
    drawRect(0, 0, 800, 600, white)
    for int i = 0, i < 1000, i++ {
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
    for int i = 0, i < 1000, i++ {
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
}
