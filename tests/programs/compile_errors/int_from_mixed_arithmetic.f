// expect: 5:9 cannot assign value of type float to int
// §8.3 int x = a + b with b:float is an error
int a = 1
float b = 2.0
int x = a + b
