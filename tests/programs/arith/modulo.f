// §8.3 % on ints yields int; on floats (or mixed) it yields float
log(17 % 5)
log(20 % 5)
log(3 % 7)
log(7.5 % 2)
log(10 % 2.5)
log(typeof (7.5 % 2))
