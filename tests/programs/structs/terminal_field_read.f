// A terminal read of a struct-typed field answers what the field holds,
// null when unset, instead of creating an empty struct (the reference's
// rule after edition 0.44); reaching through it as a receiver still
// creates it, and array and map fields still read as empty containers.
struct Node {
    next:Node
    tag:int
}
Node n
if n.next == null { log('null') } else { log('vivified') }
if n.next != null { log('present') } else { log('absent') }
Node a
Node b
a.next = b
if a.next == null { log('1 null') } else { log('1 set') }
a.next = null
if a.next == null { log('2 null') } else { log('2 set') }
// A value read into a binding is what the field holds.
Node taken = n.next
log(taken == null)
// A linked list walk ends.
Node head
head.tag = 1
Node second
second.tag = 2
head.next = second
Node third
third.tag = 3
second.next = third
int sum = 0
Node cur = head
while cur != null {
    sum = sum + cur.tag
    cur = cur.next
}
log(sum)
// Reaching through a field creates it.
struct Inner { n:int }
struct Outer { inner:Inner }
Outer o
if o.inner == null { log('before: null') } else { log('before: made') }
o.inner.n = 5
if o.inner == null { log('after: null') } else { log('after: made') }
log(o.inner.n)
Outer p
log(p.inner.n)
log(p)
// Array and map fields are empty containers, never null.
struct Holder {
    xs:arr[int]
    m:map[int]
}
Holder h
if h.xs == null { log('xs null') } else { log('xs made') }
if h.m == null { log('m null') } else { log('m made') }
log(h.xs.length)
arr[int] got = h.xs
log(got.length)
h.xs.push(1)
h.xs.push(2)
log(h.xs.length)
// A local of struct type is created at its declaration.
Node local
log(local == null)
