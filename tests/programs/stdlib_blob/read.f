// A blob declared from a path loads the file synchronously (§8.6); its
// bytes are read through .length, .byteAt and .slice (§16.3).
blob b = 'fixture.txt'
log(b.exists())
log(b.length)
log(b.byteAt(0))
log(b.byteAt(12))
log(b.byteAt(-1) == null)
log(b.byteAt(13) == null)
log(b.slice(0, 5))
log(b.slice(-10, 2))
log(b.slice(7, 100))
log(`[${b.slice(5, 2)}]`)
log(b.slice(7, 11).length)
log(b.toText())
log(b)
log(`template: ${b.slice(0, 5)}`)

// Assignment shares the handle (§13.2).
blob c = b
log(c.length)
