// tolerance: 2
// drawImage in its three forms (§17.3) with PNG and JPEG sources, an
// img? source, a source region past the image's edge, fillAlpha, and
// mirrored and zero-sized destinations. Whole-pixel placements at 1:1
// are exact; scaled ones are filtered by cairo.
setClientWidth(240)
setClientHeight(160)
img sheet = 'fixtures/sheet.png'
img photo = 'fixtures/photo.jpg'
log(`${sheet.width}x${sheet.height} ${photo.width}x${photo.height}`)
drawImage(sheet, 0, 0)
drawImage(photo, 70, 0)
drawImage(sheet, 0, 40, 128, 64)
drawImage(sheet, 32, 0, 32, 32, 140, 40, 64, 64)
drawImage(sheet, 48, 16, 40, 40, 140, 110, 40, 40)
img? manual = sheet.clip(0, 0, 32, 32)
drawImage(manual, 200, 0)
fillAlpha(0.5)
drawImage(photo, 110, 0)
fillAlpha(1.0)
drawImage(sheet, 64, 110, -64, 32)
drawImage(sheet, 0, 0, 0, 20)
img nothing = null
drawImage(nothing, 0, 0)
log(getPixelColor(40, 4) == sheet.getPixelColor(40, 4))
log(saveCanvas('out.png'))
