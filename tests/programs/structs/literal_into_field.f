// §8.9.4 a struct literal may be assigned to a struct-typed field
struct Point {
    x:int
    y:int
}
struct Line {
    a:Point
    b:Point
}
Line l
l.a = {'x': 1, 'y': 1}
l.b = {'x': 4, 'y': 5}
log(l)
log(l.b.x - l.a.x)
