// §8.9.4 a struct is built in a local and returned (return is not a literal position)
struct Point {
    x:int
    y:int
}
Point func make(x:int, y:int) {
    Point p
    p.x = x
    p.y = y
    return p
}
Point a = make(1, 2)
log(a)
log(make(3, 4).y)
