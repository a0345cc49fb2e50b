// §8.3 division and modulo by zero do not fail: they yield the operand type's null
int zero = 0
log(5 / zero)
log(5 % zero)
log(2.5 / zero)
log(2.5 % zero)
log(0 / zero)
int r = 10 % zero
log(r == null)
log(r)
log('still running')
