// An img body is sent as the image's encoded bytes (a PNG of the pixels
// once built or drawn on); toImg() decodes a body, and is null when it
// does not decode (§19.2).
color ink = '#2b3542'
img pic = blankImage(16, 8)
pic.drawRect(0, 0, 16, 8, ink)
http h = {'body': pic}
blob bytes = h.toBlob()
log(bytes.length > 8)
log(bytes.slice(1, 4).toText())
img back = h.toImg()
log(back != null)
log(`${back.width}x${back.height}`)
log(back.getPixelColor(3, 3) == ink)
http words = {'body': 'not an image'}
log(words.toImg() == null)
http none = {}
log(none.toImg() == null)
