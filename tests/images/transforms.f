// tolerance: 2
// translate, rotate (degrees), scale, resetTransform, and saveState /
// restoreState of the whole drawing state (§17.5).
setClientWidth(200)
setClientHeight(200)
color red = 'red'
color green = 'green'
color blue = 'blue'
fillStyle(red)
saveState()
translate(100, 100)
for int i = 0, i < 12, i++ {
    rotate(30)
    drawRect(40, -4, 50, 8)
}
saveState()
fillStyle(blue)
scale(3, 1.5)
drawCircle(0, 0, 10)
restoreState()
drawRect(-5, -5, 10, 10)
restoreState()
drawRect(0, 0, 20, 20)
translate(150, 20)
scale(0, 2)
rotate(1.0 / 0.0)
drawRect(0, 0, 20, 20, green)
log(getPixelColor(5, 5) == red)
log(getPixelColor(155, 25) == green)
log(saveCanvas('out.png'))
