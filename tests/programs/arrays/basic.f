// §8.7 indexing reads and writes elements; .length is an int
arr[int] xs = [10, 20, 30]
log(xs[0])
log(xs[2])
log(xs.length)
xs[1] = 25
log(xs)
int i = 2
log(xs[i - 1] + xs[i])
