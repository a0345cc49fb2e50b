// A program that fails still gets its report (after the fail line on
// stderr), and the status is the failure's.
test t = 'before the failure'
t(1, 1)
t(1, 2)
int zero = 0
arr[int] xs = []
log(xs[zero])
