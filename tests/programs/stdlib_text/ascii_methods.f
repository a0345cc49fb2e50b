// §8.5 ascii: length, s[i], charCodeAt, slice, toText, +, ==
ascii a = 'Hello'
log(a.length)
log(a[1])
log(a[5] == null)
log(a.charCodeAt(0))
log(a.charCodeAt(9) == null)
log(a.slice(1, 3))
log(a.slice(-3, 5))
log(a.slice(3, 1).length)
log(a.slice(0, 100))
log(a.slice(-100, 2))
log(typeof a.slice(0, 1))
text t = a.toText()
log(t.length)
log(typeof t)
ascii w = ' world'
ascii b = a + w
log(b)
ascii c = 'Hello'
log(a == c)
log(a != b)
log(`${a}!`)
