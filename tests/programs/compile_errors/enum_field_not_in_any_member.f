// expect: 12:7 no member of enum 'AB' has a field 'c'
// §8.11 field access needs exactly one member declaring the field
struct A {
    a:int
}
struct B {
    b:int
}
enum AB = A, B
A x
AB v = x
log(v.c)
