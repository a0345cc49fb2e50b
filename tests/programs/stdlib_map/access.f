// §8.8 m[key], m.key, delete and toText
map[int] m = {'a': 1}
m['b'] = 2
m.c = 3
log(m['a'])
log(m.b)
log(m['zz'] == null)
delete m['a']
log(m.toText())
delete m.zz
log(m.keys().length)
