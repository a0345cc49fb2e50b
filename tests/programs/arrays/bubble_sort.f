// §9.3 a hand-written sort with nested loops
arr[int] xs = [5, 3, 8, 1, 9, 2]
for int i = 0, i < xs.length, i++ {
    for int j = 0, j < xs.length - 1 - i, j++ {
        if xs[j] > xs[j + 1] {
            int tmp = xs[j]
            xs[j] = xs[j + 1]
            xs[j + 1] = tmp
        }
    }
}
log(xs)
