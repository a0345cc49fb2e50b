// Bitwise &, |, ^ and ~ on int (the reference's addition to §8.3 after
// edition 0.44).
int a = 12
int b = 10
log(a & b)
log(a | b)
log(a ^ b)
log(~0)
log(~5)
log(~(0 - 1))
log(~a & 0xF)
// A null operand reads 0, as in the other int arithmetic.
int n = null
log(n | 3)
