// expect: 3:4 unknown method 'map' on type arr[int]
arr[int] xs = [1, 2]
xs.map(xs)
