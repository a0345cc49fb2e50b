// expect: runtime failure at line 12: typeof of a null enum (message wording not fixed yet); stdout 'before'; exit 1
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
