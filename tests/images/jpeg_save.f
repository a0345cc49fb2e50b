// tolerance: 2
// img.save / saveCopy (§16.6): a loaded JPEG writes its own bytes; once
// drawn on, an image writes a PNG. The saved files are loaded back and
// drawn.
setClientWidth(80)
setClientHeight(30)
img photo = 'fixtures/photo.jpg'
log(photo.saveCopy('copy.jpg'))
blob copied = 'copy.jpg'
blob original = 'fixtures/photo.jpg'
log(copied.length == original.length)
photo.drawRect(0, 0, 5, 5)
log(photo.save('drawn.png'))
log(photo.save())
img back = 'drawn.png'
blob drawn = 'drawn.png'
log(drawn.slice(1, 4))
drawImage(back, 0, 0)
img again = 'copy.jpg'
drawImage(again, 40, 0)
log(saveCanvas('out.png'))
