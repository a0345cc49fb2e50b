// §10.11 delete s.field releases the field and leaves it null; a struct, array
// or map field re-vivifies on the next reach; a value held elsewhere survives
struct Inner {
    n:int
}
struct Rec {
    name:text
    inner:Inner
    xs:arr[int]
}
Rec r = {'name': 'x'}
r.inner.n = 4
r.xs.push(1)
Inner kept = r.inner
delete r.name
delete r.inner
delete r.xs
log(r)
log(kept.n)
log(r.inner.n)
r.xs.push(7)
log(r)
