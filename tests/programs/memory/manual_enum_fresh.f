// A `Shape?` binding takes a fresh construction of `Shape` (§8.18): the
// result of a call returning `Shape`, and `null`.
struct Circle {
    r:int
}
struct Square {
    side:int
}
enum Shape = Circle, Square
Shape func make(big:bool) {
    if big {
        Square q = {'side': 9}
        return q
    }
    Circle c = {'r': 2}
    return c
}
Shape? s = make(true)
log(typeof s)
s = make(false)
log(typeof s)
free s
log(s == null)
Shape? n = null
log(n == null)
