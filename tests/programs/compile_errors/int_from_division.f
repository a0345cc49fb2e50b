// expect: 3:12 cannot assign value of type float to int
// §8.3 / always yields float, so it cannot initialize an int
int half = 10 / 2
