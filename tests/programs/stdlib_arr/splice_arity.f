// expect: 3:1 wrong number of arguments to 'splice': expected 2 or 3, found 1
arr[int] xs = [1, 2]
xs.splice(1)
