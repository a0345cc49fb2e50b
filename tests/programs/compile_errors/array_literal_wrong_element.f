// expect: 3:19 cannot assign value of type text to int (array element)
// §8.7 every element must be assignable to T
arr[int] xs = [1, 'two', 3]
