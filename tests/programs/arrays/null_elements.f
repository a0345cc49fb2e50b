// §8.7 elements may be null; JSON renders them as null
arr[text] xs = ['a', null, 'c']
log(xs)
log(xs[1] == null)
log(xs[1])
log(xs.length)
arr[int] ns = [1, null]
log(ns[1])
