// §16.3 keys() and values() are independent snapshots
struct P {
    x:int
}
map[text] m = {'x': 'one', 'y': 'two'}
arr[text] ks = m.keys()
arr[text] vs = m.values()
log(ks)
log(vs)
ks.push('z')
m['w'] = 'three'
log(ks)
log(m.keys().length)
log(vs.length)
map[int] empty = {}
log(empty.keys())
log(empty.values())
P p
map[P] ps = {'a': p}
arr[P] held = ps.values()
held[0].x = 5
log(p.x)
map[float] fs = {'half': 0.5}
log(fs.values())
