// tolerance: 2
// Style (§17.5): fillAlpha on fills, borders and images; linear and
// radial gradients until the next fillStyle; borderColor(r, g, b) with a
// negative component meaning none; lineWidth.
setClientWidth(240)
setClientHeight(120)
color red = 'red'
color blue = 'blue'
color yellow = 'yellow'
color none = 'none'
fillLinearGradient(0, 0, red, 100, 0, blue)
drawRect(0, 0, 100, 40)
fillRadialGradient(150, 20, 20, yellow, red)
drawCircle(150, 20, 20)
fillLinearGradient(0, 50, red, 0, 90, none)
drawRect(0, 50, 60, 40)
fillStyle(blue)
fillAlpha(0.5)
drawRect(200, 0, 40, 40)
drawRect(220, 20, 40, 40, red)
fillAlpha(2.0)
drawRect(70, 50, 20, 20)
fillAlpha(-1.0)
drawRect(100, 50, 20, 20)
fillAlpha(1.0)
borderColor(20, 200, 20)
lineWidth(6)
drawRect(130, 60, 40, 40, yellow)
borderColor(20, -1, 20)
drawRect(180, 60, 40, 40)
lineWidth(-3)
borderColor(0, 0, 0)
drawRect(20, 100, 20, 10)
log(getPixelColor(75, 55) == blue)
log(getPixelColor(105, 55) == null)
log(saveCanvas('out.png'))
