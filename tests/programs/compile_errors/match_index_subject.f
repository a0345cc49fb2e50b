// expect: 5:7 match subject must be a variable or a chain of field accesses
// §10.9 an index expression is not a valid match subject
enum Num = int, float
arr[Num] xs = []
match xs[0] {
    default { log('x') }
}
