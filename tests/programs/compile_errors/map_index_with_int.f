// expect: 4:7 map key must be text, not int
// §9.3 a map key must be text
map[int] m = {'a': 1}
log(m[1])
