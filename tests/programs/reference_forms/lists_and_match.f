// A trailing comma in array and map literals, argument and parameter
// lists, and `match (e) { ... }` with the subject in parentheses: the
// reference compiler accepts both. So are list items separated only by
// blanks on one line.
arr[int] xs = [1, 2, 3,]
log(xs)
map[int] m = {'a': 1, 'b': 2,}
log(m)
int func add(a:int, b:int,) {
    return a + b
}
log(add(1, 2,))
arr[int] ys = [4 5 6]
log(ys)
log(add(7 8))
struct Circle { radius:int }
struct Square { side:int }
enum Shape = Circle, Square
Circle c
c.radius = 2
Shape s = c
match (s) {
    'Circle' { log('circle') }
    'Square' { log('square') }
}
arr[int] multi = [
    1,
    2,
]
log(multi.length)
