arr[int] xs = [1 2 3,]
arr[int] ys = [
  1,
  2
]
arr[int] zs = [4,
    5, 6]
int func add(a:int, b:int,) {
    return a + b
}
log(add(
    1,
    2))
log(add(1,
2
))
map[text] names = {
'a': 'ann'
, 'b': 'bob'
}
arr[arr[int]] grid = [[1, 2], [3,
4]]
