// expect: 6:8 type 'Point' is already declared
// §6.7 duplicate type names
struct Point {
    x:int
}
struct Point {
    y:int
}
