int a = 1
log(a)
// c
