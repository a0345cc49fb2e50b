// expect: 4:4 arr[int] has no method 'frobnicate'
// §9.2 an unknown method on an array
arr[int] xs = [1]
xs.frobnicate()
