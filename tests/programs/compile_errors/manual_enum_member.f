// §8.20 rule 4: a member value is assignable to its enum "except when the
// enum is manually managed"; §8.18 lets a `T?` binding take only a fresh
// construction of `T` itself. So a plain `Circle` cannot go into a
// `Shape?` binding, by assignment, initializer or argument.
struct Circle {
    r:int
}
struct Square {
    side:int
}
enum Shape = Circle, Square
Circle c = {'r': 2}
Shape? s
s = c
Shape? t = c
void func keep(x:Shape?) {
    log(typeof x)
}
keep(c)
