// A synchronous load of an unreadable image is a runtime failure (§8.13).
img x = 'no-such-file.png'
