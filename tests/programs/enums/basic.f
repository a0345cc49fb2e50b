// §8.11 an enum holds one of its member types; typeof yields the member's name
struct Circle {
    radius:int
}
struct Square {
    side:int
}
enum Shape = Circle, Square
Circle c = {'radius': 2}
Square s = {'side': 3}
Shape a = c
Shape b = s
log(typeof a)
log(typeof b)
log(a)
log(b)
log(a.radius)
log(b.side)
