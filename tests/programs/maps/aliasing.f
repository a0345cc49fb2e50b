// §8.8 a map is reference counted: assignment and arguments share it
void func put(m:map[int]) {
    m['y'] = 5
}
map[int] a = {'x': 1}
map[int] b = a
b['x'] = 2
log(a['x'])
put(a)
log(b['y'])
