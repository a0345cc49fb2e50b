// §8.15 regex(pattern[, flags]) is memoized per call site
regex r = regex('[a-z]+')
log(r.test('abc'))
log(r.test('123'))
regex r2 = regex('ABC', 'i')
log(r2.test('xabcx'))
text pat = 'b+'
log('abbbcb'.replace(regex(pat, 'g'), 'B'))
for int i = 0, i < 3, i++ {
    text p = `${i}`
    log('a0b1c2'.replace(regex(p), '_'))
}
for int i = 0, i < 3, i++ {
    log(regex('o', 'gi').test('FOO'))
}
regex? manual = regex('x')
log(manual.test('xyz'))
