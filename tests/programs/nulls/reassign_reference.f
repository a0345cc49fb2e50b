// §8.2 reference bindings can hold null and later a value again
struct Box {
    n:int
}
Box b = null
log(b == null)
b = {'n': 4}
log(b.n)
b = null
log(b == null)
arr[int] xs = null
log(xs == null)
xs = [1]
log(xs)
