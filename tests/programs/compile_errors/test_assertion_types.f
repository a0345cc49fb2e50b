// A test assertion compares two values of one type; structs and arrays
// compare by identity, so an assertion over them is rejected.
struct Point {
    x:int
}
test t = 'x'
t(1, 'one')
Point a
Point b
t(a, b)
arr[int] xs = [1]
arr[int] ys = [1]
t(xs, ys)
t(1)
t.near(1.0, 'a', 0.1)
t.near(1.0, 2.0)
t.exactly(1, 1)
