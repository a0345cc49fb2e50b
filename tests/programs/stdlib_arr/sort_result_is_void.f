// expect: 3:15 a call of a void function has no value to use
arr[int] xs = [1, 2]
arr[int] ys = xs.sort(int (a:int, b:int) => a - b)
