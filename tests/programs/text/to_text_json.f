// §16.4 .toText() on structs, arrays and maps gives their JSON text
struct P {
    x:int
    tags:arr[text]
}
P p = {'x': 3, 'tags': ['a']}
text j = p.toText()
log(j)
log(j.length)
arr[int] xs = [1, 2]
log(xs.toText() + '!')
map[int] m = {'k': 1}
log(m.toText())
