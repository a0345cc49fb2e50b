// §10.11 delete m[key] and delete m.key remove an entry; a missing key is a no-op
map[int] m = {'a': 1, 'b': 2}
delete m['a']
log(m)
delete m['missing']
log(m)
delete m.b
log(m)
m['c'] = 3
log(m)
