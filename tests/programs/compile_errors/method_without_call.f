// expect: 4:8 method 'push' must be called
// §9.2 naming a method without calling it is an error
arr[int] xs = [1]
log(xs.push)
