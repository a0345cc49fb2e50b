// expect: 11:1 match is not exhaustive: member 'B' is not covered
// §10.9 an enum match without default must cover every member
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
}
