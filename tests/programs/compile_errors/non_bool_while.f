// expect: 4:7 condition must be bool, not text
// §10.5 a while condition must be bool
text s = 'x'
while s {
    log(s)
}
