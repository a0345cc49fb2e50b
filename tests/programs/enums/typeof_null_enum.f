// typeof of a null enum value is a runtime failure naming the enum, in the reference's words.
// §8.11 typeof on a null enum is a runtime failure
struct Circle {
    radius:int
}
struct Square {
    side:int
}
enum Shape = Circle, Square
Shape s
log('before')
log(typeof s)
log('never')
