// tolerance: 2
// An img as a drawing target (§17.6): its own transform and state stack,
// the global style, the clears (clear() ignoring the transform), drawing
// an image onto itself, clip and resize; then the image on the canvas.
setClientWidth(160)
setClientHeight(120)
color white = 'white'
color red = 'red'
color blue = 'blue'
img a = blankImage(80, 60)
log(`${a.width}x${a.height} ${a.getPixelColor(0, 0) == null}`)
a.drawRect(0, 0, 80, 60, white)
fillStyle(red)
a.translate(40, 30)
a.saveState()
a.rotate(45)
a.drawRect(-10, -10, 20, 20)
a.restoreState()
a.drawCircle(25, 15, 8, blue)
a.drawPixel(-40, -30, blue)
a.clearRect(-40, 20, 10, 10)
a.clearCircle(-30, -20, 5)
a.clearPixel(39, 29)
a.resetTransform()
a.drawImage(a, 40, 0, 40, 30)
a.drawImage(a, 0, 30)
drawImage(a, 0, 0)
img part = a.clip(60, 40, 40, 40)
log(`${part.width}x${part.height} ${part.getPixelColor(30, 30) == null}`)
drawImage(part, 90, 0)
img b = a
b.resize(40, 30)
log(`${a.width}x${a.height}`)
drawImage(a, 90, 60)
img c = blankImage(10, 10)
c.drawRect(0, 0, 10, 10, red)
c.clear()
log(c.getPixelColor(5, 5) == null)
log(saveCanvas('out.png'))
