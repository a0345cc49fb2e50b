// `i++` and `i--` used as values yield the value before the step (the
// reference's addition after edition 0.44); as statements they are as
// before.
int i = 5
log(i++)
log(i)
log(i--)
log(i)
int j = i++ + 10
log(j)
log(i)
arr[int] xs = [10, 20, 30]
int k = 0
log(xs[k++])
log(xs[k++])
log(k)
int func next() {
    return counter++
}
int counter = 100
log(next())
log(next())
log(counter)
int z = 7
z = z++
log(z)
for int n = 0, n < 3, n++ {
    log(n)
}
