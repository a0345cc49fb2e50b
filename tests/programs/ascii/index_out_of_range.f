// §8.5 s[i] on ascii is null out of range
ascii a = 'abc'
log(a[2])
log(a[3] == null)
log(a[-1] == null)
log(a[0] == null)
