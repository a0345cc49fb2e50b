// expect: 4:8 array index must be int, not text
// §9.3 an array index must be int
arr[int] xs = [1]
log(xs['0'])
