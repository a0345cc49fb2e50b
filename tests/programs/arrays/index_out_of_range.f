// our runtime: an array index out of range is a failure naming index, length and line
arr[int] xs = [1, 2, 3]
log(xs[2])
log(xs[5])
log('never')
