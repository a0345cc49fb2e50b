// §8.3 `/` always yields float, even for two ints
log(7 / 2)
log(6 / 3)
log(typeof (6 / 3))
log(1 / 3)
log(10 / 4 * 2)
float half = 1 / 2
log(half)
