// §7.5.1 integer literals; a negative number is unary minus applied to a literal
log(0)
log(42)
log(-17)
log(9223372036854775807)
log(-9223372036854775807 - 1)
log(typeof 42)
