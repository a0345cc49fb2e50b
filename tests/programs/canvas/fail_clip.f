// A non-positive clip size is a runtime failure (§16.3).
img a = blankImage(4, 4)
img b = a.clip(0, 0, 0, 4)
log(b.width)
