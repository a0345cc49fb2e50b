// §10.11 deleting a map entry releases the map's reference only
struct P {
    n:int
}
map[P] m = {}
P p = {'n': 1}
m['a'] = p
delete m['a']
log(m['a'] == null)
log(p.n)
log(m)
