// expect: 3:9 cannot assign value of type text to int
// §8.20 the canonical assignment error
int x = 'a'
