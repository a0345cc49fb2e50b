// ... and of bytes that are not PNG or JPEG.
img x = 'bad.png'
