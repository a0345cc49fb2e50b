// §9.1.2 array literals take their element type from context
arr[int] xs = [1, 2, 3]
arr[text] ws = ['a', 'b']
arr[float] fs = [1.5, 2.0]
arr[bool] bs = [true, false]
arr[int] empty = []
arr[arr[int]] grid = [[1], [2, 3], []]
log(xs)
log(ws)
log(fs)
log(bs)
log(empty)
log(grid)
