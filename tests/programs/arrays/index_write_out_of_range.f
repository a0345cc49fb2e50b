// our runtime: writing past the end is a failure too (use push to grow)
arr[int] xs = []
xs.push(1)
xs[0] = 5
log(xs)
xs[1] = 2
log('never')
