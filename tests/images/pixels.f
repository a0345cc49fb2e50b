// drawPixel and clearPixel (§17.3): one pixel in the fill or the given
// colour, never a border; clearPixel makes one transparent again.
setClientWidth(40)
setClientHeight(20)
color red = 'red'
color blue = 'blue'
borderColor(blue)
lineWidth(5)
for int i = 0, i < 20, i++ {
    drawPixel(i * 2, i)
    drawPixel(i * 2 + 1, i, red)
}
drawPixel(-1, 0, red)
drawPixel(40, 19, red)
drawRect(30, 0, 10, 5, blue, red)
clearPixel(31, 1)
log(getPixelColor(0, 0) != null)
log(getPixelColor(1, 0) == red)
log(getPixelColor(2, 0) == null)
log(getPixelColor(31, 1) == null)
log(getPixelColor(-1, 0) == null)
log(saveCanvas('out.png'))
