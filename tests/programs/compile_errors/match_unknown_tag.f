// expect: 14:5 unknown match tag 'C' for enum AB
// §10.9 a tag must be a name typeof can answer
struct A {
    a:int
}
struct B {
    b:int
}
enum AB = A, B
AB v
match v {
    'A' { log('a') }
    'B' { log('b') }
    'C' { log('c') }
}
