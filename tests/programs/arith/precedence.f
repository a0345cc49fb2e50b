// §9.13 * / % bind tighter than + -; both levels are left-associative
log(2 + 3 * 4)
log((2 + 3) * 4)
log(10 - 4 - 3)
log(2 * 3 % 4)
log(7 % 3 * 2)
log(100 % 7 % 3)
log(2 + 3 * 4 - 6 / 4)
log(-2 * 3)
