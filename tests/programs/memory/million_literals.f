// §13.1 struct literals with nested values, 1e6 times
struct Point {
    x:int
    y:int
}
struct Seg {
    a:Point
    b:Point
}
int total = 0
for int i = 0, i < 1000000, i++ {
    Seg s = {'a': {'x': i, 'y': 0}, 'b': {'x': i + 1, 'y': 1}}
    total = total + s.b.x - s.a.x + s.b.y
}
log(total)
