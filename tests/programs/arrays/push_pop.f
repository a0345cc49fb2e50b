// §16.3 push yields the new length; pop yields the removed element, or null when empty
arr[int] xs = []
log(xs.push(1))
log(xs.push(2))
xs.push(3)
log(xs)
log(xs.pop())
log(xs)
log(xs.length)
log(xs.pop())
log(xs.pop())
log(xs.pop())
log(xs)
arr[text] ts = []
log(ts.pop() == null)
