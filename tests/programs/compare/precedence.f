// §9.13 relational operators bind tighter than equality, which binds tighter than &&
log(1 < 2 == true)
log(1 + 1 == 2)
log(2 * 3 > 5 == 4 > 3)
log(1 < 2 && 2 < 3)
