// img values (§8.13, §16.3): loaded from PNG and JPEG files (sniffed),
// blank, clipped and resized; sizes and pixel probes; aliases share.
img sheet = 'sheet.png'
img photo = 'photo.jpg'
log(`${sheet.width}x${sheet.height} ${photo.width}x${photo.height}`)
color sky = 'skyblue'
log(sheet.getPixelColor(2, 2) == sky)
log(sheet.getPixelColor(45, 28) == null)
log(sheet.getPixelColor(64, 0) == null)
log(sheet.getPixelColor(-1, 0) == null)
log(photo.getPixelColor(0, 0) != null)
img tile = sheet.clip(32, 0, 32, 32)
color stone = 'slategray'
log(`${tile.width}x${tile.height} ${tile.getPixelColor(0, 0) == stone}`)
img edge = sheet.clip(50, 20, 30, 30)
log(`${edge.width}x${edge.height} ${edge.getPixelColor(13, 1) == stone} ${edge.getPixelColor(14, 12) == null}`)
img alias = tile
alias.resize(8, 4)
log(`${tile.width}x${tile.height}`)
img blank = blankImage(3, 2)
log(`${blank.width}x${blank.height} ${blank.getPixelColor(1, 1) == null}`)
img nothing = null
log(`${nothing.width}x${nothing.height} ${nothing.getPixelColor(0, 0) == null}`)
nothing.drawRect(0, 0, 5, 5)
log(nothing == null)
struct Sprite {
    name:text
    pic:img
}
Sprite s = {'name': 'hero', 'pic': 'sheet.png'}
log(s)
log(s.pic.width)
arr[img] frames = ['sheet.png', 'photo.jpg']
log(frames[1].height)
log(typeof sheet)
img? manual = blankImage(1, 1)
drawImage(manual, 0, 0)
free manual
