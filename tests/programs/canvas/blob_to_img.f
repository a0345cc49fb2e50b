// blob.toImg(): the blob's bytes decoded as PNG or JPEG, null otherwise.
blob png = 'sheet.png'
img fromPng = png.toImg()
log(`${fromPng.width}x${fromPng.height}`)
blob jpg = 'photo.jpg'
log(jpg.toImg().width)
blob notImage = 'bad.png'
log(notImage.toImg() == null)
blob cut = 'truncated.png'
log(cut.toImg() == null)
blob missing = 'no-such-file.png'
log(missing.toImg() == null)
blob empty = null
log(empty.toImg() == null)
