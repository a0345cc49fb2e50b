// expect: 6:19 duplicate member 'A' in enum E1
// §8.11 duplicate enum members
struct A {
    a:int
}
enum E1 = A, int, A
