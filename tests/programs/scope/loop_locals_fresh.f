// §13.1 locals declared in a loop body are fresh on every iteration
struct Counter {
    n:int
}
for int i = 0, i < 3, i++ {
    arr[int] xs
    xs.push(i)
    Counter c
    c.n = c.n + 1
    log(`${xs} ${c.n}`)
}
