// §16.3 indexOf: by value for scalars, content for text, identity for
// structs, arrays and maps; -1 when absent
struct P {
    x:int
}
arr[int] xs = [5, 7, 5]
log(xs.indexOf(5))
log(xs.indexOf(7))
log(xs.indexOf(9))
arr[text] names = ['ada', 'grace']
log(names.indexOf('gr' + 'ace'))
log(names.indexOf('Grace'))
arr[float] fs = [1.5, 2.5]
log(fs.indexOf(2.5))
log(fs.indexOf(2))
arr[bool] bs = [false, true]
log(bs.indexOf(true))
P a
P b
a.x = 1
b.x = 1
arr[P] ps = [a]
log(ps.indexOf(a))
log(ps.indexOf(b))
arr[arr[int]] nested = [[1], [2]]
arr[int] one = [1]
log(nested.indexOf(one))
arr[int] inner = nested[1]
log(nested.indexOf(inner))
map[int] m = {'k': 1}
arr[map[int]] maps = [m]
log(maps.indexOf(m))
arr[text] withNull = ['a', null]
log(withNull.indexOf(null))
arr[int] empty = []
log(empty.indexOf(1))
ascii hi = 'hi'
arr[ascii] asciis = ['yo', hi]
ascii again = 'hi'
log(asciis.indexOf(again))
