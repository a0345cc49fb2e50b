// expect: 10:7 match subject must be a variable or a chain of field accesses
// §10.9 a call is not a valid match subject
struct A {
    a:int
}
enum E1 = A, int
E1 func pick() {
    return 1
}
match pick() {
    default { log('x') }
}
