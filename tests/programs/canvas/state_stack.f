// saveState/restoreState push and pop the transform and the whole style
// (§17.5); on an image, only its own transform (§17.6).
color red = 'red'
color blue = 'blue'
fillStyle(red)
saveState()
fillStyle(blue)
translate(10, 0)
drawPixel(0, 0)
restoreState()
drawPixel(0, 0)
log(getPixelColor(10, 0) == blue)
log(getPixelColor(0, 0) == red)
img i = blankImage(20, 5)
i.translate(5, 0)
i.saveState()
i.translate(5, 0)
fillStyle(blue)
i.drawPixel(0, 0)
i.restoreState()
i.drawPixel(0, 1)
log(i.getPixelColor(10, 0) == blue)
log(i.getPixelColor(5, 1) == blue)
for int k = 0, k < 64, k++ {
    saveState()
    i.saveState()
}
for int k = 0, k < 64, k++ {
    restoreState()
    i.restoreState()
}
i.restoreState()
