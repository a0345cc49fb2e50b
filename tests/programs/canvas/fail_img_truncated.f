// ... and of a truncated file.
img x = 'truncated.png'
