// expect: 14:5 duplicate match tag 'A'
// §10.9 a repeated tag
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
    'A' { log('again') }
}
