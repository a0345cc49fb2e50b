// Bitwise operators take int operands only: a float (or text) operand is
// a compile error, never a silent truncation.
float x = 2.0
log(1 & x)
log(1 << x)
log(~x)
log(1 & 'a')
log(true | false)
