// §9.3 swapping elements through indexes
arr[int] xs = [1, 2, 3, 4, 5]
int i = 0
int j = xs.length - 1
while i < j {
    int tmp = xs[i]
    xs[i] = xs[j]
    xs[j] = tmp
    i++
    j--
}
log(xs)
