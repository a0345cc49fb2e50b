// §8.4 s[i] is null when i is negative or past the end; log of a null text prints an empty line
text s = 'abc'
log(s[5])
log(s[-1])
log(s[3] == null)
log(s[2] == null)
log(s[-1] == null)
log('end')
