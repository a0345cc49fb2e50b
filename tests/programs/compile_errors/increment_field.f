// expect: 7:1 '++' requires an int variable
// §9.5 ++ applies to a mutable int variable only, not to a field
struct C {
    n:int
}
C c
c.n++
