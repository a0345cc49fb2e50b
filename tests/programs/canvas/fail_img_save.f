// save() on an image with no path is a runtime failure (§16.6).
img x = blankImage(1, 1)
log(x.save('.'))
log(x.saveCopy(''))
x.save()
