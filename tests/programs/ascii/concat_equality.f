// §8.5 + concatenates two ascii values; == and != compare content
ascii a = 'hello'
ascii b = ' world'
ascii c = 'hello'
ascii both = a + b
log(both)
log(both.length)
log(a == c)
log(a != b)
log(typeof both)
