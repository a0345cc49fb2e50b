// §10.9 default runs when no arm's tag equals typeof subject
struct A {
    a:int
}
struct B {
    b:int
}
struct C {
    c:int
}
enum Letter = A, B, C
void func which(l:Letter) {
    match l {
        'A' { log('an A') }
        default { log(`something else: ${typeof l}`) }
    }
}
A a
B b
C c
which(a)
which(b)
which(c)
