// expect: 4:1 cannot assign to read-only 'length'
// §9.11 .length is read-only
arr[int] xs = [1, 2]
xs.length = 5
