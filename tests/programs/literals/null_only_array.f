// §8.7 a literal of only nulls is assignable to any array type
arr[int] xs = [null, null]
arr[text] ts = [null]
log(xs)
log(ts)
log(xs.length)
