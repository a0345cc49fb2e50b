// An image side above 32767 pixels is a runtime failure.
img a = blankImage(40000, 1)
