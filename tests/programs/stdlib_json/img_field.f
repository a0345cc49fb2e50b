// expect: 10:24 Outer cannot be parsed from JSON: Outer.inner.pic is img, which has no JSON form (§16.4)
struct Inner {
    n:int
    pic:img
}
struct Outer {
    inner:Inner
}
text src = '{}'
Outer o = src.toStruct(Outer)
