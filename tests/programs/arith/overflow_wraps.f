// §8.3 integer overflow wraps (64-bit two's complement)
int max = 9223372036854775807
int min = -9223372036854775807 - 1
log(max + 1)
log(min - 1)
log(max * 2)
log(max * max)
log(4611686018427387904 * 2)
log(-min)
int m = max
m++
log(m == min)
