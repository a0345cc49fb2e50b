// Background loading of images (§12.5): an image now, filled before the
// callback runs; a failed load leaves a 1x1 transparent image.
void func failed(i:img) {
    log(`failed ${i.width}x${i.height} ${i.getPixelColor(0, 0) == null}`)
}
void func loaded(i:img) {
    log(`loaded ${i.width}x${i.height}`)
    img 'no-such-file.png'.callback(failed)
}
img later = 'sheet.png'.callback(loaded)
log(`now ${later.width}x${later.height}`)
