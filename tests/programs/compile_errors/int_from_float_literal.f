// expect: 3:9 cannot assign value of type float to int
// §8.3 int x = 1.5
int x = 1.5
