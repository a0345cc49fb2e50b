// §8.3 + - * % on two ints yield int
log(7 + 3)
log(7 - 10)
log(6 * 7)
log(17 % 5)
log(-3 * -3)
log(-(4 - 10))
log(typeof (6 * 7))
