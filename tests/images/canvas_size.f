// setClientWidth / setClientHeight (§17.2): the canvas takes the new size
// at once, transparent; sizes below 1 are ignored.
log(`${clientWidth}x${clientHeight}`)
color red = 'red'
drawRect(0, 0, 10, 10, red)
setClientWidth(30)
setClientHeight(0)
setClientHeight(-5)
log(`${clientWidth}x${clientHeight}`)
log(getPixelColor(5, 5) == null)
setClientHeight(20)
drawRect(10, 5, 10, 10, red)
log(getPixelColor(29, 19) == null)
log(getPixelColor(40, 5) == null)
log(saveCanvas('out.png'))
