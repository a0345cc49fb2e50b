// §8.9.2 struct, array and map fields are created empty on first reach, read or write
struct Inner {
    n:int
}
struct Outer {
    inner:Inner
    xs:arr[int]
    tags:map[text]
}
Outer o
o.inner.n = 5
o.xs.push(1)
o.xs.push(2)
o.tags['k'] = 'v'
log(o)
log(o.inner.n)
log(o.xs.length)
