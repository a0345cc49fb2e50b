// §7.5.1 a literal with a fractional part is a float
log(3.25)
log(0.5)
log(10.0)
log(0.125)
log(1234.5678)
log(typeof 10.0)
