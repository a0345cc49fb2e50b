// §10.5 while evaluates its condition before each iteration
int i = 0
while i < 3 {
    log(i)
    i = i + 1
}
while i < 0 {
    log('never')
}
while (i > 0) {
    i = i - 1
}
log(i)
