// §8.5 ascii is shared on assignment but immutable: rebinding one name leaves the other
ascii a = 'one'
ascii b = a
ascii suffix = '!'
a = a + suffix
log(a)
log(b)
