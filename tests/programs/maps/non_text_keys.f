// A map key of any type with a text form is rendered as if by .toText()
// (the reference's rule after edition 0.44): 7 and '7' are one key.
map[int] m = {}
m[7] = 70
int k = 7
log(m[k])
log(m['7'])
m[1.5] = 15
m[true] = 1
log(m[1.5])
log(m['1.5'])
log(m[true])
log(m['true'])
map[text] lit = {3: 'three', 'a': 'ay'}
log(lit[3])
log(lit['3'])
log(lit['a'])
map[int] d = {}
d[7] = 70
log(d.keys().length)
delete d[7]
log(d.keys().length)
d[7] = 1
arr[text] ks = d.keys()
log(ks[0])
map[int] sq = {}
int i = 0
while i < 5 {
    sq[i * 2] = i
    i++
}
log(sq.keys().length)
log(sq[8])
log(sq[3] == null)
ascii ak = 'key'
sq[ak] = 99
log(sq['key'])
