// == and != on two structs, rows, arrays or maps compare identity: the
// same value, not equal contents (the reference's rule after edition
// 0.44; §8.9.1 structs are references).
struct P { x:int }
P a
P c
P alias = a
arr[int] xs = [1]
arr[int] ys = [1]
arr[int] zs = xs
log(a == c)
log(a == alias)
log(a != c)
log(xs == ys)
log(xs == zs)
log(xs != ys)
map[int] m1 = {'a': 1}
map[int] m2 = {'a': 1}
map[int] m3 = m1
log(m1 == m2)
log(m1 == m3)
P nothing = null
P other = null
log(nothing == other)
log(nothing == a)
arr[P] ps = [a, c]
log(ps[0] == a)
log(ps[1] == a)
