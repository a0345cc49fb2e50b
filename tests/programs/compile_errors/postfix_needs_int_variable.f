// `++`/`--` need an int variable.
float f = 1.5
log(f++)
arr[int] xs = [1]
log(xs[0]++)
text t = 'a'
t++
