// drawRect (§17.3): the current fill, per-call fill and border colours,
// borders with lineWidth, negative sizes, shapes partly off the canvas,
// none as a fill. Edges are on whole pixels, so the bytes are exact.
setClientWidth(200)
setClientHeight(120)
color red = 'red'
color navy = 'navy'
color gold = '#fc0'
color none = 'none'
drawRect(5, 5, 40, 20)
fillStyle(red)
drawRect(50, 5, 40, 20)
drawRect(95, 5, 40, 20, navy)
drawRect(140, 5, 40, 20, navy, gold)
lineWidth(4)
borderColor(gold)
drawRect(10, 40, 30, 30)
drawRect(50, 40, 30, 30, none)
drawRect(90, 40, 30, 30, red, none)
borderColor(none)
drawRect(160, 70, -30, -20)
drawRect(190, 100, 50, 50)
drawRect(-10, 100, 30, 30)
drawRect(100, 100, 0, 10)
fillStyle(none)
drawRect(0, 0, 200, 120)
fillStyle(0, 128, 0)
drawRect(130, 40, 20, 20)
fillStyle(300, 0, -1)
drawRect(5, 80, 10, 10)
log(getPixelColor(20, 10) != null)
log(getPixelColor(60, 10) == red)
log(getPixelColor(100, 10) == navy)
log(getPixelColor(145, 10) == navy)
log(getPixelColor(9, 85) == null)
log(getPixelColor(150, 60) == red)
log(saveCanvas('out.png'))
