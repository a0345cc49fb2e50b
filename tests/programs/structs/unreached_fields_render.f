// our decision: rendering never reaches a field, so an unreached struct field renders
// null, an array field [], a map field {}; reading one vivifies it
struct Inner {
    n:int
}
struct Outer {
    a:int
    inner:Inner
    xs:arr[int]
    m:map[int]
}
Outer o
log(o)
log(o.inner.n)
log(o)
log(o.xs.length)
log(o)
