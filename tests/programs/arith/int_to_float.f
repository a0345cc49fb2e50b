// §8.3 int.toFloat() is the explicit conversion to float
int n = 7
float f = n.toFloat()
log(f)
log(f / 2)
log(n.toFloat() + 0.5)
log(typeof n.toFloat())
