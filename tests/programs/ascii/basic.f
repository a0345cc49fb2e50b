// §8.5 ascii: one byte per character, length in a header
ascii a = 'hello'
log(a)
log(a.length)
log(a[1])
log(typeof a)
log(typeof a[0])
