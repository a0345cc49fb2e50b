// §8.9.2: a field auto-vivified by reaching through it keeps its identity
// afterwards; a later read of it (a terminal read, which no longer
// creates anything) gives that same value.
struct Inner {
    n:int
}
struct Outer {
    inner:Inner
}
Outer o
o.inner.n = 42
Inner alias = o.inner
alias.n = 43
log(o.inner.n)
log(o)
log(alias == o.inner)
