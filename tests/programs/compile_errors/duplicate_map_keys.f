// expect: 3:23 duplicate key 'a' in map literal
// §8.8 two identical string-literal keys in one literal
map[int] m = {'a': 1, 'a': 2}
