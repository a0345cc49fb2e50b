// §8.9.2 an auto-vivified field keeps its identity afterwards
struct Inner {
    n:int
}
struct Outer {
    inner:Inner
}
Outer o
Inner alias = o.inner
alias.n = 42
log(o.inner.n)
log(o)
