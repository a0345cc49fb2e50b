// §8.11/§13.2 an enum holding a struct refers to the same instance
struct Circle {
    r:int
}
struct Rect {
    w:int
    h:int
}
enum Shape = Circle, Rect
Circle c = {'r': 1}
Shape s = c
c.r = 10
log(s.r)
log(s)
