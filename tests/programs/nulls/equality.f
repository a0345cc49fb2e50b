// §8.2 a null int or bool equals null; a null float is NaN and equals nothing
int zero = 0
int n = null
float f = 1 / zero
float g = null
log(n == null)
log(n != null)
log(f == null)
log(f != null)
log(g == null)
log(g != null)
int m = 3
log(m == null)
log(m != null)
