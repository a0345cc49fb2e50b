// expect: 9:10 cannot assign value of type E1 to A
// §8.11 an enum value is not assignable to a member type
struct A {
    a:int
}
enum E1 = A, int
A x
E1 e = x
A back = e
