// tolerance: 2
// The global style applies to images too (§17.6): a gradient, alpha and
// a font set once draw on an image and on the canvas alike.
setClientWidth(120)
setClientHeight(60)
color red = 'red'
color blue = 'blue'
img tile = blankImage(60, 60)
fillLinearGradient(0, 0, red, 60, 0, blue)
tile.drawRect(0, 0, 60, 60)
drawRect(60, 0, 60, 60)
fillStyle(blue)
fillAlpha(0.4)
tile.drawCircle(30, 30, 20)
fillAlpha(1.0)
drawImage(tile, 0, 0)
log(saveCanvas('out.png'))
