// expect: 9:6 type 'Shape' is already declared
// §6.7 structs and enums share the type namespace
struct A {
    x:int
}
struct Shape {
    a:int
}
enum Shape = A, int
