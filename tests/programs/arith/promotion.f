// §8.3 an int operand meeting a float operand is promoted; the result is float
int a = 2
float b = 0.5
log(1 + 2.5)
log(2.5 + 1)
log(3 * 0.5)
log(10 - 0.25)
log(a * b)
log(typeof (a + b))
log(typeof (a + a))
float c = a * b
log(c)
