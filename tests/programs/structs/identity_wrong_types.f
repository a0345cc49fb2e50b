// Identity comparison needs two values of one type.
struct P { x:int }
struct Q { x:int }
P a
Q b
log(a == b)
arr[int] xs = [1]
arr[text] ys = ['1']
log(xs == ys)
