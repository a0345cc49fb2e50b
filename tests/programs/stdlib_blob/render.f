// A blob renders its bytes up to the first NUL at top level, and as the
// placeholder "<blob>" inside JSON (§8.21).
struct Doc {
    name:text
    data:blob
    spare:blob
}

// A text path initializes a blob field in a struct literal (§8.9.4).
Doc d = {'name': 'greeting', 'data': 'fixture.txt'}
log(d)
log(d.data.length)
log(d.spare == null)

// A text path is also converted on assignment.
d.spare = 'fixture.txt'
log(d.spare.slice(0, 5))
log(d.toText())

// arr[blob] literals load each path; existing blobs may be mixed in.
blob b = 'fixture.txt'
arr[blob] bs = ['fixture.txt', 'no_such_file.bin', b]
log(bs)
log(bs.length)
log(bs[0].length)
log(bs[1].exists())
log(bs[2].slice(0, 5))

map[blob] m = {'one': 'fixture.txt'}
log(m)
log(m['one'].byteAt(1))

// Arguments convert too (§8.20 rule 5).
int func size(x:blob) {
    return x.length
}
log(size('fixture.txt'))
log(size('no_such_file.bin'))
