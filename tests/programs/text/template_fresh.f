// §7.5.3 a template always produces a fresh text value
text a = 'x'
text b = `${a}`
a = a + 'y'
log(a)
log(b)
text s = ''
for int i = 0, i < 3, i++ {
    s = `${s}${i}`
}
log(s)
