// §9.10 the branches may be any type, as long as both have the same type
struct P { n:int }
P a = {'n': 1}
P b = {'n': 2}
bool pickA = false
P chosen = pickA ? a : b
log(chosen.n)
arr[int] xs = [1]
arr[int] ys = [2, 3]
log((xs.length > 1 ? xs : ys).length)
float f = true ? 1.5 : 2.5
log(f)
