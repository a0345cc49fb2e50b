// tolerance: 2
// drawCircle (§17.3): filled, with per-call colours and borders, radius
// 0 and below, circles crossing the canvas edge, large radii. Curves are
// antialiased, hence the tolerance.
setClientWidth(220)
setClientHeight(140)
color teal = 'teal'
color orange = 'orange'
color black = 'black'
color none = 'none'
drawCircle(20, 20, 15)
drawCircle(60, 20, 15, teal)
drawCircle(100, 20, 15, teal, orange)
lineWidth(3)
drawCircle(140, 20, 15, none, black)
borderColor(orange)
drawCircle(180, 20, 15)
borderColor(none)
drawCircle(200, 80, 0, teal)
drawCircle(200, 80, -5, teal)
drawCircle(0, 70, 25, orange)
drawCircle(220, 140, 30, teal)
drawCircle(100, 90, 45, orange)
for int r = 1, r <= 8, r++ {
    drawCircle(10 + r * 20, 130, r, black)
}
log(getPixelColor(100, 90) == orange)
log(getPixelColor(20, 20) != null)
log(getPixelColor(2, 2) == null)
log(saveCanvas('out.png'))
