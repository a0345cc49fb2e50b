// expect: 4:9 unknown name 'y'
// §9.1.1 an unknown name
int x = 1
log(x + y)
