// An img body is sent as its encoded bytes (§19.2): a drawn image as a
// PNG of its pixels, an unchanged PNG or JPEG file as the file's bytes, a
// changed one as a PNG.
// toImg() decodes a body (PNG or JPEG, sniffed), and is null when it does
// not decode.
color ink = '#2b3542'
img drawn = blankImage(16, 8)
drawn.drawRect(0, 0, 16, 8, ink)
http a = {'body': drawn}
blob bytes = a.toBlob()
log(`${bytes.byteAt(0)} ${bytes.slice(1, 4).toText()}`)
img back = a.toImg()
log(`${back.width}x${back.height} ${back.getPixelColor(3, 3) == drawn.getPixelColor(3, 3)}`)

blob sheet = '../canvas/sheet.png'
img fromFile = '../canvas/sheet.png'
http b = {'body': fromFile}
log(b.toBlob().length == sheet.length)

blob jpeg = '../canvas/photo.jpg'
img photo = '../canvas/photo.jpg'
http c = {'body': photo}
log(`${c.toBlob().byteAt(0)} ${c.toBlob().byteAt(1)} ${c.toBlob().length == jpeg.length} ${c.toImg().width == photo.width}`)
photo.drawPixel(0, 0)
http changed = {'body': photo}
log(`${changed.toBlob().slice(1, 4).toText()} ${changed.toImg().height == photo.height}`)

// A blob body holding an image decodes too; other bodies give null.
http d = {'body': sheet}
log(`${d.toImg().width}x${d.toImg().height}`)
http words = {'body': 'not an image'}
log(words.toImg() == null)
http none = {}
log(none.toImg() == null)
img nothing = null
http e = {'body': nothing}
log(`[${e.toText()}] ${e.toImg() == null}`)
