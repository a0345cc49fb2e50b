// expect: 9:7 field access on enum 'Mixed' requires every member to be a struct
// §8.11 field access needs every member to be a struct
struct A {
    a:int
}
enum Mixed = A, int
A x
Mixed v = x
log(v.a)
