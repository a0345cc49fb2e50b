// An unreadable path yields an empty blob whose exists() is false (§8.6).
blob m = 'no_such_file_here.bin'
log(m.exists())
log(m.length)
log(m.byteAt(0) == null)
log(`[${m.toText()}]`)
log(`[${m.slice(0, 10)}]`)

// A directory is not a readable file either.
blob d = '.'
log(d.exists())
log(d.length)

// A null blob reads like an empty one with no path.
blob n = null
log(n == null)
log(n.length)
log(n.exists())
log(n.write('x'))
log(n.append('x'))
log(n.delete())
log(n.save('tmp_never_written.bin'))
