// §10.11 freeing one array binding leaves another binding's value intact
arr[int] xs = [1, 2]
arr[int] ys = xs
free xs
log(xs == null)
ys.push(3)
log(ys)
