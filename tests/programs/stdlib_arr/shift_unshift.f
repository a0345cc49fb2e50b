// §16.3 unshift yields the new length; shift and pop yield null when empty
arr[int] xs = [1, 2, 3]
log(xs.unshift(0))
log(xs)
log(xs.shift())
log(xs.shift())
log(xs)
arr[int] empty = []
log(empty.shift() == null)
log(empty.pop() == null)
log(empty.length)
arr[text] ts = []
ts.unshift('b')
ts.unshift('a')
log(ts)
log(ts.pop())
log(ts.shift())
log(ts.shift() == null)
amor arr[int] am = [5]
log(am.unshift(4))
log(am.shift())
log(am)
