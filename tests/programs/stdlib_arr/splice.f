// §16.3 splice(start, count[, insert]): clamps, negative start counts
// from the end, returns only the removed elements
arr[int] xs = [0, 1, 2, 3, 4, 5]
log(xs.splice(1, 2))
log(xs)
log(xs.splice(-2, 1))
log(xs)
log(xs.splice(10, 1))
log(xs.splice(-10, 1))
log(xs)
log(xs.splice(0, 100))
log(xs)
arr[int] ys = [1, 2, 3]
log(ys.splice(1, 0, [8, 9]))
log(ys)
log(ys.splice(1, 2, [7]))
log(ys)
log(ys.splice(-1, 5, [4, 5]))
log(ys)
log(ys.splice(2, -3))
log(ys.splice(99, 1, [6]))
log(ys)
arr[int] none = []
log(ys.splice(0, 1, none))
log(ys)
arr[text] words = ['a', 'b', 'c']
arr[text] cut = words.splice(1, 1)
cut.push('x')
log(words)
log(cut)
