// expect: 3:11 cannot assign value of type int to float
// §8.3 promotion never applies at a declaration: float x = 5
float x = 5
