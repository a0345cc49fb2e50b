// §9.6 unary - negates, unary + yields the operand unchanged
int a = 5
float f = 2.5
log(-a)
log(+a)
log(-(-a))
log(-f)
log(+f)
log(-a + 10)
log(typeof -f)
