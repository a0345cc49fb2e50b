// §9.7 + on two text operands concatenates into a fresh value
text a = 'Fest'
text b = 'ina'
text c = a + b
log(c)
log(a + ' ' + b)
log('' + a)
log(c + '!' + '?')
log(a)
