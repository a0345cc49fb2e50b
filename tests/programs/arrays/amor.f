// §8.7 amor arr[T]: the same operations, geometric growth
amor arr[int] xs = []
for int i = 0, i < 1000, i++ {
    xs.push(i * 2)
}
log(xs.length)
log(xs[999])
log(xs.pop())
log(xs.length)
amor arr[text] ws = ['a', 'b']
ws[1] = 'c'
log(ws)
