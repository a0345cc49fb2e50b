// expect: 3:28 cannot assign value of type text to int
// §8.8 all values of a map literal must have one type
map[int] m = {'a': 1, 'b': 'two'}
