// expect: 3:16 argument 1 of 'indexOf': cannot assign value of type text to int
arr[int] xs = [1, 2]
log(xs.indexOf('1'))
