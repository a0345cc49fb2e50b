// §13.1 every reassignment releases the previous value; the last one remains
struct Box {
    n:int
}
Box b
for int i = 0, i < 100000, i++ {
    Box fresh
    fresh.n = i
    b = fresh
}
log(b.n)
arr[int] xs = []
for int i = 0, i < 1000, i++ {
    xs = [i]
}
log(xs)
