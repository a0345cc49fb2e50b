// expect: 4:9 cannot assign value of type text to int
// §8.7 push checks the element type
arr[int] xs = []
xs.push('a')
