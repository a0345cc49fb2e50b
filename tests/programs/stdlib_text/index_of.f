// text.indexOf(t) and text.indexOf(t, start): a code-point index, or -1.
text s = 'Hello, World'
log(s.indexOf('World'))
log(s.indexOf('o'))
log(s.indexOf('o', 5))
log(s.indexOf('zzz'))
log(s.indexOf(''))
log(s.indexOf('H', 1))
log(s.indexOf('d', 0 - 5))
log(s.indexOf('', 99))
text u = 'héllo wörld'
log(u.indexOf('wörld'))
log(u.slice(u.indexOf('wörld'), u.length))
log(u.indexOf('l', 3))
